/** @module merges a project's layers the way every face must: trust applied, patterns through the safe regex compiler. */
import { type Layer, mergeLayers, preselectedRuleSet, type RuleSet } from "../engine/merge.ts";
import type { Rule } from "../engine/schema.ts";
import { createSafeRegexCompiler } from "../engine/regex-safety.ts";
import type { LoadIssue } from "../engine/schema.ts";

export interface ProjectMergeOptions {
  trusted: boolean;
  projectDir: string;
  plugins?: { actions: ReadonlySet<string>; checks: ReadonlySet<string> };
  lazyCompile?: boolean;
  /** `unlockBuiltins` of the global settings; `report` adds an issue for each name that unlocks nothing. */
  unlock?: { names: readonly string[]; file: string; report: boolean };
  /**
   * Inline tests: a rule not in force for its trust (a rewrite in an untrusted project) is still merged, so
   * its cases run; its patterns compile under the real trust all the same (a case cannot stall where the rule cannot).
   */
  toTest?: boolean;
}

/** Names in `unlockBuiltins` that are no locked built-in rule: reported, so a typo never passes for an unlock. */
function unlockIssues(layers: Layer[], unlock: NonNullable<ProjectMergeOptions["unlock"]>): LoadIssue[] {
  const builtins = new Map<string, boolean>();
  for (const layer of layers) if (layer.source === "builtin") for (const f of layer.files) for (const r of f.rules) builtins.set(r.name, r.locked);
  const out: LoadIssue[] = [];
  unlock.names.forEach((name, i) => {
    const locked = builtins.get(name);
    if (locked === true) return;
    const message = locked === undefined ? `unlockBuiltins: "${name}" is not a built-in rule; nothing is unlocked` : `unlockBuiltins: built-in rule "${name}" is not locked; nothing to unlock`;
    out.push({ file: unlock.file, path: `shepherd.unlockBuiltins[${i}]`, message, severity: "error" });
  });
  return out;
}

/**
 * The sidecar, the hook, the authoring commands (`rules check/explain/list`, `replay`) and the inline tests all
 * merge through here, so `rules explain` gives the sidecar's verdict and no face can stall on a pattern: untrusted ones run on a linear-time engine, and
 * what the safety analysis reports or skips is added to `issues`.
 */
export function mergeProject(layers: Layer[], issues: LoadIssue[], opts: ProjectMergeOptions): RuleSet {
  if (opts.unlock?.report) issues.push(...unlockIssues(layers, opts.unlock));
  return mergeLayers(layers, issues, {
    trusted: opts.trusted || opts.toTest === true,
    projectDir: opts.projectDir,
    compileRegex: createSafeRegexCompiler({
      trusted: opts.trusted,
      onReport: (r) =>
        issues.push({ file: r.rule.file, path: `${r.rule.jsonPath}.pattern`, message: `rule "${r.rule.name}": ${r.message}`, severity: r.outcome === "skipped" ? "error" : "warning" }),
    }),
    // Kept rules compile again on first use, with the same decisions and nothing reported twice.
    recompileRegex: createSafeRegexCompiler({ trusted: opts.trusted }),
    ...(opts.plugins ? { pluginActions: opts.plugins.actions, pluginChecks: opts.plugins.checks } : {}),
    ...(opts.lazyCompile ? { lazyCompile: true } : {}),
    ...(opts.unlock && opts.unlock.names.length > 0 ? { unlocked: new Set(opts.unlock.names) } : {}),
  });
}

/**
 * The rule set of rules this project merged before (a hook snapshot's picks, in merged order): compiled on
 * first use with the same safe compiler as `mergeProject`, with nothing merged again (the snapshot was saved
 * from a merge with no plugin rules and no broken ones, so every rule passed that merge's checks).
 */
export function preselectedProject(rules: Rule[], issues: LoadIssue[], opts: { trusted: boolean }): RuleSet {
  return preselectedRuleSet(rules, issues, createSafeRegexCompiler({ trusted: opts.trusted }));
}
