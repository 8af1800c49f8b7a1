/**
 * @module The thin OpenCode plugin: forwards OpenCode's plugin hooks to `shepherd serve` and applies its decisions.
 *
 * All rule logic lives in the binary; this file only translates (the shapes are in translate.ts):
 * `tool.execute.before` -> tool_call (block: throw, OpenCode then runs nothing; rewrite: `output.args` mutated
 * in place), `tool.execute.after` -> tool_result (redaction and notes in the output the model reads),
 * `chat.message` -> input, `experimental.text.complete` -> message_end, `experimental.chat.system.transform`
 * -> before_provider_request (steers and hints ride in the system prompt of the next model call),
 * `session.idle` -> agent_end (wrap-up reminders sent as one follow-up prompt).
 * OpenCode (Bun) loads it as TypeScript with no build step, so it imports node built-ins and its siblings only.
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type ExtensionSettings, loadSettings } from "../pi-extension/settings.ts";
import { SidecarClient, SidecarRpcError, SidecarUnavailableError } from "../pi-extension/sidecar-client.ts";
import { markChildren, startedAsSubagent, SUBAGENT_ENV } from "../pi-extension/subagent.ts";
import { type Decision, type HookEvent, type HookName, isRecord, parseDecision } from "../pi-extension/wire.ts";
import {
  applyResult,
  argsOf,
  type CallVerdict,
  callVerdict,
  eventSession,
  failureVerdict,
  LABEL,
  promptOf,
  reminderText,
  replaceInPlace,
  sessionRef,
  toolCallFields,
  toolResultFields,
  withheldResult,
} from "./translate.ts";

export const PLUGIN_VERSION = "0.1.0";

type Outcome = { ok: true; decision: Decision } | { ok: false; error: string };

interface SessionState {
  subagent: boolean;
  /** Steers for the model's next call, delivered once through the system prompt. */
  steer: string[];
  /** Steers from a final assistant message: OpenCode has decided to stop, so they ride with the wrap-up. */
  final: string[];
  /** A wrap-up follow-up this plugin sent: its own idle must not start another. */
  wrapUpSent: boolean;
}

/**
 * The plugin factory OpenCode calls once per project instance. It starts nothing: the sidecar is spawned
 * when the first session appears (or the first hook needs it) and serves every session of this OpenCode.
 */
