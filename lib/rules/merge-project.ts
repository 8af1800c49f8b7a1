/** @module merges a project's layers the way every face must: trust applied, patterns through the safe regex compiler. */
import { type Layer, mergeLayers, type RuleSet } from "../engine/merge.ts";
import { createSafeRegexCompiler } from "../engine/regex-safety.ts";
import type { LoadIssue } from "../engine/schema.ts";

export interface ProjectMergeOptions {
  trusted: boolean;
  projectDir: string;
  plugins?: { actions: ReadonlySet<string>; checks: ReadonlySet<string> };
  lazyCompile?: boolean;
}

/**
 * The sidecar, the hook and the authoring commands all merge through here, so `rules explain` gives the
 * sidecar's verdict and no face can stall on a pattern: untrusted ones run on a linear-time engine, and
 * what the safety analysis reports or skips is added to `issues`.
 */
export function mergeProject(layers: Layer[], issues: LoadIssue[], opts: ProjectMergeOptions): RuleSet {
  return mergeLayers(layers, issues, {
    trusted: opts.trusted,
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
  });
}
