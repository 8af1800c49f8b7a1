/**
 * @module required text of a pattern, read from the one regex parser's tree (syntax.ts): literals every
 * match must contain (`\bgit\b.*push` needs "git" and "push") and character-class shapes it must contain
 * (`\s-[a-z]{3}\d` needs " -aaa0"), what selection files a rule under. Conservative by construction: a
 * construct JS and re2js may read differently makes the whole pattern unread, anything else not understood
 * ends a run, so what is returned here is in every match on either engine.
 */
import { type CharSet, equals, intersection, isEmpty, NA_SPACE, otherCase, range, single, subsetOf, union } from "./char-set.ts";
import { type Node, type ParsedRegex, parseRegex } from "./syntax.ts";

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

const LOWER: CharSet = range(97, 122);
const UPPER: CharSet = range(65, 90);
const DIGIT: CharSet = range(48, 57);
const SPACE: CharSet = union(union(range(9, 13), range(32, 32)), NA_SPACE);

/**
 * The lower-cased character a set stands for: one printable ASCII character, or a letter in both cases. A set
 * that may hold a non-ASCII character stands for none: under `iu` the parser adds one to every letter (the
 * Kelvin sign folds to k), and it cannot be told from a class that names one.
 */
function literalOf(set: CharSet): string | undefined {
  const one = single(set);
  if (one >= 0) return one >= 32 && one < 127 ? String.fromCharCode(one).toLowerCase() : undefined;
  const lower = intersection(set, LOWER);
  const l = single(lower);
  return l >= 0 && equals(set, union(lower, otherCase(lower))) ? String.fromCharCode(l) : undefined;
}

/** The shape character of a set: `a` (lower-case letters only), `A` (upper-case), `0` (digits), ` ` (white space), or one punctuation character. */
function shapeOf(set: CharSet): string | undefined {
  if (isEmpty(set)) return undefined;
  if (subsetOf(set, LOWER)) return "a";
  if (subsetOf(set, UPPER)) return "A";
  if (subsetOf(set, DIGIT)) return "0";
  if (subsetOf(set, SPACE)) return " ";
  const one = single(set);
  return one > 32 && one < 127 ? String.fromCharCode(one) : undefined;
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

/**
 * Text built a character at a time: pieces joined once. Built by `+=`, a string is a rope of one piece per
 * character until flattened, and kept for good by every rule of a sidecar the pieces cost more than the
 * text; joined, it is one flat string.
 */
class Run {
  pieces: string[] = [];
  length = 0;
  add(s: string): void {
    this.pieces.push(s);
    this.length += s.length;
  }
  /** The text so far, and the run emptied. */
  take(): string {
    const text = this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join("");
    this.pieces = [];
    this.length = 0;
    return text;
  }
}

function unwrap(n: Node): Node {
  return n.t === "seq" && n.items.length === 1 ? unwrap(n.items[0] as Node) : n;
}

function requiredOf(node: Node): Required {
  const n = unwrap(node);
  if (n.t === "alt") {
    // Alternatives: each must bring a set; their best sets together form one set. Shapes are not combined.
    const merged: string[] = [];
    for (const b of n.branches) {
      const sets = requiredOf(b).sets;
      if (sets.length === 0) return { sets: [], shapes: [] };
      let best = sets[0] as string[];
      for (const set of sets) if (strength(set) > strength(best) || (strength(set) === strength(best) && set.length < best.length)) best = set;
      for (const l of best) if (!merged.includes(l)) merged.push(l);
    }
    return { sets: [merged], shapes: [] };
  }
  const out: Required = { sets: [], shapes: [] };
  const run = new Run();
  const shape = new Run();
  const endRun = () => {
    if (run.length > 0) out.sets.push([run.take()]);
  };
  const endShape = () => {
    if (shape.length >= 3) out.shapes.push(shape.take());
    else shape.take();
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
        else run.add(lit);
        const sh = shapeOf(item.set);
        if (sh === undefined) endShape();
        else shape.add(sh);
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
            run.add(lit.repeat(copies));
            if (item.max !== item.min || item.min > MAX_COPIES) {
              endRun();
              run.add(lit.repeat(copies));
            }
          }
          const sh = shapeOf(body.set);
          if (sh === undefined) endShape();
          else {
            shape.add(sh.repeat(copies));
            if (item.max !== item.min || item.min > MAX_COPIES) {
              endShape();
              shape.add(sh.repeat(copies));
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
