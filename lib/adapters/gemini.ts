/** @module Gemini CLI hook JSON <-> Shepherd events and decisions. */
import * as v from "valibot";
import { lazySchema } from "../lazy-schema.ts";
import type { FailMode } from "../engine/schema-core.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
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

export const GeminiInputSchema = lazySchema(() =>
  v.looseObject({
    ...commonHookFields(),
    prompt_response: v.optional(v.string()),
  }),
);
export type GeminiInput = v.InferOutput<ReturnType<typeof GeminiInputSchema>>;

/** Gemini's `llmContent` is a string, a part, or a list of parts. */
function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(partsText).join("\n");
  if (content && typeof content === "object") {
    const c = content as Record<string, unknown>;
    if (typeof c.text === "string") return c.text;
    if (c.functionResponse !== undefined) return JSON.stringify(c.functionResponse);
  }
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

/**
 * The shell tool wraps output in `<untrusted_context>` with `Output:` / `Exit Code:` lines and no error flag:
 * a non-zero `Exit Code` is the only sign a command failed.
 */
export function geminiToolResult(response: unknown): { text: string; isError: boolean } {
  if (typeof response === "string") return { text: capText(response), isError: false };
  if (!response || typeof response !== "object") return { text: "", isError: false };
  const r = response as Record<string, unknown>;
  const raw = partsText(r.llmContent ?? r.returnDisplay);
  const text = raw.replace(/^<untrusted_context>\n?/, "").replace(/\n?<\/untrusted_context>$/, "");
  const exit = /^Exit Code: (-?\d+)$/m.exec(text);
  const hasError = r.error !== undefined && r.error !== null && r.error !== "";
  const errorText = hasError ? partsText(typeof r.error === "object" && r.error && "message" in r.error ? (r.error as { message: unknown }).message : r.error) : "";
  return {
    text: capText(errorText && !text.includes(errorText) ? `${text}\n${errorText}`.trim() : text),
    isError: hasError || (exit?.[1] !== undefined && Number(exit[1]) !== 0),
  };
}

export function geminiEvents(input: GeminiInput, env: AgentEnv): ParsedHook {
  const session: HookEvent["session"] = { id: input.session_id, cwd: env.GEMINI_PROJECT_DIR || input.cwd || env.PWD || "/", agent: "gemini" };
  const base = { agentEvent: input.hook_event_name, stopHookActive: input.stop_hook_active === true, preTool: false, sessionId: input.session_id };
  const tool = (): NonNullable<HookEvent["tool"]> => ({ name: input.tool_name ?? "unknown", input: input.tool_input ?? {} });
  switch (input.hook_event_name) {
    case "BeforeTool":
      return { ...base, preTool: true, events: [{ hook: "tool_call", session, tool: tool() }] };
    case "AfterTool":
      return { ...base, events: [{ hook: "tool_result", session, tool: tool(), result: geminiToolResult(input.tool_response) }] };
    case "BeforeAgent":
      return { ...base, events: [{ hook: "input", session, prompt: input.prompt ?? "" }] };
    case "AfterAgent": {
      const events: HookEvent[] = [];
      if (input.prompt_response) events.push({ hook: "message_end", session, message: { text: capText(input.prompt_response) } });
      events.push({ hook: "agent_end", session, stopReason: "stop" });
      return { ...base, events };
    }
    case "SessionStart":
      return { ...base, events: [{ hook: "session_start", session }] };
    case "SessionEnd":
      return { ...base, events: [{ hook: "session_shutdown", session }] };
    default:
      return { ...base, events: [] };
  }
}

/** The longest redacted output sent back as a deny reason (the rest is cut; the model can page the file). */
const MAX_REDACTED_REASON = 256 * 1024;

function json(value: unknown): AgentAnswer {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}

export function geminiAnswer(parsed: ParsedHook, decision: Decision): AgentAnswer {
  const context = joinLines([...decision.notify, ...decision.steer]);
  const notice = joinLines(decision.notify);
  const out: Record<string, unknown> = {};
  if (notice !== undefined) out.systemMessage = notice;
  const blocked = decision.action === "block" || decision.action === "ask"; // Gemini has no "ask" for hooks
  const reason = decision.reason ?? "Blocked by a Shepherd rule.";
  switch (parsed.agentEvent) {
    case "BeforeTool": {
      if (blocked) {
        out.decision = "deny";
        out.reason = reason;
      } else if (decision.action === "rewrite" && decision.input) {
        // Gemini 0.61 replaces the arguments with tool_input (its docs say merge): send the whole new input.
        out.hookSpecificOutput = { hookEventName: "BeforeTool", tool_input: decision.input };
      }
      if (context !== undefined) out.hookSpecificOutput = { hookEventName: "BeforeTool", ...(out.hookSpecificOutput as object | undefined), additionalContext: context };
      return json(out);
    }
    case "AfterTool":
    case "BeforeAgent":
    case "SessionStart": {
      if (blocked && parsed.agentEvent !== "SessionStart") {
        out.decision = "deny";
        out.reason = reason;
      } else if (parsed.agentEvent === "AfterTool" && decision.result) {
        // Gemini 0.61 cannot replace a tool's output, but a deny replaces what the model reads with
        // "Tool result blocked: <reason>": the reason is the redacted output (marked as a failed call).
        out.decision = "deny";
        out.reason = capText(decision.result.text, MAX_REDACTED_REASON);
      }
      if (context !== undefined) out.hookSpecificOutput = { hookEventName: parsed.agentEvent, additionalContext: context };
      return json(out);
    }
    case "AfterAgent": {
      // A deny makes Gemini retry with the reason as a new prompt; stop_hook_active marks that retry, which must end.
      const text = joinLines([...(blocked && decision.reason ? [decision.reason] : []), ...decision.notify, ...decision.steer]);
      if (!parsed.stopHookActive && text !== undefined) {
        delete out.systemMessage;
        out.decision = "deny";
        out.reason = text;
      }
      return json(out);
    }
    default:
      return json(out);
  }
}

export const geminiAdapter: AgentAdapter = {
  agent: "gemini",
  parse(raw: unknown, env: AgentEnv): ParsedHook {
    const r = v.safeParse(GeminiInputSchema(), raw);
    if (!r.success) {
      const issue = r.issues[0];
      const where = issue ? v.getDotPath(issue) : null;
      throw new AdapterInputError(`not a Gemini hook input${where ? ` (${where})` : ""}: ${issue?.message ?? "invalid"}`);
    }
    return geminiEvents(r.output, env);
  },
  answer: geminiAnswer,
  preToolEvent: "BeforeTool",
  failure(parsed, message, failMode) {
    const reason = failureReason(message, failMode);
    // Gemini CLI stops the agent on `continue: false` at any event (BeforeTool included: the tool does not run).
    if (parsed && failMode === "halt") return json({ continue: false, stopReason: reason, ...(parsed.preTool ? { decision: "deny", reason } : {}) });
    if (parsed?.preTool && failMode !== "open") return json({ decision: "deny", reason });
    // Nothing understood: it may be a tool call, so exit 2 blocks it (exit 1 is only a warning for Gemini).
    if (!parsed) return unparsedFailure(geminiAdapter, undefined, message);
    return { stdout: "{}\n", exitCode: 0 };
  },
};
