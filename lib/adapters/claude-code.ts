/** @module Claude Code hook JSON <-> Shepherd events and decisions (command hooks and `http` hooks share it). */
import * as v from "valibot";
import { guardedParse, hasUnsafeKey, isPlainRecord, optBoolean, optString, stringWithin } from "../engine/guard-kit.ts";
import { lazySchema } from "../lazy-schema.ts";
import type { FailMode } from "../engine/schema-core.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { disregardNotice, redactionNotice, redactJson } from "../secrets/redact.ts";
import {
  AdapterInputError,
  type AgentAdapter,
  type AgentAnswer,
  type AgentEnv,
  type ParsedHook,
  capText,
  commonHookFields,
  failureReason,
  joinLines,
  unparsedFailure,
} from "./agent-adapter.ts";

/** What Claude Code (and Codex, which copied its contract) sends to every hook; the rest stays loose. */
export const ClaudeStyleInputSchema = lazySchema(() =>
  v.looseObject({
    ...commonHookFields(),
    tool_use_id: v.optional(v.string()),
    error: v.optional(v.unknown()),
    last_assistant_message: v.optional(v.string()),
    agent_id: v.optional(v.string()),
    source: v.optional(v.string()),
    reason: v.optional(v.string()),
  }),
);
export type ClaudeStyleInput = v.InferOutput<ReturnType<typeof ClaudeStyleInputSchema>>;

/**
 * True when `ClaudeStyleInputSchema` accepts `raw` unchanged: valibot's first run costs a cold hook process
 * more than reading its input. A property test holds the two together; anything refused goes to the schema.
 */
export function isClaudeStyleInput(raw: unknown): raw is ClaudeStyleInput {
  if (!isPlainRecord(raw) || hasUnsafeKey(raw) || !stringWithin(raw.hook_event_name, 1) || !stringWithin(raw.session_id, 1, 512)) return false;
  for (const key of ["cwd", "transcript_path", "tool_name", "tool_use_id", "prompt", "last_assistant_message", "agent_id", "source", "reason"] as const) {
    if (!optString(raw[key])) return false;
  }
  if (!optBoolean(raw.stop_hook_active)) return false;
  const input = raw.tool_input;
  return input === undefined || (isPlainRecord(input) && !hasUnsafeKey(input));
}

export function parseClaudeStyle(raw: unknown): ClaudeStyleInput {
  const r = guardedParse(isClaudeStyleInput, ClaudeStyleInputSchema, raw);
  if (!r.success) {
    const issue = r.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    throw new AdapterInputError(`not a hook input${where ? ` (${where})` : ""}: ${issue?.message ?? "invalid"}`);
  }
  return r.output;
}

/** A tool result as text: Bash gives `{stdout, stderr}`, Codex a plain string, other tools an object. */
export function toolResponseText(response: unknown): string {
  if (response === undefined || response === null) return "";
  if (typeof response === "string") return capText(response);
  if (typeof response === "object" && !Array.isArray(response)) {
    const r = response as Record<string, unknown>;
    if (typeof r.stdout === "string" || typeof r.stderr === "string") {
      const parts = [r.stdout, r.stderr].filter((x): x is string => typeof x === "string" && x !== "");
      return capText(parts.join("\n"));
    }
    for (const key of ["output", "content", "result"]) if (typeof r[key] === "string") return capText(r[key]);
  }
  return capText(JSON.stringify(response));
}

/** The project root the agent reports, which is where `.pi/` rules live; falls back to the hook's cwd. */
function projectDir(input: ClaudeStyleInput, env: AgentEnv, envKey: string): string {
  return env[envKey] || input.cwd || env.PWD || "/";
}

export interface ClaudeStyleOptions {
  agent: "claude-code" | "codex";
  projectDirEnv: string;
  /** Codex reports no failure for a tool call: the caller looks the exit code up. */
  isError?: (input: ClaudeStyleInput) => boolean;
}

/** The session id a sub-agent's events count under (bounded like any session id). */
export function subagentSessionId(sessionId: string, agentId: string): string {
  return `${sessionId}/agent:${agentId}`.slice(0, 512);
}

/** Events of Claude Code Shepherd answers (the rest: no opinion, logged once by the face). */
export const KNOWN_CLAUDE_EVENTS: ReadonlySet<string> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "SubagentStart",
  "SessionStart",
  "SessionEnd",
  "PermissionRequest",
  "PreCompact",
  "Notification",
]);

