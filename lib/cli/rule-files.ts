/**
 * @module the rule files of a project as the authoring commands see them: every layer's text, load
 * result and merged set. Unlike the long-running RuleHost there is no "last good" state here: a CLI
 * run shows what the files say now.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { EvalHost } from "../engine/evaluate.ts";
import { type LoadResult, loadRuleText } from "../engine/load.ts";
import type { Layer, RuleSet } from "../engine/merge.ts";
import type { LayerName, LoadIssue, Settings } from "../engine/schema.ts";
import { BUILTIN_RULE_FILES } from "../rules/builtin-rules.gen.ts";
import { mergeProject } from "../rules/merge-project.ts";
import { type Env, globalRulesFile, globalSettingsFile, homeDir, projectRuleFiles } from "../rules/paths.ts";
import { loadSettings } from "../rules/settings.ts";
import type { PluginProvider } from "../rules/workspace.ts";

/** Dependencies main.ts may inject; tests pass built-in rule texts to stay independent of rules/*.json. */
export interface CliDeps {
  plugins?: PluginProvider;
  builtin?: readonly { file: string; text: string }[];
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
  set: RuleSet;
  pluginActions: ReadonlySet<string>;
  pluginChecks: ReadonlySet<string>;
  home: string;
  evalHost?: EvalHost;
}

function readText(file: string): { text?: string; error?: string } {
  try {
    return { text: readFileSync(file, "utf8") };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { error: code === "ENOENT" ? "file not found" : code === "EISDIR" ? "is a directory, not a rule file" : `cannot read: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function loadFile(file: string, source: LayerName, text?: string): RuleFile {
  if (text !== undefined) return { file, source, text, result: loadRuleText(text, { file, source }) };
  const read = readText(file);
  if (read.text === undefined) {
    return { file, source, text: undefined, result: { rules: [], ok: false, issues: [{ file, path: "", message: read.error ?? "cannot read", severity: "error" }] } };
  }
  return { file, source, text: read.text, result: loadRuleText(read.text, { file, source }) };
}

/** The three layers of a project, in merge order (built-in, global, project). Missing optional files are skipped. */
export function discoverFiles(cwd: string, env: Env, settings: Settings, deps: CliDeps = {}): RuleFile[] {
  const out: RuleFile[] = [];
  for (const b of deps.builtin ?? BUILTIN_RULE_FILES) out.push(loadFile(b.file, "builtin", b.text));
  const global = globalRulesFile(env);
  const g = readText(global);
  if (g.text !== undefined) out.push(loadFile(global, "global", g.text));
  for (const file of projectRuleFiles(cwd, settings.projectRulesPattern)) out.push(loadFile(file, "project"));
  return out;
}

/** Merges loaded files into a rule set; files with errors contribute nothing (as on first load). */
export function mergeFiles(
  files: RuleFile[],
  issues: LoadIssue[],
  opts: { trusted: boolean; projectDir: string; pluginActions: ReadonlySet<string>; pluginChecks: ReadonlySet<string>; unlock?: { names: readonly string[]; file: string } },
): RuleSet {
  const order: LayerName[] = ["builtin", "global", "project"];
  const layers: Layer[] = order.map((source) => ({
    source,
    files: files.filter((f) => f.source === source && f.result.ok).map((f) => ({ file: f.file, rules: f.result.rules })),
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
  const { settings, issues: settingsIssues, trusted } = loadSettings(cwd, env);
  const base = opts.only ? [] : discoverFiles(cwd, env, settings, deps);
  const extra = (opts.extra ?? []).map((f) => loadFile(resolve(cwd, f), "project"));
  const files = [...base, ...extra];
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
  return { cwd, files, settings, trusted, issues, settingsIssues, set, pluginActions: names.actions, pluginChecks: names.checks, home: homeDir(env), ...(evalHost ? { evalHost } : {}) };
}
