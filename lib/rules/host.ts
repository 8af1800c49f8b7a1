/** @module one project's rules: discovers the three layers, keeps the last good rules per file, hot-reloads. */
import { dirname, resolve } from "node:path";
import { type BrokenRule, type LoadResult, loadRuleText, skippedRuleMessage } from "../engine/load.ts";
import { type Layer, type LayerFile, needsPlugins, type RuleSet } from "../engine/merge.ts";
import type { LayerName, LoadIssue, Rule, Settings } from "../engine/schema.ts";
import { BUILTIN_RULE_FILES } from "./builtin-rules.gen.ts";
import { type FileIdentity, identityKey, MAX_RULE_FILE_BYTES, readBounded, statIdentity, tooLargeMessage } from "../fs/bounded-read.ts";
import { agentDir, type Env, globalRulesFile, globalSettingsFile, projectPiDir, projectRulesFile, overBudgetMessage, projectRuleBudget, projectRuleFileList, skippedRuleFileMessage } from "./paths.ts";
import { mergeProject, preselectedProject } from "./merge-project.ts";
import { textFingerprint as fingerprint } from "../hash.ts";
import { loadSettings } from "./settings.ts";
import { applyManagedPolicy, managedDir, type ManagedPolicy, managedRulesFile, OPEN_POLICY, projectRulesOffIssue, restrictive } from "./managed.ts";
import type { FilePrints, RuleSnapshots } from "./hook-snapshot.ts";
import type { RuleLoadCache } from "./load-cache.ts";
import type { PatternFactsCache } from "./pattern-facts-cache.ts";
import { type DirWatch, watchDir } from "./watch.ts";
import type { PackContext } from "./packs/resolve.ts";
import { packSnapshotKey } from "./packs/snapshot-key.ts";
import type { LockRead } from "./packs/lock-file.ts";
import { packResolver } from "../lazy-deps.ts";

export interface ReloadReport {
  /** Files whose text changed in this reload. */
  changed: string[];
  /** Problems now standing (a file that fails keeps its last good rules; a broken rule is skipped or keeps its last good version). */
  issues: LoadIssue[];
  ruleCount: number;
}

export interface RuleHostOptions {
  cwd: string;
  env: Env;
  /** Built-in rule files; defaults to the ones embedded in the binary. */
  builtin?: readonly { file: string; text: string; loaded?: LoadResult }[];
  /** Plugin action/check names, asked at every merge (none yet: undefined). */
  plugins?: () => { actions: ReadonlySet<string>; checks: ReadonlySet<string> } | undefined;
  /** Compile rules on first use (a one-shot hook tests few of them); see MergeOptions.lazyCompile. */
  lazyCompile?: boolean;
  /** Loaded rule files by text, across processes (one-shot hooks). */
  loadCache?: RuleLoadCache;
  /** Pattern facts across processes (`shepherd serve`, `rules check`): a pattern seen before is not parsed. */
  patternFacts?: PatternFactsCache;
  /** Merged rule sets across processes (one-shot hooks): when one matches, no file is loaded or merged. */
  snapshots?: RuleSnapshots;
  /** Called after every reload triggered by a file change (not by `reload()` calls). */
  onReload?: (report: ReloadReport) => void;
}

interface FileCache {
  /** What the text is compared by on the next reload (see fingerprint): not the text, which at 10,000 rules is MBs kept for nothing. */
  print: string;
  result: LoadResult;
  /** The result's issues, with what a kept rule costs said instead of "skipped" (see keepLastGood). */
  issues: LoadIssue[];
  lastGood: Rule[] | undefined;
}

const DEBOUNCE_MS = 4;

/** A rule file that was refused unread (not regular, too large) or is known to fail from the load cache. */
interface Failure {
  /** Stands for the file in change detection and snapshot keys: its stat identity. */
  print: string;
  issues: LoadIssue[];
}

