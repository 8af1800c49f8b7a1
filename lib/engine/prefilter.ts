/**
 * @module literal prefilter: skips rules whose regex cannot match an event, without running the regex.
 *
 * Most rule patterns contain text that every match must contain (`\bgit\b.*push` needs "git" and "push").
 * Each rule is keyed by one such literal (per top-level alternative) of its pattern or of one of its
 * conditions; an event is scanned once per keyed field, and only the rules whose literal may occur there
 * are tested for real. The filter is one-sided: it may keep a rule that then fails, never drop one that
 * would match. Rules without a provable literal are always kept. Order is preserved (definition order).
 * Rules with a semantic `command` condition are filed under its program names instead: the line is parsed
 * once (the shell layer caches the last parse) and only rules naming a program that really runs are kept.
 */
import { parseShell, type ShellContext } from "../shell/index.ts";
import type { CompiledRule, EventView } from "./match.ts";
import type { Rule } from "./schema.ts";
import { isBuiltinAction } from "./schema-core.ts";

/** Below this many candidates a plain scan is as cheap as the filter. */
const MIN_RULES = 16;
/** The filter works on n-grams of at most this many characters of a literal. */
const GRAM = 3;

const ESCAPED_LITERALS = new Set([..."\\/.-()[]{}*+?|^$\"':=!<>,#&~@%`; _"]);

/**
 * Sets of literals, lower-cased, such that every match of `pattern` contains at least one literal of each
 * set; [] when none can be proven, undefined when the syntax is not understood. Conservative by
 * construction: anything not understood ends a literal run or gives up.
 */
export function requiredLiteralSets(pattern: string, flags = ""): string[][] | undefined {
  // Unicode sets (v) and unknown flags: not worth the risk of misreading the syntax.
  if (/[^gimsuyd]/.test(flags)) return undefined;
  const parsed = parseAlternation(pattern, 0);
  if (!parsed || parsed.end !== pattern.length) return undefined;
  // `i` with Unicode folding matches U+017F for "s" and U+212A for "k": the scan folds those too.
  return parsed.sets;
}

/** Shortest literal of a set: what a set is worth as a filter, before knowing how common its text is. */
function strength(set: string[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const l of set) min = Math.min(min, l.length);
  return min;
}