/** Maps one Claude-style hook input onto Shepherd events. */
export function claudeStyleEvents(input: ClaudeStyleInput, env: AgentEnv, opts: ClaudeStyleOptions): ParsedHook {
  // A sub-agent keeps its own counters: its events count under the session id and its agent id.
  const sessionId = input.agent_id !== undefined ? subagentSessionId(input.session_id, input.agent_id) : input.session_id;
  const session: HookEvent["session"] = { id: sessionId, cwd: projectDir(input, env, opts.projectDirEnv), agent: opts.agent };
  if (input.agent_id !== undefined) session.subagent = true;
  const base = {
    agentEvent: input.hook_event_name,
    stopHookActive: input.stop_hook_active === true,
    preTool: false,
    sessionId,
    ...(input.transcript_path !== undefined ? { transcriptPath: input.transcript_path } : {}),
  };
  const tool = (): NonNullable<HookEvent["tool"]> => ({
    name: input.tool_name ?? "unknown",
    input: input.tool_input ?? {},
    ...(input.tool_use_id !== undefined ? { callId: input.tool_use_id } : {}),
  });
  switch (input.hook_event_name) {
    case "PreToolUse":
      return { ...base, preTool: true, events: [{ hook: "tool_call", session, tool: tool() }] };
    case "PostToolUse": {
      const isError = opts.isError ? opts.isError(input) : false;
      return {
        ...base,
        ...(input.tool_response !== undefined ? { toolResponse: input.tool_response } : {}),
        events: [{ hook: "tool_result", session, tool: tool(), result: { text: toolResponseText(input.tool_response), isError } }],
      };
    }
    case "PostToolUseFailure": {
      const text = typeof input.error === "string" ? input.error : toolResponseText(input.error ?? input.tool_response);
      return { ...base, events: [{ hook: "tool_result", session, tool: tool(), result: { text: capText(text), isError: true } }] };
    }
    case "UserPromptSubmit":
      return { ...base, events: [{ hook: "input", session, prompt: input.prompt ?? "" }] };
    case "Stop":
    case "SubagentStop": {
      const s = input.hook_event_name === "SubagentStop" ? { ...session, subagent: true } : session;
      const events: HookEvent[] = [];
      if (input.last_assistant_message) events.push({ hook: "message_end", session: s, message: { text: capText(input.last_assistant_message) } });
      events.push({ hook: "agent_end", session: s, stopReason: "stop" });
      return { ...base, events };
    }
    case "SessionStart":
      return { ...base, events: [{ hook: "session_start", session }] };
    case "SessionEnd":
      return { ...base, events: [{ hook: "session_shutdown", session }] };
    case "SubagentStart":
      return { ...base, events: [{ hook: "session_start", session: { ...session, subagent: true } }] };
    case "PermissionRequest":
      // A permission prompt about a call its PreToolUse already counted: the rules answer it, uncounted.
      return { ...base, dryRun: true, events: [{ hook: "tool_call", session, tool: tool() }] };
    default:
      // Events Shepherd has no rules for (Notification, PreCompact, a newer CLI's own) get no opinion.
      return { ...base, events: [] };
  }
}

