/**
 * @module GitHub Copilot CLI hook JSON <-> Shepherd events and decisions (its native camelCase contract,
 * as Copilot CLI 1.0.102 sends it). Copilot names the event only in the hook's configuration, not in the
 * JSON it sends (permissionRequest aside), so `shepherd init copilot` gives each handler the event in
 * `SHEPHERD_COPILOT_EVENT`.
 */
import * as v from "valibot";
import { lazySchema } from "../lazy-schema.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { disregardNotice, redactionNotice } from "../secrets/redact.ts";
import {
  AdapterInputError,
  type AdapterIo,
  type AgentAdapter,
  type AgentAnswer,
  type AgentEnv,
  type ParsedHook,
  capText,
  failureReason,
  joinLines,
  unparsedFailure,
} from "./agent-adapter.ts";

/** The variable each of Shepherd's Copilot handlers sets (its `env`) to the event it is installed for. */
export const COPILOT_EVENT_ENV = "SHEPHERD_COPILOT_EVENT";

/** Events of Copilot CLI Shepherd answers (the rest: no opinion, logged by the face). */
export const KNOWN_COPILOT_EVENTS: ReadonlySet<string> = new Set([
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "userPromptSubmitted",
  "agentStop",
  "subagentStart",
  "subagentStop",
  "sessionStart",
  "sessionEnd",
  "permissionRequest",
  "errorOccurred",
  "preCompact",
  "notification",
]);

const optString = () => v.optional(v.string());

/** What Copilot CLI sends to a command hook; unknown fields of a newer CLI pass through unread. */
export const CopilotInputSchema = lazySchema(() =>
  v.looseObject({
    sessionId: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
    hookName: optString(),
    cwd: optString(),
    toolName: optString(),
    toolArgs: v.optional(v.unknown()),
    toolInput: v.optional(v.unknown()),
    toolResult: v.optional(v.unknown()),
    error: v.optional(v.unknown()),
    prompt: optString(),
    transcriptPath: optString(),
    stop_hook_active: v.optional(v.boolean()),
    // The SDK's names for the same fields (copilot-sdk/types.d.ts): a newer CLI may send these instead.
    stopHookActive: v.optional(v.boolean()),
    workingDirectory: optString(),
    response: optString(),
    agentId: optString(),
    parentAgentId: optString(),
  }),
);
export type CopilotInput = v.InferOutput<ReturnType<typeof CopilotInputSchema>>;

/** A tool's arguments: an object, or (as a newer CLI might send them) that object as JSON text. */
function argsOf(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  let x = value;
  if (typeof x === "string") {
    try {
      x = JSON.parse(x);
    } catch {
      return undefined;
    }
  }
  return x && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}

/** Copilot's shell tool ends its output with this line; "success" is its result type even when the command failed. */
const SHELL_EXIT = /<shellId: [^>]* completed with exit code (-?\d+)>\s*$/;

/** A tool result as text, and whether the call failed: `{resultType, textResultForLlm}` in 1.0.102. */
export function copilotToolResult(result: unknown): { text: string; isError: boolean } {
  if (typeof result === "string") return { text: capText(result), isError: false };
  if (!result || typeof result !== "object") return { text: "", isError: false };
  const r = result as Record<string, unknown>;
  const text = typeof r.textResultForLlm === "string" ? r.textResultForLlm : JSON.stringify(result);
  const exit = SHELL_EXIT.exec(text);
  const failedType = typeof r.resultType === "string" && r.resultType !== "success";
  return { text: capText(text), isError: failedType || (exit?.[1] !== undefined && Number(exit[1]) !== 0) };
}

/** Enough of a session's events.jsonl to hold the turn that just ended. */
const TRANSCRIPT_TAIL_BYTES = 512 * 1024;

/**
 * agentStop carries no text: the main agent's last message is the last `assistant.message` of the session's
 * events.jsonl without a `parentToolCallId` (a sub-agent's messages carry their task call's id).
 */
export function lastAssistantMessage(tail: string): string | undefined {
  const lines = tail.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line || !line.includes('"assistant.message"')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue; // the first line of a tail is usually cut in half
    }
    const e = parsed as { type?: unknown; data?: { content?: unknown; parentToolCallId?: unknown } };
    if (e.type !== "assistant.message" || !e.data || e.data.parentToolCallId !== undefined) continue;
    if (typeof e.data.content === "string" && e.data.content !== "") return e.data.content;
  }
  return undefined;
}

/**
 * Copilot's tools that type into a running shell (`{shellId, input}`): what they type may be a command, so
 * the shell rules judge it as one (`command` is added beside `input`; a rewrite is mapped back).
 */