/** Parses alternatives from `i` up to a `)` or the end; `end` is the index of that `)` (or the length). */
function parseAlternation(p: string, i: number): { sets: string[][]; end: number } | undefined {
  const branches: string[][][] = [];
  let sets: string[][] = [];
  let run = "";
  const endRun = () => {
    if (run !== "") sets.push([run]);
    run = "";
  };
  for (;;) {
    const ch = p[i];
    if (ch === undefined || ch === ")" || ch === "|") {
      endRun();
      branches.push(sets);
      sets = [];
      if (ch !== "|") break;
      i++;
      continue;
    }
    if (ch === "^" || ch === "$") {
      i++; // zero-width: the text around it stays contiguous
      continue;
    }
    let literal: string | undefined;
    let atomEnd: number;
    let inner: string[][] | undefined;
    if (ch === "\\") {
      const next = p[i + 1];
      if (next === undefined) return undefined;
      if (next === "b" || next === "B") {
        i += 2;
        continue;
      }
      if ("dDwWsS".includes(next)) literal = undefined;
      else if (ESCAPED_LITERALS.has(next)) literal = next;
      else return undefined; // \x, \u, \p, \k, \c, backreferences, RE2's \Q...: not worth modelling
      atomEnd = i + 2;
    } else if (ch === "(") {
      let body = i + 1;
      let counts = true;
      if (p[i + 1] === "?") {
        const k = p[i + 2];
        const k2 = p[i + 3];
        if (k === ":") body = i + 3;
        else if (k === "=" || k === "!") {
          body = i + 3;
          counts = false; // lookahead: its text is not consumed here
        } else if (k === "<" && (k2 === "=" || k2 === "!")) {
          body = i + 4;
          counts = false;
        } else if (k === "<" || (k === "P" && k2 === "<")) {
          const close = p.indexOf(">", i);
          if (close === -1) return undefined;
          body = close + 1;
        } else return undefined; // inline flags and other extensions change matching
      }
      const group = parseAlternation(p, body);
      if (!group || p[group.end] !== ")") return undefined;
      atomEnd = group.end + 1;
      if (counts) inner = group.sets;
    } else if (ch === "[") {
      const close = skipClass(p, i);
      if (close === undefined) return undefined;
      atomEnd = close;
    } else if (ch === "]" || ch === "{" || ch === "}" || ch === "*" || ch === "+" || ch === "?") {
      return undefined; // stray syntax: the engine may read it differently
    } else if (ch === ".") {
      atomEnd = i + 1;
    } else {
      const code = ch.charCodeAt(0);
      literal = code >= 32 && code < 127 ? ch : undefined;
      atomEnd = i + 1;
    }
    const q = quantifierEnd(p, atomEnd);
    if (q === undefined) return undefined;
    if (q > atomEnd || literal === undefined) {
      // A quantified atom may repeat or vanish; a group or class is not literal text: the run stops.
      endRun();
      // A group that must occur once as written still requires its own literals.
      if (q === atomEnd && inner) sets.push(...inner);
      i = q;
      continue;
    }
    run += literal.toLowerCase();
    i = atomEnd;
  }
  if (branches.length === 1) return { sets: branches[0] as string[][], end: i };
  // Alternatives: each must bring a set; their best sets together form one set.
  const union: string[] = [];
  for (const b of branches) {
    if (b.length === 0) return { sets: [], end: i };
    let best = b[0] as string[];
    for (const set of b) if (strength(set) > strength(best) || (strength(set) === strength(best) && set.length < best.length)) best = set;
    for (const l of best) if (!union.includes(l)) union.push(l);
  }
  return { sets: [union], end: i };
}

/** Index just past a quantifier at `i` (with its lazy `?`), `i` when there is none, undefined if unsure. */
function quantifierEnd(p: string, i: number): number | undefined {
  const ch = p[i];
  let end = i;
  if (ch === "*" || ch === "+" || ch === "?") end = i + 1;
  else if (ch === "{") {
    const m = /^\{\d+(,\d*)?\}/.exec(p.slice(i, i + 24));
    if (!m) return undefined;
    end = i + m[0].length;
  } else return i;
  return p[end] === "?" ? end + 1 : end;
}

/** Index just past the `]` closing the class opened at `i`; undefined for forms engines read differently. */
function skipClass(p: string, i: number): number | undefined {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") return undefined; // `[]a]`: empty class in JS, a class with "]" in RE2
  for (; j < p.length; j++) {
    const c = p[j];
    if (c === "\\") j++;
    else if (c === "[") return undefined; // nested or POSIX classes
    else if (c === "]") return j + 1;
  }
  return undefined;
}

/** Lower-cased code of one character for matching against literals; -1 for anything no literal holds. */
function fold(code: number): number {
  if (code >= 65 && code <= 90) return code + 32;
  if (code < 127) return code;
  if (code === 0x17f) return 115; // ſ folds to s
  if (code === 0x212a) return 107; // Kelvin sign folds to k
  return -1;
}

/** An n-gram as one int: its length in bits 21-22, its 7-bit characters below. */
function gramKey(s: string, start: number, len: number): number {
  let key = 0;
  for (let k = 0; k < len; k++) key = (key << 7) | s.charCodeAt(start + k);
  return (len << 21) | key;
}

/** Bits of the Bloom-style bitmap that lets most positions of a scan skip the Map lookup. */
const BLOOM_BITS = 16;

function bloomIndex(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> (32 - BLOOM_BITS);
}

