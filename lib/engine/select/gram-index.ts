/**
 * @module the one n-gram index of a candidate list: each rule filed under the rarest n-gram of each literal
 * of one of its keys (prepared.ts), or under the programs its `command` condition requires, or else under
 * the effect kinds that condition requires, or always. Built
 * once, kept in typed arrays (the sidecar), and serialized as plain arrays (the hook snapshot); both read it
 * through scan.ts, so what the hook picks is what the sidecar picks.
 */
import type { RuleKey } from "../prepared.ts";

/** The index works on n-grams of at most this many characters of a literal. */
export const GRAM = 3;

/** Bits of the Bloom-style bitmap that lets most positions of a scan skip the table lookup. */
export const BLOOM_BITS = 16;

/** Short n-grams turn up in most text: a set holding one is worth far less as a filter. */
const SHORT_GRAM_PENALTY = 64;

/** Set on the n-gram keys of shapes (a separate table, scanned over shape-folded text). */
export const SHAPE_BIT = 1 << 23;

/**
 * How common a shape n-gram is in text, roughly, before anything is known of the text: letters and spaces are
 * everywhere, capitals and flag dashes less so, digits and other punctuation least. Rules share shapes (`\s-[a-z]{3}\d`), so the
 * count across rules alone would file them under " -a", which every flag holds.
 */
function shapeWeight(gram: number): number {
  let w = 2;
  for (let k = 0; k < 3; k++) {
    const c = (gram >>> (7 * k)) & 0x7f;
    w *= c === 97 || c === 32 ? 4 : c === 65 || c === 45 ? 3 : c === 48 ? 2 : 1;
  }
  return w;
}

/** What the index needs of one rule of the list. */
export interface IndexEntry {
  keys: readonly RuleKey[];
  /** Program names one of which must run (a `command` condition), or undefined. */
  programs: readonly string[] | undefined;
  /** Effect kinds one of which the command line must have (a `command` condition's `effect`), or undefined. */
  effects: readonly string[] | undefined;
}

/**
 * An n-gram -> positions map in typed arrays: open addressing over the keys (never 0, the length sits in
 * bits 21-22), each key's positions a run of `positions`. A Map of arrays held ~1 MB of small heap objects
 * per 10,000 rules; typed arrays are a few flat buffers outside the collected heap.
 */
export interface FieldTable {
  /** `subject` for a rule's pattern, else a condition field name. */
  field: string;
  keys: Int32Array;
  /** Per slot: start and end of its run in `positions`. */
  runs: Int32Array;
  positions: Int32Array;
  /** Right shift that turns a hash into a slot (32 - log2 of the table size). */
  shift: number;
  /** Which n-gram lengths (1..3) occur, as bits 1 << len. */
  lengths: number;
  /** Shape keys: the text is read shape-folded, and keys carry SHAPE_BIT. */
  shape: boolean;
  bloom: Uint8Array;
}

export interface GramIndex {
  /** Rules in the list. */
  size: number;
  /** Positions of the rules no literal or program keys: candidates for every event. */
  always: Int32Array;
  fields: FieldTable[];
  /** Program name -> positions of rules whose `command` condition names it. */
  programs: Map<string, Int32Array>;
  /** Effect kind -> positions of rules with no literal key or program whose `command` condition requires it. */
  effects: Map<string, Int32Array>;
}

/** An n-gram as one int: its length in bits 21-22, its 7-bit characters below. */
export function gramKey(s: string, start: number, len: number): number {
  let key = 0;
  for (let k = 0; k < len; k++) key = (key << 7) | s.charCodeAt(start + k);
  return (len << 21) | key;
}

export function bloomIndex(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> (32 - BLOOM_BITS);
}

export function slotHash(key: number): number {
  return Math.imul(key, 0x85ebca6b);
}

function gramsOf(lit: string, shape: boolean | undefined): number[] {
  const len = Math.min(GRAM, lit.length);
  const out: number[] = [];
  for (let s = 0; s + len <= lit.length; s++) out.push(gramKey(lit, s, len) | (shape ? SHAPE_BIT : 0));
  return out;
}

function bloomOf(keys: Int32Array): Uint8Array {
  const bloom = new Uint8Array(1 << (BLOOM_BITS - 3));
  for (const key of keys) {
    if (key === 0) continue;
    const b = bloomIndex(key);
    bloom[b >>> 3] = (bloom[b >>> 3] as number) | (1 << (b & 7));
  }
  return bloom;
}

function packGrams(field: string, shape: boolean, grams: Map<number, number[]>, lengths: number): FieldTable {
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
  return { field, keys, runs, positions, shift, lengths, shape, bloom: bloomOf(keys) };
}

/**
 * Files every entry under its cheapest key: the n-grams are counted once per rule first, so each literal is
 * filed under its rarest n-gram (literals sharing a prefix, "prog1" and "prog2", would otherwise all be
 * picked together), and each rule under the key whose n-grams are rarest in total.
 */
