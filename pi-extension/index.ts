/**
 * @module The thin pi extension: forwards pi's hooks to `shepherd serve` and applies its decisions.
 *
 * All rule logic lives in the binary. This file only translates: pi event -> HookEvent,
 * Decision -> block / rewrite / confirm / tool-result text / steer and follow-up messages.
 * pi loads it as TypeScript with no build step, so it imports nothing but node built-ins, typebox
 * (which both pi lines alias for their extensions) and pi's types. One file serves pi 0.73
 * (`@mariozechner/...`) and pi 1.x (`@earendil-works/...`): the import below is type-only, erased
 * before pi's loader sees it (0.73's loader knows only the old scope), and what differs between
 * the lines is detected at run time (see `onOptional` and the `Reflect.get`s).
 */
import type {
  AgentEndEvent,
  ContextEvent,
  ExtensionAPI,
  ExtensionContext,
  InputEvent,
  ToolCallEvent,
  ToolResultEvent,
} from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { loadSettings, type ExtensionSettings } from "./settings.ts";
import { redactedMessage, redactedToolResult, structuredOf, withStructured } from "./redact-result.ts";
import { SidecarClient, SidecarRpcError, SidecarUnavailableError } from "./sidecar-client.ts";
import { markChildren, startedAsSubagent, SUBAGENT_ENV } from "./subagent.ts";
import {
  CONSENT_META_KEY,
  type Decision,
  formatStatus,
  type HookEvent,
  type HookName,
  isRecord,
  parseAnnotations,
  parseDecision,
  parseToolCallResult,
  type SessionRef,
  type ToolAnnotations,
} from "./wire.ts";

export const EXTENSION_VERSION = "0.1.0";
const MESSAGE_TYPE = "shepherd";
const HINT_TYPE = "shepherd-hint";
const LABEL = "[Shepherd]";

interface Counters {
  evaluations: number;
  blocked: number;
  rewritten: number;
  asked: number;
  notified: number;
  steered: number;
  failures: number;
  wrapUps: number;
}

type Outcome = { ok: true; decision: Decision } | { ok: false; error: string };

