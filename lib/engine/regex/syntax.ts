/**
 * @module the one regex parser's tree, as risk analysis and required-text reading need it: a pattern read by
 * `@eslint-community/regexpp` (loaded on first use: a hook answering from its snapshot parses no pattern),
 * turned into character sets as bitmasks, sequences, alternations, repeats, and where lookaround and
 * backreferences sit in the source. An invalid pattern throws; the native constructor's message is the one
 * reported (safe-compiler.ts).
 */
import type { AST } from "@eslint-community/regexpp";
import { regexpp } from "../../lazy-deps.ts";

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

/** Flags that change what a set holds, as they stand at one point of the pattern (modifiers can change `i`). */
interface Mode {
  fold: boolean;
  unicode: boolean;
}

function lit(code: number, mode: Mode): CharSet {
  let set = ch(code);
  if (mode.fold && code < 0x10000) {
    const s = String.fromCharCode(code);
    set |= ch(s.toLowerCase().charCodeAt(0)) | ch(s.toUpperCase().charCodeAt(0));
    // Unicode case folding maps a few non-ASCII characters onto ASCII ones (the Kelvin sign onto k).
    if (mode.unicode && code < 128 && /[a-z]/i.test(s)) set |= NA_OTHER;
  }
  return set;
}

function escapeSet(e: AST.EscapeCharacterSet | AST.UnicodePropertyCharacterSet | AST.AnyCharacterSet, mode: Mode): CharSet {
  switch (e.kind) {
    case "any":
      return DOT;
    case "digit":
      return e.negate ? ALL & ~DIGIT : DIGIT;
    case "space":
      return e.negate ? ALL & ~SPACE : SPACE;
    case "word":
      return e.negate ? ALL & ~WORD : mode.fold && mode.unicode ? WORD | NA_OTHER : WORD;
    default:
      return ALL;
  }
}

function classSet(c: AST.CharacterClass | AST.ExpressionCharacterClass, mode: Mode): CharSet {
  // v-flag set operations and nested classes: over-approximated.
  if (c.type === "ExpressionCharacterClass") return ALL;
  let set = 0n;
  for (const e of c.elements) {
    if (e.type === "Character") set |= mode.fold ? lit(e.value, mode) : ch(e.value);
    else if (e.type === "CharacterClassRange") {
      let part = range(e.min.value, e.max.value);
      if (mode.fold) part |= foldRange(part);
      set |= part;
    } else if (e.type === "CharacterSet") set |= escapeSet(e, mode);
    else set = ALL;
  }
  return c.negate ? ALL & ~set : set;
}

/** Builds the tree, noting lookaround and backreferences (and the source spans of the outermost ones). */
class Builder {
  backrefs = false;
  lookaround = false;
  spans: BacktrackingSpan[] = [];
  #lookDepth = 0;

  alternatives(alts: readonly AST.Alternative[], mode: Mode): Node {
    const branches = alts.map((a): Node => ({ t: "seq", items: a.elements.map((e) => this.element(e, mode)) }));
    return branches.length === 1 ? (branches[0] as Node) : { t: "alt", branches };
  }

  element(e: AST.Element, mode: Mode): Node {
    switch (e.type) {
      case "Character":
        return { t: "set", set: lit(e.value, mode) };
      case "CharacterSet":
        return { t: "set", set: escapeSet(e, mode) };
      case "CharacterClass":
      case "ExpressionCharacterClass":
        return { t: "set", set: classSet(e, mode) };
      case "Quantifier":
        return { t: "rep", body: this.element(e.element, mode), min: e.min, max: e.max };
      case "CapturingGroup":
        return this.alternatives(e.alternatives, mode);
      case "Group": {
        const m = e.modifiers;
        const fold = m ? (m.add.ignoreCase ? true : m.remove?.ignoreCase ? false : mode.fold) : mode.fold;
        return this.alternatives(e.alternatives, fold === mode.fold ? mode : { ...mode, fold });
      }
      case "Backreference":
        this.backrefs = true;
        if (this.#lookDepth === 0) this.spans.push({ kind: "backref", start: e.start, end: e.end });
        return { t: "backref" };
      case "Assertion": {
        if (e.kind !== "lookahead" && e.kind !== "lookbehind") return { t: "assert" };
        this.#lookDepth++;
        const body = this.alternatives(e.alternatives, mode);
        this.#lookDepth--;
        this.lookaround = true;
        if (this.#lookDepth === 0) this.spans.push({ kind: "look", start: e.start, end: e.end });
        return { t: "look", body };
      }
      default:
        return { t: "set", set: ALL };
    }
  }
}

function foldRange(set: CharSet): CharSet {
  let out = 0n;
  for (let c = 65; c <= 90; c++) if (set & ch(c)) out |= ch(c + 32);
  for (let c = 97; c <= 122; c++) if (set & ch(c)) out |= ch(c - 32);
  return out;
}

/** Parses a pattern's structure; throws on a pattern that is not valid JS (the native constructor reports it). */
export function parseRegex(pattern: string, flags = ""): ParsedRegex {
  const unicodeSets = flags.includes("v");
  const unicode = flags.includes("u") || unicodeSets;
  const ast = regexpp().parsePattern(pattern, 0, pattern.length, { unicode: flags.includes("u"), unicodeSets });
  const b = new Builder();
  const node = b.alternatives(ast.alternatives, { fold: flags.includes("i"), unicode });
  return { node, backrefs: b.backrefs, lookaround: b.lookaround, spans: b.spans };
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
