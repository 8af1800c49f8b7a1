/**
 * @module the prepared rule: what selection and the regex compiler need of a rule's text, made once when
 * the rule is loaded (its literal keys, its gate, its patterns' safety analyses) and carried on the rule
 * itself, so the load cache and the hook snapshot serialize it with the rule. The one thing kept aside is
 * this module's own bounded memo of pattern facts, filled only here, so a reload parses only what changed.
 */
import { analyzeParsed, analyzePattern, type PatternAnalysis } from "./regex/risk.ts";
import { type ParsedRegex, parseRegex } from "./regex/syntax.ts";
import { type Required, requiredText } from "./regex/literals.ts";
import type { Rule } from "./schema.ts";

/** A set of literals of one field (`subject` for the rule's pattern): every match holds at least one of them. */
export interface RuleKey {
  field: string;
  literals: string[];
  /** The literal is a shape (literals.ts: `a` any lower-case letter, `0` any digit...), matched on shape-folded text. */
  shape?: true;
}

export interface Prepared {
  /** Every literal set the rule's pattern and non-negated conditions require (any one would do as its key). */
  keys: RuleKey[];
  /** Position in `keys` of the strongest set (longest shortest literal): the plain selector's gate; -1 for none. */
  gate: number;
  /**
   * Safety analyses of the patterns the rule compiles, in `patternsOf` order (null: not readable, analysed
   * and reported again when compiled). An array, not a map by pattern text: a sidecar keeps one per rule.
   */
  analyses: (PatternAnalysis | null)[];
}

/** A rule's pattern, conditions and `command` regexes (these compile without flags, lib/shell/index.ts). */
export function patternsOf(rule: Rule): { pattern: string; flags: string | undefined }[] {
  const out: { pattern: string; flags: string | undefined }[] = [];
  if (rule.pattern !== undefined) out.push({ pattern: rule.pattern, flags: rule.flags });
  for (const c of rule.conditions) out.push({ pattern: c.pattern, flags: c.flags });
  const cmd = rule.command;
  if (cmd) for (const p of [cmd.args, cmd.notArgs, cmd.branch, cmd.writesTo]) if (p !== undefined) out.push({ pattern: p, flags: undefined });
  return out;
}

/** Flags as the compiler normalizes them (`g`/`y` make `test` stateful and are dropped). */
export function analysisKey(pattern: string, flags: string | undefined): string {
  return `${(flags ?? "").replace(/[gy]/g, "")}/${pattern}`;
}

/**
 * Pattern facts kept across processes (a disk cache: lib/rules/pattern-facts-cache.ts), keyed by
 * `analysisKey`: a cold process with a warm cache parses no pattern it has seen. Its values are as
 * trusted as the load cache's (written by this same build, in the user's agent folder).
 */
export interface PatternFactsStore {
  get(key: string): StoredFacts | undefined;
  add(key: string, facts: StoredFacts): void;
}

/** What is kept of a pattern: its safety analysis (null: not valid JS) and its required text (sets null: not read). */
export interface StoredFacts {
  analysis: PatternAnalysis | null;
  sets: string[][] | null;
  shapes: readonly string[];
}

/** What one pattern (with its normalized flags) yields: its safety analysis and the text every match holds. */
interface PatternFacts {
  /** null: not valid JS (compiling the rule reports the native message). */
  analysis: PatternAnalysis | null;
  /** Literal sets every match holds (literals.ts); undefined when the syntax is not read. */
  sets: string[][] | undefined;
  shapes: readonly string[];
  /**
   * The prepared value of a rule whose only pattern this is, under `soleField` (its pattern, or its one
   * condition): the same for every such rule, so they share it (a sidecar keeps one per rule).
   */
  sole?: Prepared;
  soleField?: string;
}

const NO_SHAPES: readonly string[] = Object.freeze([]);
const NO_SETS: string[][] = [];

