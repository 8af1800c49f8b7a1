/**
 * @module required text of a pattern, read from the one regex parser's tree (syntax.ts): literals every
 * match must contain (`\bgit\b.*push` needs "git" and "push") and character-class shapes it must contain
 * (`\s-[a-z]{3}\d` needs " -aaa0"), what selection files a rule under. Conservative by construction: a
 * construct JS and re2js may read differently makes the whole pattern unread, anything else not understood
 * ends a run, so what is returned here is in every match on either engine.
 */
import { type CharSet, NA_SPACE, type Node, type ParsedRegex, parseRegex } from "./syntax.ts";

/** Escaped characters read as themselves (besides the class escapes `\d\D\w\W\s\S`, `\b\B` and `\n\r\t`). */
const ESCAPED_LITERALS = new Set([..."\\/.-()[]{}*+?|^$\"':=!<>,#&~@%`; _"]);

/** A literal run no longer than this is kept whole; a repeat's copies beyond it add nothing to a filter. */
const MAX_COPIES = 8;

/**
 * False for syntax where JS and re2js part ways or that changes matching in ways not modelled: flags other
 * than `gimsuyd`, escapes other than the plain ones (`\x41`, `\p{L}`, backreferences, RE2's `\Q`), groups
 * other than `(?:`, lookaround and named ones (inline flags), `[]`, `[^]`, a `[` inside a class, a stray
 * `]`, `{` or `}`. A lexical screen over the source; the structure is read by syntax.ts.
 */
