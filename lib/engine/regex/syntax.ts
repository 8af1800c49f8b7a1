/**
 * @module the one regex parser's tree, as risk analysis and required-text reading need it: a pattern read by
 * `@eslint-community/regexpp` (loaded on first use: a hook answering from its snapshot parses no pattern),
 * turned into character sets (char-set.ts), sequences, alternations, repeats, and where lookaround and
 * backreferences sit in the source. An invalid pattern throws; the native constructor's message is the one
 * reported (safe-compiler.ts).
 */
import type { RegExpValidator } from "@eslint-community/regexpp";
import { regexppValidator } from "../../lazy-deps.ts";

import { ALL, type CharSet, ch, charSet, complement, EMPTY, NA_OTHER, NA_SPACE, otherCase, range, union } from "./char-set.ts";

export type { CharSet } from "./char-set.ts";

/** The class escapes' sets and `.`'s, made on the first pattern read (a hook answering from its snapshot reads none). */
interface ClassSets {
  digit: CharSet;
  word: CharSet;
  space: CharSet;
  dot: CharSet;
  notDigit: CharSet;
  notSpace: CharSet;
  notWord: CharSet;
  wordFolded: CharSet;
}

let classSets: ClassSets | undefined;

function classes(): ClassSets {
  if (classSets) return classSets;
  const digit = range(48, 57);
  const word = union(union(digit, range(65, 90)), union(range(97, 122), ch(95)));
  const space = union(union(range(9, 13), ch(32)), NA_SPACE);
  classSets = {
    digit,
    word,
    space,
    dot: complement(union(ch(10), ch(13))),
    notDigit: complement(digit),
    notSpace: complement(space),
    notWord: complement(word),
    wordFolded: union(word, NA_OTHER),
  };
  return classSets;
}

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

function escapeSet(kind: string, negate: boolean, mode: Mode): CharSet {
  switch (kind) {
    case "digit":
      return negate ? classes().notDigit : classes().digit;
    case "space":
      return negate ? classes().notSpace : classes().space;
    case "word":
      return negate ? classes().notWord : mode.fold && mode.unicode ? classes().wordFolded : classes().word;
    default:
      return ALL;
  }
}

/**
 * The non-ASCII bits an escape covers whole (every non-ASCII white-space character, or every other one): only
 * those may be dropped when a class is negated. A bit set by one named character (`[é]`) or by an
 * over-approximation (`\w` under `iu`) stands for part of its class, so its negation keeps it.
 */
function wholeNonAscii(kind: string, negate: boolean, mode: Mode): number {
  switch (kind) {
    case "digit":
      return negate ? 3 : 0;
    case "space":
      return negate ? 2 : 1;
    case "word":
      return negate && !(mode.fold && mode.unicode) ? 3 : 0;
    default:
      return 0;
  }
}

/** A class being read: its elements so far (a range replaces the characters it was read as), and whether it is only over-approximated. */
interface ClassFrame {
  elements: CharSet[];
  whole: number;
  negate: boolean;
  /** A Unicode property, a nested class, a string disjunction or a set operation: any character. */
  unknown: boolean;
  unicodeSets: boolean;
  /** Where it starts: only the outermost class's end closes it (a nested one's end comes first). */
  start: number;
}

/** A group being read (the pattern itself, a group, a lookaround): its alternatives' items, in the mode inside it. */
interface GroupFrame {
  branches: Node[][];
  mode: Mode;
  look: boolean;
}

function classSet(c: ClassFrame): CharSet {
  if (c.unknown) return ALL;
  let set = EMPTY;
  for (const e of c.elements) set = union(set, e);
  if (!c.negate) return set;
  const out = complement(set);
  // Negated, a non-ASCII bit the class holds only in part stays set: its other characters are not in the class.
  const partial = set.e & ~c.whole & 3;
  return partial === 0 ? out : union(out, charSet(0, 0, 0, 0, partial));
}

function groupNode(g: GroupFrame): Node {
  const branches = g.branches.map((items): Node => ({ t: "seq", items }));
  return branches.length === 1 ? (branches[0] as Node) : { t: "alt", branches };
}

/**
 * Builds the tree from the validator's events, with no syntax tree in between (regexpp's own AST costs a
 * load ~1.5x the parse and its garbage), noting lookaround and backreferences and the outermost ones' spans.
 */
class Reader {
  backrefs = false;
  lookaround = false;
  spans: BacktrackingSpan[] = [];
  groups: GroupFrame[] = [];
  cls: ClassFrame | undefined;
  lookDepth = 0;
  root: GroupFrame | undefined;
  base: Mode = { fold: false, unicode: false };

  /** The validator reads a pattern twice when named groups turn up late: each pass starts afresh. */
  start(): void {
    this.backrefs = false;
    this.lookaround = false;
    this.spans = [];
    this.cls = undefined;
    this.lookDepth = 0;
    this.root = { branches: [], mode: this.base, look: false };
    this.groups = [this.root];
  }

  get top(): GroupFrame {
    return this.groups[this.groups.length - 1] as GroupFrame;
  }