/**
 * Patterns analysed lately, so loading the same text twice (the rules tool checks a file, then its host
 * loads it) parses once. Least recently used first; filled only by `factsOf`. Bounded by count, and small:
 * at 10,000 rules a memo of every pattern held 3 MB of the sidecar's 15 MB live heap; a reload of a large
 * file takes its unchanged rules' prepared values from the file's last load instead (`prepareRules`).
 * Flagless patterns are keyed by their own string, the rest by `flags/pattern` (flags hold no `/`), in a
 * second map: no key string is built for the common case.
 */
export const PATTERN_MEMO_CAP = 2_048;
const plainMemo = new Map<string, PatternFacts>();
const flaggedMemo = new Map<string, PatternFacts>();

/** Where a new memo entry sits, so `prepareRules` can swap it for a compact copy. */
interface Fresh {
  memo: Map<string, PatternFacts>;
  key: string;
  /** Parsed here, so the store learns it (from its settled copy, not the parse's own objects). */
  storeKey?: string;
}

function factsOf(pattern: string, flags: string | undefined, fresh?: Fresh[], store?: PatternFactsStore): PatternFacts {
  const f = (flags ?? "").replace(/[gy]/g, "");
  const memo = f === "" ? plainMemo : flaggedMemo;
  const key = f === "" ? pattern : `${f}/${pattern}`;
  const hit = memo.get(key);
  if (hit) {
    memo.delete(key);
    memo.set(key, hit);
    return hit;
  }
  const stored = store?.get(`${f}/${pattern}`);
  let facts: PatternFacts;
  if (stored) facts = { analysis: stored.analysis, sets: stored.sets ?? undefined, shapes: stored.shapes.length === 0 ? NO_SHAPES : stored.shapes };
  else {
    let tree: ParsedRegex | undefined;
    try {
      tree = parseRegex(pattern, f);
    } catch {
      // Not valid JS: compiling the rule reports the native message.
    }
    // One parse shared by the analysis and the required text.
    const required: Required | undefined = tree && requiredText(pattern, f, tree);
    facts = { analysis: tree ? analyzeParsed(tree, pattern) : null, sets: required?.sets, shapes: required?.shapes ?? NO_SHAPES };
  }
  if (plainMemo.size + flaggedMemo.size >= PATTERN_MEMO_CAP) {
    const older = plainMemo.size >= flaggedMemo.size ? plainMemo : flaggedMemo;
    const oldest = older.keys().next();
    if (!oldest.done) older.delete(oldest.value);
  }
  memo.set(key, facts);
  fresh?.push(store && !stored ? { memo, key, storeKey: `${f}/${pattern}` } : { memo, key });
  return facts;
}

/**
 * Equal values made once per `prepareRules` call, so the rules of a file share them (literal lists, keys,
 * analyses: most rules of a file repeat a program's name or a plain analysis). Per call, never kept: it
 * holds nothing the rules do not. Keyed by kind and content; a value made of shared parts is keyed by its
 * parts' numbers (`idOf`), not by its JSON, which a cold load paid for every key of every rule.
 */
interface Interner {
  values: Map<string, unknown>;
  ids: Map<object, number>;
}

function newInterner(): Interner {
  return { values: new Map(), ids: new Map() };
}

function intern<T>(table: Interner | undefined, key: string, make: () => T): T {
  if (!table) return make();
  const hit = table.values.get(key);
  if (hit !== undefined) return hit as T;
  const made = make();
  table.values.set(key, made);
  return made;
}

/** A number for an object (distinct objects, distinct numbers): equal parts shared, so equal wholes key alike. */
function idOf(table: Interner, o: object): number {
  let id = table.ids.get(o);
  if (id === undefined) {
    id = table.ids.size;
    table.ids.set(o, id);
  }
  return id;
}

