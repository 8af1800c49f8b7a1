/**
 * @module static risk analysis of a pattern for a backtracking engine: repeats whose iterations can
 * divide the same text in several ways (exponential when unbounded, a high power of the input length
 * when bounded), and adjacent unbounded repeats that trade characters (quadratic).
 *
 * The model: a backtracking engine tries every way a repeat can match before it gives up, and it gives
 * up only when something after the repeat fails. So a repeat (any count above one) is risky when its
 * body is ambiguous (branches of an alternation that can start alike, or two iterations that can match
 * what one iteration matches, as `\w+\s?` twice matches what it matches once) and something after it
 * can fail (the end of the pattern included, to be safe). Conservative: a flagged pattern may still be fast.
 */
import { ALL, type CharSet, EMPTY, intersects, subsetOf, union } from "./char-set.ts";
import { linearSuperset, type Node, type ParsedRegex, parseRegex } from "./syntax.ts";

export interface PatternRisk {
  kind: "exponential" | "polynomial";
  why: string;
  /** For a polynomial risk: the power of the input length the worst case grows with (2 = quadratic). */
  degree?: number;
}

export interface PatternAnalysis {
  /** The worst risk found, exponential first, then the highest degree. */
  risk?: PatternRisk;
  /** Lookaround or backreferences: syntax a linear-time engine cannot run. */
  needsBacktracking: boolean;
  /**
   * For a pattern that needs backtracking: a pattern matching a superset of it that a linear-time
   * engine can run (lookarounds dropped, backreferences matching anything), whose "no match" is exact.
   */
  superset?: string;
}

/**
 * Risky: must not run on the backtracking engine without a bound. Quadratic patterns are not: on the
 * 4,096 characters they may see natively they cost milliseconds.
 */
export function isRisky(analysis: PatternAnalysis): boolean {
  const r = analysis.risk;
  return r !== undefined && (r.kind === "exponential" || (r.degree ?? 2) > 2);
}

/** Backtracking steps a risky pattern may be expected to take natively (~10 ms of Bun's engine). */
export const NATIVE_STEP_BUDGET = 2 ** 24;

/**
 * The longest input a risky pattern may run on natively for its expected worst case to stay within
 * `NATIVE_STEP_BUDGET`: a size budget derived from a step budget (the builtin engine cannot count steps).
 */
export function nativeLengthBudget(risk: PatternRisk): number {
  if (risk.kind === "exponential") return Math.log2(NATIVE_STEP_BUDGET);
  return Math.floor(NATIVE_STEP_BUDGET ** (1 / Math.max(1, risk.degree ?? 2)));
}

// ---- structure ------------------------------------------------------------------------------

function nullable(n: Node): boolean {
  switch (n.t) {
    case "set":
      return false;
    case "seq":
      return n.items.every(nullable);
    case "alt":
      return n.branches.some(nullable);
    case "rep":
      return n.min === 0 || nullable(n.body);
    default:
      return true;
  }
}

function first(n: Node): CharSet {
  switch (n.t) {
    case "set":
      return n.set;
    case "seq": {
      let s = EMPTY;
      for (const item of n.items) {
        s = union(s, first(item));
        if (!nullable(item)) break;
      }
      return s;
    }
    case "alt":
      return n.branches.reduce((s, b) => union(s, first(b)), EMPTY);
    case "rep":
      return first(n.body);
    case "backref":
      return ALL;
    default:
      return EMPTY;
  }
}

/** Every character a node can consume. */
function chars(n: Node): CharSet {
  switch (n.t) {
    case "set":
      return n.set;
    case "seq":
      return n.items.reduce((s, i) => union(s, chars(i)), EMPTY);
    case "alt":
      return n.branches.reduce((s, b) => union(s, chars(b)), EMPTY);
    case "rep":
      return chars(n.body);
    case "backref":
      return ALL;
    default:
      return EMPTY;
  }
}

/** Holds a condition that can fail without consuming anything: an anchor, a lookaround, a backreference. */
function hasCondition(n: Node): boolean {
  switch (n.t) {
    case "set":
      return false;
    case "seq":
      return n.items.some(hasCondition);
    case "alt":
      return n.branches.some(hasCondition);
    case "rep":
      return hasCondition(n.body);
    default:
      return true;
  }
}

/** Whether matching this node can fail (so the engine backtracks into what came before it). */
function canFail(n: Node): boolean {
  return !nullable(n) || hasCondition(n);
}