  push(n: Node): void {
    const b = this.top.branches;
    (b[b.length - 1] as Node[]).push(n);
  }

  open(look: boolean): void {
    this.groups.push({ branches: [], mode: this.top.mode, look });
  }

  close(): Node {
    return groupNode(this.groups.pop() as GroupFrame);
  }
}

let reader: Reader | undefined;
let validator: RegExpValidator | undefined;

function validatorFor(r: Reader): RegExpValidator {
  return regexppValidator({
    onPatternEnter: () => r.start(),
    onAlternativeEnter: () => void r.top.branches.push([]),
    onGroupEnter: () => r.open(false),
    onGroupLeave: () => r.push(r.close()),
    onAddModifiers: (_s, _e, f) => {
      if (f.ignoreCase) r.top.mode = { ...r.top.mode, fold: true };
    },
    onRemoveModifiers: (_s, _e, f) => {
      if (f.ignoreCase) r.top.mode = { ...r.top.mode, fold: false };
    },
    onCapturingGroupEnter: () => r.open(false),
    onCapturingGroupLeave: () => r.push(r.close()),
    onLookaroundAssertionEnter: () => {
      r.lookDepth++;
      r.open(true);
    },
    onLookaroundAssertionLeave: (start, end) => {
      const body = r.close();
      r.lookDepth--;
      r.lookaround = true;
      if (r.lookDepth === 0) r.spans.push({ kind: "look", start, end });
      r.push({ t: "look", body });
    },
    onEdgeAssertion: () => r.push({ t: "assert" }),
    onWordBoundaryAssertion: () => r.push({ t: "assert" }),
    onQuantifier: (_s, _e, min, max) => {
      const b = r.top.branches[r.top.branches.length - 1] as Node[];
      b.push({ t: "rep", body: b.pop() as Node, min, max });
    },
    onBackreference: (start, end) => {
      r.backrefs = true;
      if (r.lookDepth === 0) r.spans.push({ kind: "backref", start, end });
      r.push({ t: "backref" });
    },
    onAnyCharacterSet: () => r.push({ t: "set", set: classes().dot }),
    onEscapeCharacterSet: (_s, _e, kind, negate) => {
      const mode = r.top.mode;
      if (!r.cls) return r.push({ t: "set", set: escapeSet(kind, negate, mode) });
      r.cls.elements.push(escapeSet(kind, negate, mode));
      r.cls.whole |= wholeNonAscii(kind, negate, mode);
    },
    // Over-approximated as every character, so its negation is not known either.
    onUnicodePropertyCharacterSet: () => {
      if (r.cls) r.cls.unknown = true;
      else r.push({ t: "set", set: ALL });
    },
    onCharacter: (_s, _e, value) => {
      const mode = r.top.mode;
      if (r.cls) r.cls.elements.push(mode.fold ? lit(value, mode) : ch(value));
      else r.push({ t: "set", set: lit(value, mode) });
    },
    onCharacterClassEnter: (start, negate, unicodeSets) => {
      // A nested class (v): the outer one is over-approximated whole, so the inner one's content is not read.
      if (r.cls) r.cls.unknown = true;
      else r.cls = { elements: [], whole: 0, negate, unknown: false, unicodeSets, start };
    },
    onCharacterClassLeave: (start) => {
      const c = r.cls as ClassFrame;
      // Only the outermost class ends here with its own start; a nested one's end changes nothing.
      if (start !== c.start) return;
      r.cls = undefined;
      r.push({ t: "set", set: classSet(c) });
    },
    onCharacterClassRange: (_s, _e, min, max) => {
      const c = r.cls as ClassFrame;
      // Read as characters first: the two ends and (without v) the hyphen between them.
      c.elements.length -= c.unicodeSets ? 2 : 3;
      const mode = r.top.mode;
      let part = range(min, max);
      if (mode.fold) part = union(part, otherCase(part));
      c.elements.push(part);
    },
    onClassIntersection: () => markUnknown(r),
    onClassSubtraction: () => markUnknown(r),
    onClassStringDisjunctionEnter: () => markUnknown(r),
  });
}

function markUnknown(r: Reader): void {
  if (r.cls) r.cls.unknown = true;
}

/** Parses a pattern's structure; throws on a pattern that is not valid JS (the native constructor reports it). */
export function parseRegex(pattern: string, flags = ""): ParsedRegex {
  const unicodeSets = flags.includes("v");
  reader ??= new Reader();
  validator ??= validatorFor(reader);
  const r = reader;
  r.base = { fold: flags.includes("i"), unicode: flags.includes("u") || unicodeSets };
  try {
    validator.validatePattern(pattern, 0, pattern.length, { unicode: flags.includes("u"), unicodeSets });
  } finally {
    r.cls = undefined;
  }
  const node = groupNode(r.root as GroupFrame);
  const out: ParsedRegex = { node, backrefs: r.backrefs, lookaround: r.lookaround, spans: r.spans };
  r.root = undefined;
  r.groups = [];
  r.spans = [];
  return out;
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
