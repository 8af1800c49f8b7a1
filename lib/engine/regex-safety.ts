/**
 * @module regex safety: catastrophic-pattern detection at load and a linear-time engine (re2js) for
 * patterns that cannot be trusted to finish, so no rule can stall an evaluation.
 *
 * Bun's regex engine backtracks: `(a+)+$` is exponential, and even `.*a` or `\s+$` are quadratic in
 * an unanchored search (100 KB of input costs seconds). Event text reaches 8 MiB (a `write` of a big
 * file), and its content can come from a cloned repository. So:
 * - untrusted project patterns always run on re2js (linear in the input, whatever the pattern);
 *   one re2js cannot run (lookaround, backreferences) is skipped and reported;
 * - every other pattern runs natively on short inputs (fast, and quadratic on a few KiB is harmless)
 *   and on re2js above `nativeMaxLength`; a pattern flagged as exponential always runs on re2js, or is
 *   skipped and reported when re2js cannot run it.
 */
import type { RE2JS } from "re2js";
import { re2 } from "../lazy-deps.ts";
import type { RegexCompiler } from "./match.ts";
import type { Rule } from "./schema.ts";

/** Inputs longer than this never reach the backtracking engine (a quadratic pattern costs ~10 ms here). */
export const DEFAULT_NATIVE_MAX_LENGTH = 4096;

export interface PatternRisk {
  kind: "exponential" | "polynomial";
  why: string;
}

// ---- a small JS regex parser, enough to see quantifier structure -----------------------------

/** Characters as a bitmask: bits 0..127 are ASCII, bit 128 stands for every non-ASCII character. */
type CharSet = bigint;
const NON_ASCII = 1n << 128n;
const ALL: CharSet = (1n << 129n) - 1n;

function range(from: number, to: number): CharSet {
  let s = 0n;
  for (let c = from; c <= Math.min(to, 127); c++) s |= 1n << BigInt(c);
  if (to > 127) s |= NON_ASCII;
  return s;
}
const ch = (c: number): CharSet => (c > 127 ? NON_ASCII : 1n << BigInt(c));
// Literals, not computed at start-up (a hook process evaluates this module; the first BigInt shifts cost it
// ~0.1 ms): DIGIT = range(48, 57), WORD = DIGIT | range(65, 90) | range(97, 122) | ch(95),
// SPACE = range(9, 13) | ch(32) | NON_ASCII (\s also matches Unicode spaces), DOT = ALL & ~(ch(10) | ch(13)).
const DIGIT: CharSet = 0x3ff000000000000n;
const WORD: CharSet = 0x7fffffe87fffffe03ff000000000000n;
const SPACE: CharSet = 0x100000000000000000000000100003e00n;
const DOT: CharSet = 0x1ffffffffffffffffffffffffffffdbffn;

type Node =
  | { t: "set"; set: CharSet }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; branches: Node[] }
  | { t: "look"; body: Node }
  | { t: "rep"; body: Node; min: number; max: number }
  | { t: "assert" }
  | { t: "backref" };

class Parser {
  #s: string;
  #i = 0;
  #fold: boolean;
  backrefs = false;
  lookaround = false;