interface FieldFilter {
  /** `subject` for a rule's pattern, else a condition field name. */
  field: string;
  /** n-gram key -> positions (in the candidate list) of rules keyed by it, packed (see `packGrams`). */
  grams: PackedGrams;
  bloom: Uint8Array;
  /** Which n-gram lengths (1..3) occur, as bits 1 << len. */
  lengths: number;
}

/**
 * An n-gram -> positions map in three typed arrays: open addressing over the keys (never 0, the length
 * sits in bits 21-22), each key's positions a run of `positions`. A Map of arrays held ~1 MB of small
 * heap objects per 10,000 rules; typed arrays are a few flat buffers outside the collected heap.
 */
interface PackedGrams {
  keys: Int32Array;
  /** Per slot: start and end of its run in `positions`. */
  runs: Int32Array;
  positions: Int32Array;
  /** Right shift that turns a hash into a slot (32 - log2 of the table size). */
  shift: number;
}

function slotHash(key: number): number {
  return Math.imul(key, 0x85ebca6b);
}

function packGrams(grams: Map<number, number[]>): PackedGrams {
  let bits = 1;
  while (1 << bits < grams.size * 2) bits++;
  const size = 1 << bits;
  const shift = 32 - bits;
  const keys = new Int32Array(size);
  const runs = new Int32Array(size * 2);
  let total = 0;
  for (const list of grams.values()) total += list.length;
  const positions = new Int32Array(total);
  let at = 0;
  for (const [key, list] of grams) {
    let slot = slotHash(key) >>> shift;
    while (keys[slot] !== 0) slot = (slot + 1) & (size - 1);
    keys[slot] = key;
    runs[2 * slot] = at;
    positions.set(list, at);
    at += list.length;
    runs[2 * slot + 1] = at;
  }
  return { keys, runs, positions, shift };
}

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

interface RuleKey {
  field: string;
  literals: string[];
}

/** Every literal set the rule's pattern and non-negated conditions require (any one would do as its key). */
function keyOptions(cr: CompiledRule): RuleKey[] {
  const out: RuleKey[] = [];
  const add = (field: string, pattern: string, flags: string | undefined) => {
    for (const literals of requiredLiteralSets(pattern, flags ?? "") ?? []) out.push({ field, literals });
  };
  // From the rule's text, not its compiled RegExp: indexing must not compile a lazily compiled rule.
  const rule = cr.rule;
  if (rule.pattern !== undefined) add("subject", rule.pattern, rule.flags);
  for (const c of rule.conditions) if (!c.negate) add(c.field, c.pattern, c.flags);
  return out;
}

/** Short n-grams turn up in most text: a set holding one is worth far less as a filter. */
const SHORT_GRAM_PENALTY = 64;

/**
 * The program names a rule's `command` condition requires, one of which must run in the event's command
 * line, or undefined when no name can be required (no condition, or a glob). Shared with the hook snapshot
 * (hook-snapshot.ts), which may drop only rules this prefilter would.
 */
export function requiredPrograms(rule: Rule): string[] | undefined {
  const program = rule.command?.program;
  if (program === undefined) return undefined;
  const names = Array.isArray(program) ? program : [program];
  return names.some((n) => n.includes("*")) ? undefined : names;
}

/** The built-in checks answered without the host (git_uncommitted asks it): a set of only these stays synchronous. */
const HOST_FREE_CHECKS = new Set(["always", "has_edits"]);

interface Index {
  /** Positions of the rules no literal or program keys: candidates for every event. */
  always: number[];
  fields: FieldFilter[];
  /** program name -> positions of rules whose `command` condition names it. */
  byProgram: Map<string, number[]>;
}

/**
 * Built apart from the selector's closures: JSC keeps a function's whole scope alive, so the n-gram counts
 * and key choices (MBs at 10,000 rules) would otherwise live as long as the selector.
 */
