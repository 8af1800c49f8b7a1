/**
 * @module the one n-gram index of a candidate list: each rule filed under the programs its `command` condition
 * requires (when it requires no effect kind), or under the rarest n-gram of each literal of one of its keys
 * (prepared.ts), or else under the effect kinds that condition requires, or always. Built
 * once, kept in typed arrays (the sidecar), and serialized as plain arrays (the hook snapshot); both read it
 * through scan.ts, so what the hook picks is what the sidecar picks.
 */
import type { RuleKey } from "../prepared.ts";

/** The index works on n-grams of at most this many characters of a literal. */
export const GRAM = 3;

/** Most bits of the Bloom-style bitmap that lets most positions of a scan skip the table lookup. */
export const BLOOM_BITS = 16;
/** Fewest bits of the bitmap: one cache line. */
const MIN_BLOOM_BITS = 9;
/** Bitmap bits per key, up to BLOOM_BITS: ~3% of the positions of a scan look the table up. */
const BLOOM_BITS_PER_KEY = 32;

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

/**
 * Filed among the effect kinds, for a `command` condition with `writes` and no `effect`: picked when some
 * command of the line changes a path (lib/shell LineFacts `writes`), exactly when the matchers' pre-check
 * lets it through. No effect kind starts with NUL.
 */
export const WRITES_KEY = "\0writes";

/** What the index needs of one rule of the list. */
export interface IndexEntry {
  keys: readonly RuleKey[];
  /** Program names one of which must run (a `command` condition), globs (`python3.*`) among them, or undefined. */
  programs: readonly string[] | undefined;
  /** Effect kinds one of which the command line must have (a `command` condition's `effect`, or WRITES_KEY), or undefined. */
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
  /** Its size in bits is a power of two, 2^MIN_BLOOM_BITS to 2^BLOOM_BITS: `bloomShift` is 32 - log2 of it. */
  bloom: Uint8Array;
  bloomShift: number;
}

export interface GramIndex {
  /** Rules in the list. */
  size: number;
  /** Positions of the rules no literal or program keys: candidates for every event. */
  always: Int32Array;
  fields: FieldTable[];
  /** Program name -> positions of rules whose `command` condition names it. */
  programs: Map<string, Int32Array>;
  /** Program glob (`python3.*`, `*` any run of characters) -> positions of rules whose condition names it. */
  globs: Map<string, Int32Array>;
  /** Effect kind -> positions of rules with no literal key or program whose `command` condition requires it. */
  effects: Map<string, Int32Array>;
}

/** An n-gram as one int: its length in bits 21-22, its 7-bit characters below. */
export function gramKey(s: string, start: number, len: number): number {
  let key = 0;
  for (let k = 0; k < len; k++) key = (key << 7) | s.charCodeAt(start + k);
  return (len << 21) | key;
}

/** The bit of `key` in a bitmap of 2^(32 - shift) bits. */
export function bloomIndex(key: number, shift: number): number {
  return Math.imul(key, 0x9e3779b1) >>> shift;
}

/**
 * A bitmap sized to the table: a scan tests one bit per position of its text, so on a cold cache (a sidecar
 * sharing its CPU with the agent) each test of a large bitmap is a cache miss; a table with a few keys
 * (shapes, a condition field) gets a bitmap of a cache line or a few, the largest tables 8 KiB as before.
 */
function bloomShiftFor(keyCount: number): number {
  let bits = MIN_BLOOM_BITS;
  while (bits < BLOOM_BITS && 1 << bits < keyCount * BLOOM_BITS_PER_KEY) bits++;
  return 32 - bits;
}