function plainSyntax(p: string, flags: string, parsed: boolean): boolean {
  if (/[^gimsuyd]/.test(flags)) return false;
  // A pattern the parser read is valid JS already; otherwise the native constructor says.
  if (!parsed) {
    try {
      new RegExp(p, flags);
    } catch {
      return false;
    }
  }
  for (let i = 0; i < p.length; i++) {
    const c = p[i] as string;
    if (c === "\\") {
      const e = p[++i] as string;
      if (!("dDwWsSbBnrt".includes(e) || ESCAPED_LITERALS.has(e))) return false;
    } else if (c === "[") {
      if (p[i + 1] === "]" || (p[i + 1] === "^" && p[i + 2] === "]")) return false;
      for (i++; i < p.length && p[i] !== "]"; i++) {
        if (p[i] === "[") return false;
        if (p[i] === "\\") {
          const e = p[++i] as string;
          if (!("dDwWsSnrt".includes(e) || ESCAPED_LITERALS.has(e))) return false;
        }
      }
    } else if (c === "(" && p[i + 1] === "?") {
      if (!/^\(\?(?:[:=!]|<[=!]|<[A-Za-z_$][\w$]*>)/.test(p.slice(i, i + 40))) return false;
    } else if (c === "{") {
      const q = /^\{\d+(?:,\d*)?\}/.exec(p.slice(i, i + 24));
      if (!q || i === 0) return false;
      i += q[0].length - 1;
    } else if (c === "]" || c === "}") return false;
  }
  return true;
}

const LOWER: CharSet = 0x7fffffe000000000000000000000000n;
const UPPER: CharSet = 0x7fffffe0000000000000000n;
const DIGIT: CharSet = 0x3ff000000000000n;
const SPACE: CharSet = 0x100003e00n | NA_SPACE;

/** Each one-character ASCII set, to its character: a lookup instead of BigInt arithmetic per set. */
const SINGLES = new Map<CharSet, number>();

/** The one ASCII character of a set, or undefined. */
function single(set: CharSet): number | undefined {
  if (SINGLES.size === 0) for (let c = 0; c < 128; c++) SINGLES.set(1n << BigInt(c), c);
  return SINGLES.get(set);
}

/**
 * The lower-cased character a set stands for: one printable ASCII character, or a letter in both cases. A set
 * that may hold a non-ASCII character stands for none: under `iu` the parser adds one to every letter (the
 * Kelvin sign folds to k), and it cannot be told from a class that names one.
 */
function literalOf(set: CharSet): string | undefined {
  const one = single(set);
  if (one !== undefined) return one >= 32 && one < 127 ? String.fromCharCode(one).toLowerCase() : undefined;
  const lower = set & LOWER;
  const l = single(lower);
  return l !== undefined && set === (lower | (lower >> 32n)) ? String.fromCharCode(l) : undefined;
}

/** The shape character of a set: `a` (lower-case letters only), `A` (upper-case), `0` (digits), ` ` (white space), or one punctuation character. */
function shapeOf(set: CharSet): string | undefined {
  if (set === 0n) return undefined;
  if ((set & ~LOWER) === 0n) return "a";
  if ((set & ~UPPER) === 0n) return "A";
  if ((set & ~DIGIT) === 0n) return "0";
  if ((set & ~SPACE) === 0n) return " ";
  const one = single(set);
  return one !== undefined && one > 32 && one < 127 ? String.fromCharCode(one) : undefined;
}

/** Required text of a node: literal sets (any one of each set occurs) and shapes (each occurs). */
export interface Required {
  sets: string[][];
  shapes: string[];
}

/** Shortest literal of a set: what a set is worth as a filter, before knowing how common its text is. */
function strength(set: string[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const l of set) min = Math.min(min, l.length);
  return min;
}

function flat(s: string): string {
  return s.length < 2 ? s : Array.from(s).join("");
}

function unwrap(n: Node): Node {
  return n.t === "seq" && n.items.length === 1 ? unwrap(n.items[0] as Node) : n;
}

function requiredOf(node: Node): Required {
  const n = unwrap(node);
  if (n.t === "alt") {
    // Alternatives: each must bring a set; their best sets together form one set. Shapes are not combined.
    const union: string[] = [];
    for (const b of n.branches) {
      const sets = requiredOf(b).sets;
      if (sets.length === 0) return { sets: [], shapes: [] };
      let best = sets[0] as string[];
      for (const set of sets) if (strength(set) > strength(best) || (strength(set) === strength(best) && set.length < best.length)) best = set;
      for (const l of best) if (!union.includes(l)) union.push(l);
    }
    return { sets: [union], shapes: [] };
  }
  const out: Required = { sets: [], shapes: [] };
  let run = "";
  let shape = "";
  // Built by `+=`, a string is a rope of one piece per character until flattened: kept for good by every
  // rule of a sidecar, the pieces cost more than the text. Joined, it is one flat string.
  const endRun = () => {
    if (run !== "") out.sets.push([flat(run)]);
    run = "";
  };
  const endShape = () => {
    if (shape.length >= 3) out.shapes.push(flat(shape));
    shape = "";
  };
  const walk = (items: readonly Node[]) => {
    for (const item of items) {
      if (item.t === "assert") continue; // zero-width: the text around it stays contiguous
      if (item.t === "seq") {
        walk(item.items);
        continue;
      }
      if (item.t === "set") {
        const lit = literalOf(item.set);
        if (lit === undefined) endRun();
        else run += lit;
        const sh = shapeOf(item.set);
        if (sh === undefined) endShape();
        else shape += sh;
        continue;
      }
      if (item.t === "rep") {
        const body = unwrap(item.body);
        if (body.t === "set" && item.min >= 1) {
          // `x{2,}y`: "xx" starts the repeat, its last two characters run on into "y".
          const copies = Math.min(item.min, MAX_COPIES);
          const lit = literalOf(body.set);
          if (lit === undefined) endRun();
          else {
            run += lit.repeat(copies);
            if (item.max !== item.min || item.min > MAX_COPIES) {
              endRun();
              run = lit.repeat(copies);
            }
          }
          const sh = shapeOf(body.set);
          if (sh === undefined) endShape();
          else {
            shape += sh.repeat(copies);
            if (item.max !== item.min || item.min > MAX_COPIES) {
              endShape();
              shape = sh.repeat(copies);
            }
          }
          continue;
        }
        endRun();
        endShape();
        // A group that must occur at least once still requires its own text.
        if (item.min >= 1) {
          const inner = requiredOf(item.body);
          out.sets.push(...inner.sets);
          out.shapes.push(...inner.shapes);
        }
        continue;
      }
      endRun();
      endShape();
      if (item.t === "alt") out.sets.push(...requiredOf(item).sets);
      // A lookaround's text is not consumed here, and a backreference's is not known.
    }
  };
  walk(n.t === "seq" ? n.items : [n]);
  endRun();
  endShape();
  return out;
}

/**
 * Sets of literals, lower-cased, such that every match of `pattern` contains at least one literal of each
 * set; [] when none can be proven, undefined when the syntax is not one both engines read alike.
 */
export function requiredLiteralSets(pattern: string, flags = ""): string[][] | undefined {
  return requiredText(pattern, flags)?.sets;
}

/**
 * Literal sets and shapes (three characters or more) every match of `pattern` contains; undefined when the
 * syntax is not one both engines read alike. A shape is the text with each lower-case letter as `a`, each
 * upper-case one as `A`, each digit as `0` and each white-space character as a space.
 */
export function requiredText(pattern: string, flags = "", parsed?: ParsedRegex): Required | undefined {
  if (!plainSyntax(pattern, flags, parsed !== undefined)) return undefined;
  return requiredOf((parsed ?? parseRegex(pattern, flags)).node);
}