function unwrap(n: Node): Node {
  return n.t === "seq" && n.items.length === 1 ? unwrap(n.items[0] as Node) : n;
}

function ambiguousAlt(body: Node): boolean {
  if (body.t !== "alt") return false;
  const firsts: CharSet[] = [];
  for (const b of body.branches) {
    if (nullable(b)) return true;
    const f = first(b);
    if (firsts.some((g) => intersects(g, f))) return true;
    firsts.push(f);
  }
  return false;
}

// ---- can two iterations match what one does? -------------------------------------------------

/** A Thompson automaton over character sets; anchors and lookarounds are free moves (a superset). */
interface Nfa {
  eps: number[][];
  edges: { set: CharSet; to: number }[][];
}

/** Beyond this the body is not examined (and is judged ambiguous: the safe side). */
const NFA_MAX_STATES = 400;
/** Bounded repeats are unrolled this many times at most, the rest becomes a loop (a superset). */
const UNROLL = 3;

class TooBig {}
const TOO_BIG = new TooBig();

function state(n: Nfa): number {
  if (n.eps.length >= NFA_MAX_STATES) throw TOO_BIG;
  n.eps.push([]);
  n.edges.push([]);
  return n.eps.length - 1;
}

function build(n: Nfa, node: Node, from: number): number {
  switch (node.t) {
    case "set": {
      const to = state(n);
      (n.edges[from] as Nfa["edges"][number]).push({ set: node.set, to });
      return to;
    }
    case "seq": {
      let cur = from;
      for (const item of node.items) cur = build(n, item, cur);
      return cur;
    }
    case "alt": {
      const end = state(n);
      for (const b of node.branches) (n.eps[build(n, b, from)] as number[]).push(end);
      return end;
    }
    case "rep": {
      let cur = from;
      for (let i = 0; i < Math.min(node.min, UNROLL); i++) cur = build(n, node.body, cur);
      if (node.max <= UNROLL) {
        for (let i = node.min; i < node.max; i++) {
          const end = build(n, node.body, cur);
          const next = state(n);
          (n.eps[cur] as number[]).push(next);
          (n.eps[end] as number[]).push(next);
          cur = next;
        }
        return cur;
      }
      const loop = state(n);
      (n.eps[cur] as number[]).push(loop);
      (n.eps[build(n, node.body, loop)] as number[]).push(loop);
      return loop;
    }
    case "backref": {
      const loop = state(n);
      (n.eps[from] as number[]).push(loop);
      (n.edges[loop] as Nfa["edges"][number]).push({ set: ALL, to: loop });
      return loop;
    }
    default:
      return from;
  }
}

/**
 * Whether some non-empty u and v exist with body(u), body(v) and body(uv): then a run of text can be
 * divided between iterations in more ways than one, as `a+` twice matches what `a+` once does. A walk
 * of the product of "body, then body" with "body", each side moving on the same characters.
 */
function iterationsCanSplit(body: Node): boolean {
  const n: Nfa = { eps: [], edges: [] };
  let start: number;
  let final: number;
  try {
    start = state(n);
    final = build(n, body, start);
  } catch (err) {
    if (err === TOO_BIG) return true;
    throw err;
  }
  const size = n.eps.length;
  // A product state: phase (0: left reads the first u, 1: the second), consumed-in-this-phase, p, q.
  const seen = new Uint8Array(4 * size * size);
  const stack: number[] = [];
  const push = (phase: number, consumed: number, p: number, q: number) => {
    const key = ((phase * 2 + consumed) * size + p) * size + q;
    if (seen[key]) return;
    seen[key] = 1;
    stack.push(key);
  };
  push(0, 0, start, start);
  while (stack.length > 0) {
    let key = stack.pop() as number;
    const q = key % size;
    key = (key - q) / size;
    const p = key % size;
    key = (key - p) / size;
    const consumed = key % 2;
    const phase = (key - consumed) / 2;
    if (phase === 1 && consumed === 1 && p === final && q === final) return true;
    if (phase === 0 && consumed === 1 && p === final) push(1, 0, start, q);
    for (const p2 of n.eps[p] as number[]) push(phase, consumed, p2, q);
    for (const q2 of n.eps[q] as number[]) push(phase, consumed, p, q2);
    for (const a of n.edges[p] as Nfa["edges"][number]) {
      for (const b of n.edges[q] as Nfa["edges"][number]) if (intersects(a.set, b.set)) push(phase, 1, a.to, b.to);
    }
  }
  return false;
}

