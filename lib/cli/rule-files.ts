/**
 * @module the rule files of a project as the authoring commands see them: every layer's text, load
 * result and merged set. Unlike the long-running RuleHost there is no "last good" state here: a CLI
 * run shows what the files say now.
 */
import { resolve } from "node:path";
import type { EvalHost } from "../engine/evaluate.ts";
import { depthIssue, type LoadResult, loadRuleText } from "../engine/load.ts";
import { MAX_RULE_FILE_BYTES, readBounded, tooLargeMessage } from "../fs/bounded-read.ts";
import type { Layer, RuleSet } from "../engine/merge.ts";
import type { PatternFactsStore } from "../engine/prepared.ts";
import type { LayerName, LoadIssue, Settings } from "../engine/schema.ts";
import { BUILTIN_RULE_FILES } from "../rules/builtin-rules.gen.ts";
import { mergeProject } from "../rules/merge-project.ts";
import { type Env, globalRulesFile, globalSettingsFile, homeDir, overBudgetMessage, projectRuleBudget, projectRuleFileList, skippedRuleFileMessage } from "../rules/paths.ts";
import { loadSettings } from "../rules/settings.ts";
import { applyManagedPolicy, type ManagedPolicy, managedRulesFile, projectRulesOffIssue, restrictive } from "../rules/managed.ts";
import type { PluginProvider } from "../rules/workspace.ts";
import { packBudget, resolvePacks, withPackMode, type PackContext } from "../rules/packs/resolve.ts";
import type { LockRead } from "../rules/packs/lock-file.ts";

/** Dependencies main.ts may inject; tests pass built-in rule texts to stay independent of rules/*.json. */
export interface CliDeps {
  plugins?: PluginProvider;
  builtin?: readonly { file: string; text: string; loaded?: LoadResult }[];
  /** Pattern facts across processes (lib/rules/pattern-facts-cache.ts): a pattern seen before is not parsed. */
  patternFacts?: PatternFactsStore;
}

export interface RuleFile {
  file: string;
  source: LayerName;
  /** undefined when the file could not be read (the issue says why). */
  text: string | undefined;
  result: LoadResult;
}

export interface ProjectRules {
  cwd: string;
  files: RuleFile[];
  settings: Settings;
  trusted: boolean;
  /** Settings problems plus every file's load issues. */
  issues: LoadIssue[];
  settingsIssues: LoadIssue[];
  /** The managed policy as applied (lib/rules/managed.ts): `broken` names why it is read most restrictively. */
  managed: ManagedPolicy;
  set: RuleSet;
  pluginActions: ReadonlySet<string>;
  pluginChecks: ReadonlySet<string>;
  home: string;
  evalHost?: EvalHost;
}

/** Bounded as the rule host reads (lib/fs/bounded-read.ts): a FIFO, a device or an oversized file is refused unread. */
function readText(file: string, maxBytes = MAX_RULE_FILE_BYTES): { text?: string; error?: string; missing?: boolean; size?: number } {
  const read = readBounded(file, maxBytes);
  return read.ok ? { text: read.text, size: read.identity.size } : { error: read.message, missing: read.reason === "missing", ...(read.identity ? { size: read.identity.size } : {}) };
}

function failedFile(file: string, source: LayerName, issue: LoadIssue): RuleFile {
  return { file, source, text: undefined, result: { rules: [], ok: false, applies: false, issues: [issue] } };
}

export function loadFile(file: string, source: LayerName, text?: string, facts?: PatternFactsStore): RuleFile {
  const read = text !== undefined ? { text } : readText(file);
  if (read.text === undefined) return failedFile(file, source, { file, path: "", message: read.error ?? "cannot read", severity: "error" });
  // Too deep for any parser: kept without its text, so no later step (positions, suggestions) parses it.
  const deep = depthIssue(read.text, file);
  if (deep) return failedFile(file, source, deep);
  return { file, source, text: read.text, result: loadRuleText(read.text, { file, source, ...(facts ? { facts } : {}) }) };
}

/**
 * The three layers of a project, in merge order (built-in, global, project). Missing optional files are
 * skipped; project files past the count cap or the byte budget (lib/rules/paths.ts) are kept as errors.
 */