export default async function shepherdOpenCode(input: unknown): Promise<Record<string, unknown>> {
  const nested = startedAsSubagent();
  markChildren();
  const pluginInput = isRecord(input) ? input : {};
  const cwd = typeof pluginInput.directory === "string" ? pluginInput.directory : process.cwd();
  const sdk = pluginInput.client;
  let client: SidecarClient | undefined;
  let settings: ExtensionSettings | undefined;
  let shuttingDown = false;
  const sessions = new Map<string, SessionState>();
  const callNotes = new Map<string, string[]>();

  function debug(text: string): void {
    if (process.env.SHEPHERD_OPENCODE_DEBUG) process.stderr.write(`shepherd opencode: ${text}\n`);
  }

  function currentSettings(): ExtensionSettings {
    if (settings) return settings;
    settings = loadSettings(cwd, process.env, here());
    for (const issue of settings.issues) toast(`settings: ${issue}`, "warning");
    return settings;
  }

  function getClient(): SidecarClient {
    if (client) return client;
    const s = currentSettings();
    // The marker is for agents this OpenCode starts, not for its own sidecar.
    const env: Record<string, string | undefined> = { ...process.env };
    delete env[SUBAGENT_ENV];
    client = new SidecarClient({
      binary: s.binary,
      cwd,
      env,
      timeoutMs: s.timeoutMs,
      clientName: "shepherd-opencode",
      clientVersion: PLUGIN_VERSION,
      onLog: (line) => debug(`sidecar: ${line}`),
      onNotification: (method, params) => {
        // A rule file that fails to load is the person's to hear about, not the model's.
        if (method !== "notifications/message" || !isRecord(params)) return;
        const { level, data } = params;
        const text = typeof data === "string" ? data : isRecord(data) && typeof data.message === "string" ? data.message : JSON.stringify(data);
        if (level === "warning") toast(text, "warning");
        else if (level === "error" || level === "critical" || level === "alert" || level === "emergency") toast(text, "error");
        else debug(text);
      },
    });
    return client;
  }

  function state(id: string): SessionState {
    let s = sessions.get(id);
    if (!s) {
      s = { subagent: nested, steer: [], final: [], wrapUpSent: false };
      sessions.set(id, s);
    }
    return s;
  }

  async function evaluate(hook: HookName, sessionId: string, fields: Omit<HookEvent, "hook" | "session">): Promise<Outcome> {
    if (shuttingDown) return { ok: false, error: "Shepherd is shutting down" };
    const event: HookEvent = { hook, session: sessionRef(sessionId, cwd, state(sessionId).subagent), ...fields };
    try {
      const raw = await getClient().request("shepherd/evaluate", { event });
      const decision = parseDecision(raw);
      if (typeof decision === "string") throw new SidecarUnavailableError("protocol", `the sidecar sent a malformed decision: ${decision}`);
      return { ok: true, decision };
    } catch (error) {
      debug(`${hook} failed: ${describe(error)}`);
      return { ok: false, error: describe(error) };
    }
  }

  /** A person-facing line in OpenCode's TUI; in `opencode run` there is none, and the notes in tool output carry it. */
  function toast(message: string, variant: "info" | "warning" | "error"): void {
    void sdkCall(sdk, ["tui", "showToast"], { body: { title: "Shepherd", message: `${LABEL} ${message}`, variant } });
  }

  function notify(items: readonly string[]): void {
    for (const item of items) toast(item, "warning");
  }

  function applyCall(verdict: CallVerdict, args: Record<string, unknown>, sessionId: string, callId: string | undefined): void {
    if (verdict.kind === "block") {
      if (verdict.halt) haltSoon(sessionId);
      // OpenCode turns the thrown message into the tool's result: the command never runs.
      throw new Error(verdict.message);
    }
    if (verdict.kind === "rewrite") replaceInPlace(args, verdict.args);
    notify(verdict.notes);
    if (callId && verdict.notes.length > 0) callNotes.set(callId, [...(callNotes.get(callId) ?? []), ...verdict.notes]);
    state(sessionId).steer.push(...verdict.steer);
  }

  /** Stops the session's run after this call's error is recorded; awaiting it inside the hook would wait on ourselves. */
  function haltSoon(sessionId: string): void {
    setTimeout(() => void sdkCall(sdk, ["session", "abort"], { path: { id: sessionId } }), 0);
  }

  async function onSessionCreated(sessionId: string, parentId: string | undefined): Promise<void> {
    const s = state(sessionId);
    if (parentId) s.subagent = true;
    try {
      await getClient().start();
    } catch (error) {
      toast(`Shepherd is unavailable: ${describe(error)}`, "error");
      return;
    }
    const outcome = await evaluate("session_start", sessionId, {});
    if (!outcome.ok) return;
    notify(outcome.decision.notify);
    s.steer.push(...outcome.decision.notify, ...outcome.decision.steer);
  }

  async function onIdle(sessionId: string): Promise<void> {
    const s = state(sessionId);
    if (s.wrapUpSent) {
      s.wrapUpSent = false;
      s.final = [];
      return;
    }
    const outcome = await evaluate("agent_end", sessionId, {});
    const items = [...s.final];
    s.final = [];
    if (outcome.ok) {
      notify(outcome.decision.notify);
      items.push(...outcome.decision.notify, ...outcome.decision.steer);
    }
    const unique = [...new Set(items)];
    if (unique.length === 0) return;
    s.wrapUpSent = true;
    // Not awaited: the follow-up is a whole agent turn, and OpenCode delivers the next events meanwhile.
    const request = { path: { id: sessionId }, body: { parts: [{ type: "text", text: reminderText(unique) }] } };
    const sent = sdkHas(sdk, ["session", "promptAsync"]) ? sdkCall(sdk, ["session", "promptAsync"], request) : sdkCall(sdk, ["session", "prompt"], request);
    void sent.then((ok) => {
      if (!ok) s.wrapUpSent = false;
    });
  }

  async function shutdown(): Promise<void> {
    if (shuttingDown) return;
    const sidecar = client;
    if (sidecar) {
      sidecar.stopRestarts();
      for (const id of sessions.keys()) await evaluate("session_shutdown", id, {});
    }
    shuttingDown = true;
    await sidecar?.shutdown();
  }

  return {
    event: async ({ event }: { event: unknown }) => {
      const { type, sessionId, parentId } = eventSession(event);
      if (type === "server.instance.disposed" || type === "global.disposed") return await shutdown();
      if (!sessionId) return;
      if (type === "session.created") return await onSessionCreated(sessionId, parentId);
      if (type === "session.idle") return await onIdle(sessionId);
      if (type === "session.deleted") sessions.delete(sessionId);
    },

    "chat.message": async (hookInput: unknown, output: unknown) => {
      const sessionId = isRecord(hookInput) && typeof hookInput.sessionID === "string" ? hookInput.sessionID : undefined;
      if (!sessionId || !isRecord(output)) return;
      const prompt = promptOf(output.parts);
      // A new prompt from the person: the next idle may wrap up again (the follow-up's own text starts with the label).
      if (!prompt.startsWith(LABEL)) state(sessionId).wrapUpSent = false;
      if (prompt === "") return;
      const outcome = await evaluate("input", sessionId, { prompt });
      if (!outcome.ok) return;
      notify(outcome.decision.notify);
      state(sessionId).steer.push(...outcome.decision.notify, ...outcome.decision.steer);
    },

    "tool.execute.before": async (hookInput: unknown, output: unknown) => {
      if (!isRecord(hookInput) || typeof hookInput.tool !== "string" || typeof hookInput.sessionID !== "string") {
        throw new Error(`${LABEL} this tool call came without a tool name or session, so Shepherd cannot check it: blocked.`);
      }
      const sessionId = hookInput.sessionID;
      const callId = typeof hookInput.callID === "string" ? hookInput.callID : undefined;
      if (!isRecord(output)) throw new Error(`${LABEL} this tool call came without arguments Shepherd can read: blocked.`);
      if (!isRecord(output.args)) output.args = argsOf(output.args);
      const args = output.args as Record<string, unknown>;
      const outcome = await evaluate("tool_call", sessionId, toolCallFields(hookInput.tool, callId, { ...args }));
      const verdict = outcome.ok ? callVerdict(outcome.decision) : failureVerdict(currentSettings().failMode, outcome.error);
      applyCall(verdict, args, sessionId, callId);
    },

    "tool.execute.after": async (hookInput: unknown, output: unknown) => {
      if (!isRecord(hookInput) || typeof hookInput.tool !== "string" || typeof hookInput.sessionID !== "string") return;
      const sessionId = hookInput.sessionID;
      const callId = typeof hookInput.callID === "string" ? hookInput.callID : undefined;
      const notes = callId ? (callNotes.get(callId) ?? []) : [];
      if (callId) callNotes.delete(callId);
      const outcome = await evaluate("tool_result", sessionId, toolResultFields(hookInput.tool, callId, argsOf(hookInput.args), output));
      if (!outcome.ok) {
        if (currentSettings().failMode === "open") applyResult(output, undefined, [...notes, `Shepherd is unavailable (${outcome.error}); this result was not checked.`]);
        else withheldResult(output, outcome.error);
        return;
      }
      notify(outcome.decision.notify);
      applyResult(output, outcome.decision, notes);
      state(sessionId).steer.push(...outcome.decision.steer);
    },

    "experimental.text.complete": async (hookInput: unknown, output: unknown) => {
      if (!isRecord(hookInput) || typeof hookInput.sessionID !== "string" || !isRecord(output) || typeof output.text !== "string") return;
      const text = output.text.trim();
      if (text === "") return;
      const outcome = await evaluate("message_end", hookInput.sessionID, { message: { text } });
      if (!outcome.ok) return;
      if (outcome.decision.result) output.text = outcome.decision.result.text;
      notify(outcome.decision.notify);
      // Whether more model calls follow is not known yet: the steer waits for the next call or the wrap-up.
      state(hookInput.sessionID).final.push(...outcome.decision.notify, ...outcome.decision.steer);
    },

    "experimental.chat.system.transform": async (hookInput: unknown, output: unknown) => {
      // Side calls (titles, summaries) come without a session: nothing to steer there.
      if (!isRecord(hookInput) || typeof hookInput.sessionID !== "string" || !isRecord(output) || !Array.isArray(output.system)) return;
      const s = state(hookInput.sessionID);
      const items = [...s.steer, ...s.final];
      s.steer = [];
      s.final = [];
      const outcome = await evaluate("before_provider_request", hookInput.sessionID, {});
      if (outcome.ok) items.push(...outcome.decision.notify, ...outcome.decision.steer);
      const unique = [...new Set(items)];
      if (unique.length > 0) output.system.push(reminderText(unique));
    },
  };
}

