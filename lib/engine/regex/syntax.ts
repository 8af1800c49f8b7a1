/**
 * @module a small JS regex parser, enough to see quantifier structure: character sets as bitmasks,
 * sequences, alternations, repeats, and where lookaround and backreferences sit in the source.
 * It never decides validity: the native constructor does (and reports with its own message).
 */

/**
 * Characters as a bitmask: bits 0..127 are ASCII; bit 128 stands for every non-ASCII white space
 * character, bit 129 for every other non-ASCII character. Two bits, so `\S` and `\s` stay disjoint.
 */
export type CharSet = bigint;
export const NA_SPACE: CharSet = 1n << 128n;
export const NA_OTHER: CharSet = 1n << 129n;
const NON_ASCII: CharSet = NA_SPACE | NA_OTHER;
export const ALL: CharSet = (1n << 130n) - 1n;

function range(from: number, to: number): CharSet {
  let s = 0n;
  for (let c = from; c <= Math.min(to, 127); c++) s |= 1n << BigInt(c);
  if (to > 127) s |= NON_ASCII;
  return s;
}

function isUnicodeSpace(c: number): boolean {
  return /\s/.test(String.fromCharCode(c));
}

const ch = (c: number): CharSet => (c > 127 ? (isUnicodeSpace(c) ? NA_SPACE : NA_OTHER) : 1n << BigInt(c));
// Literals, not computed at start-up (a hook process evaluates this module; the first BigInt shifts cost it
// ~0.1 ms): DIGIT = range(48, 57), WORD = DIGIT | range(65, 90) | range(97, 122) | ch(95),
// SPACE = range(9, 13) | ch(32) | NA_SPACE, DOT = ALL & ~(ch(10) | ch(13)).
const DIGIT: CharSet = 0x3ff000000000000n;
const WORD: CharSet = 0x7fffffe87fffffe03ff000000000000n;
const SPACE: CharSet = 0x100000000000000000000000100003e00n;
const DOT: CharSet = 0x3ffffffffffffffffffffffffffffdbffn;

export type Node =
  | { t: "set"; set: CharSet }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; branches: Node[] }
  | { t: "look"; body: Node }
  | { t: "rep"; body: Node; min: number; max: number }
  | { t: "assert" }
  | { t: "backref" };

/** Where a construct a linear-time engine cannot run sits in the source: [start, end). */
export interface BacktrackingSpan {
  kind: "look" | "backref";
  start: number;
  end: number;
}

export interface ParsedRegex {
  node: Node;
  backrefs: boolean;
  lookaround: boolean;
  /** Outermost lookarounds and backreferences, in source order. */
  spans: BacktrackingSpan[];
}

class Parser {
  #s: string;
  #i = 0;
  #fold: boolean;
  #unicode: boolean;
  #lookDepth = 0;
  backrefs = false;
  lookaround = false;
  spans: BacktrackingSpan[] = [];

  constructor(source: string, flags: string) {
    this.#s = source;
    this.#fold = flags.includes("i");
    this.#unicode = flags.includes("u") || flags.includes("v");
  }

  parse(): Node {
    const n = this.#alt();
    // A stray `)` is a syntax error natively; the native compile reports it, not this parser.
    return n;
  }