function buildIndex(all: CompiledRule[]): Index {
  const options = all.map(keyOptions);
  // Count every n-gram once per rule first, so each rule can be filed under its rarest text.
  const freq = new Map<number, number>();
  const gramsOf = (lit: string): number[] => {
    const len = Math.min(GRAM, lit.length);
    const out: number[] = [];
    for (let s = 0; s + len <= lit.length; s++) out.push(gramKey(lit, s, len));
    return out;
  };
  for (const opts of options) {
    const mine = new Set<number>();
    for (const o of opts) for (const lit of o.literals) for (const g of gramsOf(lit)) mine.add(g);
    for (const g of mine) freq.set(g, (freq.get(g) ?? 0) + 1);
  }
  const rarestGram = (lit: string): { gram: number; cost: number } => {
    let gram = 0;
    let cost = Number.POSITIVE_INFINITY;
    for (const g of gramsOf(lit)) {
      const c = (freq.get(g) ?? 0) * (lit.length < GRAM ? SHORT_GRAM_PENALTY : 1);
      if (c < cost) {
        gram = g;
        cost = c;
      }
    }
    return { gram, cost };
  };
  const keys = options.map((opts) => {
    let best: { field: string; grams: { gram: number; len: number }[]; cost: number } | undefined;
    for (const o of opts) {
      let cost = 0;
      const grams = o.literals.map((lit) => {
        const r = rarestGram(lit);
        cost += r.cost;
        return { gram: r.gram, len: Math.min(GRAM, lit.length) };
      });
      if (!best || cost < best.cost) best = { field: o.field, grams, cost };
    }
    return best;
  });

  const always: number[] = [];
  const byField = new Map<string, Omit<FieldFilter, "grams"> & { grams: Map<number, number[]> }>();
  const byProgram = new Map<string, number[]>();
  keys.forEach((key, pos) => {
    const programs = requiredPrograms((all[pos] as CompiledRule).rule);
    if (programs) {
      for (const name of programs) {
        const list = byProgram.get(name) ?? [];
        if (list[list.length - 1] !== pos) list.push(pos);
        byProgram.set(name, list);
      }
      return;
    }
    if (!key) {
      always.push(pos);
      return;
    }
    let f = byField.get(key.field);
    if (!f) {
      f = { field: key.field, grams: new Map(), bloom: new Uint8Array(1 << (BLOOM_BITS - 3)), lengths: 0 };
      byField.set(key.field, f);
    }
    for (const { gram, len } of key.grams) {
      const list = f.grams.get(gram) ?? [];
      if (list[list.length - 1] !== pos) list.push(pos);
      f.grams.set(gram, list);
      f.lengths |= 1 << len;
      const b = bloomIndex(gram);
      f.bloom[b >>> 3] = (f.bloom[b >>> 3] as number) | (1 << (b & 7));
    }
  });
  const fields = [...byField.values()].map(({ field, grams, bloom, lengths }) => ({ field, grams: packGrams(grams), bloom, lengths }));
  return { always, fields, byProgram };
}