function here(): string {
  return dirname(fileURLToPath(import.meta.url));
}

function describe(error: unknown): string {
  if (error instanceof SidecarRpcError) return `sidecar error ${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Calls a method of OpenCode's SDK client by path (`session.promptAsync`), if this OpenCode has it; true when it
 * answered without an error. The client's types are OpenCode's, not ours: it is reached structurally.
 */
async function sdkCall(sdk: unknown, path: readonly string[], arg: unknown): Promise<boolean> {
  const found = sdkMethod(sdk, path);
  if (!found) return false;
  try {
    const result: unknown = await Reflect.apply(found.method, found.owner, [arg]);
    return !(isRecord(result) && result.error !== undefined);
  } catch {
    return false;
  }
}

function sdkHas(sdk: unknown, path: readonly string[]): boolean {
  return sdkMethod(sdk, path) !== undefined;
}

function sdkMethod(sdk: unknown, path: readonly string[]): { owner: object; method: (...args: unknown[]) => unknown } | undefined {
  let owner: unknown;
  let target: unknown = sdk;
  for (const key of path) {
    if (typeof target !== "object" || target === null) return undefined;
    owner = target;
    target = Reflect.get(target, key);
  }
  if (typeof target !== "function" || typeof owner !== "object" || owner === null) return undefined;
  return { owner, method: target as (...args: unknown[]) => unknown };
}
