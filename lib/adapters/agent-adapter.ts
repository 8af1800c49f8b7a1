/** @module the shape every agent adapter shares: agent hook JSON -> HookEvents, Decision -> agent answer. */
import * as v from "valibot";
import type { FailMode } from "../engine/schema-core.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";

/**
 * The fields the agents that spawn hook commands have in common (Claude Code and Codex, which copied its
 * contract, and Gemini CLI, which named its events differently): each adapter's schema adds its own.
 */
export function commonHookFields() {
  return {
    hook_event_name: v.pipe(v.string(), v.minLength(1)),
    session_id: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
    cwd: v.optional(v.string()),
    transcript_path: v.optional(v.string()),
    tool_name: v.optional(v.string()),
    tool_input: v.optional(v.record(v.string(), v.unknown())),
    tool_response: v.optional(v.unknown()),
    prompt: v.optional(v.string()),
    stop_hook_active: v.optional(v.boolean()),
  };
}

/** What the adapter understood from one hook invocation of an agent. */
export interface ParsedHook {
  /** The agent's own event name, e.g. `PreToolUse`, `BeforeTool`. */
  agentEvent: string;
  /** Shepherd events to evaluate, in order; their decisions are merged into one answer. Empty = no opinion. */
  events: HookEvent[];
  /** The agent says this stop is already a forced continuation: never force another one. */
  stopHookActive: boolean;
  /** A tool call whose input Shepherd may rewrite (a pre-tool event). */
  preTool: boolean;
  /** The agent's session id (state file key). */
  sessionId: string;
  /** A post-tool event: the tool's output as the agent sent it, for an answer that replaces it (redaction). */
  toolResponse?: unknown;
  /** Only for Codex: the transcript to read a call's exit code from. */
  transcriptPath?: string;
  /**
   * The events re-ask about a call already counted (Claude Code's PermissionRequest follows its PreToolUse):
   * evaluate them on a copy of the session state, so counters and loop rules see the call once.
   */
  dryRun?: boolean;
}

/** The agent's answer: what to write on stdout, and the exit code. */
export interface AgentAnswer {
  stdout: string;
  exitCode: number;
  /** What the agent reads on stderr: with exit 2, the reason it gives the model. */
  stderr?: string;
}

/** The parts of the process environment an adapter reads (kept explicit so adapters stay pure). */
export type AgentEnv = Readonly<Record<string, string | undefined>>;

/** File access an adapter may need (injected, so the translation itself stays testable without a disk). */
export interface AdapterIo {
  /** The last `maxBytes` of a file, or undefined when it cannot be read. */
  readFileTail(path: string, maxBytes: number): string | undefined;
}

export interface AgentAdapter {
  readonly agent: "claude-code" | "codex" | "gemini" | "copilot";
  /** Throws an `AdapterInputError` when the JSON is not this agent's hook input. */
  parse(raw: unknown, env: AgentEnv, io?: AdapterIo): ParsedHook;
  answer(parsed: ParsedHook, decision: Decision): AgentAnswer;
  /**
   * The answer when Shepherd itself failed: "closed" denies a pending tool call, "halt" also stops the
   * agent's run (whatever the event), "open" lets it pass.
   */
  failure(parsed: ParsedHook | undefined, message: string, failMode: FailMode): AgentAnswer;
  /** The agent's event name for a tool call about to run (what an unparsable input must not wave through). */
  readonly preToolEvent: string;
  /** The event named outside the hook's JSON, for an input that cannot be read (Copilot: the handler's env). */
  readonly eventFromEnv?: (env: AgentEnv) => string | undefined;
}

/**
 * The answer to an input that could not be parsed (too large, cut off, not JSON), given the event name
 * sniffed from its first bytes. A tool call, or an input whose event is unknown, is blocked with exit 2,
 * which Claude Code, Codex and Gemini CLI all read as a block with stderr as the reason; the failMode is
 * not consulted, since the project whose settings would say it is not known. Anything else gets no opinion.
 */
export function unparsedFailure(adapter: Pick<AgentAdapter, "agent" | "preToolEvent">, agentEvent: string | undefined, message: string): AgentAnswer {
  if (agentEvent === undefined || agentEvent === adapter.preToolEvent) {
    const what = agentEvent === undefined ? "this hook call" : "this tool call";
    return { stdout: "", exitCode: 2, stderr: `Shepherd blocked ${what}: its hook input could not be read (${message}), and Shepherd fails closed.\n` };
  }
  return { stdout: adapter.agent === "gemini" ? "{}\n" : "", exitCode: 0, stderr: `shepherd hook ${adapter.agent}: ${message} (${agentEvent}: no opinion)\n` };
}

export class AdapterInputError extends Error {
  override readonly name = "AdapterInputError";
}

/** Joins reminders for a single text field; undefined when there is nothing to say. */
export function joinLines(lines: readonly string[]): string | undefined {
  const kept = lines.filter((l) => l.trim() !== "");
  return kept.length === 0 ? undefined : kept.join("\n\n");
}

/** What a failure answer says, by fail mode: one wording for every agent. */
export function failureReason(message: string, failMode: FailMode): string {
  return failMode === "halt"
    ? `Shepherd could not evaluate this call (${message}); it is blocked and the run is stopped because failMode is "halt".`
    : `Shepherd could not evaluate this call (${message}); it is blocked because failMode is "closed".`;
}

export function emptyDecision(): Decision {
  return { action: "allow", notify: [], steer: [], fired: [] };
}

/**
 * Several events of one hook (e.g. message_end then agent_end for a Stop) become one decision:
 * a block wins, then ask, then the last rewrite; notify/steer keep order without duplicates.
 */
export function mergeDecisions(decisions: readonly Decision[]): Decision {
  const out = emptyDecision();
  const rank = { allow: 0, rewrite: 1, ask: 2, block: 3 } as const;
  for (const d of decisions) {
    if (rank[d.action] > rank[out.action] || (d.action === "rewrite" && out.action === "rewrite")) {
      out.action = d.action;
      out.reason = d.reason;
      out.input = d.input;
      if (d.terminate === true) out.terminate = true;
      else delete out.terminate;
      if (d.remember) out.remember = d.remember;
      else delete out.remember;
    }
    if (d.result) {
      out.result = d.result;
      if (d.redacted) out.redacted = d.redacted;
    }
    for (const n of d.notify) if (!out.notify.includes(n)) out.notify.push(n);
    for (const s of d.steer) if (!out.steer.includes(s)) out.steer.push(s);
    out.fired.push(...d.fired);
  }
  if (out.action !== "rewrite") delete out.input;
  if (out.action !== "ask") delete out.remember;
  if (out.action === "allow") delete out.reason;
  return out;
}

/** Text of a tool result, capped so a huge output does not slow pattern matching down. */
export function capText(text: string, max = 1 << 20): string {
  return text.length > max ? text.slice(0, max) : text;
}