/** The shift of a bitmap of `bytes` bytes, or undefined when that is not a size this module makes. */
function bloomShiftOf(bytes: number): number | undefined {
  for (let bits = MIN_BLOOM_BITS; bits <= BLOOM_BITS; bits++) if (1 << (bits - 3) === bytes) return 32 - bits;
  return undefined;
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

function bloomOf(keys: Int32Array, shift: number): Uint8Array {
  const bloom = new Uint8Array(1 << (32 - shift - 3));
  for (const key of keys) {
    if (key === 0) continue;
    const b = bloomIndex(key, shift);
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
  const bloomShift = bloomShiftFor(grams.size);
  return { field, keys, runs, positions, shift, lengths, shape, bloom: bloomOf(keys, bloomShift), bloomShift };
}

/**
 * A rule requiring programs is filed under them, unless it requires effect kinds too: `git` runs in many
 * lines, `discard-work` is in few, and either alone is a check the matchers make (lib/shell ruledOutBy).
 * The plain selector tests in the same order (selector.ts).
 */
export function filedByPrograms(e: Pick<IndexEntry, "programs" | "effects">): boolean {
  return e.programs !== undefined && e.effects === undefined;
}

/**
 * Files every entry under its cheapest key: the n-grams are counted once per rule first, so each literal is
 * filed under its rarest n-gram (literals sharing a prefix, "prog1" and "prog2", would otherwise all be
 * picked together), and each rule under the key whose n-grams are rarest in total.
 */
export function buildGramIndex(entries: readonly IndexEntry[]): GramIndex {
  const freq = new Map<number, number>();
  for (const e of entries) {
    if (filedByPrograms(e)) continue;
    const mine = new Set<number>();
    for (const k of e.keys) for (const lit of k.literals) for (const g of gramsOf(lit, k.shape)) mine.add(g);
    for (const g of mine) freq.set(g, (freq.get(g) ?? 0) + 1);
  }
  const always: number[] = [];
  const byField = new Map<string, { field: string; shape: boolean; grams: Map<number, number[]>; lengths: number }>();
  const programs = new Map<string, number[]>();
  const globs = new Map<string, number[]>();
  const effects = new Map<string, number[]>();
  const file = (table: Map<string, number[]>, names: readonly string[], pos: number) => {
    for (const name of names) {
      const list = table.get(name) ?? [];
      if (list[list.length - 1] !== pos) list.push(pos);
      table.set(name, list);
    }
  };
  entries.forEach((e, pos) => {
    if (filedByPrograms(e)) {
      const names = e.programs as readonly string[];
      file(programs, names.filter((n) => !n.includes("*")), pos);
      file(globs, names.filter((n) => n.includes("*")), pos);
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
    globs: packNames(globs),
    effects: packNames(effects),
  };
}

function packNames(table: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...table].map(([name, list]) => [name, Int32Array.from(list)]));
}

/**
 * The index as JSON-ready data (the hook snapshot): each typed array as the base64 of its bytes, the Bloom
 * bitmap included. A hook is a cold process whose code runs in the interpreter: a loop over every number
 * of a 1,000-rule index (parse, check, copy, and the bitmap derived again) cost it ~1.5 ms, where a native
 * base64 decode costs microseconds. Little-endian, as on every platform the binary is built for; a snapshot
 * is read only by the binary that wrote it (its salt).
 */
export interface SerializedGramIndex {
  size: number;
  always: string;
  fields: { field: string; shape: boolean; keys: string; runs: string; positions: string; bloom: string; shift: number; lengths: number }[];
  programs: SerializedNames;
  globs: SerializedNames;
  effects: SerializedNames;
}

/**
 * A name -> positions table in one piece: the names, and each one's run of `positions` (`runs` holds
 * names + 1 offsets). One decode for the whole table: a decode per name cost a hook ~4 µs each, and a
 * 1,000-rule list names ~60 programs.
 */
export interface SerializedNames {
  names: string[];
  runs: string;
  positions: string;
}

function serializeNames(table: ReadonlyMap<string, Int32Array>): SerializedNames {
  const names = [...table.keys()];
  const runs = new Int32Array(names.length + 1);
  let total = 0;
  names.forEach((name, i) => {
    total += (table.get(name) as Int32Array).length;
    runs[i + 1] = total;
  });
  const positions = new Int32Array(total);
  names.forEach((name, i) => positions.set(table.get(name) as Int32Array, runs[i] as number));
  return { names, runs: encodeInts(runs), positions: encodeInts(positions) };
}

type Base64Codec = { toBase64(bytes: Uint8Array): string; fromBase64(text: string): Uint8Array };

/** The runtime's native base64 (Bun, recent V8), else Buffer's (Node, Deno). */
const base64: Base64Codec =
  typeof (Uint8Array as { fromBase64?: unknown }).fromBase64 === "function"
    ? {
        toBase64: (bytes) => (bytes as Uint8Array & { toBase64(): string }).toBase64(),
        fromBase64: (text) => (Uint8Array as unknown as { fromBase64(t: string): Uint8Array }).fromBase64(text),
      }
    : { toBase64: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"), fromBase64: (text) => new Uint8Array(Buffer.from(text, "base64")) };

function encodeInts(list: Int32Array): string {
  return base64.toBase64(new Uint8Array(list.buffer, list.byteOffset, list.byteLength));
}

/** The Int32Array a string of encodeInts holds, or undefined when it is not one. */
function decodeInts(x: unknown): Int32Array | undefined {
  if (typeof x !== "string") return undefined;
  let bytes: Uint8Array;
  try {
    bytes = base64.fromBase64(x);
  } catch {
    return undefined;
  }
  if (bytes.byteLength % 4 !== 0) return undefined;
  // fromBase64 returns a fresh buffer: aligned at 0.
  return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

export function serializeGramIndex(index: GramIndex): SerializedGramIndex {
  return {
    size: index.size,
    always: encodeInts(index.always),
    fields: index.fields.map((f) => ({
      field: f.field,
      shape: f.shape,
      keys: encodeInts(f.keys),
      runs: encodeInts(f.runs),
      positions: encodeInts(f.positions),
      bloom: base64.toBase64(f.bloom),
      shift: f.shift,
      lengths: f.lengths,
    })),
    programs: serializeNames(index.programs),
    globs: serializeNames(index.globs),
    effects: serializeNames(index.effects),
  };
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The index read back, or undefined when its shape is not one this module wrote. The numbers themselves are
 * not checked here (a loop over each is what this format saves a hook): every scan checks each run and each
 * position it reads against the arrays and the list's size (scan.ts) and throws on one outside them, so a
 * damaged file cannot make a scan read outside its arrays (the reader then falls back to the full load).
 * What would make a probe loop for good (no empty slot) is checked here, and the always-list (a few rules).
 * The file is Shepherd's own (its state folder, mode 0600, self-protected): its keys are trusted as the
 * sidecar's index is.
 */
export function deserializeGramIndex(x: unknown): GramIndex | undefined {
  if (!isRecord(x)) return undefined;
  const size = x.size;
  if (typeof size !== "number" || !Number.isInteger(size) || size < 0) return undefined;
  const always = decodeInts(x.always);
  if (!always || !Array.isArray(x.fields)) return undefined;
  for (let i = 0; i < always.length; i++) if ((always[i] as number) >>> 0 >= size || (i > 0 && (always[i] as number) <= (always[i - 1] as number))) return undefined;
  const fields: FieldTable[] = [];
  for (const f of x.fields as unknown[]) {
    if (!isRecord(f) || typeof f.field !== "string" || typeof f.shape !== "boolean" || typeof f.shift !== "number" || typeof f.lengths !== "number" || typeof f.bloom !== "string") return undefined;
    const keys = decodeInts(f.keys);
    const positions = decodeInts(f.positions);
    const runs = decodeInts(f.runs);
    let bloom: Uint8Array;
    try {
      bloom = base64.fromBase64(f.bloom);
    } catch {
      return undefined;
    }
    if (!keys || !positions || !runs) return undefined;
    const slots = keys.length;
    // An empty slot ends every probe: a full table would make one loop for good.
    if (!keys.includes(0) || slots === 0 || (slots & (slots - 1)) !== 0 || runs.length !== 2 * slots || f.shift !== 32 - Math.log2(slots) || (f.lengths & ~0b1110) !== 0) return undefined;
    const bloomShift = bloomShiftOf(bloom.length);
    if (bloomShift === undefined) return undefined;
    fields.push({ field: f.field, keys, runs, positions, shift: f.shift, lengths: f.lengths, shape: f.shape, bloom, bloomShift });
  }
  const programs = namesOf(x.programs);
  const globs = namesOf(x.globs);
  const effects = namesOf(x.effects);
  if (!programs || !globs || !effects) return undefined;
  return { size, always, fields, programs, globs, effects };
}

/** A name -> positions table read back, or undefined when it is not one `serializeGramIndex` wrote. */
function namesOf(x: unknown): Map<string, Int32Array> | undefined {
  if (!isRecord(x) || !Array.isArray(x.names)) return undefined;
  const names = x.names as unknown[];
  const runs = decodeInts(x.runs);
  const positions = decodeInts(x.positions);
  if (!runs || !positions || runs.length !== names.length + 1 || runs[0] !== 0 || runs[names.length] !== positions.length) return undefined;
  const out = new Map<string, Int32Array>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const from = runs[i] as number;
    const to = runs[i + 1] as number;
    if (typeof name !== "string" || to < from) return undefined;
    // Views, not copies; each position is checked against the list by the scan that reads it (scan.ts).
    out.set(name, positions.subarray(from, to));
  }
  return out;
}
