/** @module layers (managed, built-in, global, project) -> one rule set merged by name, indexed by hook and tool. */
import { isBuiltinAction, isBuiltinCheck } from "./load.ts";
import { prepareRule } from "./prepared.ts";
import { assembleRule, type CompiledRule, compilePatterns, defaultRegexCompiler, deferredCompiler, type RegexCompiler, type RulePatterns } from "./match.ts";
import type { HookName, LayerName, LoadIssue, Rule } from "./schema.ts";
import { isToolGlob, ruleToolsFor, toolGlobTest } from "./tools.ts";

export interface LayerFile {
  file: string;
  rules: Rule[];
}

export interface Layer {
  source: LayerName;
  files: LayerFile[];
}

export interface SkippedRule {
  rule: Rule;
  reason: string;
}

export interface Override {
  /** The rule that lost. */
  rule: Rule;
  /** The rule that took its place (a later layer, same name). */
  by: Rule;
}

export interface MergeOptions {
  /** Whether the project is trusted (DESIGN section 6). */
  trusted: boolean;
  /** The project directory, for the "run shepherd trust" hint. */
  projectDir?: string;
  /** Plugin action and check names available now. */
  pluginActions?: ReadonlySet<string>;
  pluginChecks?: ReadonlySet<string>;
  /** Regex compiler: lets untrusted patterns go to a linear-time engine. */
  compileRegex?: RegexCompiler;
  /**
   * `compileRegex` without its reports (the same decisions). With it (or with no `compileRegex`), every
   * rule is still compiled now, so skips and reports are as eager, but what is kept is compiled again on
   * first use: a sidecar at 10,000 rules tests a few hundred of them.
   */
  recompileRegex?: RegexCompiler;
  /**
   * Compile each rule on first use instead of now (one-shot hooks). Compile failures then make the rule
   * never match instead of appearing in `skipped`: for reports, merge eagerly.
   */
  lazyCompile?: boolean;
  /**
   * Locked built-in rules the user unlocked by hand (`unlockBuiltins` in the global settings only): they
   * merge as ordinary built-ins, so a later layer may override or disable them.
   */
  unlocked?: ReadonlySet<string>;
}

interface HookIndex {
  /** Rules with no tool filter, in order. */
  any: CompiledRule[];
  byTool: Map<string, CompiledRule[]>;
  /** any + byTool merged in definition order, built on first use per tool. */
  merged: Map<string, CompiledRule[]>;
  /** Rules for tool globs (`mcp__github__*`), in order, each with its test. */
  globs: { test: (tool: string) => boolean; rule: CompiledRule }[];
}

export interface RuleSet {
  /** Active rules in evaluation order: layer, then file, then position. */
  rules: Rule[];
  skipped: SkippedRule[];
  overrides: Override[];
  issues: LoadIssue[];
  byHook: Map<HookName, HookIndex>;
  /** Names of all active rules, for lookups by the `shepherd_rules` tool and the CLI (built on first use). */
  readonly byName: Map<string, Rule>;
  /** Position of each rule file within its layer, by `source\0file`: what orders rules across lists. */
  fileRank: Map<string, number>;
  /**
   * The lists hold only what a selector already picked for this process's events (a hook snapshot's index,
   * preselectedRuleSet): evaluation tests them without selecting again.
   */
  preselected?: boolean;
}

// The managed policy is the first layer: its rules are locked, so no later one (built-in included) replaces them.
const LAYER_ORDER: Record<LayerName, number> = { managed: 0, builtin: 1, global: 2, project: 3 };

/** Applies a patch rule (no `action`, only a name plus fields) on top of the rule it names. */
function applyPatch(base: Rule, patch: Rule): Rule {
  const merged: Rule = { ...base, ...patch.patch, source: patch.source, file: patch.file, index: patch.index, jsonPath: patch.jsonPath, patch: undefined, patched: base, prepared: undefined };
  // The patch may change a pattern: the base's prepared value is not this rule's.
  merged.prepared = prepareRule(merged);
  return merged;
}

function trustHint(opts: MergeOptions): string {
  return `run \`shepherd trust${opts.projectDir ? ` ${opts.projectDir}` : ""}\` to allow it`;
}