function buildSelector(all: CompiledRule[]): Selector {
  if (all.length < MIN_RULES) return plainSelector(all);
  const { needsHost } = plainSelector(all);
  const { always, fields, byProgram } = buildIndex(all);
  const seen = new Uint32Array(all.length);
  let stamp = 0;

  // The plain selector's gates are not needed once the list is indexed.
  for (const cr of all) gates.delete(cr.rule);
  const select = (view: EventView, shell: ShellContext, after?: CompiledRule): CompiledRule[] => {
    const picked = pick(view, shell);
    if (!after) return picked;
    // Only after a rewrite (rare): a linear search beats keeping a position map per list.
    const from = all.indexOf(after);
    return picked.filter((cr) => all.indexOf(cr) > from);
  };
  const pick = (view: EventView, shell: ShellContext): CompiledRule[] => {
    if (++stamp === 0xffffffff) {
      seen.fill(0);
      stamp = 1;
    }
    const hits: number[] = [];
    for (const f of fields) {
      const value = f.field === "subject" ? view.subject : view.field(f.field);
      // A non-negated condition on a missing field fails, so its rules cannot match.
      if (value === undefined) continue;
      scan(value, f, seen, stamp, hits);
    }
    if (byProgram.size > 0) {
      const command = view.command;
      // The same parse the matchers make (cached), so the programs are the ones they compare.
      if (command !== undefined) {
        for (const cmd of parseShell(command, shell).commands) {
          const list = byProgram.get(cmd.program);
          if (list === undefined) continue;
          for (const pos of list) {
            if (seen[pos] !== stamp) {
              seen[pos] = stamp;
              hits.push(pos);
            }
          }
        }
      }
    }
    if (hits.length === 0) return always.map((p) => all[p] as CompiledRule);
    sortSmall(hits);
    const out: CompiledRule[] = [];
    let a = 0;
    let h = 0;
    while (a < always.length || h < hits.length) {
      const next = h >= hits.length || (a < always.length && (always[a] as number) < (hits[h] as number)) ? (always[a++] as number) : (hits[h++] as number);
      out.push(all[next] as CompiledRule);
    }
    return out;
  };
  return { all, needsHost, select };
}

/** Insertion sort: hits are a few dozen at most, where it beats Array#sort with a comparator. */
function sortSmall(list: number[]): void {
  if (list.length > 64) {
    list.sort((a, b) => a - b);
    return;
  }
  for (let i = 1; i < list.length; i++) {
    const v = list[i] as number;
    let j = i - 1;
    while (j >= 0 && (list[j] as number) > v) {
      list[j + 1] = list[j] as number;
      j--;
    }
    list[j + 1] = v;
  }
}

/** Slides 1-, 2- and 3-gram windows over the folded text; collects positions of rules filed under a gram seen. */
function scan(text: string, f: FieldFilter, seen: Uint32Array, stamp: number, hits: number[]): void {
  const { grams, bloom, lengths } = f;
  // Most literals are 3+ characters: then one probe per position, and no loop over lengths.
  const only3 = lengths === 1 << 3;
  let window = 0;
  let valid = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    else if (c >= 127) {
      c = fold(c);
      if (c < 0) {
        valid = 0;
        window = 0;
        continue;
      }
    }
    window = ((window << 7) | c) & 0x1fffff;
    if (valid < 3) valid++;
    if (only3) {
      if (valid === 3) probe((3 << 21) | window, grams, bloom, seen, stamp, hits);
      continue;
    }
    for (let len = 1; len <= valid; len++) {
      if ((lengths & (1 << len)) !== 0) probe((len << 21) | (window & ((1 << (7 * len)) - 1)), grams, bloom, seen, stamp, hits);
    }
  }
}

function probe(key: number, grams: PackedGrams, bloom: Uint8Array, seen: Uint32Array, stamp: number, hits: number[]): void {
  const b = bloomIndex(key);
  if (((bloom[b >>> 3] as number) & (1 << (b & 7))) === 0) return;
  const { keys, runs, positions } = grams;
  const mask = keys.length - 1;
  for (let slot = slotHash(key) >>> grams.shift; ; slot = (slot + 1) & mask) {
    const k = keys[slot] as number;
    if (k === 0) return;
    if (k !== key) continue;
    for (let i = runs[2 * slot] as number, end = runs[2 * slot + 1] as number; i < end; i++) {
      const pos = positions[i] as number;
      if (seen[pos] !== stamp) {
        seen[pos] = stamp;
        hits.push(pos);
      }
    }
    return;
  }
}

/**
 * Indexing a list costs about as much as a few hundred plain evaluations of it: a one-shot hook process
 * never earns it back, a sidecar does from its first events. So a list is scanned plainly until it has
 * been used this many times.
 */
const INDEX_AFTER_USES = 4;

/**
 * Before a list is indexed, each rule is still gated by one literal set of its source text (read from the
 * rule, so a lazily compiled rule is not compiled to be skipped): a cheap `includes` instead of a regex.
 */