/** A copy of facts made apart from the parse that found them, its parts shared with equal ones (see prepareRules). */
function settled(f: PatternFacts, table: Interner): PatternFacts {
  const a = f.analysis;
  return {
    analysis: a && !Object.isFrozen(a) ? intern(table, `a${JSON.stringify(a)}`, () => ({ ...a, ...(a.risk ? { risk: { ...a.risk } } : {}) })) : a,
    sets: f.sets && (f.sets.length === 0 ? NO_SETS : f.sets.map((set) => intern(table, `l${set.join("\0")}`, () => [...set]))),
    shapes: f.shapes.length === 0 ? NO_SHAPES : [...f.shapes],
  };
}

/** Patterns held by the memo (for tests of its bound). */
export function patternMemoSize(): number {
  return plainMemo.size + flaggedMemo.size;
}

/** Literal and shape keys and the gate: from the rule's text, so preparing a rule never compiles it. */
function keysOf(rule: Rule, table?: Interner): { keys: RuleKey[]; gate: number } {
  const keys: RuleKey[] = [];
  let gate = -1;
  let strongest = 0;
  const add = (field: string, pattern: string, flags: string | undefined) => {
    const facts = factsOf(pattern, flags);
    if (!facts.sets) return;
    // The memo's own arrays, shared: nothing mutates a key's literals.
    for (const shape of facts.shapes) keys.push(intern(table, `s${field}\0${shape}`, () => ({ field, literals: [shape], shape: true })));
    for (const literals of facts.sets) {
      keys.push(table ? intern(table, `k${field}\0${idOf(table, literals)}`, () => ({ field, literals })) : { field, literals });
      let min = Number.POSITIVE_INFINITY;
      for (const l of literals) min = Math.min(min, l.length);
      if (min > strongest) [strongest, gate] = [min, keys.length - 1];
    }
  };
  if (rule.pattern !== undefined) add("subject", rule.pattern, rule.flags);
  for (const c of rule.conditions) if (!c.negate) add(c.field, c.pattern, c.flags);
  // With a literal of an n-gram or more, shapes add nothing worth their memory (a sidecar keeps every key).
  if (strongest >= 3) {
    const literal = keys.filter((k) => !k.shape);
    return { keys: sharedKeys(literal, table), gate: literal.indexOf(keys[gate] as RuleKey) };
  }
  // A literal shorter than an n-gram is in most text: the longest shape, if any, says more.
  for (let i = 0; i < keys.length; i++) if (keys[i]?.shape && (gate < 0 || !keys[gate]?.shape || (keys[i]?.literals[0]?.length ?? 0) > (keys[gate]?.literals[0]?.length ?? 0))) gate = i;
  return { keys: sharedKeys(keys, table), gate };
}

const NO_KEYS: RuleKey[] = [];

function sharedKeys(keys: RuleKey[], table: Interner | undefined): RuleKey[] {
  if (keys.length === 0) return NO_KEYS;
  if (!table) return keys;
  let key = "K";
  for (const k of keys) key += `${idOf(table, k)},`;
  return intern(table, key, () => keys);
}

function sharedAnalyses(analyses: (PatternAnalysis | null)[], table: Interner | undefined): (PatternAnalysis | null)[] {
  if (!table) return analyses;
  let key = "A";
  for (const a of analyses) key += a ? `${idOf(table, a)},` : "-,";
  return intern(table, key, () => analyses);
}

/** The rule's one pattern, when its prepared value depends on nothing else (no `command`, one non-negated pattern). */
function onlyPattern(rule: Rule): { field: string; pattern: string; flags: string | undefined } | undefined {
  if (rule.command !== undefined) return undefined;
  if (rule.pattern !== undefined) return rule.conditions.length === 0 ? { field: "subject", pattern: rule.pattern, flags: rule.flags } : undefined;
  const c = rule.conditions[0];
  return c && rule.conditions.length === 1 && !c.negate ? { field: c.field, pattern: c.pattern, flags: c.flags } : undefined;
}