export function discoverFiles(cwd: string, env: Env, settings: Settings, deps: CliDeps = {}, trusted = false, projectRules = true): RuleFile[] {
  const out: RuleFile[] = [];
  // The embedded files carry their load result, made at build time by this loader: their patterns are not parsed again.
  for (const b of deps.builtin ?? BUILTIN_RULE_FILES) out.push(b.loaded ? { file: b.file, source: "builtin", text: b.text, result: b.loaded } : loadFile(b.file, "builtin", b.text));
  const managed = managedRulesFile(env);
  const m = readText(managed);
  if (m.text !== undefined) out.push(loadFile(managed, "managed", m.text));
  else if (!m.missing) out.push(failedFile(managed, "managed", { file: managed, path: "", message: m.error ?? "cannot read", severity: "error" }));
  if (!projectRules) return [...out, ...globalOnly(env)];
  const global = globalRulesFile(env);
  const g = readText(global);
  if (g.text !== undefined) out.push(loadFile(global, "global", g.text, deps.patternFacts));
  else if (!g.missing) out.push(failedFile(global, "global", { file: global, path: "", message: g.error ?? "cannot read", severity: "error" }));
  const project = projectRuleFileList(cwd, settings.projectRulesPattern);
  let budget = projectRuleBudget(trusted);
  for (const file of project.files) {
    const limit = Math.min(budget, MAX_RULE_FILE_BYTES);
    const read = readText(file, limit);
    if (read.text !== undefined) {
      budget -= read.size ?? 0;
      out.push(loadFile(file, "project", read.text, deps.patternFacts));
    } else if (limit < MAX_RULE_FILE_BYTES && (read.size ?? 0) > limit && (read.size ?? 0) <= MAX_RULE_FILE_BYTES) {
      out.push(failedFile(file, "project", { file, path: "", message: overBudgetMessage(trusted), severity: "error" }));
    } else if (!read.missing) {
      const message = (read.size ?? 0) > MAX_RULE_FILE_BYTES ? tooLargeMessage() : (read.error ?? "cannot read");
      out.push(failedFile(file, "project", { file, path: "", message, severity: "error" }));
    }
  }
  for (const file of project.skipped) out.push(failedFile(file, "project", { file, path: "", message: skippedRuleFileMessage(), severity: "error" }));
  return out;
}

function globalOnly(env: Env): RuleFile[] {
  const global = globalRulesFile(env);
  const g = readText(global);
  if (g.text !== undefined) return [loadFile(global, "global", g.text)];
  return g.missing ? [] : [failedFile(global, "global", { file: global, path: "", message: g.error ?? "cannot read", severity: "error" })];
}

/** Why the managed rule file, when there, cannot be used as written (see RuleHost's managedRuleProblem). */
function managedProblem(files: RuleFile[]): { file: string; why: string } | undefined {
  const f = files.find((x) => x.source === "managed");
  if (!f || f.result.ok) return undefined;
  const first = f.result.issues.find((i) => i.severity === "error") ?? f.result.issues[0];
  return { file: f.file, why: first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "does not load" };
}

/**
 * The files with the rule files of the packs each one extends inserted before it (lib/rules/packs/), in the
 * extending file's layer; pack problems are added to the extending file's issues, so `rules check` fails on them.
 */
export function withPacks(files: RuleFile[], ctx: { cwd: string; env: Env; trusted: boolean; managed: ManagedPolicy }): RuleFile[] {
  const out: RuleFile[] = [];
  const locks = new Map<string, LockRead>();
  const budgets = new Map<LayerName, PackContext["budget"]>();
  const seen = new Set(files.map((f) => f.file));
  for (const f of files) {
    if (f.source === "builtin" || f.result.extends === undefined) {
      out.push(f);
      continue;
    }
    let budget = budgets.get(f.source);
    if (!budget) budgets.set(f.source, (budget = packBudget(f.source, ctx.trusted)));
    const resolved = resolvePacks(f.file, f.source, f.result.extends, { cwd: ctx.cwd, env: ctx.env, budget, locks, ...(ctx.managed.allowedPacks ? { allowed: ctx.managed.allowedPacks } : {}) });
    for (const t of resolved.files) {
      if (seen.has(t.file)) continue;
      seen.add(t.file);
      const loaded = loadFile(t.file, f.source, t.text);
      const own: LoadIssue[] = loaded.result.extends === undefined ? [] : [{ file: t.file, path: "extends", message: `pack "${t.pack}": a pack's own "extends" is not followed (only rules files extend packs)`, severity: "warning" }];
      out.push({ ...loaded, result: { ...loaded.result, rules: withPackMode(loaded.result.rules, t.mode), issues: [...loaded.result.issues, ...own] } });
    }
    const ok = f.result.ok && !resolved.issues.some((i) => i.severity === "error");
    out.push(resolved.issues.length === 0 ? f : { ...f, result: { ...f.result, ok, issues: [...f.result.issues, ...resolved.issues] } });
  }
  return out;
}

