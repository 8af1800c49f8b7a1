/**
 * @module the deadline every face answers by: how long one hook process or one request may take, and the
 * decision it gives when that passes. Shared by `shepherd hook`, `shepherd serve` and `shepherd http`, so
 * a late evaluation is answered the same way everywhere (fail mode: closed blocks a pending tool call).
 */
import type { FailMode } from "./engine/schema-core.ts";
import type { Decision, HookName } from "./engine/schema.ts";

/** A hook process answers within this unless settings (`hookDeadlineMs`) or the agent's own timeout say less. */
export const DEFAULT_HOOK_DEADLINE_MS = 5_000;
/** Below this a healthy hook on a loaded machine would be cut off; above it an agent would wait for nothing. */
export const MIN_DEADLINE_MS = 100;
export const MAX_DEADLINE_MS = 60_000;

/** A number of ms within the sane range, or the fallback for anything else (a setting is user input). */
export function clampDeadline(ms: unknown, fallback: number): number {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) return fallback;
  return Math.min(Math.max(Math.round(ms), MIN_DEADLINE_MS), MAX_DEADLINE_MS);
}

/**
 * The deadline that still answers before the agent gives up after `agentTimeoutMs`: the answer has to be
 * written and read, the process to end and a stuck one's watchdog to step in, so a quarter of the
 * timeout (at most a second) is kept back.
 */
export function deadlineWithin(agentTimeoutMs: number): number {
  const margin = Math.min(1_000, agentTimeoutMs / 4);
  return Math.max(MIN_DEADLINE_MS, Math.floor(agentTimeoutMs - margin));
}

/** The deadline from Shepherd's setting and, when known, the agent's own timeout: the shorter wins. */
export function effectiveDeadline(settingMs: unknown, agentTimeoutMs: number | undefined, fallback = DEFAULT_HOOK_DEADLINE_MS): number {
  const own = clampDeadline(settingMs, fallback);
  return agentTimeoutMs === undefined ? own : Math.min(own, deadlineWithin(agentTimeoutMs));
}

/** `1.5 s`, `300 ms`: the reason a person reads. */
export function formatMs(ms: number): string {
  return ms >= 1_000 ? `${Number((ms / 1_000).toFixed(2))} s` : `${ms} ms`;
}

export function deadlineMessage(ms: number): string {
  return `evaluation exceeded ${formatMs(ms)}`;
}

/**
 * The decision for an evaluation that missed its deadline. Only a tool call has something to stop; after
 * the fact (results, prompts, stops) a late guard has nothing to hold back, so it gives no opinion.
 */
export function lateDecision(hook: HookName, failMode: FailMode, ms: number): Decision {
  if (hook === "tool_call" && failMode === "halt") {
    return { action: "block", reason: `Shepherd could not evaluate this call (${deadlineMessage(ms)}); it is blocked and the run is stopped because failMode is "halt".`, terminate: true, notify: [], steer: [], fired: [] };
  }
  if (hook === "tool_call" && failMode !== "open") {
    return { action: "block", reason: `Shepherd could not evaluate this call (${deadlineMessage(ms)}); it is blocked because failMode is "closed".`, notify: [], steer: [], fired: [] };
  }
  return { action: "allow", notify: [], steer: [], fired: [] };
}

export type Raced<T> = { late: false; value: T } | { late: true };

/**
 * Waits for `work` at most `ms`. The work is not cancelled (it may be stuck where nothing can reach it):
 * the caller answers without it, and whatever it returns later is dropped. A synchronous value passes
 * straight through, so a face's hot path pays no timer.
 */
export function raceDeadline<T>(work: T | Promise<T>, ms: number): Raced<T> | Promise<Raced<T>> {
  if (!(work instanceof Promise)) return { late: false, value: work };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ late: true }), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve({ late: false, value });
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * An evaluation answered by the deadline: `work` as it comes if it is in time (synchronous work passes
 * straight through), else the late decision for the events it was about (a tool call among them blocks).
 */
export function decideWithin(hooks: readonly HookName[], work: Decision | Promise<Decision>, ms: number, failMode: FailMode): Decision | Promise<Decision> {
  const settle = (r: Raced<Decision>): Decision => (r.late ? lateDecision(hooks.includes("tool_call") ? "tool_call" : (hooks[0] ?? "tool_result"), failMode, ms) : r.value);
  const raced = raceDeadline(work, ms);
  return raced instanceof Promise ? raced.then(settle) : settle(raced);
}