export default function shepherd(pi: ExtensionAPI): void {
  // Read before anything sets it: this pi's own children inherit the marker, not this pi.
  const subagent = startedAsSubagent();

  let client: SidecarClient | undefined;
  let settings: ExtensionSettings | undefined;
  let session: SessionRef | undefined;
  let lastCtx: ExtensionContext | undefined;
  let shuttingDown = false;
  const counters: Counters = { evaluations: 0, blocked: 0, rewritten: 0, asked: 0, notified: 0, steered: 0, failures: 0, wrapUps: 0 };

  // One wrap-up follow-up per user prompt: the follow-up's own agent_end must not start another.
  let promptSeq = 0;
  let wrapUpSeq = -1;
  // Steers from a final assistant message arrive after pi has decided to stop; they ride along
  // with the agent_end follow-up instead of waiting in a queue nobody drains.
  let pendingFinal: string[] = [];
  // A run whose agent_end this extension has not handled yet (pi -p may shut down before it).
  let runActive = false;
  let followUpRunning = false;
  let agentEndSignal = newSignal();
  const callNotes = new Map<string, string[]>();
  const pendingHints = new Set<Promise<unknown>>();
  // pi 1.x: the stop reason of the prompt's last low-level run, judged once the prompt settles.
  let lastRunStop: string | undefined;
  /** Hooks this pi does not have (see `onOptional` and `hook`), one notice line each, once per session. */
  const missingHooks: { name: string; consequence: string }[] = [];
  let missingAnnounced = false;

  function announceMissingHooks(ctx: ExtensionContext | undefined): void {
    if (missingAnnounced) return;
    missingAnnounced = true;
    // Hooks missing for the same reason share one line.
    const byConsequence = new Map<string, string[]>();
    for (const { name, consequence } of missingHooks) byConsequence.set(consequence, [...(byConsequence.get(consequence) ?? []), name]);
    for (const [consequence, names] of byConsequence) say(`${LABEL} this pi has no ${names.join("/")} hook: ${consequence}`, "info", ctx);
  }

  function warn(text: string, ctx: ExtensionContext | undefined = lastCtx): void {
    say(`${LABEL} ${text}`, "warning", ctx);
  }

  function say(text: string, level: "info" | "warning" | "error", ctx: ExtensionContext | undefined = lastCtx): void {
    try {
      if (ctx?.hasUI) {
        ctx.ui.notify(text, level);
        return;
      }
    } catch {
      // A context from a replaced session throws; stderr still reaches the person.
    }
    // Without a UI (pi -p, --mode json) stdout belongs to pi; stderr is where a person looks.
    process.stderr.write(`${text}\n`);
  }

  function getClient(ctx: ExtensionContext): SidecarClient {
    if (client) return client;
    settings = loadSettings(ctx.cwd, process.env);
    for (const issue of settings.issues) warn(`settings: ${issue}`, ctx);
    const env: Record<string, string | undefined> = { ...process.env };
    delete env[SUBAGENT_ENV];
    client = new SidecarClient({
      binary: settings.binary,
      cwd: ctx.cwd,
      env,
      timeoutMs: settings.timeoutMs,
      clientVersion: EXTENSION_VERSION,
      onNotification: (method, params) => onServerNotification(method, params),
      onLog: (line) => {
        if (process.env.SHEPHERD_PI_DEBUG) process.stderr.write(`shepherd sidecar: ${line}\n`);
      },
    });
    return client;
  }

  function onServerNotification(method: string, params: unknown): void {
    if (method !== "notifications/message" || !isRecord(params)) return;
    const level = params.level;
    const data = params.data;
    const text = typeof data === "string" ? data : isRecord(data) && typeof data.message === "string" ? data.message : JSON.stringify(data);
    if (level === "error" || level === "critical" || level === "alert" || level === "emergency") say(`${LABEL} ${text}`, "error");
    else if (level === "warning") say(`${LABEL} ${text}`, "warning");
    else if (process.env.SHEPHERD_PI_DEBUG) say(`${LABEL} ${text}`, "info");
  }

  function sessionRef(ctx: ExtensionContext): SessionRef {
    if (session) return session;
    session = { id: ctx.sessionManager.getSessionId(), cwd: ctx.cwd, agent: "pi" };
    if (subagent) session.subagent = true;
    return session;
  }

  async function evaluate(hook: HookName, ctx: ExtensionContext, fields: Omit<HookEvent, "hook" | "session">): Promise<Outcome> {
    lastCtx = ctx;
    if (shuttingDown && !client) return { ok: false, error: "Shepherd is shutting down" };
    const event: HookEvent = { hook, session: sessionRef(ctx), ...fields };
    counters.evaluations += 1;
    try {
      const raw = await getClient(ctx).request("shepherd/evaluate", { event });
      const decision = parseDecision(raw);
      if (typeof decision === "string") throw new SidecarUnavailableError("protocol", `the sidecar sent a malformed decision: ${decision}`);
      return { ok: true, decision };
    } catch (error) {
      counters.failures += 1;
      return { ok: false, error: describe(error) };
    }
  }

  function modelText(items: string[]): string {
    return items.map((item) => `${LABEL} ${item}`).join("\n");
  }

  function showNotify(items: string[], ctx: ExtensionContext): void {
    for (const item of items) say(`${LABEL} ${item}`, "warning", ctx);
  }

  function steer(items: string[], deliverAs: "steer" | "followUp" | "nextTurn"): void {
    if (items.length === 0) return;
    counters.steered += items.length;
    send(modelText(items), false, { deliverAs });
  }

  function send(content: string, display: boolean, options: { deliverAs: "steer" | "followUp" | "nextTurn"; triggerTurn?: boolean }): boolean {
    try {
      pi.sendMessage({ customType: MESSAGE_TYPE, content, display }, options);
      return true;
    } catch (error) {
      // After shutdown (pi -p runs agent_end late) the session is gone; say it rather than throw.
      warn(`could not deliver to the model: ${describe(error)}`);
      return false;
    }
  }

  // ---- lifecycle -------------------------------------------------------------------------

  hook("session_start", () => pi.on("session_start", async (_event, ctx) => {
    lastCtx = ctx;
    markChildren();
    announceMissingHooks(ctx);
    const sidecar = getClient(ctx);
    try {
      await sidecar.start();
    } catch (error) {
      warn(`Shepherd is unavailable: ${describe(error)}`, ctx);
      return;
    }
    const outcome = await evaluate("session_start", ctx, {});
    if (!outcome.ok) return;
    showNotify(outcome.decision.notify, ctx);
    // Nothing is streaming yet: these travel with the first prompt.
    steer([...outcome.decision.notify, ...outcome.decision.steer], "nextTurn");
  }));

  hook("session_shutdown", () => pi.on("session_shutdown", async (_event, ctx) => {
    lastCtx = ctx;
    await drain(ctx);
    shuttingDown = true;
    const sidecar = client;
    if (!sidecar) return;
    if (!sidecar.closed) {
      sidecar.stopRestarts();
      const outcome = await evaluate("session_shutdown", ctx, {});
      if (outcome.ok) showNotify([...outcome.decision.notify, ...outcome.decision.steer], ctx);
    }
    await sidecar.shutdown();
  }));

  /**
   * In `pi -p`, pi shuts down as soon as the prompt resolves, while this extension's message_end
   * and agent_end handlers may still be queued: wait for them (bounded), and for a wrap-up
   * follow-up run this extension started, so the reminder is acted on before the sidecar ends.
   */
  async function drain(ctx: ExtensionContext): Promise<void> {
    const budget = Math.max(5000, 3 * (settings?.timeoutMs ?? 3000));
    const deadline = Date.now() + budget;
    while (runActive) {
      if (!followUpRunning) {
        if (!isIdle(ctx)) return; // a run this extension did not start: never hold pi hostage
        if (Date.now() > deadline) return;
      }
      await Promise.race([agentEndSignal.promise, sleep(100)]);
    }
  }

  // ---- input -----------------------------------------------------------------------------

  hook("input", () => pi.on("input", async (event: InputEvent, ctx) => {
    if (event.source !== "extension") promptSeq += 1;
    const outcome = await evaluate("input", ctx, { prompt: event.text });
    if (!outcome.ok) {
      runActive = true;
      return { action: "continue" };
    }
    const { decision } = outcome;
    if (decision.action === "block" || (decision.action === "ask" && !(await confirm(ctx, decision)))) {
      counters.blocked += 1;
      say(`${LABEL} prompt not sent: ${decision.reason ?? "blocked by a rule"}`, "warning", ctx);
      return { action: "handled" };
    }
    showNotify(decision.notify, ctx);
    steer([...decision.notify, ...decision.steer], "nextTurn");
    runActive = true;
    const rewritten = decision.action === "rewrite" ? promptFrom(decision.input) : undefined;
    if (rewritten !== undefined) {
      counters.rewritten += 1;
      return { action: "transform", text: rewritten };
    }
    return { action: "continue" };
  }));

  hook("agent_start", () => pi.on("agent_start", () => {
    runActive = true;
  }));

  // ---- tool_call -------------------------------------------------------------------------

  hook("tool_call", () => pi.on("tool_call", async (event: ToolCallEvent, ctx) => {
    const input = plainRecord(event.input);
    const outcome = await evaluate("tool_call", ctx, {
      tool: toolRef(event, input, annotationsOf(event.toolName)),
      availableTools: activeTools(),
    });
    if (!outcome.ok) {
      if ((settings?.failMode ?? "closed") === "open") {
        const note = `Shepherd is unavailable (${outcome.error}); this call was let through unchecked because failMode is "open".`;
        warn(note, ctx);
        addNote(event.toolCallId, note);
        return undefined;
      }
      counters.blocked += 1;
      if (settings?.failMode === "halt") {
        const note = `Shepherd is unavailable (${outcome.error}), so this call was blocked and the run stopped (failMode "halt").`;
        warn(note, ctx);
        return stopRun(ctx, `${LABEL} ${note} Do not retry; tell the user.`);
      }
      return {
        block: true,
        reason: `${LABEL} Shepherd is unavailable (${outcome.error}), so this call was blocked (failMode "closed"). Retry it; if it keeps failing, tell the user.`,
      };
    }
    const { decision } = outcome;
    if (decision.action === "block") {
      counters.blocked += 1;
      const reason = withNotes(decision.reason ?? "Blocked by a Shepherd rule.", decision.notify);
      return decision.terminate ? stopRun(ctx, reason) : { block: true, reason };
    }
    if (decision.action === "ask") {
      counters.asked += 1;
      if (!(await confirm(ctx, decision))) {
        counters.blocked += 1;
        const why = ctx.hasUI ? "the user declined it" : "no one can be asked in this mode";
        return { block: true, reason: withNotes(`${decision.reason ?? "This call needs the user's approval"} (${why}).`, decision.notify) };
      }
      if (decision.approvalToken !== undefined) await approve(ctx, decision.approvalToken);
    }
    if (decision.action === "rewrite" && decision.input) {
      counters.rewritten += 1;
      replaceInPlace(event.input, decision.input);
    }
    if (decision.notify.length > 0) {
      counters.notified += decision.notify.length;
      showNotify(decision.notify, ctx);
      for (const item of decision.notify) addNote(event.toolCallId, item);
    }
    steer(decision.steer, "steer");
    return undefined;
  }));

  /**
   * A block that also stops the agent. pi 1.x stops after the current batch when every blocked call in
   * it says `terminate`; pi 0.73 knows no such field, so there the run is aborted (the line is told
   * apart by its settle hooks, which came with `terminate`).
   */
  function stopRun(ctx: ExtensionContext, reason: string): BlockResult {
    if (!settleHooks) {
      try {
        ctx.abort();
      } catch {
        // A context from a replaced session: the block still holds.
      }
    }
    return { block: true, reason, terminate: true };
  }

  async function confirm(ctx: ExtensionContext, decision: Decision): Promise<boolean> {
    if (!ctx.hasUI) return false;
    try {
      return await ctx.ui.confirm("Shepherd", decision.reason ?? "Allow this?");
    } catch {
      return false;
    }
  }

  /**
   * The person said yes to an ask whose rule remembers: the sidecar keeps the approval. Only this dialog sends
   * `shepherd/approve` (it is no tool the model can call); a failure costs only a question next time.
   */
  async function approve(ctx: ExtensionContext, token: string): Promise<void> {
    try {
      await getClient(ctx).request("shepherd/approve", { token });
    } catch (error) {
      warn(`your approval could not be remembered (${describe(error)}); Shepherd will ask again next time`, ctx);
    }
  }

  function addNote(callId: string, note: string): void {
    const notes = callNotes.get(callId) ?? [];
    notes.push(note);
    callNotes.set(callId, notes);
  }

  /** pi 1.x lists each tool's `annotations` (from its author or MCP server); 0.73 has none. */
  function annotationsOf(toolName: string): ToolAnnotations | undefined {
    try {
      const info: unknown = pi.getAllTools().find((tool) => tool.name === toolName);
      return isRecord(info) ? parseAnnotations(info.annotations) : undefined;
    } catch {
      return undefined;
    }
  }

  function activeTools(): string[] | undefined {
    try {
      return pi.getActiveTools();
    } catch {
      return undefined;
    }
  }

  // ---- tool_result -----------------------------------------------------------------------

  hook("tool_result", () => pi.on("tool_result", async (event: ToolResultEvent, ctx) => {
    const notes = callNotes.get(event.toolCallId) ?? [];
    callNotes.delete(event.toolCallId);
    if (!event.isError && touchesRules(event.toolName, event.input)) await reloadRules(ctx);
    const text = event.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    const outcome = await evaluate("tool_result", ctx, {
      tool: toolRef(event, plainRecord(event.input), annotationsOf(event.toolName)),
      result: withStructured({ text, isError: event.isError }, structuredOf(event)),
      availableTools: activeTools(),
    });
    let redacted: ReturnType<typeof redactedToolResult> | undefined;
    if (outcome.ok) {
      redacted = redactedToolResult(event, outcome.decision);
      const { decision } = outcome;
      if (decision.notify.length > 0) {
        counters.notified += decision.notify.length;
        showNotify(decision.notify, ctx);
        notes.push(...decision.notify);
      }
      // The model reads the next steer right after this batch of results, before its next call.
      steer(decision.steer, "steer");
    }
    if (redacted) return notes.length === 0 ? redacted : { ...redacted, content: [...redacted.content, { type: "text", text: modelText(notes) }] };
    if (notes.length === 0) return undefined;
    return withStructuredContent(event, { content: [...event.content, { type: "text" as const, text: modelText(notes) }] });
  }));

  /**
   * The sidecar notices edited rule files through a file watcher, a few milliseconds late; the
   * agent's next call can come sooner. When the agent itself wrote a rule file, reload now so the
   * very next call is judged by it.
   */
  async function reloadRules(ctx: ExtensionContext): Promise<void> {
    try {
      await getClient(ctx).request("shepherd/reload", {});
    } catch (error) {
      warn(`could not reload the rules: ${describe(error)}`, ctx);
    }
  }

  // ---- message_end -----------------------------------------------------------------------

  hook("message_end", () => pi.on("message_end", async (event, ctx) => {
    const message = event.message;
    if (message.role !== "assistant") return undefined;
    const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("\n").trim();
    if (text === "") return undefined;
    const outcome = await evaluate("message_end", ctx, { message: { text } });
    if (!outcome.ok) return undefined;
    const replaced = redactedMessage(message, outcome.decision);
    const { notify, steer: steers } = outcome.decision;
    showNotify(notify, ctx);
    counters.notified += notify.length;
    const items = [...notify, ...steers];
    if (items.length === 0) return replaced;
    if (message.stopReason === "toolUse") {
      // pi waits for this handler before running the tools, so the steer is queued in time.
      steer(items, "steer");
    } else {
      pendingFinal.push(...items);
    }
    return replaced;
  }));

  // ---- agent_end, and pi 1.x's settle hooks ------------------------------------------------

  /**
   * pi 1.x fires agent_end once per low-level run (an automatic retry after a provider error is a
   * run of its own) and then agent_before_settle once the prompt is done; 0.73 has agent_end alone.
   * Where the settle hooks exist, the prompt is judged there, as a whole, exactly once.
   */
  const hasBeforeSettle = onOptional("agent_before_settle", (event, ctx) => (settleHooks ? beforeSettle(event, ctx) : undefined));
  const hasSettled = onOptional("agent_settled", () => (settleHooks ? settled() : undefined));
  // Both or neither: with one alone the prompt's end is not seen exactly once, so agent_end judges it.
  const settleHooks = hasBeforeSettle && hasSettled;

  hook("agent_end", () => pi.on("agent_end", async (event: AgentEndEvent, ctx) => {
    const stopReason = lastStopReason(event);
    if (settleHooks) {
      lastRunStop = stopReason;
      return;
    }
    try {
      // A provider error may be retried by pi within the same prompt: judging now would end the
      // prompt's wrap-up (and forget its edits) before the run that finishes it.
      if (stopReason === "error") return;
      const reminders = await wrapUpReminders(ctx, stopReason);
      const wasFollowUp = followUpRunning;
      followUpRunning = false;
      if (reminders.length === 0) return;
      if (!mayStartWrapUp(wasFollowUp, stopReason)) {
        steer(reminders, "nextTurn");
        return;
      }
      wrapUpSeq = promptSeq;
      counters.wrapUps += 1;
      counters.steered += reminders.length;
      followUpRunning = send(wrapUpText(reminders), true, { deliverAs: "followUp", triggerTurn: true });
    } finally {
      runEnded();
    }
  }));

  /** Steers held from final messages, plus what the sidecar's agent_end rules say now, once each. */
  async function wrapUpReminders(ctx: ExtensionContext, stopReason: string | undefined): Promise<string[]> {
    const reminders = [...pendingFinal];
    pendingFinal = [];
    const outcome = await evaluate("agent_end", ctx, stopReason === undefined ? {} : { stopReason });
    if (outcome.ok) {
      showNotify(outcome.decision.notify, ctx);
      counters.notified += outcome.decision.notify.length;
      reminders.push(...outcome.decision.notify, ...outcome.decision.steer);
    }
    return [...new Set(reminders)];
  }

  /**
   * Once per prompt (never a loop), and never restarting a run the user aborted or a provider that
   * failed: then the next prompt carries the reminder instead.
   */
  function mayStartWrapUp(wasFollowUp: boolean, stopReason: string | undefined): boolean {
    return !(wasFollowUp || wrapUpSeq === promptSeq || client?.closed || stopReason === "aborted" || stopReason === "error");
  }

  function wrapUpText(reminders: string[]): string {
    return `${modelText(reminders)}\nAct on this before you finish.`;
  }

  function runEnded(): void {
    runActive = followUpRunning;
    const signal = agentEndSignal;
    agentEndSignal = newSignal();
    signal.resolve();
  }

  async function beforeSettle(event: unknown, ctx: ExtensionContext): Promise<SettleResult | undefined> {
    const outcome = isRecord(event) ? event.outcome : undefined;
    const stopReason = outcome === "aborted" ? "aborted" : outcome === "error" ? "error" : lastRunStop;
    lastRunStop = undefined;
    const wasFollowUp = followUpRunning;
    followUpRunning = false;
    const reminders = await wrapUpReminders(ctx, stopReason);
    if (reminders.length === 0) return undefined;
    if (!mayStartWrapUp(wasFollowUp, stopReason)) {
      steer(reminders, "nextTurn");
      return undefined;
    }
    wrapUpSeq = promptSeq;
    counters.wrapUps += 1;
    counters.steered += reminders.length;
    followUpRunning = true;
    // The reminder joins the session and pi makes one more provider request for it, within this prompt.
    return { entries: [{ type: "custom_message", customType: MESSAGE_TYPE, content: wrapUpText(reminders), display: true }], continue: true };
  }

  function settled(): void {
    // An aborted prompt may settle without agent_before_settle: what it held goes with the next prompt.
    if (pendingFinal.length > 0) steer([...new Set(pendingFinal)], "nextTurn");
    pendingFinal = [];
    followUpRunning = false;
    runEnded();
  }

  /**
   * Registers a handler for a hook only some pi versions have; false when this pi lacks it. pi 1.x's
   * `on` returns an unsubscribe function; 0.73's returns nothing and would never fire the handler.
   */
  function onOptional(name: string, handler: (event: unknown, ctx: ExtensionContext) => unknown): boolean {
    let registered: unknown;
    try {
      registered = Reflect.apply(pi.on, pi, [name, handler]);
    } catch {
      registered = undefined;
    }
    if (typeof registered === "function") return true;
    missingHooks.push({ name, consequence: "wrap-ups are judged at each agent_end instead" });
    return false;
  }

  /** Registers a hook every pi line has so far; a pi that refuses one is named, never a crash. */
  function hook(name: string, register: () => unknown): void {
    try {
      register();
    } catch (error) {
      missingHooks.push({ name, consequence: `Shepherd cannot act on it (${describe(error)})` });
    }
  }

  // ---- context: ephemeral hints and before_provider_request steers ------------------------

  pi.events.on("ephemeral:hint", (data: unknown) => {
    const hint = parseHint(data);
    const ctx = lastCtx;
    if (!hint || !ctx || shuttingDown) return;
    const sent = getClient(ctx)
      .request("shepherd/hint", { session: { id: sessionRef(ctx).id }, ...hint })
      .catch((error: unknown) => warn(`could not relay a hint: ${describe(error)}`));
    pendingHints.add(sent);
    void sent.finally(() => pendingHints.delete(sent));
  });

  hook("context", () => pi.on("context", async (event: ContextEvent, ctx) => {
    // A hint emitted just before this LLM call must be registered before it is asked for.
    await Promise.all([...pendingHints]);
    const outcome = await evaluate("before_provider_request", ctx, {});
    if (!outcome.ok) return undefined;
    const items = [...outcome.decision.notify, ...outcome.decision.steer];
    if (items.length === 0) return undefined;
    // Returned from `context`, the hint reaches this one request and is never stored in the session.
    const hint = { role: "custom" as const, customType: HINT_TYPE, content: modelText(items), display: false, timestamp: Date.now() };
    return { messages: [...event.messages, hint] };
  }));

  // ---- the shepherd_rules tool and /shepherd ---------------------------------------------

  pi.registerTool({
    name: "shepherd_rules",
    label: "Shepherd rules",
    description:
      "List, add, remove, enable or disable Shepherd guard rules. list (optionally by scope) shows each rule with its source; " +
      "add takes a rule object; remove/enable/disable take a rule name. Writes go to the global rules file unless scope is project (this session's project). " +
      "On its own a call may only add a block or ask rule (on tool_call or input, not locked, under a new name) and remove, enable or disable rules this tool added; " +
      "anything else (steer, notify, rewrite or plugin rules, changing or disabling built-in, global or project rules, locked) is put to the user for confirmation, and refused when there is no UI. Locked rules cannot be changed.",
    promptSnippet: "Inspect or change the Shepherd guard rules (list, add, remove, enable, disable)",
    parameters: Type.Object(
      {
        action: Type.Unsafe<"list" | "add" | "remove" | "enable" | "disable">({
          type: "string",
          enum: ["list", "add", "remove", "enable", "disable"],
        }),
        scope: Type.Optional(Type.Unsafe<"global" | "project">({ type: "string", enum: ["global", "project"] })),
        rule: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "the rule to add (action add)" })),
        name: Type.Optional(Type.String({ description: "the rule name (remove, enable, disable)" })),
      },
      { additionalProperties: false },
    ),
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      // The arguments are the model's, passed on as they are: the sidecar refuses any key it does not
      // know, so nothing in them can stand for a person's consent.
      const call = async (consent?: string) => {
        let raw: unknown;
        try {
          const request: Record<string, unknown> = { name: "shepherd_rules", arguments: params };
          if (consent !== undefined) request._meta = { [CONSENT_META_KEY]: consent };
          raw = await getClient(ctx).request("tools/call", request);
        } catch (error) {
          throw new Error(`Shepherd is unavailable: ${describe(error)}`);
        }
        const result = parseToolCallResult(raw);
        if (typeof result === "string") throw new Error(`Shepherd sent a malformed answer: ${result}`);
        return result;
      };
      let result = await call();
      if (result.isError && result.consent && ctx.hasUI) {
        // The person confirms the very change the sidecar described; the digest it sent back stands for
        // that change alone, so a yes cannot be spent on anything else.
        if (!(await askConsent(ctx, result.consent.summary))) {
          throw new Error(`${LABEL} the user declined this rule change; nothing was written. Do not retry it unless the user asks.`);
        }
        result = await call(result.consent.digest);
      }
      // pi marks a tool result as an error only when execute throws.
      if (result.isError) throw new Error(result.text);
      return { content: [{ type: "text", text: result.text }], details: {} };
    },
  });

  async function askConsent(ctx: ExtensionContext, summary: string): Promise<boolean> {
    try {
      return await ctx.ui.confirm("Shepherd: allow this rule change?", summary);
    } catch {
      return false;
    }
  }

  pi.registerCommand("shepherd", {
    description: "Shepherd status (binary, version, rules per source, load errors, counters); `/shepherd reload` reloads the rules",
    getArgumentCompletions: (prefix: string) => {
      const items = ["status", "reload"].filter((item) => item.startsWith(prefix)).map((item) => ({ value: item, label: item }));
      return items.length > 0 ? items : null;
    },
    handler: async (args, ctx) => {
      lastCtx = ctx;
      const sub = args.trim() || "status";
      if (sub !== "status" && sub !== "reload") {
        say(`${LABEL} usage: /shepherd [status|reload]`, "warning", ctx);
        return;
      }
      say(await statusText(ctx, sub), "info", ctx);
    },
  });

  // Without session_start there is no later moment to say it.
  if (missingHooks.some((missing) => missing.name === "session_start")) announceMissingHooks(undefined);

  async function statusText(ctx: ExtensionContext, sub: "status" | "reload"): Promise<string> {
    const sidecar = getClient(ctx);
    const local: Record<string, string> = {
      extension: `shepherd-pi ${EXTENSION_VERSION}`,
      binary: `${sidecar.options.binary} (from ${settings?.binarySource ?? "default"})`,
      failMode: settings?.failMode ?? "closed",
      timeoutMs: String(settings?.timeoutMs ?? ""),
      subagent: String(subagent),
      trust: trustText(ctx),
      sidecar: sidecar.pid ? `pid ${sidecar.pid}, restarts ${Math.max(0, sidecar.starts - 1)}` : "not running",
      "extension counters": Object.entries(counters).map(([key, value]) => `${key}=${value}`).join(" "),
    };
    try {
      const params = sub === "reload" ? {} : { session: { id: sessionRef(ctx).id } };
      const status = await sidecar.request(sub === "reload" ? "shepherd/reload" : "shepherd/status", params);
      return `${LABEL} ${sub === "reload" ? "rules reloaded" : "status"}\n${formatStatus(status, local)}`;
    } catch (error) {
      return `${LABEL} status\n${formatStatus(undefined, local)}\nsidecar status unavailable: ${describe(error)}`;
    }
  }
}

