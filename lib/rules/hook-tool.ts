/**
 * @module the `shepherd_hook` MCP tool of `shepherd serve`: one Claude Code `mcp_tool` hook call, answered
 * through the claude-code adapter, in the long-lived process (no spawn, counters in memory).
 */
import { AdapterInputError, mergeDecisions, type ParsedHook } from "../adapters/agent-adapter.ts";
import { claudeCodeAdapter, KNOWN_CLAUDE_EVENTS } from "../adapters/claude-code.ts";
import { HOOK_TOOL_NAME, hookJsonFromToolArgs, toolTextOfAnswer } from "../adapters/claude-code-mcp.ts";
import { decideWithin, effectiveDeadline } from "../deadline.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Workspace } from "./workspace.ts";
import { observeHook } from "../approvals/observe-hook.ts";

/** Claude Code's timeout for Shepherd's `mcp_tool` hooks, in seconds (what `init --mcp` writes). */
export const MCP_HOOK_TIMEOUT_S = 30;

export interface HookToolResult {
  text: string;
  isError: boolean;
}

/** A model that calls the hook tool itself could feed Shepherd invented events: that call is denied. */
const SELF_CALL = new RegExp(`^mcp__.+__${HOOK_TOOL_NAME}$`);

function denyJson(reason: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } });
}

/** Event names of a newer CLI already reported by this process: each is logged once, not per call. */
const reportedUnknown = new Set<string>();
const MAX_REPORTED = 256;

async function evaluateAll(workspace: Workspace, parsed: ParsedHook): Promise<Decision> {
  const decisions: Decision[] = [];
  for (const event of parsed.events) {
    decisions.push(await workspace.evaluate(event, { uncounted: parsed.dryRun === true }));
    if (event.hook === "session_shutdown") {
      // Sessions live in memory here: an ended one need not wait for eviction.
      workspace.sessions.delete(event.session.id);
      await workspace.approvals.endSession(event.session);
    }
  }
  const decision = mergeDecisions(decisions);
  const first = parsed.events[0];
  // A person's yes to an ask shows as the PostToolUse of that call (observe-hook.ts).
  const live = first ? workspace.sessions.peek(first.session.id) : undefined;
  const approved = first && live ? observeHook(live, parsed, decision, Date.now()) : undefined;
  if (first && approved) {
    const kept = await workspace.approvals.grant({ project: workspace.projectIdentity(first.session.cwd), session: first.session, remember: approved });
    if (!kept.ok) workspace.notify("warning", `an approval was not remembered (${kept.reason}); Shepherd will ask again`);
  }
  return decision;
}

/**
 * Runs one hook call. Never throws: input that is not Claude Code's hook JSON is an error result (with
 * `onFailure: "block"` Claude Code then blocks what the event guards), except for a tool call, which gets a
 * deny with the reason, as `shepherd hook` gives.
 */
export async function runHookTool(workspace: Workspace, args: unknown): Promise<HookToolResult> {
  const raw = hookJsonFromToolArgs(args);
  const sniffed = raw && typeof raw === "object" ? (raw as { hook_event_name?: unknown }).hook_event_name : undefined;
  let parsed: ParsedHook;
  try {
    parsed = claudeCodeAdapter.parse(raw, workspace.env);
  } catch (e) {
    const message = e instanceof AdapterInputError ? e.message : String(e);
    if (sniffed === undefined || sniffed === claudeCodeAdapter.preToolEvent) {
      return { text: denyJson(`Shepherd blocked this tool call: its hook input could not be read (${message}), and Shepherd fails closed.`), isError: false };
    }
    return { text: `shepherd_hook: ${message}`, isError: true };
  }
  const first = parsed.events[0];
  if (parsed.preTool && first?.tool && SELF_CALL.test(first.tool.name)) {
    return { text: denyJson(`${HOOK_TOOL_NAME} answers Claude Code's hooks; it is not a tool for the model.`), isError: false };
  }
  if (!KNOWN_CLAUDE_EVENTS.has(parsed.agentEvent) && !reportedUnknown.has(parsed.agentEvent) && reportedUnknown.size < MAX_REPORTED) {
    reportedUnknown.add(parsed.agentEvent);
    workspace.notify("info", `Claude Code hook event "${parsed.agentEvent.slice(0, 100)}" is unknown to Shepherd: no opinion (logged once)`);
  }
  if (!first) return { text: toolTextOfAnswer(claudeCodeAdapter.answer(parsed, mergeDecisions([])).stdout, parsed.agentEvent), isError: false };
  const { settings } = workspace.host(first.session.cwd);
  try {
    const ms = effectiveDeadline(settings.hookDeadlineMs, MCP_HOOK_TIMEOUT_S * 1000);
    const decision = await decideWithin(
      parsed.events.map((e) => e.hook),
      evaluateAll(workspace, parsed),
      ms,
      settings.failMode,
    );
    return { text: toolTextOfAnswer(claudeCodeAdapter.answer(parsed, decision).stdout, parsed.agentEvent), isError: false };
  } catch (e) {
    const failure = claudeCodeAdapter.failure(parsed, e instanceof Error ? e.message : String(e), settings.failMode);
    return { text: toolTextOfAnswer(failure.stdout), isError: false };
  }
}