  constructor(source: string, flags: string) {
    this.#s = source;
    this.#fold = flags.includes("i");
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
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.#s.slice(this.#i, this.#i + 24));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
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
    }
    return { t: "set", set };
  }

  #atom(): Node {
    const c = this.#s[this.#i++] as string;
    switch (c) {
      case "(":
        return this.#group();
      case "[":
        return { t: "set", set: this.#class() };
      case ".":
        return { t: "set", set: DOT };
      case "^":
      case "$":
        return { t: "assert" };
      case "\\":
        return this.#escape(false);
      default:
        return this.#lit(c.charCodeAt(0));
    }
  }

  #group(): Node {
    let look = false;
    if (this.#s.startsWith("?:", this.#i)) this.#i += 2;
    else if (this.#s.startsWith("?=", this.#i) || this.#s.startsWith("?!", this.#i)) [this.#i, look] = [this.#i + 2, true];
    else if (this.#s.startsWith("?<=", this.#i) || this.#s.startsWith("?<!", this.#i)) [this.#i, look] = [this.#i + 3, true];
    else if (this.#s.startsWith("?<", this.#i)) {
      const end = this.#s.indexOf(">", this.#i);
      this.#i = end < 0 ? this.#s.length : end + 1;
    }
    const body = this.#alt();
    if (this.#peek() === ")") this.#i++;
    if (look) {
      this.lookaround = true;
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
        return { t: "set", set: WORD };
      case "W":
        return { t: "set", set: ALL & ~WORD };
      case "s":
        return { t: "set", set: SPACE };
      case "S":
        return { t: "set", set: ALL & ~range(9, 13) & ~ch(32) };
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
    let first = true;
    while (this.#i < this.#s.length) {
      const c = this.#s[this.#i] as string;
      if (c === "]" && !first) break;
      if (c === "]" && first) {
        // `[]` matches nothing, `[^]` anything.
        break;
      }
      first = false;
      let lo: number | undefined;
      let part: CharSet;
      if (c === "\\") {
        this.#i++;
        const e = this.#escape(true);
        part = e.t === "set" ? e.set : 0n;
        if (e.t === "set" && (part & (part - 1n)) === 0n && part !== NON_ASCII) lo = bitIndex(part);
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
          hi = e.t === "set" && e.set !== NON_ASCII ? bitIndex(e.set) : 0x10ffff;
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

// ---- analysis -------------------------------------------------------------------------------

/** Repeats at least this many times count as "many" (`(a|a){20}` is as bad as `(a|a)*`). */
const MANY = 10;

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
      let s = 0n;
      for (const item of n.items) {
        s |= first(item);
        if (!nullable(item)) break;
      }
      return s;
    }
    case "alt":
      return n.branches.reduce((s, b) => s | first(b), 0n);
    case "rep":
      return first(n.body);
    case "backref":
      return ALL;
    default:
      return 0n;
  }
}

/** Every character a node can consume. */
function chars(n: Node): CharSet {
  switch (n.t) {
    case "set":
      return n.set;
    case "seq":
      return n.items.reduce((s, i) => s | chars(i), 0n);
    case "alt":
      return n.branches.reduce((s, b) => s | chars(b), 0n);
    case "rep":
      return chars(n.body);
    case "backref":
      return ALL;
    default:
      return 0n;
  }
}

function containsManyRep(n: Node): boolean {
  switch (n.t) {
    case "rep":
      return n.max >= MANY || containsManyRep(n.body);
    case "seq":
      return n.items.some(containsManyRep);
    case "alt":
      return n.branches.some(containsManyRep);
    case "look":
      return containsManyRep(n.body);
    default:
      return false;
  }
}

function unwrap(n: Node): Node {
  return n.t === "seq" && n.items.length === 1 ? unwrap(n.items[0] as Node) : n;
}

function ambiguousAlt(n: Node): boolean {
  const body = unwrap(n);
  if (body.t !== "alt") return false;
  const firsts: CharSet[] = [];
  for (const b of body.branches) {
    if (nullable(b)) return true;
    const f = first(b);
    if (firsts.some((g) => (g & f) !== 0n)) return true;
    firsts.push(f);
  }
  return false;
}

function findRisk(n: Node, found: PatternRisk[]): void {
  switch (n.t) {
    case "rep":
      if (n.max >= MANY) {
        if (containsManyRep(n.body)) found.push({ kind: "exponential", why: "a repeated group contains another unbounded repeat (nested quantifiers, as in (a+)+)" });
        else if (ambiguousAlt(n.body)) found.push({ kind: "exponential", why: "a repeated alternation has branches that can match the same text (as in (a|ab)*)" });
      }
      findRisk(n.body, found);
      return;
    case "seq": {
      // Two unbounded repeats that can trade characters (`.*a.*`, `\s*\s*`) backtrack polynomially.
      let open: CharSet | undefined;
      for (const item of n.items) {
        if (item.t === "rep" && item.max === Infinity) {
          const c = chars(item.body);
          if (open !== undefined && (open & c) !== 0n) found.push({ kind: "polynomial", why: "two unbounded repeats can match the same text (as in .*a.*)" });
          open = open === undefined ? c : open | c;
        } else if (open !== undefined && (chars(item) & ~open) !== 0n) {
          open = undefined;
        }
        findRisk(item, found);
      }
      return;
    }
    case "alt":
      for (const b of n.branches) findRisk(b, found);
      return;
    case "look":
      findRisk(n.body, found);
      return;
    default:
      return;
  }
}

export interface PatternAnalysis {
  /** The worst risk found, exponential first. */
  risk?: PatternRisk;
  /** Lookaround or backreferences: syntax a linear-time engine cannot run. */
  needsBacktracking: boolean;
}

/** Static look at a pattern's structure. Conservative: a flagged pattern may still be fine. */
export function analyzePattern(pattern: string, flags = ""): PatternAnalysis {
  const p = new Parser(pattern, flags);
  const found: PatternRisk[] = [];
  findRisk(p.parse(), found);
  const risk = found.find((f) => f.kind === "exponential") ?? found[0];
  return { ...(risk ? { risk } : {}), needsBacktracking: p.backrefs || p.lookaround };
}

/**
 * Analyses carried over from an earlier process (load-cache.ts), by `flags/pattern`. Only primed entries are
 * kept: a sidecar analyses each pattern once per merge anyway, and 10,000 remembered analyses would cost
 * it memory for nothing. The analysis depends only on the text and this build, as the cache's key does.
 */
const primedAnalyses = new Map<string, PatternAnalysis>();

function analysisKey(pattern: string, flags: string): string {
  return `${flags}/${pattern}`;
}

/** The analyses of these patterns (flags as the compiler normalizes them), to travel with cached rules. */
export function analysesOf(patterns: readonly { pattern: string; flags: string | undefined }[]): [string, PatternAnalysis][] {
  const out: [string, PatternAnalysis][] = [];
  const seen = new Set<string>();
  for (const p of patterns) {
    const flags = (p.flags ?? "").replace(/[gy]/g, "");
    const key = analysisKey(p.pattern, flags);
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      out.push([key, analyzePattern(p.pattern, flags)]);
    } catch {
      // A pattern the analyser cannot read is analysed (and reported) again when it is compiled.
    }
  }
  return out;
}

/** Records analyses computed earlier (see `analysesOf`). */
export function primeAnalyses(entries: readonly [string, PatternAnalysis][]): void {
  for (const [key, analysis] of entries) primedAnalyses.set(key, analysis);
}

function analysisFor(pattern: string, flags: string): PatternAnalysis {
  return primedAnalyses.get(analysisKey(pattern, flags)) ?? analyzePattern(pattern, flags);
}

// ---- re2js behind a RegExp ------------------------------------------------------------------

const RE2_CACHE_MAX = 2048;
const re2Cache = new Map<string, RE2JS>();

/** Compiles with re2js, or throws when the pattern uses syntax RE2 cannot run. */
export function compileLinear(pattern: string, flags = ""): RE2JS {
  const key = `${flags}/${pattern}`;
  const hit = re2Cache.get(key);
  if (hit) return hit;
  if (flags.includes("v")) throw new Error("the v flag is not supported by the linear-time engine");
  const { RE2JS: Engine } = re2();
  let f = 0;
  if (flags.includes("i")) f |= Engine.CASE_INSENSITIVE;
  if (flags.includes("m")) f |= Engine.MULTILINE;
  if (flags.includes("s")) f |= Engine.DOTALL;
  const re = Engine.compile(Engine.translateRegExp(pattern), f);
  if (re2Cache.size >= RE2_CACHE_MAX) re2Cache.delete(re2Cache.keys().next().value as string);
  re2Cache.set(key, re);
  return re;
}

/** The builtin matcher, called on a GuardedRegExp itself: `test` and `exec` are overridden on it. */
const nativeExec = RegExp.prototype.exec;

/**
 * A RegExp whose matching runs on re2js for inputs past `nativeMax` characters (always, with -1).
 * `test` and `exec` are overridden; `String#replace`/`match` go through `exec`, so rewrites are
 * linear too. Construct through `guardedRegExp`; `new (re.constructor)(re, flags)` copies the guard.
 * Short inputs run on the builtin matcher of this very object, so no second RegExp is kept per pattern
 * (10,000 rules hold one each).
 */
export class GuardedRegExp extends RegExp {
  /** undefined until a long input needs it, for a lazily guarded pattern. */
  #re2: RE2JS | undefined;
  /** Inputs up to this length use the native engine; -1 = never. */
  #nativeMax = -1;
  /** `global || sticky`, read once: the flag getters are accessor calls on every test otherwise. */
  #stateful: boolean;

  /**
   * `lazy`: compile the re2js program on the first input past `nativeMax`, not now. re2js programs are
   * large (typed arrays per state): eagerly, 10,000 trusted rules held ~130 MB for inputs that are
   * almost never that long. If it then cannot compile, the pattern stays native, as the eager path
   * decides for a trusted, non-exponential pattern.
   */
  constructor(pattern: string | RegExp, flags?: string, lazy = false) {
    const source = typeof pattern === "string" ? pattern : pattern.source;
    const f = flags ?? (typeof pattern === "string" ? "" : pattern.flags);
    super(source, f);
    this.#stateful = this.global || this.sticky;
    if (pattern instanceof GuardedRegExp) {
      // A copy (the rewrite path adds `g`): same guard; re2js ignores g and y, so the program carries over.
      this.#nativeMax = pattern.#nativeMax;
      this.#re2 = sameLinearFlags(pattern.flags, f) ? pattern.#re2 : undefined;
      if (this.#re2 === undefined && pattern.#re2 !== undefined) this.#re2 = compileLinear(source, f);
    } else if (!lazy) this.#re2 = compileLinear(source, f);
  }

  /** Sets the length cut; only `guardedRegExp` calls this, before anyone copies the instance. */
  static withNativeMax(re: GuardedRegExp, nativeMax: number): GuardedRegExp {
    re.#nativeMax = nativeMax;
    return re;
  }

  /** True when matching this input runs on re2js. */
  isLinearFor(input: string): boolean {
    return input.length > this.#nativeMax && this.#linear() !== undefined;
  }

  #linear(): RE2JS | undefined {
    if (this.#re2 === undefined && this.#nativeMax !== Number.POSITIVE_INFINITY) {
      try {
        this.#re2 = compileLinear(this.source, this.flags);
      } catch {
        this.#nativeMax = Number.POSITIVE_INFINITY;
      }
    }
    return this.#re2;
  }

  override test(input: string): boolean {
    const s = typeof input === "string" ? input : String(input);
    if (this.#stateful) return this.exec(s) !== null;
    // Short inputs (nearly all) go straight to the native engine; a miss allocates nothing.
    if (s.length <= this.#nativeMax) return nativeExec.call(this, s) !== null;
    return this.isLinearFor(s) ? (this.#linear() as RE2JS).test(s) : nativeExec.call(this, s) !== null;
  }

  override exec(input: string): RegExpExecArray | null {
    const s = String(input);
    // The builtin reads and advances this object's own lastIndex, as a plain RegExp would.
    if (!this.isLinearFor(s)) return nativeExec.call(this, s);
    const stateful = this.#stateful;
    const start = stateful ? this.lastIndex : 0;
    if (start > s.length) {
      this.lastIndex = 0;
      return null;
    }
    const re2 = this.#linear() as RE2JS;
    const m = re2.matcher(s);
    if (!m.find(start) || (this.sticky && m.start() !== start)) {
      if (stateful) this.lastIndex = 0;
      return null;
    }
    const groups: string[] = [];
    for (let g = 0; g <= m.groupCount(); g++) groups.push(m.group(g) ?? (undefined as unknown as string));
    const names = re2.namedGroups();
    const named = Object.keys(names).length > 0 ? Object.fromEntries(Object.entries(names).map(([k, i]) => [k, m.group(i) ?? undefined])) : undefined;
    const out = Object.assign(groups, { index: m.start(), input: s, groups: named }) as RegExpExecArray;
    if (stateful) this.lastIndex = m.end();
    return out;
  }
}

/** Flags re2js reads (i, m, s) are the same: its program serves both. */
function sameLinearFlags(a: string, b: string): boolean {
  const linear = (f: string) => f.replace(/[^ims]/g, "");
  return linear(a) === linear(b);
}

/** A guarded RegExp: re2js always (`nativeMax` -1) or past `nativeMax` characters. Throws if RE2 cannot run it. */
export function guardedRegExp(pattern: string, flags: string, nativeMax: number, lazy = false): GuardedRegExp {
  return GuardedRegExp.withNativeMax(new GuardedRegExp(pattern, flags, lazy), nativeMax);
}

// ---- the compiler the rule host uses --------------------------------------------------------

export interface RegexSafetyReport {
  rule: Rule;
  pattern: string;
  /** What happened to the pattern. */
  outcome: "linear" | "skipped";
  message: string;
}

export interface SafeCompilerOptions {
  /** Whether the project layer is trusted (DESIGN section 6). */
  trusted: boolean;
  nativeMaxLength?: number;
  /** Told about every flagged or skipped pattern (for load reports). */
  onReport?: (report: RegexSafetyReport) => void;
}

/**
 * The `MergeOptions.compileRegex` for the rule host. Throwing makes `mergeLayers` skip the rule with
 * the message as its reason, which is how an unrunnable pattern is "skipped and reported".
 */
export function createSafeRegexCompiler(opts: SafeCompilerOptions): RegexCompiler {
  const nativeMax = opts.nativeMaxLength ?? DEFAULT_NATIVE_MAX_LENGTH;
  return (pattern, rawFlags, rule) => {
    const flags = (rawFlags ?? "").replace(/[gy]/g, "");
    const untrusted = rule.source === "project" && !opts.trusted;
    let analysis: PatternAnalysis;
    try {
      analysis = analysisFor(pattern, flags);
    } catch (err) {
      // An invalid pattern: the native message first, as from the constructors below.
      new RegExp(pattern, flags);
      throw err;
    }
    const exponential = analysis.risk?.kind === "exponential";
    // Trusted and not exponential: native on short inputs; the linear engine only matters past nativeMax.
    // Either constructor throws a syntax error with its native message (load.ts reports it with positions).
    if (!untrusted && !exponential) return analysis.needsBacktracking ? new RegExp(pattern, flags) : guardedRegExp(pattern, flags, nativeMax, true);
    // Checked natively first, so a syntax error keeps the native message rather than re2js's.
    new RegExp(pattern, flags);
    let linear: RE2JS | undefined;
    let linearError = "";
    try {
      linear = compileLinear(pattern, flags);
    } catch (err) {
      linearError = err instanceof Error ? err.message : String(err);
    }
    if (!linear) {
      const message = untrusted
        ? `pattern /${pattern}/ needs a backtracking engine (${linearError}); an untrusted project's patterns must run in linear time: run \`shepherd trust\` to allow it`
        : `pattern /${pattern}/ can take exponential time (${analysis.risk?.why}) and the linear-time engine cannot run it (${linearError})`;
      opts.onReport?.({ rule, pattern, outcome: "skipped", message });
      throw new Error(message);
    }
    if (exponential) {
      opts.onReport?.({ rule, pattern, outcome: "linear", message: `pattern /${pattern}/ can take exponential time (${analysis.risk?.why}); it runs on the linear-time engine` });
    }
    return guardedRegExp(pattern, flags, -1);
  };
}