/** Why a repeated body can match the same text in several ways, or undefined. */
function ambiguity(body: Node): string | undefined {
  const b = unwrap(body);
  // `(a)+` is `a+`: one character per iteration divides a run one way only.
  if (b.t === "set" || b.t === "assert" || b.t === "look") return undefined;
  if (ambiguousAlt(b)) return "a repeated alternation has branches that can match the same text (as in (a|ab)*)";
  if (iterationsCanSplit(b)) return "a repeated group can divide the same text between its iterations in several ways (as in (a+)+ or (\\w+\\s?){1,3})";
  return undefined;
}

function findRisk(n: Node, tailCanFail: boolean, found: PatternRisk[]): void {
  switch (n.t) {
    case "rep": {
      // More mandatory iterations can fail too, and then the engine retries every division before them.
      const failsAfter = tailCanFail || (n.min > 1 && canFail(n.body));
      if (n.max > 1 && failsAfter) {
        const why = ambiguity(n.body);
        if (why !== undefined) {
          if (n.max === Number.POSITIVE_INFINITY) found.push({ kind: "exponential", why });
          else {
            const degree = Math.min(n.max, 99) + 1;
            found.push({ kind: "polynomial", degree, why: `${why}, up to ${n.max} times: the time grows as the input length to the power ${degree}` });
          }
        }
      }
      findRisk(n.body, failsAfter, found);
      return;
    }
    case "seq": {
      // Whether anything after item i can fail, for each i (all of them when what follows the sequence can).
      const failsAfter: boolean[] = new Array(n.items.length).fill(tailCanFail);
      if (!tailCanFail) {
        let acc = false;
        for (let i = n.items.length - 1; i >= 0; i--) {
          failsAfter[i] = acc;
          acc ||= canFail(n.items[i] as Node);
        }
      }
      // Two unbounded repeats that can trade characters (`.*a.*`, `\s*\s*`) backtrack polynomially.
      let open: CharSet | undefined;
      n.items.forEach((item, i) => {
        if (item.t === "rep" && item.max === Number.POSITIVE_INFINITY) {
          const c = chars(item.body);
          if (open !== undefined && intersects(open, c)) found.push({ kind: "polynomial", degree: 2, why: "two unbounded repeats can match the same text (as in .*a.*)" });
          open = open === undefined ? c : union(open, c);
        } else if (open !== undefined && !subsetOf(chars(item), open)) {
          open = undefined;
        }
        findRisk(item, failsAfter[i] ?? tailCanFail, found);
      });
      return;
    }
    case "alt":
      for (const b of n.branches) findRisk(b, tailCanFail, found);
      return;
    case "look":
      // A lookaround is atomic: what follows it never backtracks into it.
      findRisk(n.body, false, found);
      return;
    default:
      return;
  }
}

function worst(found: PatternRisk[]): PatternRisk | undefined {
  let best: PatternRisk | undefined;
  const rank = (r: PatternRisk) => (r.kind === "exponential" ? Number.POSITIVE_INFINITY : (r.degree ?? 2));
  for (const r of found) if (best === undefined || rank(r) > rank(best)) best = r;
  return best;
}

const PLAIN: PatternAnalysis = Object.freeze({ needsBacktracking: false });

/** Static look at a pattern's structure. Conservative: a flagged pattern may still be fine. */
export function analyzePattern(pattern: string, flags = ""): PatternAnalysis {
  return analyzeParsed(parseRegex(pattern, flags), pattern);
}

/** `analyzePattern` of a pattern parsed already (prepared.ts parses each pattern once for all it derives). */
export function analyzeParsed(parsed: ParsedRegex, pattern: string): PatternAnalysis {
  const found: PatternRisk[] = [];
  // The end of the pattern counts as a possible failure: a rule's pattern is tested, rewritten with, and
  // composed into others (`command` conditions), and flagging an ambiguous repeat there only moves it to
  // the linear-time engine. Inside a lookaround the end is a success (see findRisk).
  findRisk(parsed.node, true, found);
  const risk = worst(found);
  const needsBacktracking = parsed.backrefs || parsed.lookaround;
  // Most patterns: one shared value, since every rule keeps its analyses (prepared.ts) for good.
  if (!risk && !needsBacktracking) return PLAIN;
  const out: PatternAnalysis = { ...(risk ? { risk } : {}), needsBacktracking };
  // Only a flagged pattern that needs backtracking runs under a budget, and only that one uses it.
  if (needsBacktracking && risk) out.superset = linearSuperset(pattern, parsed.spans);
  return out;
}