  #peek(): string | undefined {
    return this.#s[this.#i];
  }

  #alt(): Node {
    const branches = [this.#seq()];
    while (this.#peek() === "|") {
      this.#i++;
      branches.push(this.#seq());
    }
    return branches.length === 1 ? (branches[0] as Node) : { t: "alt", branches };
  }

  #seq(): Node {
    const items: Node[] = [];
    for (let c = this.#peek(); c !== undefined && c !== "|" && c !== ")"; c = this.#peek()) {
      const atom = this.#atom();
      items.push(this.#quantified(atom));
    }
    return { t: "seq", items };
  }

  #quantified(atom: Node): Node {
    const c = this.#peek();
    let min: number;
    let max: number;
    if (c === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.#s.slice(this.#i, this.#i + 24));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      this.#i += m[0].length - 1;
    } else return atom;
    this.#i++;
    if (this.#peek() === "?") this.#i++;
    return this.#quantified({ t: "rep", body: atom, min, max });
  }

  #lit(code: number): Node {
    let set = ch(code);
    if (this.#fold) {
      const s = String.fromCharCode(code);
      set |= ch(s.toLowerCase().charCodeAt(0)) | ch(s.toUpperCase().charCodeAt(0));
      // Unicode case folding maps a few non-ASCII characters onto ASCII ones (the Kelvin sign onto k).
      if (this.#unicode && code < 128 && /[a-z]/i.test(s)) set |= NA_OTHER;
    }
    return { t: "set", set };
  }

  #atom(): Node {
    const start = this.#i;
    const c = this.#s[this.#i++] as string;
    switch (c) {
      case "(":
        return this.#group(start);
      case "[":
        return { t: "set", set: this.#class() };
      case ".":
        return { t: "set", set: DOT };
      case "^":
      case "$":
        return { t: "assert" };
      case "\\": {
        const e = this.#escape(false);
        if (e.t === "backref" && this.#lookDepth === 0) this.spans.push({ kind: "backref", start, end: this.#i });
        return e;
      }
      default:
        return this.#lit(c.charCodeAt(0));
    }
  }

  #group(start: number): Node {
    let look = false;
    if (this.#s.startsWith("?:", this.#i)) this.#i += 2;
    else if (this.#s.startsWith("?=", this.#i) || this.#s.startsWith("?!", this.#i)) [this.#i, look] = [this.#i + 2, true];
    else if (this.#s.startsWith("?<=", this.#i) || this.#s.startsWith("?<!", this.#i)) [this.#i, look] = [this.#i + 3, true];
    else if (this.#s.startsWith("?<", this.#i)) {
      const end = this.#s.indexOf(">", this.#i);
      this.#i = end < 0 ? this.#s.length : end + 1;
    }
    if (look) this.#lookDepth++;
    const body = this.#alt();
    if (this.#peek() === ")") this.#i++;
    if (look) {
      this.#lookDepth--;
      this.lookaround = true;
      if (this.#lookDepth === 0) this.spans.push({ kind: "look", start, end: this.#i });
      return { t: "look", body };
    }
    return body;
  }

  /** One escape; inside a class only its characters matter. */
  #escape(inClass: boolean): Node {
    const c = this.#s[this.#i++];
    switch (c) {
      case "d":
        return { t: "set", set: DIGIT };
      case "D":
        return { t: "set", set: ALL & ~DIGIT };
      case "w":
        return { t: "set", set: this.#fold && this.#unicode ? WORD | NA_OTHER : WORD };
      case "W":
        return { t: "set", set: ALL & ~WORD };
      case "s":
        return { t: "set", set: SPACE };
      case "S":
        return { t: "set", set: ALL & ~SPACE };
      case "b":
        return inClass ? { t: "set", set: ch(8) } : { t: "assert" };
      case "B":
        return { t: "assert" };
      case "n":
        return { t: "set", set: ch(10) };
      case "r":
        return { t: "set", set: ch(13) };
      case "t":
        return { t: "set", set: ch(9) };
      case "p":
      case "P":
        if (this.#peek() === "{") this.#i = Math.max(this.#i, this.#s.indexOf("}", this.#i) + 1);
        return { t: "set", set: ALL };
      case "k":
        if (!inClass) {
          this.backrefs = true;
          if (this.#peek() === "<") this.#i = Math.max(this.#i, this.#s.indexOf(">", this.#i) + 1);
          return { t: "backref" };
        }
        return this.#lit(107);
      case "x": {
        const m = /^[0-9a-fA-F]{2}/.exec(this.#s.slice(this.#i, this.#i + 2));
        if (!m) return this.#lit(120);
        this.#i += 2;
        return this.#lit(Number.parseInt(m[0], 16));
      }
      case "u": {
        const m = /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\})/.exec(this.#s.slice(this.#i, this.#i + 10));
        if (!m) return this.#lit(117);
        this.#i += m[0].length;
        return this.#lit(Number.parseInt(m[0].replace(/[{}]/g, ""), 16));
      }
      case "c":
        this.#i++;
        return { t: "set", set: range(0, 31) };
      case undefined:
        return this.#lit(92);
      default:
        if (!inClass && c >= "1" && c <= "9") {
          this.backrefs = true;
          while (/[0-9]/.test(this.#peek() ?? "")) this.#i++;
          return { t: "backref" };
        }
        return this.#lit(c.charCodeAt(0));
    }
  }

  #class(): CharSet {
    let negate = false;
    if (this.#peek() === "^") [negate, this.#i] = [true, this.#i + 1];
    let set = 0n;
    // `[]` matches nothing, `[^]` anything: a `]` right after `[` or `[^` closes the class.
    while (this.#i < this.#s.length) {
      const c = this.#s[this.#i] as string;
      if (c === "]") break;
      let lo: number | undefined;
      let part: CharSet;
      if (c === "\\") {
        this.#i++;
        const e = this.#escape(true);
        part = e.t === "set" ? e.set : 0n;
        if (e.t === "set" && (part & (part - 1n)) === 0n && part < NA_SPACE) lo = bitIndex(part);
      } else if (c === "[") {
        // v-flag nested class: over-approximate.
        this.#i++;
        part = ALL;
      } else {
        this.#i++;
        lo = c.charCodeAt(0);
        part = this.#fold ? (this.#lit(lo) as { set: CharSet }).set : ch(lo);
      }
      if (lo !== undefined && this.#peek() === "-" && this.#s[this.#i + 1] !== "]" && this.#i + 1 < this.#s.length) {
        this.#i++;
        let hi: number;
        if (this.#peek() === "\\") {
          this.#i++;
          const e = this.#escape(true);
          hi = e.t === "set" && e.set < NA_SPACE && e.set !== 0n ? bitIndex(e.set) : 0x10ffff;
        } else hi = (this.#s[this.#i++] as string).charCodeAt(0);
        part = range(lo, hi);
        if (this.#fold) part |= foldRange(part);
      }
      set |= part;
    }
    if (this.#peek() === "]") this.#i++;
    return negate ? ALL & ~set : set;
  }
}

function bitIndex(set: CharSet): number {
  let i = 0;
  for (let s = set; s > 1n; s >>= 1n) i++;
  return i;
}

function foldRange(set: CharSet): CharSet {
  let out = 0n;
  for (let c = 65; c <= 90; c++) if (set & ch(c)) out |= ch(c + 32);
  for (let c = 97; c <= 122; c++) if (set & ch(c)) out |= ch(c - 32);
  return out;
}

/** Parses a pattern's structure; never throws on syntax the native engine would reject (it reports those). */
export function parseRegex(pattern: string, flags = ""): ParsedRegex {
  const p = new Parser(pattern, flags);
  const node = p.parse();
  return { node, backrefs: p.backrefs, lookaround: p.lookaround, spans: p.spans };
}

/**
 * A pattern that matches at least everything `pattern` matches and needs no backtracking engine:
 * lookarounds become empty (dropping a condition only widens) and backreferences match anything.
 * Its "no match" is therefore exact for the original; its "match" is only a maybe.
 */
export function linearSuperset(pattern: string, spans: readonly BacktrackingSpan[]): string {
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += pattern.slice(at, s.start) + (s.kind === "look" ? "(?:)" : "(?:[\\s\\S]*)");
    at = s.end;
  }
  return out + pattern.slice(at);
}