/** The bytes a read file counts against the project's budget: its size when its text was read, else none. */
/** The prints of the inputs a build read or took from prints, for the snapshot it saves. */
function printsOf(inputs: readonly Input[], at: number): FilePrints | undefined {
  const files: Record<string, readonly [string, string]> = {};
  for (const f of inputs) {
    if (f.identity === undefined || f.failure) continue;
    const print = f.print ?? (f.text === undefined ? undefined : fingerprint(f.text));
    if (print !== undefined) files[f.file] = [identityKey(f.identity), print];
  }
  return Object.keys(files).length > 0 ? { at, files } : undefined;
}

function bytesOf(input: Input): number {
  return input.identity?.size ?? input.failedBytes ?? 0;
}

/** One rule file as read for a build: its text, or why there is none (neither: the file is missing). */
interface Input {
  file: string;
  text: string | undefined;
  /** Of the text read, so a failing load can be remembered without reading the file again. */
  identity?: FileIdentity;
  failure?: Failure;
  /** A remembered failure's bytes of text (see KnownFailure): counted as when it was read. */
  failedBytes?: number;
  loaded?: LoadResult;
  /** The text's fingerprint as the snapshot recorded it under this same stat identity: the file was not read. */
  print?: string;
}

/**
 * How long after a file's last change its stat identity is proof of its content: a write within the same
 * timestamp tick as the one read leaves the identity unchanged. Linux stamps files from a clock of a few ms;
 * timestamps in whole seconds (FAT, ext3, some network file systems) may hide two seconds of writes.
 */
function racyWindowMs(id: FileIdentity): number {
  return id.mtimeMs % 1000 === 0 || id.ctimeMs % 1000 === 0 ? 2_000 : 50;
}

/** The identity last changed early enough before `at` that a later write would have changed it. */
function settledBefore(id: FileIdentity, at: number): boolean {
  return Math.max(id.mtimeMs, id.ctimeMs) < at - racyWindowMs(id);
}

/** What the snapshot key reads of one input: its fingerprint, a failure's print, or "-" for a missing file. */
function keyPrint(f: Input): string {
  return f.failure ? f.failure.print : (f.print ?? (f.text === undefined ? "-" : fingerprint(f.text)));
}

export class RuleHost {
  readonly cwd: string;
  readonly env: Env;
  #opts: RuleHostOptions;
  #cache = new Map<string, FileCache>();
  #ruleSet: RuleSet;
  #settings: Settings;
  #trusted = false;
  #managed: ManagedPolicy = OPEN_POLICY;
  #issues: LoadIssue[] = [];
  #watches: DirWatch[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #generation = 0;
  /** Rule files of packs (lib/rules/packs/), by path: the layer of the rules file that extends them. */
  #packSources = new Map<string, LayerName>();
  /** The `extends` of each rules file's last version that parsed: a typo keeps its packs, as it keeps its rules. */
  #lastExtends = new Map<string, unknown>();

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

  /** The managed policy of the last build, as applied to `settings`. */
  get managed(): ManagedPolicy {
    return this.#managed;
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
    const pack = this.#packSources.get(file);
    if (pack) return pack;
    if (file.startsWith("rules/")) return "builtin";
    if (file === managedRulesFile(this.env)) return "managed";
    return file === globalRulesFile(this.env) ? "global" : "project";
  }

  reload(): ReloadReport {
    const built = this.#build();
    this.#ruleSet = built.ruleSet;
    this.#settings = built.settings;
    return built.report;
  }

