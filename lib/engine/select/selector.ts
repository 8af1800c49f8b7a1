/**
 * @module the Selector: which rules of a candidate list may match an event, without running their regexes.
 * One-sided: it may keep a rule that then fails, never drop one that would match; order is preserved
 * (definition order). Two forms over the same prepared keys: a plain one that tests each rule's gate with
 * `includes` (a list used once or twice, a one-shot hook), and one over the gram index (gram-index.ts),
 * built in memory by the sidecar or read back from the hook snapshot: the same index, the same scan.
 */
import { type LineFacts, type ShellContext, wildcardHit } from "../../shell/index.ts";
import type { CompiledRule, EventView } from "../match.ts";
import { gateOf, prepared, type RuleKey } from "../prepared.ts";
import type { Rule } from "../schema.ts";
import { isBuiltinAction } from "../schema-core.ts";
import { buildGramIndex, filedByPrograms, type GramIndex, type IndexEntry, WRITES_KEY } from "./gram-index.ts";
import { fieldText, lineFactsOf, Marks, scanIndex, shapeText } from "./scan.ts";

export interface Selector {
  all: CompiledRule[];
  /** A rule in the list needs a plugin or git (the async path). */
  needsHost: boolean;
  /**
   * The rules that may match this event, in definition order (a superset of those that do); with `after`,
   * only those defined after it (a rewrite changed the input: the rest are selected again).
   */
  select(view: EventView, shell: ShellContext, after?: CompiledRule): CompiledRule[];
}

/**
 * The program names a rule's `command` condition requires, one of which must run in the event's command
 * line (globs such as `python3.*` among them, tested as lib/shell ruledOutBy tests them), or undefined when
 * no name can be required (no condition, or a lone `*`).
 */
export function requiredPrograms(rule: Rule): string[] | undefined {
  const program = rule.command?.program;
  if (program === undefined) return undefined;
  const names = Array.isArray(program) ? program : [program];
  return names.includes("*") ? undefined : names;
}

/**
 * The effect kinds a rule's `command` condition requires, one of which the line must have (the matchers'
 * pre-check, lib/shell ruledOutBy, rules the rest out); for a condition with `writes` and no `effect`, the
 * one WRITES_KEY (some command of the line changes a path); else undefined.
 */
export function requiredEffects(rule: Rule): string[] | undefined {
  const effect = rule.command?.effect;
  if (effect === undefined) return rule.command?.writes !== undefined ? [WRITES_KEY] : undefined;
  return Array.isArray(effect) ? effect : [effect];
}

/** What the gram index files a rule under. */
export function indexEntry(rule: Rule): IndexEntry {
  return { keys: prepared(rule).keys, programs: requiredPrograms(rule), effects: requiredEffects(rule) };
}

/** The built-in checks answered without the host (git_uncommitted asks it): a set of only these stays synchronous. */
const HOST_FREE_CHECKS = new Set(["always", "has_edits"]);

function needsHostOf(all: readonly CompiledRule[]): boolean {
  return all.some((cr) => (cr.rule.check !== undefined && !HOST_FREE_CHECKS.has(cr.rule.check)) || !isBuiltinAction(cr.rule.action));
}

/** The rules of `all` after `after` (all of them without it). */
function afterRule(all: CompiledRule[], picked: CompiledRule[], after: CompiledRule | undefined): CompiledRule[] {
  if (!after) return picked;
  // Only after a rewrite (rare): a linear search beats keeping a position map per list.
  const from = all.indexOf(after);
  return picked.filter((cr) => all.indexOf(cr) > from);
}

/** A selector over a gram index of `all` (built now, or read back from a snapshot for this very list). */
export function indexedSelector(all: CompiledRule[], index: GramIndex = buildGramIndex(all.map((cr) => indexEntry(cr.rule)))): Selector {
  if (index.size !== all.length) throw new Error("selector: the index is not this list's");
  const marks = new Marks(all.length);
  const select = (view: EventView, shell: ShellContext, after?: CompiledRule): CompiledRule[] => {
    const positions = scanIndex(index, marks, view, shell);
    const out: CompiledRule[] = new Array(positions.length);
    for (let i = 0; i < positions.length; i++) out[i] = all[positions[i] as number] as CompiledRule;
    return afterRule(all, out, after);
  };
  return { all, needsHost: needsHostOf(all), select };
}