export function buildGramIndex(entries: readonly IndexEntry[]): GramIndex {
  const freq = new Map<number, number>();
  for (const e of entries) {
    if (e.programs) continue;
    const mine = new Set<number>();
    for (const k of e.keys) for (const lit of k.literals) for (const g of gramsOf(lit, k.shape)) mine.add(g);
    for (const g of mine) freq.set(g, (freq.get(g) ?? 0) + 1);
  }
  const always: number[] = [];
  const byField = new Map<string, { field: string; shape: boolean; grams: Map<number, number[]>; lengths: number }>();
  const programs = new Map<string, number[]>();
  const effects = new Map<string, number[]>();
  const file = (table: Map<string, number[]>, names: readonly string[], pos: number) => {
    for (const name of names) {
      const list = table.get(name) ?? [];
      if (list[list.length - 1] !== pos) list.push(pos);
      table.set(name, list);
    }
  };
  entries.forEach((e, pos) => {
    if (e.programs) {
      file(programs, e.programs, pos);
      return;
    }
    let best: { field: string; shape: boolean; grams: number[]; cost: number } | undefined;
    for (const k of e.keys) {
      let cost = 0;
      const grams = k.literals.map((lit) => {
        let gram = 0;
        let c = Number.POSITIVE_INFINITY;
        for (const g of gramsOf(lit, k.shape)) {
          const n = (freq.get(g) ?? 0) * (lit.length < GRAM ? SHORT_GRAM_PENALTY : 1) * (k.shape ? shapeWeight(g) : 1);
          if (n < c) [gram, c] = [g, n];
        }
        cost += c;
        return gram;
      });
      if (!best || cost < best.cost) best = { field: k.field, shape: k.shape === true, grams, cost };
    }
    if (!best) {
      // An effect kind is in few lines, a literal's n-gram in fewer: it keys only a rule without one.
      if (e.effects) file(effects, e.effects, pos);
      else always.push(pos);
      return;
    }
    const table = `${best.shape ? "shape" : "text"}\0${best.field}`;
    let f = byField.get(table);
    if (!f) byField.set(table, (f = { field: best.field, shape: best.shape, grams: new Map(), lengths: 0 }));
    for (const gram of best.grams) {
      const list = f.grams.get(gram) ?? [];
      if (list[list.length - 1] !== pos) list.push(pos);
      f.grams.set(gram, list);
      f.lengths |= 1 << ((gram >>> 21) & 3);
    }
  });
  return {
    size: entries.length,
    always: Int32Array.from(always),
    fields: [...byField.values()].map((f) => packGrams(f.field, f.shape, f.grams, f.lengths)),
    programs: packNames(programs),
    effects: packNames(effects),
  };
}

function packNames(table: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...table].map(([name, list]) => [name, Int32Array.from(list)]));
}

/** The index as JSON-ready data (the hook snapshot). The Bloom bitmap is derived again on reading. */
export interface SerializedGramIndex {
  size: number;
  always: number[];
  fields: { field: string; shape: boolean; keys: number[]; runs: number[]; positions: number[]; shift: number; lengths: number }[];
  programs: [string, number[]][];
  effects: [string, number[]][];
}

export function serializeGramIndex(index: GramIndex): SerializedGramIndex {
  return {
    size: index.size,
    always: [...index.always],
    fields: index.fields.map((f) => ({ field: f.field, shape: f.shape, keys: [...f.keys], runs: [...f.runs], positions: [...f.positions], shift: f.shift, lengths: f.lengths })),
    programs: [...index.programs].map(([name, list]) => [name, [...list]]),
    effects: [...index.effects].map(([name, list]) => [name, [...list]]),
  };
}

function intArray(x: unknown, below: number): Int32Array | undefined {
  if (!Array.isArray(x)) return undefined;
  const out = new Int32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const n: unknown = x[i];
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n >= below) return undefined;
    out[i] = n;
  }
  return out;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The index read back, or undefined when the data is not one this module wrote: every position is checked
 * against the list's size and every run against the table, so a damaged file cannot make a scan read
 * outside its arrays (a reader then falls back to the full load).
 */
export function deserializeGramIndex(x: unknown): GramIndex | undefined {
  if (!isRecord(x)) return undefined;
  const size = x.size;
  if (typeof size !== "number" || !Number.isInteger(size) || size < 0) return undefined;
  const always = intArray(x.always, size);
  if (!always || !Array.isArray(x.fields) || !Array.isArray(x.programs) || !Array.isArray(x.effects)) return undefined;
  const fields: FieldTable[] = [];
  for (const f of x.fields as unknown[]) {
    if (!isRecord(f) || typeof f.field !== "string" || typeof f.shape !== "boolean" || typeof f.shift !== "number" || typeof f.lengths !== "number" || !Array.isArray(f.keys)) return undefined;
    const keys = intArray(f.keys, 2 * SHAPE_BIT);
    const positions = intArray(f.positions, size);
    if (!keys || !positions) return undefined;
    const runs = intArray(f.runs, positions.length + 1);
    const slots = keys.length;
    // An empty slot ends every probe: a full table would make one loop for good.
    if (!runs || !keys.includes(0) || slots === 0 || (slots & (slots - 1)) !== 0 || runs.length !== 2 * slots || f.shift !== 32 - Math.log2(slots) || (f.lengths & ~0b1110) !== 0) return undefined;
    for (let s = 0; s < slots; s++) if ((runs[2 * s] as number) > (runs[2 * s + 1] as number)) return undefined;
    fields.push({ field: f.field, keys, runs, positions, shift: f.shift, lengths: f.lengths, shape: f.shape, bloom: bloomOf(keys) });
  }
  const programs = namesOf(x.programs as unknown[], size);
  const effects = namesOf(x.effects as unknown[], size);
  if (!programs || !effects) return undefined;
  return { size, always, fields, programs, effects };
}

/** A name -> positions table read back, or undefined when an entry is not one `serializeGramIndex` wrote. */
function namesOf(pairs: unknown[], size: number): Map<string, Int32Array> | undefined {
  const out = new Map<string, Int32Array>();
  for (const p of pairs) {
    if (!Array.isArray(p) || typeof p[0] !== "string") return undefined;
    const list = intArray(p[1], size);
    if (!list) return undefined;
    out.set(p[0], list);
  }
  return out;
}