/** The prepared value of a rule's current text. */
export function prepareRule(rule: Rule, table?: Interner): Prepared {
  const only = onlyPattern(rule);
  if (only) {
    const facts = factsOf(only.pattern, only.flags);
    if (facts.sole === undefined) {
      facts.sole = Object.freeze({ ...keysOf(rule, table), analyses: sharedAnalyses([facts.analysis], table) });
      facts.soleField = only.field;
    }
    if (facts.soleField === only.field) return facts.sole;
  }
  return { ...keysOf(rule, table), analyses: sharedAnalyses(patternsOf(rule).map((p) => factsOf(p.pattern, p.flags).analysis), table) };
}

/**
 * Prepares every rule of a file, a chunk at a time: the chunk's patterns parsed first, then what is kept of
 * them (the memo's facts, the rules' prepared values) made in a run of their own. They live as long as the
 * rules, and allocated among the parsers' garbage each would keep a mostly empty heap block resident (JSC
 * does not move objects). A chunk is smaller than the memo, so none of its facts is evicted before use.
 */
const CHUNK = 1_024;

/** What a rule's prepared value depends on: its patterns, their flags, fields and negations, and whether it has a `command`. */
function preparedSignature(rule: Rule): string {
  const cmd = rule.command;
  return JSON.stringify([
    rule.pattern ?? null,
    rule.flags ?? null,
    rule.conditions.map((c) => [c.field, c.pattern, c.flags ?? null, c.negate === true]),
    cmd ? [cmd.args ?? null, cmd.notArgs ?? null, cmd.branch ?? null, cmd.writesTo ?? null] : 0,
  ]);
}

/**
 * `previous`: the rules of the file's last load. A rule whose patterns are those of one of them takes its
 * prepared value (the same text gives the same value), so a save that edits one rule of ten thousand parses
 * one pattern.
 */
export function prepareRules(rules: readonly Rule[], previous?: readonly Rule[], store?: PatternFactsStore): void {
  let todo = rules;
  if (previous && previous.length > 0) {
    const known = new Map<string, Prepared>();
    for (const r of previous) if (r.prepared && r.patch === undefined) known.set(preparedSignature(r), r.prepared);
    todo = rules.filter((r) => {
      const p = known.get(preparedSignature(r));
      if (p) r.prepared = p;
      return !p;
    });
  }
  const table = newInterner();
  for (let from = 0; from < todo.length; from += CHUNK) {
    const chunk = todo.slice(from, from + CHUNK);
    const fresh: Fresh[] = [];
    for (const rule of chunk) for (const p of patternsOf(rule)) factsOf(p.pattern, p.flags, fresh, store);
    for (const { memo, key, storeKey } of fresh) {
      const f = memo.get(key);
      if (!f) continue;
      const kept = settled(f, table);
      memo.set(key, kept);
      // Kept by the store until it writes: the parse's own objects would hold their garbage's heap blocks.
      if (storeKey !== undefined) store?.add(storeKey, { analysis: kept.analysis, sets: kept.sets ?? null, shapes: kept.shapes });
    }
    for (const rule of chunk) rule.prepared = prepareRule(rule, table);
  }
}

/** The rule with its prepared value (made by load; a rule built elsewhere is prepared here, once). */
export function prepared(rule: Rule): Prepared {
  rule.prepared ??= prepareRule(rule);
  return rule.prepared;
}

/** The analysis of one of the rule's patterns: prepared at load, or computed now (a pattern composed later). */
export function analysisOf(rule: Rule | undefined, pattern: string, flags: string): PatternAnalysis {
  if (rule) {
    const known = prepared(rule).analyses;
    const list = patternsOf(rule);
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as { pattern: string; flags: string | undefined };
      const a = known[i];
      if (a && p.pattern === pattern && (p.flags ?? "").replace(/[gy]/g, "") === flags) return a;
    }
  }
  const a = factsOf(pattern, flags).analysis;
  // Not valid JS: the analysis of nothing risky; compiling it fails with the native message anyway.
  return a ?? analyzePattern(pattern, flags);
}

/** The gate of a prepared rule (tested with `includes` on folded or shape-folded text), or undefined when nothing can be required. */
export function gateOf(p: Prepared): RuleKey | undefined {
  return p.gate >= 0 ? p.keys[p.gate] : undefined;
}