/** Every rule of the list: for lists a selector narrowed already (a hook snapshot's, see `RuleSet.preselected`). */
export function wholeSelector(all: CompiledRule[]): Selector {
  const select = (_view: EventView, _shell: ShellContext, after?: CompiledRule): CompiledRule[] => (after ? all.slice(all.indexOf(after) + 1) : all);
  return { all, needsHost: needsHostOf(all), select };
}

/** Whether a program the line runs fits a glob, by the matchers' own wildcard (lib/shell). */
function anyRunning(running: ReadonlySet<string>, glob: string): boolean {
  for (const name of running) if (wildcardHit(glob, name)) return true;
  return false;
}

/** Lower-cased text as the literals are, with the non-ASCII letter that case-folds to ASCII "s". */
function foldText(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes("\u017f") ? lower.replace(/\u017f/g, "s") : lower;
}

/** What the plain selector tests a rule by: its programs (when it requires no effect kind), else its gate, else its effect kinds. */
interface PlainEntry {
  programs: string[] | undefined;
  gate: RuleKey | undefined;
  effects: string[] | undefined;
}

function plainEntry(rule: Rule): PlainEntry {
  return { programs: requiredPrograms(rule), gate: gateOf(prepared(rule)), effects: requiredEffects(rule) };
}

/**
 * Each rule's gate tested with `includes` on its field's folded text (read once per field per event), a rule
 * requiring programs (and no effect kind) kept only when one of them runs, and one requiring effect kinds
 * only when the line has one, or for WRITES_KEY changes a path (the matchers' own parse and line facts,
 * cached). What each rule is tested by is read once per list: a listed rule's text does not change.
 */
export function plainSelector(all: CompiledRule[]): Selector {
  const entries = all.map((cr) => plainEntry(cr.rule));
  const select = (view: EventView, shell: ShellContext, after?: CompiledRule): CompiledRule[] => {
    const from = after ? all.indexOf(after) + 1 : 0;
    const folded = new Map<string, string | undefined>();
    let running: ReadonlySet<string> | undefined;
    let facts: LineFacts | undefined;
    const out: CompiledRule[] = [];
    for (let i = from; i < all.length; i++) {
      const cr = all[i] as CompiledRule;
      const entry = entries[i] as PlainEntry;
      const { programs, gate, effects } = entry;
      if (filedByPrograms(entry)) {
        const command = view.command;
        if (command === undefined) continue;
        running ??= lineFactsOf(command, shell).programs;
        const line = running;
        if (!(programs as string[]).some((p) => (p.includes("*") ? anyRunning(line, p) : line.has(p)))) continue;
        out.push(cr);
        continue;
      }
      if (gate) {
        const name = gate.shape ? `shape\0${gate.field}` : gate.field;
        let text = folded.get(name);
        if (text === undefined && !folded.has(name)) {
          const raw = fieldText(view, gate.field);
          text = raw === undefined ? undefined : gate.shape ? shapeText(raw) : foldText(raw);
          folded.set(name, text);
        }
        if (text === undefined || !gate.literals.some((l) => (text as string).includes(l))) continue;
      } else if (effects) {
        const command = view.command;
        if (command === undefined) continue;
        facts ??= lineFactsOf(command, shell);
        const line = facts;
        if (!effects.some((k) => (k === WRITES_KEY ? line.writes : line.kinds.has(k)))) continue;
      }
      out.push(cr);
    }
    return out;
  };
  return { all, needsHost: needsHostOf(all), select };
}

/** Below this many candidates a plain scan is as cheap as the index. */
const MIN_INDEXED = 16;

/**
 * Indexing a list costs about as much as a few hundred plain evaluations of it: a one-shot hook process
 * never earns it back, a sidecar does from its first events. So a list is scanned plainly until it has
 * been used this many times.
 */
const INDEX_AFTER_USES = 4;

const selectors = new WeakMap<CompiledRule[], { uses: number; selector: Selector }>();

/** The selector of a candidate list (lists are cached per hook and tool by merge); indexed once it is in use. */
export function selectorFor(list: CompiledRule[]): Selector {
  let entry = selectors.get(list);
  if (!entry) {
    entry = { uses: 0, selector: plainSelector(list) };
    selectors.set(list, entry);
  }
  if (++entry.uses === INDEX_AFTER_USES && list.length >= MIN_INDEXED) entry.selector = indexedSelector(list);
  return entry.selector;
}