// ---- helpers ---------------------------------------------------------------------------

/**
 * Shepherd's trust and pi 1.x's, side by side: they are separate decisions (Shepherd's lets a project
 * rewrite commands, override rules and run plugins), and a project pi trusts is not trusted by Shepherd.
 */
function trustText(ctx: ExtensionContext): string {
  const shepherdTrusts = loadSettings(ctx.cwd, process.env).trusted;
  const piTrusts = piProjectTrust(ctx);
  const pi = piTrusts === undefined ? "not reported by this pi" : piTrusts ? "trusted" : "not trusted";
  const line = `shepherd ${shepherdTrusts ? "trusted" : "not trusted"}, pi ${pi}`;
  if (piTrusts === true && !shepherdTrusts) return `${line} (to trust it in Shepherd too: shepherd trust ${ctx.cwd})`;
  return line;
}

/** pi 1.x's `ctx.isProjectTrusted()`; undefined where pi has no project trust (0.73) or cannot say. */
function piProjectTrust(ctx: ExtensionContext): boolean | undefined {
  const probe: unknown = Reflect.get(ctx, "isProjectTrusted");
  if (typeof probe !== "function") return undefined;
  try {
    const answer: unknown = Reflect.apply(probe, ctx, []);
    return typeof answer === "boolean" ? answer : undefined;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (error instanceof SidecarRpcError) return `sidecar error ${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The HookEvent's tool: pi 1.x adds `parentToolCallId` to calls a codemode script or MCP tool made. */
function toolRef(event: { toolName: string; toolCallId: string }, input: Record<string, unknown>, annotations: ToolAnnotations | undefined): NonNullable<HookEvent["tool"]> {
  const tool: NonNullable<HookEvent["tool"]> = { name: event.toolName, callId: event.toolCallId, input };
  if (annotations) tool.annotations = annotations;
  const parent: unknown = Reflect.get(event, "parentToolCallId");
  if (typeof parent === "string" && parent !== "") tool.parentCallId = parent;
  return tool;
}

function plainRecord(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value));
}

/** pi runs what `event.input` holds after the handlers, so the object itself must change. */
function replaceInPlace(target: object, next: Record<string, unknown>): void {
  for (const key of Object.keys(target)) if (!(key in next)) Reflect.deleteProperty(target, key);
  for (const [key, value] of Object.entries(next)) Reflect.set(target, key, value);
}

const RULE_FILE = /(^|[\\/])(shepherd-rules[^\\/]*|settings)\.json$/;

/** Whether a finished tool call may have changed Shepherd's rules or settings. */
function touchesRules(toolName: string, input: Record<string, unknown>): boolean {
  if (toolName === "write" || toolName === "edit") {
    const path = input.path ?? input.file_path;
    return typeof path === "string" && RULE_FILE.test(path);
  }
  if (toolName === "bash") {
    const command = input.command;
    return typeof command === "string" && command.includes("shepherd-rules");
  }
  return false;
}

/** A tool_call handler's block; `terminate` is read by pi 1.x and ignored by 0.73. */
interface BlockResult {
  block: true;
  reason: string;
  terminate?: boolean;
}

/** What an agent_before_settle handler may return (pi 1.x): entries to append, and one more request. */
interface SettleResult {
  entries: { type: "custom_message"; customType: string; content: string; display: boolean }[];
  continue: boolean;
}

/**
 * pi 1.x drops a result's `structuredContent` when a handler replaces only `content` (codemode's
 * `tools.bash()` would then get a string instead of `{output, exit_code, ...}`): hand it back as it came.
 */
function withStructuredContent<T extends object>(event: object, patch: T): T {
  const structured: unknown = Reflect.get(event, "structuredContent");
  if (structured !== undefined) Reflect.set(patch, "structuredContent", structured);
  return patch;
}

function withNotes(reason: string, notes: string[]): string {
  return notes.length === 0 ? reason : `${reason}\n${notes.map((note) => `${LABEL} ${note}`).join("\n")}`;
}

function promptFrom(input: Record<string, unknown> | undefined): string | undefined {
  if (!input) return undefined;
  for (const key of ["prompt", "text"]) {
    const value = input[key];
    if (typeof value === "string") return value;
  }
  return undefined;
}

function lastStopReason(event: AgentEndEvent): string | undefined {
  for (let i = event.messages.length - 1; i >= 0; i--) {
    const message = event.messages[i];
    if (message && message.role === "assistant") return message.stopReason;
  }
  return undefined;
}

function parseHint(data: unknown): { text: string; source?: string } | undefined {
  if (typeof data === "string") return data.trim() === "" ? undefined : { text: data };
  if (!isRecord(data) || typeof data.text !== "string" || data.text.trim() === "") return undefined;
  return typeof data.source === "string" ? { text: data.text, source: data.source } : { text: data.text };
}

function isIdle(ctx: ExtensionContext): boolean {
  try {
    return ctx.isIdle();
  } catch {
    return true;
  }
}

interface Signal {
  promise: Promise<void>;
  resolve: () => void;
}

function newSignal(): Signal {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
