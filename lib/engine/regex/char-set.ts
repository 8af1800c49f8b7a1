/**
 * @module character sets of the regex tree as five 32-bit words: ASCII in four words, and two bits for
 * every non-ASCII white-space character and every other non-ASCII character (so `\S` and `\s` stay
 * disjoint). Immutable; every single character and the class escapes are made once, so reading a pattern
 * allocates a set only where it unions (a class, a branch's first characters). BigInt sets cost a cold
 * load ~3x as much time, most of it in allocation.
 */

export interface CharSet {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  /** Bit 0: non-ASCII white space; bit 1: every other non-ASCII character. */
  readonly e: number;
}

/**
 * A set from its five words. A plain object, not a class instance: a cold hook process evaluates this
 * module at start, and constructing a class there cost ~10x an object literal (~0.15 ms for the table below).
 */
export function charSet(a: number, b: number, c: number, d: number, e: number): CharSet {
  return { a: a | 0, b: b | 0, c: c | 0, d: d | 0, e: e | 0 };
}

export const EMPTY = charSet(0, 0, 0, 0, 0);
export const NA_SPACE = charSet(0, 0, 0, 0, 1);
export const NA_OTHER = charSet(0, 0, 0, 0, 2);
export const ALL = charSet(-1, -1, -1, -1, 3);

/**
 * Each ASCII character's set, made once (bit `c & 31` of word `c >> 5`), on first use: a hook answering from
 * its snapshot reads no pattern, and this module is evaluated at its start.
 */
let ascii: CharSet[] | undefined;

function asciiSets(): CharSet[] {
  if (ascii) return ascii;
  const table: CharSet[] = [];
  for (let c = 0; c < 128; c++) {
    const bit = 1 << (c & 31);
    const w = c >> 5;
    table.push(charSet(w === 0 ? bit : 0, w === 1 ? bit : 0, w === 2 ? bit : 0, w === 3 ? bit : 0, 0));
  }
  ascii = table;
  return table;
}

function isUnicodeSpace(c: number): boolean {
  return /\s/.test(String.fromCharCode(c));
}

/** The set of one character (a non-ASCII one stands for its class of the two). */
export function ch(code: number): CharSet {
  return code < 128 ? (asciiSets()[code] as CharSet) : isUnicodeSpace(code) ? NA_SPACE : NA_OTHER;
}

export function union(x: CharSet, y: CharSet): CharSet {
  if (x === y || y === EMPTY) return x;
  if (x === EMPTY) return y;
  return charSet(x.a | y.a, x.b | y.b, x.c | y.c, x.d | y.d, x.e | y.e);
}

export function intersects(x: CharSet, y: CharSet): boolean {
  return ((x.a & y.a) | (x.b & y.b) | (x.c & y.c) | (x.d & y.d) | (x.e & y.e)) !== 0;
}

/** Whether every character of `x` is in `y`. */
export function subsetOf(x: CharSet, y: CharSet): boolean {
  return ((x.a & ~y.a) | (x.b & ~y.b) | (x.c & ~y.c) | (x.d & ~y.d) | (x.e & ~y.e)) === 0;
}

export function isEmpty(x: CharSet): boolean {
  return (x.a | x.b | x.c | x.d | x.e) === 0;
}

export function equals(x: CharSet, y: CharSet): boolean {
  return x.a === y.a && x.b === y.b && x.c === y.c && x.d === y.d && x.e === y.e;
}

/** Every character not in `x`. */
export function complement(x: CharSet): CharSet {
  return charSet(~x.a, ~x.b, ~x.c, ~x.d, ~x.e & 3);
}

export function intersection(x: CharSet, y: CharSet): CharSet {
  return charSet(x.a & y.a, x.b & y.b, x.c & y.c, x.d & y.d, x.e & y.e);
}

/** Characters `from` to `to`; past ASCII, both non-ASCII classes. */
export function range(from: number, to: number): CharSet {
  const w = [0, 0, 0, 0];
  for (let c = from; c <= Math.min(to, 127); c++) w[c >> 5] = (w[c >> 5] as number) | (1 << (c & 31));
  return charSet(w[0] as number, w[1] as number, w[2] as number, w[3] as number, to > 127 ? 3 : 0);
}

/** The one ASCII character of a set, or -1. */
export function single(x: CharSet): number {
  if (x.e !== 0) return -1;
  let at = -1;
  const words = [x.a, x.b, x.c, x.d];
  for (let w = 0; w < 4; w++) {
    const v = words[w] as number;
    if (v === 0) continue;
    // More than one bit, or a second word with bits: not one character.
    if (at >= 0 || (v & (v - 1)) !== 0) return -1;
    at = w * 32 + (31 - Math.clz32(v));
  }
  return at;
}

/** Each ASCII letter of `x` in the other case (A-Z is bits 1..26 of word 2, a-z the same bits of word 3). */
export function otherCase(x: CharSet): CharSet {
  const LETTERS = 0x7fffffe;
  return charSet(0, 0, x.d & LETTERS, x.c & LETTERS, 0);
}
