/**
 * @module per-session budgets (settings `budgets`): most tool calls, most failed tool results, longest wall
 * time. A tool call past one is blocked with a reason that names the budget and the setting that set it.
 */
import type { HookEvent } from "./schema.ts";
import type { SessionState } from "./state.ts";

export interface Budgets {
  toolCalls?: number;
  failures?: number;
  wallTimeMs?: number;
}

export interface BudgetHit {
  budget: "toolCalls" | "failures" | "wallTimeMs";
  reason: string;
}

/**
 * The budget this tool call goes past, if any (counted before: the call that would be number N+1 is the
 * one blocked). Other events are never stopped: they have nothing pending.
 */
export function budgetHit(budgets: Budgets | undefined, state: SessionState, event: HookEvent, now: number): BudgetHit | undefined {
  if (!budgets || event.hook !== "tool_call") return undefined;
  const { toolCalls, failures, wallTimeMs } = budgets;
  if (toolCalls !== undefined && state.calls > toolCalls) {
    return { budget: "toolCalls", reason: `Blocked: this session has used its budget of ${toolCalls} tool calls (setting shepherd.budgets.toolCalls). Stop here and report to the user what is done and what is left.` };
  }
  if (failures !== undefined && state.errors >= failures) {
    return { budget: "failures", reason: `Blocked: ${state.errors} tool calls have failed in this session, its budget is ${failures} (setting shepherd.budgets.failures). Stop and ask the user how to go on.` };
  }
  if (wallTimeMs !== undefined && state.startedAt > 0 && now - state.startedAt > wallTimeMs) {
    return { budget: "wallTimeMs", reason: `Blocked: this session has run for more than ${Math.round(wallTimeMs / 1000)} s, its budget (setting shepherd.budgets.wallTimeMs). Stop here and report to the user.` };
  }
  return undefined;
}

/**
 * The budgets of a project's settings over the user's: a project (a cloned repository, perhaps hostile)
 * may tighten a budget the user set, never loosen it; one the user left unset it may set.
 */
export function tighterBudgets(user: Record<string, unknown>, project: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...user, ...project };
  for (const key of ["toolCalls", "failures", "wallTimeMs"]) {
    const u = user[key];
    const p = project[key];
    if (typeof u === "number" && typeof p === "number") out[key] = Math.min(u, p);
    else if (typeof u === "number") out[key] = u;
  }
  return out;
}