export function mergeLayers(layers: Layer[], issues: LoadIssue[] = [], opts: MergeOptions = { trusted: true }): RuleSet {
  const compile = opts.compileRegex ?? defaultRegexCompiler;
  const byName = new Map<string, Rule>();
  const skipped: SkippedRule[] = [];
  const overrides: Override[] = [];
  const sorted = [...layers].sort((a, b) => LAYER_ORDER[a.source] - LAYER_ORDER[b.source]);

  for (const layer of sorted) {
    for (const file of layer.files) {
      for (const candidate of file.rules) {
        const existing = byName.get(candidate.name);
        // A managed rule is locked whatever its file says; only a built-in one can be unlocked by hand.
        let rule =
          candidate.source === "managed" ? (candidate.locked ? candidate : { ...candidate, locked: true })
          : candidate.source === "builtin" && candidate.locked && opts.unlocked?.has(candidate.name) ? { ...candidate, locked: false }
          : candidate;
        if (candidate.patch) {
          if (!existing) {
            skipped.push({ rule: candidate, reason: `changes rule "${candidate.name}", but no earlier layer defines it` });
            continue;
          }
          rule = applyPatch(existing, candidate);
        }
        if (existing) {
          if (existing.locked && existing.source !== rule.source) {
            skipped.push({ rule, reason: `rule "${existing.name}" is locked by ${existing.source} (${existing.file})` });
            continue;
          }
          if (rule.source === "project" && existing.source !== "project" && !opts.trusted) {
            skipped.push({ rule, reason: `untrusted project may not override ${existing.source} rule "${existing.name}": ${trustHint(opts)}` });
            continue;
          }
          overrides.push({ rule: existing, by: rule });
        }
        byName.set(rule.name, rule);
      }
    }
  }

  // Position of each file within its layer, computed once rather than searched in every comparison.
  const fileRank = new Map<string, number>();
  for (const layer of layers) layer.files.forEach((f, i) => fileRank.set(`${layer.source}\0${f.file}`, i));
  const ordered = [...byName.values()].sort((a, b) => compareRules(fileRank, a, b));

  // Every pattern is compiled (and safety-analysed) before any kept rule object is built: the analysis
  // leaves dozens of small dead objects per pattern, and long-lived objects allocated among them would each
  // keep a mostly empty heap block resident (JSC does not move objects); built in one run, they share blocks.
  const recompile = opts.recompileRegex ?? (opts.compileRegex ? undefined : defaultRegexCompiler);
  const defer = opts.lazyCompile ? deferredCompiler(compile) : recompile ? deferredCompiler(recompile) : undefined;
  const rules: Rule[] = [];
  const compiledPatterns: RulePatterns[] = [];
  const outIssues = [...issues];
  for (const candidate of ordered) {
    const why = skipReason(candidate, opts);
    if (why) {
      skipped.push({ rule: candidate, reason: why });
      continue;
    }
    let rule = candidate;
    // Remembering a yes relaxes an ask (and on Claude Code, the agent's own prompt): a repository does not
    // get to choose that for the person until it is trusted. The ask itself stays in force.
    if (rule.source === "project" && !opts.trusted && rule.remember !== undefined) {
      const { remember: _dropped, ...kept } = rule;
      rule = kept;
      outIssues.push({ file: rule.file, path: `${rule.jsonPath}.remember`, severity: "warning", message: `ignored: an untrusted project's rule asks every time, it does not remember approvals; ${trustHint(opts)}` });
    }
    try {
      if (!opts.lazyCompile) {
        const patterns = compilePatterns(rule, compile);
        if (!defer) compiledPatterns.push(patterns);
      }
    } catch (err) {
      skipped.push({ rule, reason: `cannot compile: ${err instanceof Error ? err.message : String(err)}` });
      continue;
    }
    rules.push(rule);
  }
  const byHook = indexByHook(rules, (rule, i) => (defer ? defer(rule) : assembleRule(rule, compiledPatterns[i] as RulePatterns)));
  return withLazyByName({ rules, skipped, overrides, issues: outIssues, byHook, fileRank });
}

/** Merge's index by hook and tool (and tool glob) of rules in evaluation order. */
function indexByHook(rules: readonly Rule[], compiled: (rule: Rule, i: number) => CompiledRule): Map<HookName, HookIndex> {
  const byHook = new Map<HookName, HookIndex>();
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as Rule;
    const cr = compiled(rule, i);
    let idx = byHook.get(rule.hook);
    if (!idx) {
      idx = { any: [], byTool: new Map(), merged: new Map(), globs: [] };
      byHook.set(rule.hook, idx);
    }
    if (rule.tools.length === 0) idx.any.push(cr);
    for (const tool of rule.tools) {
      if (isToolGlob(tool)) {
        idx.globs.push({ test: toolGlobTest(tool), rule: cr });
        continue;
      }
      const list = idx.byTool.get(tool) ?? [];
      list.push(cr);
      idx.byTool.set(tool, list);
    }
  }
  return byHook;
}

/**
 * A rule set of rules merged before (a hook snapshot's, in merged order, narrowed by its index to what this
 * process's events may pick): indexed as `mergeLayers` indexes, with nothing merged, skipped or selected
 * again. Each rule compiles on first use with `compile` (the same compiler the merge would use).
 */
