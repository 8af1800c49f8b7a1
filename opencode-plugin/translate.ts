/**
 * @module OpenCode's plugin shapes <-> Shepherd's wire (DESIGN section 2), as pure functions: a tool call or
 * result, a prompt, a session's info in; what to do with a Decision out.
 *
 * OpenCode's tool names (bash, edit, write, read, apply_patch, glob, grep, list, webfetch ...) travel as
 * OpenCode sends them: the engine maps them onto its vocabulary in its one table (lib/engine/tools.ts).
 * Nothing here is trusted: every field OpenCode hands over is checked before use.
 */
import type { FailMode } from "../pi-extension/settings.ts";
import { type Decision, type HookEvent, isRecord, type SessionRef } from "../pi-extension/wire.ts";

export const LABEL = "[Shepherd]";

/** What the plugin does with a `tool.execute.before` call. */
export type CallVerdict =
  | { kind: "allow"; notes: string[]; steer: string[] }
  | { kind: "rewrite"; args: Record<string, unknown>; notes: string[]; steer: string[] }
  /** Thrown as an Error: OpenCode then runs nothing and hands the message to the model as the tool's result. */
  | { kind: "block"; message: string; halt: boolean };

/** The session reference Shepherd keys its counters on; a child session (the `task` tool's) is a sub-agent. */
export function sessionRef(id: string, cwd: string, subagent: boolean): SessionRef {
  const ref: SessionRef = { id, cwd, agent: "opencode" };
  if (subagent) ref.subagent = true;
  return ref;
}

/** A plain copy of the call's arguments: OpenCode's `output.args` is whatever the model produced. */
export function argsOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? { ...value } : {};
}

/** The fields of a tool_call event beyond its hook and session. */
export function toolCallFields(tool: string, callId: string | undefined, args: Record<string, unknown>): Pick<HookEvent, "tool"> {
  return { tool: { name: tool, ...(callId ? { callId } : {}), input: args } };
}

/** The text the model gets from a tool, and whether the tool failed (bash reports its exit code in metadata). */
export function resultOf(output: unknown): { text: string; isError: boolean } {
  if (!isRecord(output)) return { text: "", isError: false };
  const text = typeof output.output === "string" ? output.output : "";
  const meta = output.metadata;
  const exit = isRecord(meta) ? meta.exit : undefined;
  return { text, isError: typeof exit === "number" && exit !== 0 };
}

/** The fields of a tool_result event beyond its hook and session. */
export function toolResultFields(tool: string, callId: string | undefined, args: Record<string, unknown>, output: unknown): Pick<HookEvent, "tool" | "result"> {
  return { ...toolCallFields(tool, callId, args), result: resultOf(output) };
}

/** The decision on a tool call, as OpenCode can carry it. `ask` has no person to put it to from a plugin: blocked. */
export function callVerdict(decision: Decision): CallVerdict {
  switch (decision.action) {
    case "block":
      return { kind: "block", message: withNotes(`${LABEL} ${decision.reason ?? "Blocked by a Shepherd rule."}`, decision.notify), halt: decision.terminate === true };
    case "ask":
      return {
        kind: "block",
        message: withNotes(`${LABEL} ${decision.reason ?? "This call needs the user's approval"} (an OpenCode plugin cannot ask the user, so it was blocked; ask the user to run it or to change the rule).`, decision.notify),
        halt: false,
      };
    case "rewrite":
      if (decision.input) return { kind: "rewrite", args: decision.input, notes: decision.notify, steer: decision.steer };
      return { kind: "allow", notes: decision.notify, steer: decision.steer };
    default:
      return { kind: "allow", notes: decision.notify, steer: decision.steer };
  }
}

/** When the sidecar gave no answer: `open` lets the call through with a note, `closed` blocks it, `halt` also stops the run. */
export function failureVerdict(failMode: FailMode, error: string): CallVerdict {
  if (failMode === "open") return { kind: "allow", notes: [`Shepherd is unavailable (${error}); this call was let through unchecked because failMode is "open".`], steer: [] };
  if (failMode === "halt") return { kind: "block", message: `${LABEL} Shepherd is unavailable (${error}), so this call was blocked and the run stopped (failMode "halt").`, halt: true };
  return { kind: "block", message: `${LABEL} Shepherd is unavailable (${error}), so this call was blocked (failMode "closed"). Retry it; if it keeps failing, tell the user.`, halt: false };
}

/**
 * Makes `target` hold exactly `next`, in place: OpenCode runs the tool with the very object it passed to
 * `tool.execute.before`, so a new object would change nothing.
 */
export function replaceInPlace(target: Record<string, unknown>, next: Record<string, unknown>): void {
  for (const key of Object.keys(target)) if (!Object.hasOwn(next, key)) delete target[key];
  for (const [key, value] of Object.entries(next)) target[key] = value;
}

/** The text followed by one labelled line per note. */
export function withNotes(text: string, notes: readonly string[]): string {
  if (notes.length === 0) return text;
  return `${text}\n${notes.map((note) => `${LABEL} ${note}`).join("\n")}`;
}

/**
 * The tool output the model gets after the sidecar judged the result: its redacted text when it redacted
 * (bash keeps a copy of the output in `metadata.output`, which the transcript shows: replaced too), and the
 * call's and the result's visible notes appended (steers travel silently, in the next call's system prompt).
 * Mutates `output` in place, as OpenCode reads it back.
 */
export function applyResult(output: unknown, decision: Decision | undefined, notes: readonly string[]): void {
  if (!isRecord(output)) return;
  if (decision?.result) {
    output.output = decision.result.text;
    const meta = output.metadata;
    if (isRecord(meta) && typeof meta.output === "string") meta.output = decision.result.text;
  }
  const all = [...notes, ...(decision?.notify ?? [])];
  if (all.length > 0) output.output = withNotes(typeof output.output === "string" ? output.output : "", all);
}

/** A result the sidecar could not judge, when the guard fails closed: the model gets no unredacted text. */
export function withheldResult(output: unknown, error: string): void {
  if (!isRecord(output)) return;
  const text = `${LABEL} The tool ran, but its output is withheld: Shepherd is unavailable (${error}) and could not check it for secrets.`;
  output.output = text;
  const meta = output.metadata;
  if (isRecord(meta) && typeof meta.output === "string") meta.output = text;
}

/** The text of a user prompt (`chat.message`'s parts). */
export function promptOf(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  const texts: string[] = [];
  for (const part of parts) if (isRecord(part) && part.type === "text" && typeof part.text === "string" && part.synthetic !== true) texts.push(part.text);
  return texts.join("\n");
}

/** The session an OpenCode bus event is about, with its parent when it is a child session. */
export function eventSession(event: unknown): { type: string; sessionId?: string; parentId?: string } {
  if (!isRecord(event) || typeof event.type !== "string") return { type: "" };
  const props = event.properties;
  if (!isRecord(props)) return { type: event.type };
  const info = props.info;
  // A message event's `info` is the message: only a session event's `info` is the session.
  const sessionInfo = event.type.startsWith("session.") && isRecord(info) ? info : undefined;
  const id = typeof props.sessionID === "string" ? props.sessionID : typeof sessionInfo?.id === "string" ? sessionInfo.id : undefined;
  const parent = typeof sessionInfo?.parentID === "string" && sessionInfo.parentID !== "" ? sessionInfo.parentID : undefined;
  return { type: event.type, ...(id ? { sessionId: id } : {}), ...(parent ? { parentId: parent } : {}) };
}

/** The reminders of a decision, as one message for the model. */
export function reminderText(items: readonly string[]): string {
  return items.map((item) => `${LABEL} ${item}`).join("\n");
}
