/** @module one project's rules: discovers the three layers, keeps the last good rules per file, hot-reloads. */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type LoadResult, loadRuleText } from "../engine/load.ts";
import { type Layer, type LayerFile, needsPlugins, type RuleSet } from "../engine/merge.ts";
import type { LayerName, LoadIssue, Rule, Settings } from "../engine/schema.ts";
import { BUILTIN_RULE_FILES } from "./builtin-rules.gen.ts";
import { agentDir, type Env, globalRulesFile, globalSettingsFile, projectPiDir, projectRuleFiles } from "./paths.ts";
import { mergeProject } from "./merge-project.ts";
import { loadSettings } from "./settings.ts";
import type { RuleSnapshots } from "./hook-snapshot.ts";
import type { RuleLoadCache } from "./load-cache.ts";
import { type DirWatch, watchDir } from "./watch.ts";

export interface ReloadReport {
  /** Files whose text changed in this reload. */
  changed: string[];
  /** Problems now standing (errors keep the file's last good rules). */
  issues: LoadIssue[];
  ruleCount: number;
}

export interface RuleHostOptions {
  cwd: string;
  env: Env;
  /** Built-in rule files; defaults to the ones embedded in the binary. */
  builtin?: readonly { file: string; text: string; loaded?: LoadResult }[];
  /** Plugin action/check names, asked at every merge. */
  plugins?: () => { actions: ReadonlySet<string>; checks: ReadonlySet<string> };
  /** Compile rules on first use (a one-shot hook tests few of them); see MergeOptions.lazyCompile. */
  lazyCompile?: boolean;
  /** Loaded rule files by text, across processes (one-shot hooks). */
  loadCache?: RuleLoadCache;
  /** Merged rule sets across processes (one-shot hooks): when one matches, no file is loaded or merged. */
  snapshots?: RuleSnapshots;
  /** Called after every reload triggered by a file change (not by `reload()` calls). */
  onReload?: (report: ReloadReport) => void;
}

interface FileCache {
  /** What the text is compared by on the next reload (see fingerprint): not the text, which at 10,000 rules is MBs kept for nothing. */
  print: string;
  result: LoadResult;
  lastGood: Rule[] | undefined;
}

const DEBOUNCE_MS = 4;

export class RuleHost {
  readonly cwd: string;
  readonly env: Env;
  #opts: RuleHostOptions;
  #cache = new Map<string, FileCache>();
  #ruleSet: RuleSet;
  #settings: Settings;
  #trusted = false;
  #issues: LoadIssue[] = [];
  #watches: DirWatch[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #generation = 0;

  constructor(opts: RuleHostOptions) {
    this.cwd = resolve(opts.cwd);
    this.env = opts.env;
    this.#opts = opts;
    const first = this.#build();
    this.#ruleSet = first.ruleSet;
    this.#settings = first.settings;
  }

  get ruleSet(): RuleSet {
    return this.#ruleSet;
  }

  get settings(): Settings {
    return this.#settings;
  }

  get trusted(): boolean {
    return this.#trusted;
  }

  /** Every standing problem: load errors and warnings, settings errors. */
  get issues(): LoadIssue[] {
    return this.#issues;
  }

  /** Bumps on every rebuild; cheap change detection for callers that cache derived data. */
  get generation(): number {
    return this.#generation;
  }

  /** Rules per layer with the files they came from (for status and `rules list`). */
  layerFiles(): { source: LayerName; file: string; rules: number; ok: boolean }[] {
    const out: { source: LayerName; file: string; rules: number; ok: boolean }[] = [];
    for (const [file, c] of this.#cache) out.push({ source: this.#sourceOf(file), file, rules: c.lastGood?.length ?? 0, ok: c.result.ok });
    return out;
  }

  #sourceOf(file: string): LayerName {
    if (file.startsWith("rules/")) return "builtin";
    return file === globalRulesFile(this.env) ? "global" : "project";
  }

  reload(): ReloadReport {
    const built = this.#build();
    this.#ruleSet = built.ruleSet;
    this.#settings = built.settings;
    return built.report;
  }

