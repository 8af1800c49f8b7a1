/**
 * @module the one regex parser's tree, as risk analysis and required-text reading need it: a pattern read by
 * `@eslint-community/regexpp` (loaded on first use: a hook answering from its snapshot parses no pattern),
 * turned into character sets (char-set.ts), sequences, alternations, repeats, and where lookaround and
 * backreferences sit in the source. An invalid pattern throws; the native constructor's message is the one
 * reported (safe-compiler.ts).
 */
import type { AST } from "@eslint-community/regexpp";
import { regexpp } from "../../lazy-deps.ts";

import { ALL, CharSet, ch, complement, EMPTY, NA_OTHER, NA_SPACE, otherCase, range, union } from "./char-set.ts";

export type { CharSet } from "./char-set.ts";

const DIGIT: CharSet = range(48, 57);
const WORD: CharSet = union(union(DIGIT, range(65, 90)), union(range(97, 122), ch(95)));
const SPACE: CharSet = union(union(range(9, 13), ch(32)), NA_SPACE);
const DOT: CharSet = complement(union(ch(10), ch(13)));
const NOT_DIGIT = complement(DIGIT);
const NOT_SPACE = complement(SPACE);
const NOT_WORD = complement(WORD);
const WORD_FOLDED = union(WORD, NA_OTHER);

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

/** A letter under `i` (and `iu`) per ASCII code, made on first use. */
const folded: (CharSet | undefined)[] = [];
const foldedUnicode: (CharSet | undefined)[] = [];

function lit(code: number, mode: Mode): CharSet {
  if (!mode.fold || code >= 0x10000) return ch(code);
  const table = mode.unicode ? foldedUnicode : folded;
  const known = code < 128 ? table[code] : undefined;
  if (known) return known;
  const s = String.fromCharCode(code);
  const lower = s.toLowerCase();
  const upper = s.toUpperCase();
  // Both cases of each: `ſ` upper-cases to "S", whose lower case "s" it also matches under `iu`.
  let set = union(ch(code), union(union(ch(lower.charCodeAt(0)), ch(upper.charCodeAt(0))), union(ch(upper.toLowerCase().charCodeAt(0)), ch(lower.toUpperCase().charCodeAt(0)))));
  // Unicode case folding maps a few non-ASCII characters onto ASCII ones (the Kelvin sign onto k).
  if (mode.unicode && code < 128 && /[a-z]/i.test(s)) set = union(set, NA_OTHER);
  if (code < 128) table[code] = set;
  return set;
}

function escapeSet(e: AST.EscapeCharacterSet | AST.UnicodePropertyCharacterSet | AST.AnyCharacterSet, mode: Mode): CharSet {
  switch (e.kind) {
    case "any":
      return DOT;
    case "digit":
      return e.negate ? NOT_DIGIT : DIGIT;
    case "space":
      return e.negate ? NOT_SPACE : SPACE;
    case "word":
      return e.negate ? NOT_WORD : mode.fold && mode.unicode ? WORD_FOLDED : WORD;
    default:
      return ALL;
  }
}

/**
 * The non-ASCII bits an escape covers whole (every non-ASCII white-space character, or every other one): only
 * those may be dropped when a class is negated. A bit set by one named character (`[é]`) or by an
 * over-approximation (`\w` under `iu`) stands for part of its class, so its negation keeps it.
 */
function wholeNonAscii(e: AST.EscapeCharacterSet | AST.UnicodePropertyCharacterSet, mode: Mode): number {
  switch (e.kind) {
    case "digit":
      return e.negate ? 3 : 0;
    case "space":
      return e.negate ? 2 : 1;
    case "word":
      return e.negate && !(mode.fold && mode.unicode) ? 3 : 0;
    default:
      return 0;
  }
}

function classSet(c: AST.CharacterClass | AST.ExpressionCharacterClass, mode: Mode): CharSet {
  // v-flag set operations and nested classes: over-approximated, negated or not.
  if (c.type === "ExpressionCharacterClass") return ALL;
  let set = EMPTY;
  let whole = 0;
  for (const e of c.elements) {
    if (e.type === "Character") set = union(set, mode.fold ? lit(e.value, mode) : ch(e.value));
    else if (e.type === "CharacterClassRange") {
      let part = range(e.min.value, e.max.value);
      if (mode.fold) part = union(part, otherCase(part));
      set = union(set, part);
    } else if (e.type === "CharacterSet") {
      // A Unicode property is over-approximated as every character: its negation is not known either.
      if (e.kind === "property") return ALL;
      set = union(set, escapeSet(e, mode));
      whole |= wholeNonAscii(e, mode);
    } else return ALL;
  }
  if (!c.negate) return set;
  const out = complement(set);
  // Negated, a non-ASCII bit the class holds only in part stays set: its other characters are not in the class.
  const partial = set.e & ~whole & 3;
  return partial === 0 ? out : union(out, new CharSet(0, 0, 0, 0, partial));
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
