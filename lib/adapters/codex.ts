/** @module Codex CLI hook JSON <-> Shepherd events and decisions (Codex copied Claude Code's contract, with gaps). */
import type { Decision } from "../engine/schema.ts";
import type { AdapterIo, AgentAdapter, AgentAnswer, AgentEnv, ParsedHook } from "./agent-adapter.ts";
import { type ClaudeStyleInput, claudeStyleAnswer, claudeStyleEvents, claudeStyleFailure, contextText, parseClaudeStyle } from "./claude-code.ts";

/** Enough of a rollout file to hold the call that just finished, without reading a long session whole. */
const TRANSCRIPT_TAIL_BYTES = 512 * 1024;

/**
 * Codex's PostToolUse carries the output only; the exit code sits in the rollout transcript
 * (`event_msg` / `item_completed` with the call's id), written before the hook runs.
 */
export function exitCodeFromTranscript(tail: string, callId: string): number | undefined {
  const needle = JSON.stringify(callId);
  const lines = tail.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line || !line.includes(needle) || !line.includes("item_completed")) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue; // the first line of a tail is usually cut in half
    }
    const item = (parsed as { payload?: { item?: { id?: unknown; exit_code?: unknown; status?: unknown } } }).payload?.item;
    if (!item || item.id !== callId) continue;
    if (typeof item.exit_code === "number") return item.exit_code;
    if (item.status === "failed") return 1;
  }
  return undefined;
}

/** When the transcript cannot tell, Codex's own output header ("Process exited with code N") may. */
function exitCodeFromOutput(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const m = /^Process exited with code (\d+)$/m.exec(text);
  return m?.[1] !== undefined ? Number(m[1]) : undefined;
}

export function codexIsError(input: ClaudeStyleInput, io: AdapterIo | undefined): boolean {
  let code: number | undefined;
  if (io && input.transcript_path && input.tool_use_id) {
    const tail = io.readFileTail(input.transcript_path, TRANSCRIPT_TAIL_BYTES);
    if (tail !== undefined) code = exitCodeFromTranscript(tail, input.tool_use_id);
  }
  code ??= exitCodeFromOutput(input.tool_response);
  return code !== undefined && code !== 0;
}

export function codexAnswer(parsed: ParsedHook, decision: Decision): AgentAnswer {
  if (parsed.agentEvent === "PreToolUse") {
    const hso: Record<string, unknown> = { hookEventName: "PreToolUse" };
    const context = contextText(decision);
    // Codex has no "ask" (it would let the command run): with no way to ask, an ask rule blocks (DESIGN section 3).
    if (decision.action === "block" || decision.action === "ask") {
      hso.permissionDecision = "deny";
      hso.permissionDecisionReason = decision.reason ?? "Blocked by a Shepherd rule.";
    } else if (decision.action === "rewrite" && decision.input) {
      // Codex rejects updatedInput unless it comes with allow.
      hso.permissionDecision = "allow";
      hso.updatedInput = decision.input;
    }
    if (context !== undefined) hso.additionalContext = context;
    const out: Record<string, unknown> = {};
    if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
    return { stdout: `${JSON.stringify(out)}\n`, exitCode: 0 };
  }
  return claudeStyleAnswer(parsed, decision, "mcp");
}

export const codexAdapter: AgentAdapter = {
  agent: "codex",
  parse: (raw: unknown, env: AgentEnv, io?: AdapterIo): ParsedHook =>
    claudeStyleEvents(parseClaudeStyle(raw), env, {
      agent: "codex",
      projectDirEnv: "CODEX_PROJECT_DIR",
      isError: (input) => codexIsError(input, io),
    }),
  answer: codexAnswer,
  failure: claudeStyleFailure,
  preToolEvent: "PreToolUse",
};
