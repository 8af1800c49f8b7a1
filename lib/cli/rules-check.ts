/** @module `shepherd rules check [files...]`: validation with source positions, static analysis and inline tests. */
import { managedRulesFile } from "../rules/managed.ts";
import { resolve } from "node:path";
import { analyzeRules, locatePath, type SourceText, sourceText, withSuggestions } from "../engine/analyze.ts";
import { describeCase, runInlineTests } from "../engine/inline-tests.ts";
import type { LayerName, LoadIssue } from "../engine/schema.ts";
import { globalRulesFile } from "../rules/paths.ts";
import { type CliIO, displayPath, location, parseArgv, plural, str, type Style, styleFor, usageError, writeJson } from "./format.ts";
import { type CliDeps, loadFile, loadProject, mergeFiles, type RuleFile } from "./rule-files.ts";
import { processPatternFacts } from "../rules/pattern-facts-cache.ts";
import { VERSION } from "../version.ts";

export const RULES_CHECK_HELP = `Usage: shepherd rules check [files...] [--layer builtin|managed|global|project] [--json] [--no-tests]

Validates rule files and reports every problem as
  file:line:col  json.path  message
Errors: JSON syntax, unknown keys, wrong types, invalid regular expressions, fields that
do not fit the hook. Warnings: unknown tools, actions, checks or hooks ("did you mean"),
rules that can never fire or are shadowed by an earlier block, a name defined in two
files of one layer, and failing inline tests.

With no files, checks every layer of the current project: the managed policy
(/etc/shepherd/managed-rules.json), built-in rules, ~/.pi/agent/shepherd-rules.json
($PI_CODING_AGENT_DIR) and .pi/shepherd-rules*.json.

Options:
  --layer L     treat the named files as this layer (default: project, or global or
                managed for those rule files)
  --json        machine-readable output: {ok, files, issues}
  --no-tests    do not run the rules' inline tests
  -h, --help    this help

Exit status: 0 when there are no errors (warnings allowed), 1 on errors, 2 on usage errors.

Example:
  shepherd rules check .pi/shepherd-rules.json
  .pi/shepherd-rules.json:4:7  rules[0].hook  error: Invalid type: Expected "tool_call" | ... but received "tool_cal"; did you mean "tool_call"?
`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  layer: { type: "string" },
  "no-tests": { type: "boolean" },
} as const;

export interface CheckReport {
  files: { file: string; source: LayerName; rules: number; ok: boolean }[];
  issues: LoadIssue[];
  errors: number;
  warnings: number;
}