const WRITE_SHELL_TOOLS: ReadonlySet<string> = new Set(["write_bash", "write_powershell"]);

function withShellCommand(name: string, args: Record<string, unknown>): Record<string, unknown> {
  return WRITE_SHELL_TOOLS.has(name) && typeof args.input === "string" ? { ...args, command: args.input } : args;
}

/** A rewritten input in the shape Copilot's tool takes: a typed-in command goes back to `input`. */
function toolArgsFor(name: string | undefined, input: Record<string, unknown>): Record<string, unknown> {
  if (name === undefined || !WRITE_SHELL_TOOLS.has(name) || typeof input.command !== "string") return input;
  const { command, ...rest } = input;
  return { ...rest, input: command };
}

export function copilotEvents(input: CopilotInput, event: string, env: AgentEnv, io?: AdapterIo): ParsedHook {
  // Inside a sub-agent Copilot already sends the sub-agent's id as sessionId; subagentStart/Stop come from the
  // parent with the child's agentId: counting them under agentId keeps each sub-agent's counters together.
  const sessionId = input.agentId ?? input.sessionId;
  const session: HookEvent["session"] = { id: sessionId, cwd: input.cwd || input.workingDirectory || env.PWD || "/", agent: "copilot" };
  if (input.parentAgentId !== undefined) session.subagent = true;
  const base = { agentEvent: event, stopHookActive: input.stop_hook_active === true || input.stopHookActive === true, preTool: false, sessionId };
  const tool = (args: unknown): NonNullable<HookEvent["tool"]> => {
    const a = argsOf(args);
    if (a === undefined) throw new AdapterInputError(`not a Copilot hook input (toolArgs): not an object`);
    const name = input.toolName ?? "unknown";
    return { name, input: withShellCommand(name, a) };
  };
  switch (event) {
    case "preToolUse":
      return { ...base, preTool: true, events: [{ hook: "tool_call", session, tool: tool(input.toolArgs) }] };
    case "postToolUse":
      return {
        ...base,
        ...(input.toolResult !== undefined ? { toolResponse: input.toolResult } : {}),
        events: [{ hook: "tool_result", session, tool: tool(input.toolArgs), result: copilotToolResult(input.toolResult) }],
      };
    case "postToolUseFailure": {
      const text = typeof input.error === "string" ? input.error : copilotToolResult(input.error ?? input.toolResult).text;
      return { ...base, events: [{ hook: "tool_result", session, tool: tool(input.toolArgs), result: { text: capText(text), isError: true } }] };
    }
    case "permissionRequest":
      // A permission prompt about a call its preToolUse already counted: the rules answer it, uncounted.
      return { ...base, dryRun: true, events: [{ hook: "tool_call", session, tool: tool(input.toolInput ?? input.toolArgs) }] };
    case "userPromptSubmitted":
      return { ...base, events: [{ hook: "input", session, prompt: input.prompt ?? "" }] };
    case "agentStop":
    case "subagentStop": {
      const s = event === "subagentStop" ? { ...session, subagent: true } : session;
      let text = event === "subagentStop" ? input.response : undefined;
      if (event === "agentStop" && input.agentId === undefined && io && input.transcriptPath) {
        const tail = io.readFileTail(input.transcriptPath, TRANSCRIPT_TAIL_BYTES);
        if (tail !== undefined) text = lastAssistantMessage(tail);
      }
      const events: HookEvent[] = [];
      if (text) events.push({ hook: "message_end", session: s, message: { text: capText(text) } });
      events.push({ hook: "agent_end", session: s, stopReason: "stop" });
      return { ...base, events };
    }
    case "sessionStart":
      return { ...base, events: [{ hook: "session_start", session }] };
    case "subagentStart":
      return { ...base, events: [{ hook: "session_start", session: { ...session, subagent: true } }] };
    case "sessionEnd":
      return { ...base, events: [{ hook: "session_shutdown", session }] };
    default:
      // errorOccurred, preCompact, notification and a newer CLI's own events: no opinion.
      return { ...base, events: [] };
  }
}

