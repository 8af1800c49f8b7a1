/**
 * @module RegExp subclasses the rule engine matches with: `GuardedRegExp` runs on re2js (linear time)
 * past a length cut or always; `BudgetedRegExp` runs a risky pattern re2js cannot run natively, but
 * only within a size budget, and past it reports an evaluation error instead of an answer.
 */
import type { RE2JS } from "re2js";
import { re2 } from "../../lazy-deps.ts";

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


// ---- a risky pattern the linear-time engine cannot run ---------------------------------------

/**
 * A budgeted pattern met an input over its budget, and a linear-time look could not rule a match out.
 * Thrown out of `test`/`exec`: the evaluation fails, and each face answers it with its fail mode
 * (closed by default: the call is blocked), as for any evaluation that cannot finish. Never "no match".
 */
export class RegexBudgetError extends Error {
  override name = "RegexBudgetError";
}

/**
 * A risky pattern that needs backtracking (lookaround, backreferences), run by the builtin engine only
 * on inputs up to `maxLength` characters, where its expected worst case stays small. Longer inputs are
 * first checked against `superset` on re2js: when even that does not match, "no match" is exact; when
 * it does, the answer would cost an unbounded search, so matching throws a `RegexBudgetError` naming the rule.
 * `new (re.constructor)(re, flags)` (the rewrite path) copies the budget.
 */
export class BudgetedRegExp extends RegExp {
  #maxLength = 0;
  /** Compiled on the first input over the budget (re2js programs are large; most inputs are short). */
  #superset: RE2JS | null | undefined;
  #supersetSource: string | undefined;
  #what = "";
  #stateful: boolean;

  constructor(pattern: string | RegExp, flags?: string) {
    const source = typeof pattern === "string" ? pattern : pattern.source;
    super(source, flags ?? (typeof pattern === "string" ? "" : pattern.flags));
    this.#stateful = this.global || this.sticky;
    if (pattern instanceof BudgetedRegExp) {
      this.#maxLength = pattern.#maxLength;
      this.#what = pattern.#what;
      this.#supersetSource = pattern.#supersetSource;
      if (sameLinearFlags(pattern.flags, this.flags)) this.#superset = pattern.#superset;
    }
  }

  /**
   * `what` names the pattern in errors (the rule, for the user); `superset` is a linear-time pattern
   * matching at least what this one matches, or undefined when none could be built.
   */
  static create(pattern: string, flags: string, maxLength: number, superset: string | undefined, what: string): BudgetedRegExp {
    const re = new BudgetedRegExp(pattern, flags);
    re.#maxLength = maxLength;
    re.#what = what;
    re.#supersetSource = superset;
    return re;
  }

  #linearSuperset(): RE2JS | null {
    if (this.#superset !== undefined) return this.#superset;
    this.#superset = null;
    if (this.#supersetSource !== undefined) {
      try {
        this.#superset = compileLinear(this.#supersetSource, this.flags.replace(/[gy]/g, ""));
      } catch {
        // No prefilter: every input over the budget is an error.
      }
    }
    return this.#superset;
  }

  /** The longest input matched natively. */
  get maxLength(): number {
    return this.#maxLength;
  }

  /** Whether the match may run natively on this input: within the budget, or ruled out in linear time. */
  #check(s: string, start: number): boolean {
    if (s.length <= this.#maxLength) return true;
    const superset = this.#linearSuperset();
    if (superset !== null && !superset.matcher(s).find(Math.min(start, s.length))) return false;
    throw new RegexBudgetError(
      `${this.#what}: pattern /${this.source}/ is risky on a backtracking engine and needs one (lookaround or backreference), and an input of ${s.length} characters is over its budget of ${this.#maxLength}: the rule cannot be evaluated (make the pattern unambiguous, or drop its lookaround or backreference, so the linear-time engine can run it)`,
    );
  }

  override test(input: string): boolean {
    return this.exec(input) !== null;
  }

  override exec(input: string): RegExpExecArray | null {
    const s = String(input);
    const start = this.#stateful ? this.lastIndex : 0;
    if (!this.#check(s, start)) {
      if (this.#stateful) this.lastIndex = 0;
      return null;
    }
    return nativeExec.call(this, s);
  }
}