export function preselectedRuleSet(rules: Rule[], issues: LoadIssue[], compile: RegexCompiler): RuleSet {
  // Files keep their order within each layer: the picked rules are in merged (evaluation) order.
  const fileRank = new Map<string, number>();
  const perLayer = new Map<LayerName, number>();
  for (const r of rules) {
    const key = `${r.source}\0${r.file}`;
    if (fileRank.has(key)) continue;
    const n = perLayer.get(r.source) ?? 0;
    fileRank.set(key, n);
    perLayer.set(r.source, n + 1);
  }
  const defer = deferredCompiler(compile);
  return withLazyByName({ rules, skipped: [], overrides: [], issues, byHook: indexByHook(rules, defer), fileRank, preselected: true });
}

/**
 * A sidecar never asks by name: at 10,000 rules the map is ~0.6 MB of live heap, so it waits until asked.
 * Made here, not in `mergeLayers`: the getter would keep that function's whole scope alive.
 */
function withLazyByName(set: Omit<RuleSet, "byName">): RuleSet {
  let byName: Map<string, Rule> | undefined;
  const rules = set.rules;
  return {
    ...set,
    get byName() {
      byName ??= new Map(rules.map((r) => [r.name, r]));
      return byName;
    },
  };
}

function skipReason(rule: Rule, opts: MergeOptions): string | undefined {
  if (!rule.enabled) return "disabled (enabled: false)";
  if (!isBuiltinAction(rule.action) && !opts.pluginActions?.has(rule.action)) {
    return `unknown action "${rule.action}": not block/ask/notify/steer/rewrite and no loaded plugin provides it`;
  }
  if (rule.check !== undefined && !isBuiltinCheck(rule.check) && !opts.pluginChecks?.has(rule.check)) {
    return `unknown check "${rule.check}": not has_edits/git_uncommitted/always and no loaded plugin provides it`;
  }
  if (rule.source === "project" && !opts.trusted && rule.action === "rewrite") {
    return `untrusted project may not rewrite commands: ${trustHint(opts)}`;
  }
  return undefined;
}

/**
 * True when an enabled rule was skipped only because its action or check must come from a plugin: a face
 * that loads plugins lazily (the hook) loads them then, and such a set is never snapshotted.
 */
export function needsPlugins(set: RuleSet): boolean {
  return set.skipped.some((s) => s.rule.enabled && (!isBuiltinAction(s.rule.action) || (s.rule.check !== undefined && !isBuiltinCheck(s.rule.check))));
}

/** Candidate rules for one hook and (normalized) tool, in definition order. */
export function candidates(set: RuleSet, hook: HookName, tool: string): CompiledRule[] {
  const idx = set.byHook.get(hook);
  if (!idx) return EMPTY;
  let list = idx.merged.get(tool);
  if (list) return list;
  let specific: CompiledRule[] | undefined;
  for (const name of ruleToolsFor(tool)) {
    const own = idx.byTool.get(name);
    if (own) specific = specific ? mergeInOrder(set, specific, own.filter((r) => !specific?.includes(r))) : own;
  }
  const globbed = [...new Set(idx.globs.filter((g) => g.test(tool)).map((g) => g.rule))];
  // A rule naming a tool both exactly and by a glob is listed once.
  if (globbed.length > 0) specific = specific ? mergeInOrder(set, specific, globbed.filter((r) => !specific?.includes(r))) : globbed;
  if (!specific) list = idx.any;
  else if (idx.any.length === 0) list = specific;
  else list = mergeInOrder(set, idx.any, specific);
  // Tool names come from the agent: past a bound, a list only globs built is not kept.
  if (globbed.length === 0 || idx.merged.size < MAX_GLOBBED_LISTS) idx.merged.set(tool, list);
  return list;
}

const MAX_GLOBBED_LISTS = 1024;

const EMPTY: CompiledRule[] = [];

/** Both lists are in evaluation order (layer, file, position), so one pass interleaves them. */
function mergeInOrder(set: RuleSet, a: CompiledRule[], b: CompiledRule[]): CompiledRule[] {
  const out: CompiledRule[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as CompiledRule;
    const y = b[j] as CompiledRule;
    if (compareRules(set.fileRank, x.rule, y.rule) <= 0) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++] as CompiledRule);
  while (j < b.length) out.push(b[j++] as CompiledRule);
  return out;
}

/** Evaluation order: layer, then file within the layer, then position in the file. */
function compareRules(fileRank: Map<string, number>, a: Rule, b: Rule): number {
  const rankOf = (r: Rule) => fileRank.get(`${r.source}\0${r.file}`) ?? 0;
  return LAYER_ORDER[a.source] - LAYER_ORDER[b.source] || rankOf(a) - rankOf(b) || a.index - b.index;
}

export { defaultRegexCompiler };