function json(value: unknown): AgentAnswer {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

const DEFAULT_REASON = "Blocked by a Shepherd rule.";

/** Copilot's answer to a decision, per event (what 1.0.102 reads: permissionDecision, modifiedArgs, modifiedResult, additionalContext, decision). */
export function copilotAnswer(parsed: ParsedHook, decision: Decision): AgentAnswer {
  const context = joinLines([...decision.notify, ...decision.steer]);
  const reason = decision.reason ?? DEFAULT_REASON;
  const out: Record<string, unknown> = {};
  switch (parsed.agentEvent) {
    case "preToolUse": {
      if (decision.action === "block" || decision.action === "ask") {
        // In prompt mode (-p) Copilot cannot ask and denies an "ask" itself ("unable to ask user for confirmation").
        out.permissionDecision = decision.action === "block" ? "deny" : "ask";
        out.permissionDecisionReason = reason;
      } else if (decision.action === "rewrite" && decision.input) {
        // modifiedArgs replaces the arguments whole (1.0.102): the new input is complete.
        out.modifiedArgs = toolArgsFor(parsed.events[0]?.tool?.name, decision.input);
      }
      if (context !== undefined) out.additionalContext = context;
      return json(out);
    }
    case "postToolUse":
    case "postToolUseFailure": {
      const lines: string[] = [];
      if (decision.action === "block") lines.push(reason);
      if (decision.result && parsed.agentEvent === "postToolUse") {
        // modifiedResult replaces what the model reads of the tool's output.
        const prior = parsed.toolResponse && typeof parsed.toolResponse === "object" ? (parsed.toolResponse as Record<string, unknown>) : {};
        out.modifiedResult = { resultType: typeof prior.resultType === "string" ? prior.resultType : "success", textResultForLlm: decision.result.text };
        lines.push(redactionNotice(decision.redacted ?? {}));
      } else if (decision.result) lines.push(disregardNotice(decision.redacted ?? {}));
      const text = joinLines([...lines, ...decision.notify, ...decision.steer]);
      if (text !== undefined) out.additionalContext = text;
      return json(out);
    }
    case "userPromptSubmitted": {
      if (decision.action === "block") {
        out.decision = "block";
        out.reason = reason;
      }
      if (context !== undefined) out.additionalContext = context;
      return json(out);
    }
    case "sessionStart":
    case "subagentStart": {
      if (context !== undefined) out.additionalContext = context;
      return json(out);
    }
    case "permissionRequest": {
      // Only a block answers the prompt; an ask or no rule leaves it to Copilot's own permission flow.
      if (decision.action === "block") {
        out.behavior = "deny";
        out.message = reason;
      }
      return json(out);
    }
    case "agentStop":
    case "subagentStop": {
      // The reason becomes the next prompt; stop_hook_active marks that continuation, which must end.
      const text = joinLines([...(decision.action === "block" && decision.reason ? [decision.reason] : []), ...decision.notify, ...decision.steer]);
      if (!parsed.stopHookActive && text !== undefined) {
        out.decision = "block";
        out.reason = text;
      }
      return json(out);
    }
    default:
      return json(out);
  }
}

/** The event this hook call is for: the CLI's own word when it sends one, else the handler's variable. */
function eventOf(raw: unknown, env: AgentEnv): string | undefined {
  const named = raw && typeof raw === "object" ? (raw as { hookName?: unknown }).hookName : undefined;
  const event = typeof named === "string" && named !== "" ? named : env[COPILOT_EVENT_ENV];
  return event && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(event) ? event : undefined;
}

function denyAnswer(reason: string): AgentAnswer {
  return json({ permissionDecision: "deny", permissionDecisionReason: reason });
}

export const copilotAdapter: AgentAdapter = {
  agent: "copilot",
  parse(raw: unknown, env: AgentEnv, io?: AdapterIo): ParsedHook {
    const event = eventOf(raw, env);
    if (event === undefined) throw new AdapterInputError(`no hook event: Copilot names it only in the hook's configuration, which must set ${COPILOT_EVENT_ENV} (shepherd init copilot does)`);
    const r = v.safeParse(CopilotInputSchema(), raw);
    if (!r.success) {
      const issue = r.issues[0];
      const where = issue ? v.getDotPath(issue) : null;
      throw new AdapterInputError(`not a Copilot hook input${where ? ` (${where})` : ""}: ${issue?.message ?? "invalid"}`);
    }
    return copilotEvents(r.output, event, env, io);
  },
  answer: copilotAnswer,
  preToolEvent: "preToolUse",
  eventFromEnv: (env) => eventOf(undefined, env),
  failure(parsed, message, failMode) {
    // Copilot CLI's hooks have no way to stop the run: "halt" denies the pending call, as "closed" does.
    if (parsed?.preTool && failMode !== "open") return denyAnswer(failureReason(message, failMode === "halt" ? "closed" : failMode));
    // Nothing understood: it may be a tool call. Copilot denies a pending tool call whose hook exits non-zero
    // (1.0.102: "hook exited with code 2"), and elsewhere only logs it.
    if (!parsed) return unparsedFailure(copilotAdapter, undefined, message);
    return json({});
  },
};