  #loadFile(input: Input, source: LayerName, changed: string[]): LayerFile | undefined {
    const { file, text, failure } = input;
    const prev = this.#cache.get(file);
    const print = failure ? failure.print : text === undefined ? undefined : fingerprint(text);
    if (prev && prev.print === print) return prev.lastGood ? { file, rules: prev.lastGood } : undefined;
    if (prev) changed.push(file);
    if (print === undefined) {
      this.#cache.delete(file);
      return undefined;
    }
    let result: LoadResult;
    if (failure || text === undefined) result = { rules: [], issues: failure?.issues ?? [], ok: false, applies: false };
    else {
      const cache = this.#opts.loadCache;
      const cached = input.loaded ?? cache?.get(file, source, text);
      // A first load asks the pattern facts of other processes; a reload takes its unchanged rules' from the last load.
      const facts = prev ? undefined : this.#opts.patternFacts;
      result = cached ?? loadRuleText(text, { file, source, ...(prev ? { previous: prev.result.rules } : {}), ...(facts ? { facts } : {}) });
      if (!cached) facts?.flush();
      if (!cached) cache?.set(file, source, text, result);
      // Remembered by stat identity too: the next hook process neither reads nor parses it again.
      if (!result.applies && input.identity) cache?.setFailure?.(file, source, identityKey(input.identity), { issues: result.issues, bytes: input.identity.size });
    }
    let lastGood = prev?.lastGood;
    let issues = result.issues;
    if (result.applies) ({ rules: lastGood, issues } = keepLastGood(result, prev?.lastGood));
    this.#cache.set(file, { print, result, issues, lastGood });
    if (!prev) changed.push(file);
    return lastGood ? { file, rules: lastGood } : undefined;
  }

  /**
   * Reads a rule file within MAX_RULE_FILE_BYTES, or within `budget` when that is less (what is left of the
   * project's); a file the load cache knows to fail (by stat identity) is not read at all.
   */
  #readInput(file: string, source: LayerName, budget = MAX_RULE_FILE_BYTES, overBudget = ""): Input {
    const cache = this.#opts.loadCache;
    if (cache?.getFailure) {
      const id = statIdentity(file);
      if (id) {
        const key = identityKey(id);
        const known = cache.getFailure(file, source, key);
        if (known) return { file, text: undefined, failure: { print: `!${key}`, issues: known.issues }, failedBytes: known.bytes };
      }
    }
    const limit = Math.min(budget, MAX_RULE_FILE_BYTES);
    const read = readBounded(file, limit);
    if (read.ok) return { file, text: read.text, identity: read.identity };
    if (read.reason === "missing") return { file, text: undefined };
    if (read.reason === "too-large" && limit < MAX_RULE_FILE_BYTES && (read.identity?.size ?? 0) <= MAX_RULE_FILE_BYTES) {
      // Over the budget, not the cap: that depends on the other files, so it is not remembered as this file's failure.
      return { file, text: undefined, failure: { print: `!budget:${read.identity ? identityKey(read.identity) : ""}`, issues: [{ file, path: "", message: overBudget, severity: "error" }] } };
    }
    const message = read.reason === "too-large" ? tooLargeMessage() : read.message;
    const issues: LoadIssue[] = [{ file, path: "", message, severity: "error" }];
    if (!read.identity) return { file, text: undefined, failure: { print: `!${read.message}`, issues } };
    const key = identityKey(read.identity);
    cache?.setFailure?.(file, source, key, { issues, bytes: 0 });
    return { file, text: undefined, failure: { print: `!${key}`, issues } };
  }

  /**
   * `#readInput`, or, when the snapshot's prints know the file under its current stat identity and that
   * identity had settled when they were taken, an input with that fingerprint and no text (not read).
   */
  #inputOf(file: string, source: LayerName, known: FilePrints | undefined, budget?: number, overBudget?: string): Input {
    const recorded = known?.files[file];
    if (recorded) {
      const id = statIdentity(file);
      // Within the size the read would allow (the project's budget depends on the other files): else read, and refused there.
      const fits = id !== undefined && id.size <= Math.min(budget ?? MAX_RULE_FILE_BYTES, MAX_RULE_FILE_BYTES);
      if (id && fits && identityKey(id) === recorded[0] && settledBefore(id, known.at)) return { file, text: undefined, identity: id, print: recorded[1] };
    }
    return this.#readInput(file, source, budget, overBudget);
  }

  #build(): { ruleSet: RuleSet; settings: Settings; report: ReloadReport } {
    const changed: string[] = [];
    // Before any rule file is read: prints taken now are proof only of identities that settled before it.
    const startedAt = Date.now();
    const loaded = loadSettings(this.cwd, this.env);
    const { issues: settingsIssues, trusted } = loaded;
    let { settings, managed } = loaded;
    this.#trusted = trusted;

    const builtinFiles: readonly Input[] = this.#opts.builtin ?? BUILTIN_RULE_FILES;
    const managedFile = managedRulesFile(this.env);
    const managedFiles: Input[] = [this.#readInput(managedFile, "managed")];
    // A managed rule file that is there but cannot be used is read most restrictively, even while its
    // last good rules still apply: the policy it may have tightened is not known.
    const managedProblem = managedRuleProblem(managedFiles[0] as Input, this.#opts.loadCache);
    if (managedProblem) {
      managed = restrictive(managed, `${managedFile}: ${managedProblem}`);
      settings = applyManagedPolicy(settings, managed);
      settingsIssues.push({ file: managedFile, path: "", message: `managed policy unreadable (${managedProblem}): the most restrictive reading applies (failMode "closed", no project rules, no packs but the managed file's own) until it is fixed`, severity: "error" });
    }
    const globalFile = globalRulesFile(this.env);
    const allProject = projectRuleFileList(this.cwd, settings.projectRulesPattern);
    const projectList = managed.projectRules ? allProject : { files: [], skipped: [] };
    if (!managed.projectRules) settingsIssues.push(...projectRulesOffIssue(this.env, allProject.files, managed));
    this.#managed = managed;
    const snapshots = this.#opts.snapshots;
    // The global and project files, read unless the snapshot's prints vouch for them (`known`).
    const readLayers = (known: FilePrints | undefined): { globalFiles: Input[]; projectFiles: Input[] } => {
      let budget = projectRuleBudget(trusted);
      return {
        globalFiles: [this.#inputOf(globalFile, "global", known)],
        projectFiles: projectList.files.map((file) => {
          const input = this.#inputOf(file, "project", known, budget, overBudgetMessage(trusted));
          budget -= bytesOf(input);
          return input;
        }),
      };
    };
    let { globalFiles, projectFiles } = readLayers(snapshots?.prints?.(this.cwd));
    // Reported on every build, from the snapshot too: an ignored file is never silent.
    const standing: LoadIssue[] = [...settingsIssues];
    for (const f of [...managedFiles, ...globalFiles, ...projectFiles]) if (f.failure) standing.push(...f.failure.issues);
    for (const file of projectList.skipped) standing.push({ file, path: "", message: skippedRuleFileMessage(), severity: "error" });
    const plugins = this.#opts.plugins?.();

    // Everything the merge depends on, rule texts by fingerprint; the snapshot store adds the binary's identity.
    let snapshotKey: string | undefined;
    if (snapshots) {
      const head = [`trusted=${this.#trusted}`, `unlocked=${JSON.stringify(settings.unlockBuiltins ?? [])}`, `cwd=${this.cwd}`, `actions=${[...(plugins?.actions ?? [])].sort().join(",")}`, `checks=${[...(plugins?.checks ?? [])].sort().join(",")}`];
      const packs = packSnapshotKey(this, [managedFile, globalFile, projectRulesFile(this.cwd)], managed.allowedPacks);
      const keyOf = () => {
        const parts = [...head];
        for (const [source, files] of [["builtin", builtinFiles], ["managed", managedFiles], ["global", globalFiles], ["project", projectFiles]] as const) {
          for (const f of files) parts.push(`${source}\0${f.file}\0${keyPrint(f)}`);
        }
        parts.push(packs);
        return parts.join("\n");
      };
      snapshotKey = keyOf();
      const rules = snapshots.load(this.cwd, snapshotKey);
      if (rules) {
        this.#settlePrints(snapshots, snapshotKey, [...globalFiles, ...projectFiles], startedAt);
        return this.#fromSnapshot(rules, settings, standing);
      }
      // A miss loads from the texts: the files the prints vouched for are read now, and the key made from what was read.
      if ([...globalFiles, ...projectFiles].some((f) => f.print !== undefined)) {
        ({ globalFiles, projectFiles } = readLayers(undefined));
        const read = keyOf();
        const again = read === snapshotKey ? undefined : snapshots.load(this.cwd, read);
        snapshotKey = read;
        if (again) return this.#fromSnapshot(again, settings, standing);
      }
    }

    const seen = new Set<string>();
    const packIssues: LoadIssue[] = [];
    const locks = new Map<string, LockRead>();
    const layer = (source: LayerName, files: readonly Input[]): Layer => {
      const out: LayerFile[] = [];
      // Made on first use: the pack resolver is loaded only for a file that extends packs.
      let ctx: PackContext | undefined;
      const packs =
        source === "builtin"
          ? undefined
          : () => (ctx ??= { cwd: this.cwd, env: this.env, budget: packResolver().packBudget(source, trusted), locks, ...(managed.allowedPacks ? { allowed: managed.allowedPacks } : {}) });
      for (const f of files) {
        seen.add(f.file);
        // Built-in files come loaded at build time (scripts/gen-embedded.ts).
        const lf = this.#loadFile(f, source, changed);
        // A pack's rules come before the file that extends it, so the file may override or patch them.
        if (packs) out.push(...this.#packFiles(f.file, source, packs, changed, seen, packIssues));
        if (lf) out.push(lf);
      }
      return { source, files: out };
    };

    const builtin = layer("builtin", builtinFiles);
    const managedLayer = layer("managed", managedFiles);
    const global = layer("global", globalFiles);
    const project = layer("project", projectFiles);
    // Files that vanished since the last build drop out (deleting a rule file is intentional).
    for (const file of [...this.#cache.keys()]) {
      if (!seen.has(file)) {
        this.#cache.delete(file);
        changed.push(file);
      }
    }

    const issues: LoadIssue[] = [...settingsIssues, ...packIssues];
    for (const c of this.#cache.values()) issues.push(...c.issues);
    for (const file of projectList.skipped) issues.push({ file, path: "", message: skippedRuleFileMessage(), severity: "error" });
    const ruleSet = this.#merge([builtin, managedLayer, global, project], issues, plugins, settings, true);
    // Sets that need plugins are reloaded with them (hook.ts): a snapshot would hide what they skipped. Nor is
    // a set with broken rules kept: a snapshot holds no load issues, and each hook must report them until fixed.
    const broken = [...this.#cache.values()].some((c) => c.result.broken !== undefined);
    // A pack refused (not matching its lock, not allowed) is reported by every hook until fixed: not snapshotted either.
    if (snapshots && snapshotKey !== undefined && !needsPlugins(ruleSet) && !broken && packIssues.length === 0) {
      snapshots.save(this.cwd, snapshotKey, ruleSet, printsOf([...globalFiles, ...projectFiles], startedAt));
    }
    this.#issues = issues;
    this.#generation++;
    return { ruleSet, settings, report: { changed, issues, ruleCount: ruleSet.rules.length } };
  }

  /**
   * After a hit for which some file was read (its identity had not settled when the prints were taken, or
   * they had none for it): the prints again, with this build's start, once every file read has settled by
   * then, so the next hooks read none of them. Rare: once after an edit of a rule file.
   */
  #settlePrints(snapshots: RuleSnapshots, key: string, inputs: readonly Input[], startedAt: number): void {
    const read = inputs.filter((f) => f.print === undefined && f.text !== undefined);
    if (read.length === 0 || !snapshots.refreshPrints) return;
    if (!read.every((f) => f.identity !== undefined && settledBefore(f.identity, startedAt))) return;
    const prints = printsOf(inputs, startedAt);
    if (prints) snapshots.refreshPrints(this.cwd, key, prints);
  }

  /**
   * The rule files of the packs `file` extends, loaded like any file of its layer (same source, so the same
   * trust and locks apply). Their texts are the bytes resolvePacks hashed against the lock.
   */
  #packFiles(file: string, source: LayerName, ctx: () => PackContext, changed: string[], seen: Set<string>, issues: LoadIssue[]): LayerFile[] {
    const c = this.#cache.get(file);
    if (c?.result.applies) {
      if (c.result.extends === undefined) this.#lastExtends.delete(file);
      else this.#lastExtends.set(file, c.result.extends);
    } else if (!c) this.#lastExtends.delete(file);
    const ext = this.#lastExtends.get(file);
    if (ext === undefined) return [];
    const { resolvePacks, withPackMode } = packResolver();
    const resolved = resolvePacks(file, source, ext, ctx());
    issues.push(...resolved.issues);
    const out: LayerFile[] = [];
    for (const t of resolved.files) {
      if (seen.has(t.file)) continue;
      seen.add(t.file);
      this.#packSources.set(t.file, source);
      const lf = this.#loadFile({ file: t.file, text: t.text }, source, changed);
      const loaded = this.#cache.get(t.file)?.result;
      if (loaded?.extends !== undefined) issues.push({ file: t.file, path: "extends", message: `pack "${t.pack}": a pack's own "extends" is not followed (only rules files extend packs)`, severity: "warning" });
      if (lf) out.push({ file: lf.file, rules: withPackMode(lf.rules, t.mode) });
    }
    return out;
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
   * A rule set from already merged rules (a snapshot's, narrowed by its index to what this process can pick):
   * indexed by hook and tool as the merge indexes, not merged again, and not selected again by evaluation.
   * Load issues are not in the snapshot: `standing` holds what is known without loading (settings, refused
   * and skipped files).
   */
  #fromSnapshot(rules: Rule[], settings: Settings, standing: LoadIssue[]): { ruleSet: RuleSet; settings: Settings; report: ReloadReport } {
    const issues: LoadIssue[] = [...standing];
    const ruleSet = preselectedProject(rules, issues, { trusted: this.#trusted });
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
    this.#watches.push(watchDir(managedDir(this.env), schedule));
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

/**
 * Why a managed rule file that is there cannot be used as written (refused, unparsable, or any error in it),
 * or undefined. Loaded here, before the project's files are chosen, and kept on the input for the merge; a
 * missing file is no problem. It costs a hook that answers from its snapshot one load, only where there is
 * a managed rule file: the alternative, trusting a snapshot of a policy not known to load, is not an option.
 */
function managedRuleProblem(input: Input, cache: RuleLoadCache | undefined): string | undefined {
  if (input.failure) return input.failure.issues[0]?.message ?? "unreadable";
  if (input.text === undefined) return undefined;
  let result = cache?.get(input.file, "managed", input.text);
  if (!result) {
    result = loadRuleText(input.text, { file: input.file, source: "managed" });
    cache?.set(input.file, "managed", input.text, result);
  }
  input.loaded = result;
  if (result.ok && result.broken === undefined) return undefined;
  const first = result.issues.find((i) => i.severity === "error") ?? result.issues[0];
  return first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "does not load";
}

/**
 * The rules a file that parsed puts in force: its valid rules, and for each rule now broken the last good
 * version of that name, in the broken rule's place. A typo while editing a block rule must not switch that
 * guard off in a running service; the error stays standing and says the old version is what applies.
 * A first load (a one-shot hook, `rules check`) has no last good version: the broken rule is skipped.
 */
export function keepLastGood(result: LoadResult, lastGood: readonly Rule[] | undefined): { rules: Rule[]; issues: LoadIssue[] } {
  const broken = result.broken;
  if (!broken || !lastGood) return { rules: result.rules, issues: result.issues };
  const names = new Set(result.rules.map((r) => r.name));
  const old = new Map(lastGood.map((r) => [r.name, r]));
  const kept = new Map<string, BrokenRule>();
  const rules = [...result.rules];
  for (const b of broken) {
    const rule = b.name === undefined || names.has(b.name) ? undefined : old.get(b.name);
    if (!rule || b.name === undefined) continue;
    names.add(b.name);
    kept.set(`${b.jsonPath}\0${skippedRuleMessage(b)}`, b);
    rules.push({ ...rule, index: b.index, jsonPath: b.jsonPath });
  }
  if (kept.size === 0) return { rules: result.rules, issues: result.issues };
  rules.sort((a, b) => a.index - b.index);
  const issues = result.issues.map((i) => {
    const b = kept.get(`${i.path}\0${i.message}`);
    return b ? { ...i, message: keptRuleMessage(b) } : i;
  });
  return { rules, issues };
}

function keptRuleMessage(b: BrokenRule): string {
  return `rule "${b.name}" is broken: its last good version stays in force until it is fixed; the file's other rules apply`;
}
