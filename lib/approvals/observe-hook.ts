/**
 * @module how a hook agent shows that a person approved an ask: Claude Code prompts on an `ask` answer and,
 * if the person says yes, runs the call and sends PostToolUse with the same tool_use_id. The ask is kept as
 * pending in the session state and becomes an approval only on that PostToolUse, for the same input.
 * Any other tool call of the session in between drops it: a forged PostToolUse would have to come from a
 * tool call, whose own PreToolUse comes first. A denial sends no PostToolUse, so nothing is kept.
 */
import type { ParsedHook } from "../adapters/agent-adapter.ts";
import { approvalKey } from "../engine/approval-key.ts";
import type { Decision, RememberRequest } from "../engine/schema.ts";
import { MAX_PENDING_REMEMBER, type SessionState } from "../engine/state.ts";

/** A yes that comes this much later than its ask is not taken for it (the dialog was long gone). */
export const PENDING_ASK_TTL_MS = 60 * 60 * 1000;

/**
 * Updates the session's pending ask for one hook call (after its decision); gives what the person approved
 * when this call shows the yes. Re-asks (PermissionRequest, evaluated on a copy) and events without a tool
 * (a Notification while the dialog is up) leave the pending ask as it is.
 */
export function observeHook(state: SessionState, parsed: ParsedHook, decision: Decision, now: number): RememberRequest[] | undefined {
  if (parsed.dryRun) return undefined;
  const ev = parsed.events[0];
  if (!ev?.tool) return undefined;
  const pending = state.pendingAsk;
  delete state.pendingAsk;
  if (ev.hook === "tool_call") {
    const callId = ev.tool.callId;
    if (decision.action === "ask" && decision.remember && decision.remember.length > 0 && callId) {
      state.pendingAsk = { callId: callId.slice(0, 512), at: now, remember: decision.remember.slice(0, MAX_PENDING_REMEMBER) };
    }
    return undefined;
  }
  if (ev.hook !== "tool_result" || parsed.agentEvent !== "PostToolUse" || !pending) return undefined;
  if (ev.tool.callId !== pending.callId || now - pending.at > PENDING_ASK_TTL_MS || ev.result?.isError === true) return undefined;
  // The call that ran is the call that was asked about: same tool, same normalized input.
  const key = approvalKey(ev.tool.name, ev.tool.input);
  const approved = pending.remember.filter((r) => r.tool === key.tool && r.inputHash === key.inputHash);
  return approved.length > 0 ? approved : undefined;
}