  #loadFile(file: string, source: LayerName, text: string | undefined, changed: string[], preloaded?: LoadResult): LayerFile | undefined {
    const prev = this.#cache.get(file);
    const print = text === undefined ? undefined : fingerprint(text);
    if (prev && prev.print === print) return prev.lastGood ? { file, rules: prev.lastGood } : undefined;
    if (prev) changed.push(file);
    if (text === undefined) {
      this.#cache.delete(file);
      return undefined;
    }
    const cached = preloaded ?? this.#opts.loadCache?.get(file, source, text);
    const result = cached ?? loadRuleText(text, { file, source });
    if (!cached) this.#opts.loadCache?.set(file, source, text, result);
    const lastGood = result.ok ? result.rules : prev?.lastGood;
    this.#cache.set(file, { print: print as string, result, lastGood });
    if (!prev) changed.push(file);
    return lastGood ? { file, rules: lastGood } : undefined;
  }

  #build(): { ruleSet: RuleSet; settings: Settings; report: ReloadReport } {
    const changed: string[] = [];
    const { settings, issues: settingsIssues, trusted } = loadSettings(this.cwd, this.env);
    this.#trusted = trusted;

    type Input = { file: string; text: string | undefined; loaded?: LoadResult };
    const builtinFiles: readonly Input[] = this.#opts.builtin ?? BUILTIN_RULE_FILES;
    const globalFile = globalRulesFile(this.env);
    const globalFiles: Input[] = [{ file: globalFile, text: readText(globalFile) }];
    const projectFiles: Input[] = projectRuleFiles(this.cwd, settings.projectRulesPattern).map((file) => ({ file, text: readText(file) }));
    const plugins = this.#opts.plugins?.();

    // Everything the merge depends on, rule texts by fingerprint; the snapshot store adds the binary's identity.
    const snapshots = this.#opts.snapshots;
    let snapshotKey: string | undefined;
    if (snapshots) {
      const parts = [`trusted=${this.#trusted}`, `unlocked=${JSON.stringify(settings.unlockBuiltins ?? [])}`, `cwd=${this.cwd}`, `actions=${[...(plugins?.actions ?? [])].sort().join(",")}`, `checks=${[...(plugins?.checks ?? [])].sort().join(",")}`];
      for (const [source, files] of [["builtin", builtinFiles], ["global", globalFiles], ["project", projectFiles]] as const) {
        for (const f of files) parts.push(`${source}\0${f.file}\0${f.text === undefined ? "-" : fingerprint(f.text)}`);
      }
      snapshotKey = parts.join("\n");
      const rules = snapshots.load(this.cwd, snapshotKey);
      if (rules) return this.#fromSnapshot(rules, settings, settingsIssues, plugins);
    }

    const seen = new Set<string>();
    const layer = (source: LayerName, files: readonly Input[]): Layer => {
      const out: LayerFile[] = [];
      for (const f of files) {
        seen.add(f.file);
        // Built-in files come loaded at build time (scripts/gen-embedded.ts).
        const lf = this.#loadFile(f.file, source, f.text, changed, f.loaded);
        if (lf) out.push(lf);
      }
      return { source, files: out };
    };

    const builtin = layer("builtin", builtinFiles);
    const global = layer("global", globalFiles);
    const project = layer("project", projectFiles);
    // Files that vanished since the last build drop out (deleting a rule file is intentional).
    for (const file of [...this.#cache.keys()]) {
      if (!seen.has(file)) {
        this.#cache.delete(file);
        changed.push(file);
      }
    }

    const issues: LoadIssue[] = [...settingsIssues];
    for (const c of this.#cache.values()) issues.push(...c.result.issues);
    const ruleSet = this.#merge([builtin, global, project], issues, plugins, settings, true);
    // Sets that need plugins are reloaded with them (hook.ts): a snapshot would hide what they skipped.
    if (snapshots && snapshotKey !== undefined && !needsPlugins(ruleSet)) {
      snapshots.save(this.cwd, snapshotKey, ruleSet);
    }
    this.#issues = issues;
    this.#generation++;
    return { ruleSet, settings, report: { changed, issues, ruleCount: ruleSet.rules.length } };
  }

  #merge(
    layers: Layer[],
    issues: LoadIssue[],
    plugins: { actions: ReadonlySet<string>; checks: ReadonlySet<string> } | undefined,
    settings: Settings,
    report: boolean,
  ): RuleSet {
    return mergeProject(layers, issues, {
      trusted: this.#trusted,
      projectDir: this.cwd,
      unlock: { names: settings.unlockBuiltins ?? [], file: globalSettingsFile(this.env), report },
      ...(plugins ? { plugins } : {}),
      ...(this.#opts.lazyCompile ? { lazyCompile: true } : {}),
    });
  }

  /**
   * A rule set from already merged rules (a snapshot's, narrowed to what this process can pick): merged
   * again as layers of their own files in their order, which keeps that order and drops nothing (names
   * are unique and every rule passed the same checks). Load issues are not in the snapshot: a hook
   * reports none.
   */
  #fromSnapshot(
    rules: Rule[],
    settings: Settings,
    settingsIssues: LoadIssue[],
    plugins: { actions: ReadonlySet<string>; checks: ReadonlySet<string> } | undefined,
  ): { ruleSet: RuleSet; settings: Settings; report: ReloadReport } {
    const layers = new Map<LayerName, Map<string, Rule[]>>();
    for (const rule of rules) {
      let files = layers.get(rule.source);
      if (!files) layers.set(rule.source, (files = new Map()));
      let list = files.get(rule.file);
      if (!list) files.set(rule.file, (list = []));
      list.push(rule);
    }
    const issues: LoadIssue[] = [...settingsIssues];
    const ruleSet = this.#merge(
      [...layers].map(([source, files]) => ({ source, files: [...files].map(([file, list]) => ({ file, rules: list })) })),
      issues,
      plugins,
      settings,
      false,
    );
    this.#issues = issues;
    this.#generation++;
    return { ruleSet, settings, report: { changed: [], issues, ruleCount: ruleSet.rules.length } };
  }

  /** Starts watching the project's `.pi/` (even before it exists), the project folder, and the global folder. */
  watch(): void {
    if (this.#watches.length > 0) return;
    const relevant = (name: string | null) =>
      name === null || name === ".pi" || name.endsWith(".json") || name.startsWith("shepherd-rules") || name === "settings.json";
    const schedule = (name: string | null) => {
      if (!relevant(name)) return;
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.flush(), DEBOUNCE_MS);
    };
    this.#watches.push(watchDir(projectPiDir(this.cwd), schedule));
    this.#watches.push(watchDir(agentDir(this.env), schedule));
    const globalSettingsDir = dirname(globalSettingsFile(this.env));
    if (globalSettingsDir !== agentDir(this.env)) this.#watches.push(watchDir(globalSettingsDir, schedule));
  }

  /**
   * Applies a change the watcher has seen but the debounce still holds back. Called before each evaluation,
   * so a rule saved just before a tool call governs that call (one field check when nothing is pending).
   */
  flush(): void {
    if (!this.#timer) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const report = this.reload();
    if (report.changed.length > 0) this.#opts.onReload?.(report);
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    for (const w of this.#watches) w.close();
    this.#watches = [];
  }
}

const bunHash = (globalThis as { Bun?: { hash(data: string, seed?: number): number | bigint } }).Bun?.hash;

/**
 * Identifies a file's text for change detection: its length and two 64-bit hashes with different seeds
 * (a missed change would keep serving old rules, so one hash is not enough). Without Bun's native hash the
 * text itself is kept: exact, and only the memory figure it was replaced for suffers.
 */
function fingerprint(text: string): string {
  if (!bunHash) return text;
  return `${text.length}:${bunHash(text, 0).toString(36)}:${bunHash(text, 0x5bd1e995).toString(36)}`;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
