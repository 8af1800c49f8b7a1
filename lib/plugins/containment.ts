/**
 * @module what a plugin may answer, and what Shepherd answers when it cannot: plugin results are a
 * trust boundary, so they are validated here and a failure becomes data, never an exception.
 */
import * as v from "valibot";
import type { PartialDecision } from "../engine/evaluate.ts";
import { type FailMode, type HookName, issuePath } from "../engine/schema-core.ts";

export type { FailMode };

const MAX_TEXT = 16_384;
const MAX_LIST = 32;

const Text = v.pipe(v.string(), v.maxLength(MAX_TEXT, `is longer than ${MAX_TEXT} characters`));
const TextList = v.pipe(v.array(Text), v.maxLength(MAX_LIST, `has more than ${MAX_LIST} entries`));

export const PartialDecisionSchema = v.pipe(
  v.strictObject({
    action: v.optional(v.picklist(["block", "ask", "rewrite"], 'must be "block", "ask" or "rewrite" (notify and steer are lists: {notify: ["..."]})')),
    reason: v.optional(Text),
    input: v.optional(v.record(v.string(), v.unknown())),
    notify: v.optional(TextList),
    steer: v.optional(TextList),
  }),
  v.check((d) => d.action !== "rewrite" || d.input !== undefined, 'action "rewrite" needs the whole new tool input in `input`'),
);

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${issuePath(i) || "(value)"}: ${i.message}`)
    .join("; ");
}

/** `undefined`/`null` mean "no opinion"; anything else must be a partial decision. */
export function checkActionResult(value: unknown): Checked<PartialDecision | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  const parsed = v.safeParse(PartialDecisionSchema, value);
  if (!parsed.success) return { ok: false, message: `returned a malformed decision: ${describeIssues(parsed.issues)}` };
  return { ok: true, value: parsed.output };
}

export function checkCheckResult(value: unknown): Checked<boolean> {
  if (typeof value === "boolean") return { ok: true, value };
  return { ok: false, message: `returned ${describeValue(value)} instead of true or false` };
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}


/**
 * The decision for an action that failed. Fail closed only where blocking means something (before a
 * tool runs): a broken guard must not silently wave a command through, but a broken reminder after
 * the fact has nothing to stop.
 */
export function failedActionDecision(hook: HookName, failMode: FailMode, what: string): PartialDecision | undefined {
  if (hook === "tool_call" && failMode !== "open") {
    return { action: "block", reason: `${what}; Shepherd blocks the call because failMode is "closed" (fix the plugin or set failMode "open")` };
  }
  return undefined;
}

/** Keeps user-provided budgets sane: a project setting must not let a plugin stall every event for minutes. */
export function clampBudget(ms: unknown, fallback: number, max = 60_000): number {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) return fallback;
  return Math.min(Math.max(Math.round(ms), 1), max);
}