function json(value: unknown): AgentAnswer {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

/** Reminders the model should read: visible notify first, then silent steer. */
export function contextText(decision: Decision): string | undefined {
  return joinLines([...decision.notify, ...decision.steer]);
}

/** What a redaction adds to a post-tool answer: the replaced output (or nothing) and the line for the model. */
export interface RedactedAnswer {
  output?: unknown;
  notice?: string;
}

/**
 * The tool's own output with every string redacted (same shape, so Claude Code's check of a replaced output
 * against the tool's schema holds); when it cannot be replaced, a notice telling the model to disregard it.
 */
export function redactedAnswer(parsed: ParsedHook, decision: Decision, canReplace: boolean): RedactedAnswer {
  if (!decision.result) return {};
  const kinds = decision.redacted ?? {};
  if (!canReplace) return { notice: disregardNotice(kinds) };
  const counts: Record<string, number> = {};
  const output = parsed.toolResponse === undefined ? decision.result.text : redactJson(parsed.toolResponse, counts);
  if (parsed.toolResponse !== undefined && Object.keys(counts).length === 0) return { notice: disregardNotice(kinds) };
  return { output, notice: redactionNotice(parsed.toolResponse === undefined ? kinds : counts) };
}

export function isMcpTool(parsed: ParsedHook): boolean {
  return parsed.events[0]?.tool?.name.startsWith("mcp__") === true;
}

/** Claude Code's answer to a decision, per hook event. */
export function claudeCodeAnswer(parsed: ParsedHook, decision: Decision): AgentAnswer {
  return claudeStyleAnswer(parsed, decision, "any");
}

/**
 * The answer of Claude Code and of Codex (which copied its contract); `replace` says which tools' output a
 * PostToolUse answer can replace, every tool's (Claude Code 2.1.332, `updatedToolOutput`) or MCP tools' only (Codex).
 */
export function claudeStyleAnswer(parsed: ParsedHook, decision: Decision, replace: "any" | "mcp"): AgentAnswer {
  const red = redactedAnswer(parsed, decision, parsed.agentEvent === "PostToolUse" && (replace === "any" || isMcpTool(parsed)));
  const context = joinLines([...(red.notice ? [red.notice] : []), ...decision.notify, ...decision.steer]);
  const notice = joinLines(decision.notify);
  const out: Record<string, unknown> = {};
  // systemMessage is what the user sees: notify is meant for both user and model.
  if (notice !== undefined) out.systemMessage = notice;
  const ev = parsed.agentEvent;
  switch (ev) {
    case "PreToolUse": {
      const hso: Record<string, unknown> = { hookEventName: ev };
      if (decision.action === "block" || decision.action === "ask") {
        hso.permissionDecision = decision.action === "block" ? "deny" : "ask";
        hso.permissionDecisionReason = decision.reason ?? "Blocked by a Shepherd rule.";
        // A terminate rule: Claude Code stops after this hook instead of letting the model try again.
        if (decision.action === "block" && decision.terminate === true) {
          out.continue = false;
          out.stopReason = hso.permissionDecisionReason;
        }
      } else if (decision.action === "rewrite" && decision.input) {
        hso.updatedInput = decision.input;
      } else if (replace === "any" && decision.action === "allow") {
        // A person approved this exact call before (a remembered approval): Claude Code must not ask again either.
        const approval = decision.fired.find((f) => f.approval !== undefined);
        if (approval) {
          hso.permissionDecision = "allow";
          hso.permissionDecisionReason = `Approved earlier: remembered approval ${approval.approval} of Shepherd rule "${approval.rule}" (\`shepherd approvals revoke ${approval.approval}\`).`;
        }
      }
      if (context !== undefined) hso.additionalContext = context;
      if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
      return json(out);
    }
    case "PostToolUse":
    case "PostToolUseFailure":
    case "UserPromptSubmit":
    case "SessionStart": {
      if (decision.action === "block" && ev !== "SessionStart") {
        out.decision = "block";
        out.reason = decision.reason ?? "Blocked by a Shepherd rule.";
      }
      const hso: Record<string, unknown> = { hookEventName: ev };
      if (context !== undefined) hso.additionalContext = context;
      // 2.1.332 replaces any tool's output with updatedToolOutput (checked against the tool's output schema);
      // updatedMCPToolOutput is the older, MCP-only field.
      if (red.output !== undefined) {
        if (replace === "any") hso.updatedToolOutput = red.output;
        if (isMcpTool(parsed)) hso.updatedMCPToolOutput = red.output;
      }
      if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
      return json(out);
    }
    case "SubagentStart": {
      if (context !== undefined) out.hookSpecificOutput = { hookEventName: ev, additionalContext: context };
      return json(out);
    }
    case "PermissionRequest": {
      // Only a block answers the prompt (deny); an ask or no rule leaves it to the person, as Claude Code would.
      if (decision.action === "block") {
        out.hookSpecificOutput = { hookEventName: ev, decision: { behavior: "deny", message: decision.reason ?? "Blocked by a Shepherd rule." } };
      }
      return json(out);
    }
    case "PreCompact":
      // Claude Code reads a PreCompact hook's plain text as compaction instructions: no opinion is no text.
      return { stdout: "", exitCode: 0 };
    case "Stop":
    case "SubagentStop": {
      // A forced continuation must end: honouring stop_hook_active is what keeps a wrap-up reminder from looping.
      const reason = joinLines([...(decision.action === "block" && decision.reason ? [decision.reason] : []), ...decision.notify, ...decision.steer]);
      if (!parsed.stopHookActive && reason !== undefined) {
        delete out.systemMessage;
        out.decision = "block";
        out.reason = reason;
      }
      return json(out);
    }
    default:
      return json(out);
  }
}

/**
 * Fail closed only where something is pending: a tool call that has not run yet. "halt" also stops the run
 * at any event (`continue: false`, which Claude Code and Codex both honour), the call denied as well.
 */
export function claudeStyleFailure(parsed: ParsedHook | undefined, message: string, failMode: FailMode): AgentAnswer {
  const reason = failureReason(message, failMode);
  const deny = parsed?.preTool === true && failMode !== "open" ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } } : {};
  if (parsed && failMode === "halt") return json({ continue: false, stopReason: reason, ...deny });
  if (parsed?.preTool && failMode !== "open") return json(deny);
  // Nothing understood: whatever it was, it may be a tool call, so it is blocked (exit 1 would let it run).
  if (!parsed) return unparsedFailure(CLAUDE_STYLE, undefined, message);
  return { stdout: "", exitCode: 0 };
}

const CLAUDE_STYLE = { agent: "claude-code", preToolEvent: "PreToolUse" } as const;

export const claudeCodeAdapter: AgentAdapter = {
  agent: "claude-code",
  parse: (raw: unknown, env: AgentEnv): ParsedHook =>
    claudeStyleEvents(parseClaudeStyle(raw), env, { agent: "claude-code", projectDirEnv: "CLAUDE_PROJECT_DIR" }),
  answer: claudeCodeAnswer,
  failure: claudeStyleFailure,
  preToolEvent: "PreToolUse",
};
