/** @module `shepherd rules test [files...]`: runs the rules' inline `tests`; exit 1 when a case fails. */
import { resolve } from "node:path";
import { locatePath, type SourceText, sourceText } from "../engine/analyze.ts";
import { describeCase, type InlineTestResult, runInlineTests, runRuleTests } from "../engine/inline-tests.ts";
import type { RuleSet } from "../engine/merge.ts";
import { type CliIO, displayPath, location, parseArgv, plural, styleFor, usageError, writeJson } from "./format.ts";
import { type CliDeps, loadFile, loadProject, mergeFiles, type RuleFile } from "./rule-files.ts";
import { formatIssue } from "./rules-check.ts";

export const RULES_TEST_HELP = `Usage: shepherd rules test [files...] [--verbose] [--json]

Runs every rule's inline "tests" through the real engine. Each case is an event
({command?, path?, text?, output?, tool?, hook?, isError?}) and the outcome the rule
should produce ("expect": block, ask, rewrite, notify, steer, or allow = does not fire).
A rule is tested on its own, so its neighbours cannot make a case pass or fail; a rule
with a "state" counter sees the case "gte" times, and a "has_edits" rule starts after
an edit.

With no files, tests the active rules of every layer of the current project.

Options:
  --verbose   list passing cases too
  --json      machine-readable output: {ok, passed, failed, skipped, results}
  -h, --help  this help

Exit status: 0 when every case passes, 1 when one fails (or a file has errors), 2 on usage errors.

Example rule with tests:
  { "name": "no-checkout-discard", "action": "block", "pattern": "git checkout .*--",
    "tests": [ { "command": "git checkout -- a.ts", "expect": "block" },
               { "command": "git checkout main", "expect": "allow" } ] }
  $ shepherd rules test
  ✓ no-checkout-discard  2 cases
  1 rule, 2 cases: 2 passed
`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  verbose: { type: "boolean", short: "v" },
} as const;

export async function runRulesTest(argv: string[], io: CliIO, deps: CliDeps = {}): Promise<number> {
  const parsed = parseArgv(argv, OPTIONS);
  if (!parsed.ok) return usageError(io, "rules test", parsed.message);
  if (parsed.values.help) {
    io.stdout(RULES_TEST_HELP);
    return 0;
  }
  const style = styleFor(io);
  let files: RuleFile[];
  let set: RuleSet;
  let cwd = resolve(io.cwd);
  let pluginActions: ReadonlySet<string> = new Set();
  let pluginChecks: ReadonlySet<string> = new Set();
  let evalHost = deps.plugins?.evalHost(cwd);
  // Files named on the command line are the user's own, merged as trusted; otherwise the project's trust.
  let trusted = true;
  if (parsed.positionals.length > 0) {
    files = parsed.positionals.map((p) => loadFile(resolve(io.cwd, p), "project"));
    const names = deps.plugins?.names(cwd);
    if (names) ({ actions: pluginActions, checks: pluginChecks } = names);
    set = mergeFiles(files, [], { trusted: true, projectDir: cwd, pluginActions, pluginChecks });
  } else {
    const project = loadProject(io.cwd, io.env, deps);
    ({ files, set, cwd, pluginActions, pluginChecks, trusted } = project);
    evalHost = project.evalHost;
  }

  const fileErrors = files.flatMap((f) => f.result.issues.filter((i) => i.severity === "error"));
  const testOpts = { trusted, pluginActions, pluginChecks, ...(evalHost ? { host: evalHost } : {}) };
  const results = await runInlineTests(set, testOpts);
  // Rules not in force (disabled, untrusted, ...) still have tests worth running: their files say what they mean.
  for (const s of set.skipped) if (s.rule.tests.length > 0 && !s.rule.patch) results.push(...(await runRuleTests(s.rule, testOpts)));

  const passed = results.filter((r) => r.status === "pass").length;
  const failed = results.filter((r) => r.status === "fail").length;
  const skipped = results.length - passed - failed;
  const ok = failed === 0 && fileErrors.length === 0;

  if (parsed.values.json) {
    writeJson(io, {
      ok,
      passed,
      failed,
      skipped,
      fileErrors,
      results: results.map((r) => ({ rule: r.rule.name, file: r.rule.file, path: r.path, case: r.test, status: r.status, ...(r.actual ? { actual: r.actual } : {}), ...(r.message ? { message: r.message } : {}) })),
    });
    return ok ? 0 : 1;
  }

  for (const issue of fileErrors) io.stdout(`${formatIssue(issue, style, io.cwd)}\n`);
  const sources = new Map<string, SourceText>();
  for (const f of files) if (f.text !== undefined) sources.set(f.file, sourceText(f.text));
  const byRule = new Map<string, InlineTestResult[]>();
  for (const r of results) {
    const key = `${r.rule.file}\0${r.rule.jsonPath}`;
    byRule.set(key, [...(byRule.get(key) ?? []), r]);
  }
  for (const list of byRule.values()) {
    const rule = (list[0] as InlineTestResult).rule;
    const bad = list.filter((r) => r.status === "fail");
    const skips = list.filter((r) => r.status === "skip");
    const mark = bad.length > 0 ? style.red("✗") : skips.length === list.length ? style.yellow("-") : style.green("✓");
    const note = skips.length > 0 ? style.dim(` (${skips.length} skipped: ${skips[0]?.message ?? ""})`) : "";
    io.stdout(`${mark} ${style.bold(rule.name)}  ${plural(list.length, "case")}${note}  ${style.dim(displayPath(rule.file, io.cwd))}\n`);
    for (const r of list) {
      if (r.status === "pass" && !parsed.values.verbose) continue;
      if (r.status === "skip") continue;
      const src = sources.get(r.rule.file);
      const pos = src ? locatePath(src, r.path) : undefined;
      const where = location(displayPath(r.rule.file, io.cwd), pos?.line, pos?.column);
      const head = r.status === "pass" ? style.green("pass") : style.red("FAIL");
      io.stdout(`    ${head} ${describeCase(r.test)} -> expect ${r.test.expect}${r.status === "fail" ? `: ${r.message ?? ""}` : ""}  ${style.dim(`${where} ${r.path}`)}\n`);
    }
  }
  const ruleCount = byRule.size;
  if (results.length === 0) io.stdout(`${style.dim("no inline tests found")} (add "tests": [{"command": "...", "expect": "block"}] to a rule)\n`);
  else {
    const summary = `${plural(ruleCount, "rule")}, ${plural(results.length, "case")}: ${passed} passed${failed > 0 ? `, ${style.red(`${failed} failed`)}` : ""}${skipped > 0 ? `, ${skipped} skipped` : ""}`;
    io.stdout(`${ok ? style.green("✓") : style.red("✗")} ${summary}\n`);
  }
  return ok ? 0 : 1;
}
