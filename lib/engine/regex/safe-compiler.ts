/**
 * @module the compile policy every face merges with: which engine runs a rule's pattern, decided from the
 * project's trust and the pattern's risk analysis, and what is reported about it.
 */
import type { RegexCompiler } from "../match.ts";
import type { Rule } from "../schema.ts";
import { BudgetedRegExp, compileLinear, guardedRegExp } from "./guarded-regexp.ts";
import { analysisOf } from "../prepared.ts";
import { isRisky, nativeLengthBudget, type PatternAnalysis } from "./risk.ts";

/** Inputs longer than this never reach the backtracking engine (a quadratic pattern costs ~10 ms here). */
export const DEFAULT_NATIVE_MAX_LENGTH = 4096;

/**
 * The longest input a quadratic pattern that needs backtracking runs on natively (~150 ms for the
 * built-in secrets pattern at its worst); past it, as for any budgeted pattern, a linear-time superset
 * check answers "no match" exactly or matching is an evaluation error.
 */
export const QUADRATIC_MAX_LENGTH = 16_384;

export interface RegexSafetyReport {
  rule: Rule;
  pattern: string;
  /**
   * What happened to the pattern: moved to the linear-time engine, run natively under a size budget
   * (past which matching is an evaluation error), or skipped.
   */
  outcome: "linear" | "budget" | "skipped";
  message: string;
}

export interface SafeCompilerOptions {
  /** Whether the project layer is trusted (DESIGN section 6). */
  trusted: boolean;
  nativeMaxLength?: number;
  /** Told about every flagged or skipped pattern (for load reports). */
  onReport?: (report: RegexSafetyReport) => void;
}

function describeRisk(analysis: PatternAnalysis): string {
  const r = analysis.risk;
  if (!r) return "";
  return r.kind === "exponential" ? `can take exponential time: ${r.why}` : `can take polynomial time of degree ${r.degree ?? 2}: ${r.why}`;
}

/**
 * The `MergeOptions.compileRegex` for the rule host. Throwing makes `mergeLayers` skip the rule with
 * the message as its reason, which is how an unrunnable pattern is "skipped and reported".
 *
 * - an untrusted project's patterns: re2js always; one it cannot run is skipped;
 * - a risky trusted pattern (see `isRisky`): re2js always; one it cannot run runs natively under a size
 *   budget (`BudgetedRegExp`), so it never answers "no match" it did not finish computing;
 * - a quadratic trusted pattern that needs backtracking: natively under a budget of
 *   `QUADRATIC_MAX_LENGTH` characters (not reported: built-in rules have such patterns);
 * - any other trusted pattern: natively up to `nativeMaxLength` characters, re2js above (natively
 *   throughout when it needs backtracking and the analysis sees no risk).
 */
export function createSafeRegexCompiler(opts: SafeCompilerOptions): RegexCompiler {
  const nativeMax = opts.nativeMaxLength ?? DEFAULT_NATIVE_MAX_LENGTH;
  return (pattern, rawFlags, rule) => {
    const flags = (rawFlags ?? "").replace(/[gy]/g, "");
    const untrusted = rule.source === "project" && !opts.trusted;
    let analysis: PatternAnalysis;
    try {
      // Prepared with the rule on load (the load cache and the snapshot carry it): a hook does not analyse again.
      analysis = analysisOf(rule, pattern, flags);
    } catch (err) {
      // An invalid pattern: the native message first, as from the constructors below.
      new RegExp(pattern, flags);
      throw err;
    }
    const risky = isRisky(analysis);
    // Trusted and not risky: native on short inputs; the linear engine only matters past nativeMax.
    // Either constructor throws a syntax error with its native message (load.ts reports it with positions).
    if (!untrusted && !risky) {
      if (!analysis.needsBacktracking) return guardedRegExp(pattern, flags, nativeMax, true);
      // No linear engine past nativeMax for this one, so a quadratic pattern (`.*-key.*\.pem` beside a
      // lookahead) gets a length budget instead: 64 KB of a model's command would cost it seconds.
      if (analysis.risk) return BudgetedRegExp.create(pattern, flags, QUADRATIC_MAX_LENGTH, analysis.superset, `rule "${rule.name}"`);
      return new RegExp(pattern, flags);
    }
    // Checked natively first, so a syntax error keeps the native message rather than re2js's.
    new RegExp(pattern, flags);
    let linearError = "";
    try {
      compileLinear(pattern, flags);
    } catch (err) {
      linearError = err instanceof Error ? err.message : String(err);
    }
    if (linearError === "") {
      if (risky) opts.onReport?.({ rule, pattern, outcome: "linear", message: `risky: pattern /${pattern}/ ${describeRisk(analysis)}; it runs on the linear-time engine` });
      return guardedRegExp(pattern, flags, -1);
    }
    if (untrusted) {
      const message = `pattern /${pattern}/ needs a backtracking engine (${linearError}); an untrusted project's patterns must run in linear time: run \`shepherd trust\` to allow it`;
      opts.onReport?.({ rule, pattern, outcome: "skipped", message });
      throw new Error(message);
    }
    const budget = nativeLengthBudget(analysis.risk as NonNullable<PatternAnalysis["risk"]>);
    opts.onReport?.({
      rule,
      pattern,
      outcome: "budget",
      message: `risky: pattern /${pattern}/ ${describeRisk(analysis)}, and the linear-time engine cannot run it (${linearError}); it runs under a budget: natively on inputs up to ${budget} characters, and on a longer input it may match the rule errors (the call fails closed)`,
    });
    return BudgetedRegExp.create(pattern, flags, budget, analysis.superset, `rule "${rule.name}"`);
  };
}