/** Merges loaded files into a rule set as a first load would: a file that failed contributes nothing, a broken rule is skipped. */
export function mergeFiles(
  files: RuleFile[],
  issues: LoadIssue[],
  opts: { trusted: boolean; projectDir: string; pluginActions: ReadonlySet<string>; pluginChecks: ReadonlySet<string>; unlock?: { names: readonly string[]; file: string } },
): RuleSet {
  const order: LayerName[] = ["managed", "builtin", "global", "project"];
  const layers: Layer[] = order.map((source) => ({
    source,
    files: files.filter((f) => f.source === source && f.result.applies).map((f) => ({ file: f.file, rules: f.result.rules })),
  }));
  return mergeProject(layers, issues, {
    trusted: opts.trusted,
    projectDir: opts.projectDir,
    plugins: { actions: opts.pluginActions, checks: opts.pluginChecks },
    ...(opts.unlock ? { unlock: { ...opts.unlock, report: true } } : {}),
  });
}

export interface LoadProjectOptions {
  /** Extra files (e.g. `replay --rules draft.json`) added on top as project files; trusted, since the user named them. */
  extra?: string[];
  /** Use only the extra files, not the project's layers. */
  only?: boolean;
}

export function loadProject(cwdIn: string, env: Env, deps: CliDeps = {}, opts: LoadProjectOptions = {}): ProjectRules {
  const cwd = resolve(cwdIn);
  const loaded = loadSettings(cwd, env);
  const { issues: settingsIssues, trusted } = loaded;
  let { settings, managed } = loaded;
  // Discovered with project rules first, so the managed rule file's state is known before they are dropped.
  let base = opts.only ? [] : discoverFiles(cwd, env, settings, deps, trusted, managed.projectRules);
  const problem = managedProblem(base);
  if (problem) {
    managed = restrictive(managed, `${problem.file}: ${problem.why}`);
    settings = applyManagedPolicy(settings, managed);
    settingsIssues.push({ file: problem.file, path: "", message: `managed policy unreadable (${problem.why}): the most restrictive reading applies (failMode "closed", no project rules, no packs but the managed file's own) until it is fixed`, severity: "error" });
    base = base.filter((f) => f.source !== "project");
  }
  if (!managed.projectRules && !opts.only) settingsIssues.push(...projectRulesOffIssue(env, projectRuleFileList(cwd, settings.projectRulesPattern).files, managed));
  const extra = (opts.extra ?? []).map((f) => loadFile(resolve(cwd, f), "project"));
  const files = withPacks([...base, ...extra], { cwd, env, trusted, managed });
  const issues: LoadIssue[] = [...settingsIssues, ...files.flatMap((f) => f.result.issues)];
  const names = deps.plugins?.names(cwd) ?? { actions: new Set<string>(), checks: new Set<string>() };
  const set = mergeFiles(files, issues, {
    trusted: trusted || (extra.length > 0 && opts.only === true),
    projectDir: cwd,
    pluginActions: names.actions,
    pluginChecks: names.checks,
    unlock: { names: settings.unlockBuiltins ?? [], file: globalSettingsFile(env) },
  });
  const evalHost = deps.plugins?.evalHost(cwd);
  // The merge adds its own warnings (a `remember` an untrusted project does not get).
  return { cwd, files, settings, trusted, issues: set.issues, settingsIssues, managed, set, pluginActions: names.actions, pluginChecks: names.checks, home: homeDir(env), ...(evalHost ? { evalHost } : {}) };
}
