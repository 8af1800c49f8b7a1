/**
 * @module regex safety: catastrophic-pattern detection at load and a linear-time engine (re2js) for
 * patterns that cannot be trusted to finish, so no rule can stall an evaluation.
 *
 * Bun's regex engine backtracks: `(a+)+$` is exponential, `(\w+\s?){1,3}$` grows as the fourth power
 * of the input, and even `.*a` or `\s+$` are quadratic in an unanchored search. Past an internal
 * limit it gives up and answers "no match". Event text reaches 8 MiB (a `write` of a big file), and
 * its content can come from a cloned repository. So (regex/safe-compiler.ts):
 * - untrusted project patterns always run on re2js (linear in the input, whatever the pattern);
 *   one re2js cannot run (lookaround, backreferences) is skipped and reported;
 * - a risky pattern (regex/risk.ts) always runs on re2js; when re2js cannot run it, natively under a
 *   size budget past which matching is an evaluation error (regex/guarded-regexp.ts), never "no match";
 * - a quadratic pattern that needs backtracking runs natively up to 16 KiB, under the same budget past it;
 * - every other pattern runs natively on short inputs (fast, and quadratic on a few KiB is harmless)
 *   and on re2js above `nativeMaxLength` (natively throughout if it needs backtracking: the residual risk).
 */
export { analyzePattern, isRisky, NATIVE_STEP_BUDGET, nativeLengthBudget, type PatternAnalysis, type PatternRisk } from "./regex/risk.ts";
export { BudgetedRegExp, compileLinear, GuardedRegExp, guardedRegExp, RegexBudgetError } from "./regex/guarded-regexp.ts";
export { createSafeRegexCompiler, DEFAULT_NATIVE_MAX_LENGTH, QUADRATIC_MAX_LENGTH, type RegexSafetyReport, type SafeCompilerOptions } from "./regex/safe-compiler.ts";