/** Everything `rules check` finds in a list of loaded files, positions filled in where the text allows. */
export async function checkFiles(files: RuleFile[], extraIssues: LoadIssue[], opts: { cwd: string; trusted: boolean; tests: boolean; deps: CliDeps }): Promise<CheckReport> {
  const sources = new Map<string, SourceText>();
  for (const f of files) if (f.text !== undefined) sources.set(f.file, sourceText(f.text));
  const names = opts.deps.plugins?.names(opts.cwd) ?? { actions: new Set<string>(), checks: new Set<string>() };

  const issues: LoadIssue[] = [...extraIssues];
  for (const f of files) {
    const src = sources.get(f.file);
    issues.push(...(src ? withSuggestions(f.result.issues, src) : f.result.issues));
  }
  issues.push(
    ...analyzeRules(
      files.map((f) => ({ file: f.file, source: f.source, rules: f.result.rules, ...(f.text !== undefined ? { text: f.text } : {}) })),
      { pluginActions: names.actions, pluginChecks: names.checks },
    ),
  );
  // The regex compile policy reports risky patterns here (moved to the linear-time engine, or run under a budget).
  const compileIssues: LoadIssue[] = [];
  const set = mergeFiles(files, compileIssues, { trusted: true, projectDir: opts.cwd, pluginActions: names.actions, pluginChecks: names.checks });
  for (const i of compileIssues) {
    const src = sources.get(i.file);
    const pos = src ? locatePath(src, i.path) : undefined;
    issues.push({ ...i, ...(pos ?? {}) });
  }
  for (const s of set.skipped) {
    // Disabled, untrusted and unknown-plugin skips are expected or reported above; these two mean a rule that can never apply.
    if (!s.reason.startsWith("changes rule") && !s.reason.startsWith("cannot compile")) continue;
    const src = sources.get(s.rule.file);
    const pos = src ? locatePath(src, s.rule.jsonPath) : undefined;
    issues.push({ file: s.rule.file, path: s.rule.jsonPath, severity: "warning", message: `rule "${s.rule.name}" never applies: ${s.reason}`, ...(pos ?? {}) });
  }
  if (opts.tests) {
    const evalHost = opts.deps.plugins?.evalHost(opts.cwd);
    const results = await runInlineTests(set, { trusted: opts.trusted, pluginActions: names.actions, pluginChecks: names.checks, ...(evalHost ? { host: evalHost } : {}) });
    for (const r of results) {
      if (r.status !== "fail") continue;
      const src = sources.get(r.rule.file);
      const pos = src ? locatePath(src, r.path) : undefined;
      issues.push({ file: r.rule.file, path: r.path, severity: "warning", message: `inline test of "${r.rule.name}" failed (${describeCase(r.test)}): ${r.message ?? ""}`, ...(pos ?? {}) });
    }
  }

  const fileOrder = new Map(files.map((f, i) => [f.file, i]));
  issues.sort((a, b) => (fileOrder.get(a.file) ?? -1) - (fileOrder.get(b.file) ?? -1) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const errors = issues.filter((i) => i.severity === "error").length;
  return {
    files: files.map((f) => ({ file: f.file, source: f.source, rules: f.result.rules.length, ok: f.result.ok })),
    issues,
    errors,
    warnings: issues.length - errors,
  };
}

export function formatIssue(issue: LoadIssue, style: Style, cwd: string): string {
  const loc = style.bold(location(displayPath(issue.file, cwd), issue.line, issue.column));
  const sev = issue.severity === "error" ? style.red("error") : style.yellow("warning");
  return `${loc}  ${style.cyan(issue.path || "(file)")}  ${sev}: ${issue.message}`;
}

export async function runRulesCheck(argv: string[], io: CliIO, deps: CliDeps = {}): Promise<number> {
  const parsed = parseArgv(argv, OPTIONS);
  if (!parsed.ok) return usageError(io, "rules check", parsed.message);
  if (parsed.values.help) {
    io.stdout(RULES_CHECK_HELP);
    return 0;
  }
  const layer = str(parsed.values.layer);
  if (layer !== undefined && layer !== "builtin" && layer !== "managed" && layer !== "global" && layer !== "project") {
    return usageError(io, "rules check", `--layer must be builtin, managed, global or project, not "${layer}"`);
  }
  const style = styleFor(io);
  const tests = parsed.values["no-tests"] !== true;

  let report: CheckReport;
  // The sidecar's pattern facts: a file checked before (or served) has none of its patterns parsed again; its
  // issues are the load's own, risky patterns included (the analyses are kept, not the verdicts).
  const facts = processPatternFacts(io.env, VERSION);
  const withFacts: CliDeps = { ...deps, patternFacts: facts };
  if (parsed.positionals.length > 0) {
    const globalFile = globalRulesFile(io.env);
    const files = parsed.positionals.map((p) => {
      const abs = resolve(io.cwd, p);
      return loadFile(abs, layer ?? (abs === globalFile ? "global" : abs === managedRulesFile(io.env) ? "managed" : "project"), undefined, facts);
    });
    report = await checkFiles(files, [], { cwd: io.cwd, trusted: true, tests, deps });
  } else {
    const project = loadProject(io.cwd, io.env, withFacts);
    report = await checkFiles(project.files, project.settingsIssues, { cwd: project.cwd, trusted: project.trusted, tests, deps });
  }
  facts.flush();

  if (parsed.values.json) {
    writeJson(io, { ok: report.errors === 0, ...report });
    return report.errors > 0 ? 1 : 0;
  }
  for (const issue of report.issues) io.stdout(`${formatIssue(issue, style, io.cwd)}\n`);
  const ruleCount = report.files.reduce((n, f) => n + f.rules, 0);
  const scope = `${plural(report.files.length, "file")}, ${plural(ruleCount, "rule")}`;
  if (report.files.length === 0) io.stdout(`${style.dim("no rule files found")} (looked for built-in, global and .pi/shepherd-rules*.json)\n`);
  else if (report.errors > 0) io.stdout(`${style.red("✗")} ${plural(report.errors, "error")}, ${plural(report.warnings, "warning")} in ${scope}\n`);
  else if (report.warnings > 0) io.stdout(`${style.yellow("!")} ${plural(report.warnings, "warning")} in ${scope}\n`);
  else io.stdout(`${style.green("✓")} ${scope}: no problems\n`);
  return report.errors > 0 ? 1 : 0;
}