export interface Gate {
  field: string;
  literals: string[];
}

/** Keyed by rule (not compiled rule), so gates computed once can travel with cached rules (load-cache.ts). */
const gates = new WeakMap<Rule, Gate | null>();

/** Records gates computed earlier for these rules (same order as `gatesOf` gave them). */
export function primeGates(rules: readonly Rule[], known: readonly (Gate | null)[]): void {
  rules.forEach((rule, i) => {
    const gate = known[i];
    if (gate !== undefined && !gates.has(rule)) gates.set(rule, gate);
  });
}

export function gatesOf(rules: readonly Rule[]): (Gate | null)[] {
  return rules.map(gateOf);
}

function gateOf(rule: Rule): Gate | null {
  let gate = gates.get(rule);
  if (gate !== undefined) return gate;
  gate = null;
  let strongest = 0;
  const consider = (field: string, pattern: string, flags: string | undefined) => {
    for (const literals of requiredLiteralSets(pattern, flags ?? "") ?? []) {
      const min = Math.min(...literals.map((l) => l.length));
      if (min > strongest) {
        strongest = min;
        gate = { field, literals };
      }
    }
  };
  if (rule.pattern !== undefined) consider("subject", rule.pattern, rule.flags);
  for (const c of rule.conditions) if (!c.negate) consider(c.field, c.pattern, c.flags);
  gates.set(rule, gate);
  return gate;
}

/** Lower-cased text as the literals are, with the two non-ASCII letters that case-fold to ASCII. */
function foldText(text: string): string {
  const lower = text.toLowerCase();
  return /[\u017f]/.test(lower) ? lower.replace(/\u017f/g, "s") : lower;
}

/**
 * A field's text folded as gate literals are (undefined when the event lacks it), kept in `folded` for the
 * other rules of the same event. Shared with the hook snapshot (hook-snapshot.ts), whose index must pick
 * at least the rules the gates below let through.
 */
export function foldedField(view: EventView, field: string, folded: Map<string, string | undefined>): string | undefined {
  if (folded.has(field)) return folded.get(field);
  const raw = field === "subject" ? view.subject : view.field(field);
  const text = raw === undefined ? undefined : foldText(raw);
  folded.set(field, text);
  return text;
}

/** False when the rule's literal gate rules it out for this event: it cannot match. */
export function gatePasses(gate: Gate | null, view: EventView, folded: Map<string, string | undefined>): boolean {
  if (!gate) return true;
  const text = foldedField(view, gate.field, folded);
  return text !== undefined && gate.literals.some((l) => text.includes(l));
}

function plainSelector(all: CompiledRule[]): Selector {
  const needsHost = all.some((cr) => (cr.rule.check !== undefined && !HOST_FREE_CHECKS.has(cr.rule.check)) || !isBuiltinAction(cr.rule.action));
  const select = (view: EventView, _shell: ShellContext, after?: CompiledRule): CompiledRule[] => {
    const from = after ? all.indexOf(after) + 1 : 0;
    const folded = new Map<string, string | undefined>();
    const out: CompiledRule[] = [];
    for (let i = from; i < all.length; i++) {
      const cr = all[i] as CompiledRule;
      if (gatePasses(gateOf(cr.rule), view, folded)) out.push(cr);
    }
    return out;
  };
  return { all, needsHost, select };
}

const selectors = new WeakMap<CompiledRule[], { uses: number; selector: Selector }>();

/** The selector of a candidate list (lists are cached per hook and tool by merge); indexed once it is in use. */
export function selectorFor(list: CompiledRule[]): Selector {
  let entry = selectors.get(list);
  if (!entry) {
    entry = { uses: 0, selector: plainSelector(list) };
    selectors.set(list, entry);
  }
  if (++entry.uses === INDEX_AFTER_USES) entry.selector = buildSelector(list);
  return entry.selector;
}
