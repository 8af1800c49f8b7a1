/** @module unit tests for catastrophic-pattern detection and the re2js-backed RegExp. */
import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRuleText } from "./load.ts";
import { compilePatterns } from "./match.ts";
import { mergeLayers } from "./merge.ts";
import {
  analyzePattern,
  BudgetedRegExp,
  compileLinear,
  createSafeRegexCompiler,
  GuardedRegExp,
  guardedRegExp,
  isRisky,
  QUADRATIC_MAX_LENGTH,
  RegexBudgetError,
  type RegexSafetyReport,
} from "./regex-safety.ts";
import type { Rule } from "./schema.ts";
import { bashCall, makeEvaluator, ruleSetOf } from "./test-helpers.ts";

function rule(source: Rule["source"], pattern: string): Rule {
  const loaded = loadRuleText(JSON.stringify([{ name: "r", action: "block", pattern }]), { file: `${source}.json`, source });
  const r = loaded.rules[0];
  if (!r) throw new Error(JSON.stringify(loaded.issues));
  return r;
}

const BUILTIN_DIR = join(import.meta.dir, "../../rules");

/** Every regex of the built-in rule files (pattern, conditions, command fields), with its rule. */
function builtinPatterns(): { rule: Rule; pattern: string; flags: string | undefined }[] {
  const out: { rule: Rule; pattern: string; flags: string | undefined }[] = [];
  for (const f of readdirSync(BUILTIN_DIR).filter((n) => n.endsWith(".json"))) {
    const loaded = loadRuleText(readFileSync(join(BUILTIN_DIR, f), "utf8"), { file: `rules/${f}`, source: "builtin" });
    expect(loaded.issues.filter((i) => i.severity === "error")).toEqual([]);
    for (const r of loaded.rules) {
      compilePatterns(r, (pattern, flags) => {
        out.push({ rule: r, pattern, flags });
        return new RegExp(pattern, (flags ?? "").replace(/[gy]/g, ""));
      });
    }
  }
  return out;
}

describe("analyzePattern", () => {
  // [pattern, kind, degree for a polynomial risk]
  it.each([
    ["(a+)+$", "exponential", undefined],
    ["(a*)*b", "exponential", undefined],
    ["([a-zA-Z]+)*$", "exponential", undefined],
    ["(\\w+\\s?)+$", "exponential", undefined],
    ["(a|aa)+$", "exponential", undefined],
    ["(a|a?)+$", "exponential", undefined],
    ["(\\w|\\d)+!", "exponential", undefined],
    ["^(([a-z])+.)+[A-Z]([a-z])+$", "exponential", undefined],
    ["(?:x+x+)+y", "exponential", undefined],
    ["(x+x+)+", "exponential", undefined],
    ["(\\d+\\.?){2,}", "exponential", undefined],
    ["(\\s*\\w+)+$", "exponential", undefined],
    ["(?:\\d{1,3})+x", "exponential", undefined],
    ["((ab)*)+$", "exponential", undefined],
    ["(?!(a+)+$)b", "exponential", undefined],
    // A named group without u: the parser reads the pattern twice, and the tree must be the second reading alone.
    ["(?<w>a+)+$", "exponential", undefined],
    ["x(?<w>\\w+\\s?){1,3}$", "polynomial", 4],
    ["(\\w+\\s?){1,3}$", "polynomial", 4],
    ["^git commit -m (\\w+\\s?){1,3}$", "polynomial", 4],
    ["(a|ab){2}", "polynomial", 3],
    ["(\\w+\\s?){2}$", "polynomial", 3],
    ["(.*a){12}", "polynomial", 13],
    ["(?:[a-z]+-?){1,5}\\.js$", "polynomial", 6],
  ] as const)("should judge %s risky (%s)", (pattern, kind, degree) => {
    const a = analyzePattern(pattern);
    expect(a.risk?.kind).toBe(kind);
    expect(a.risk?.degree).toBe(degree);
    expect(isRisky(a)).toBe(true);
  });

  // A negated class is the complement of what it names: a character it names among the non-ASCII ones, or an
  // element only over-approximated (a Unicode property, a nested class), leaves the rest of those in it.
  it.each([
    ["([^\\p{L}]+)+$", "u"],
    ["([^[a]]+)+$", "v"],
    ["(?:[^\u00e9]|\u00fc)+$", ""],
    ["(?:[^\\w]|\u00e9)+$", "iu"],
    ["(?:\u017f|s)+$", "iu"],
  ] as const)("should judge %s (flags %s) exponential", (pattern, flags) => {
    expect(analyzePattern(pattern, flags).risk?.kind).toBe("exponential");
  });

  it.each([["\\s*\\s*$"], [".*a.*b"], ["\\b(?:curl|wget)\\b.*\\|\\s*(?:ba)?sh\\b"], ["git.*push.*--force"], ["(?:\\w+\\.)+\\w+$"]])("should judge %s quadratic: native on short inputs, not risky", (pattern) => {
    const a = analyzePattern(pattern);
    expect(a.risk?.kind).toBe("polynomial");
    expect(a.risk?.degree).toBe(2);
    expect(isRisky(a)).toBe(false);
  });

  it.each([
    ["\\brm\\s+-rf\\b"],
    ["^git\\s+(push|commit)\\b"],
    ["(foo|bar)+"],
    ["\\d+\\.\\d+"],
    ['[^"]*"[^"]*"'],
    ["^\\s*npm (install|i)\\b"],
    ["(ab)+c"],
    ["a{2,3}"],
    ["(\\d{1,3}\\.){3}\\d{1,3}"],
    ["(\\.\\.?/)+x"],
    ["(\\S+\\s)+$"],
    ["(-\\w+\\s+)*--force"],
    ["(?:--?[a-z-]+(?:=\\S+)?\\s+)*push"],
    ["^(?:sudo\\s+)?(?:rm|rmdir)\\b"],
    ["(\\w+)\\s\\1"],
    ["(a?)+$"],
    ["(?:\\r?\\n)+$"],
    ["^(feat|fix|chore)(\\(.+\\))?: "],
  ])("should not flag %s", (pattern) => {
    expect(analyzePattern(pattern).risk).toBeUndefined();
  });

  it("should judge no built-in pattern risky", () => {
    const patterns = builtinPatterns();
    expect(patterns.length).toBeGreaterThan(10);
    const risky = patterns.filter((p) => isRisky(analyzePattern(p.pattern, (p.flags ?? "").replace(/[gy]/g, ""))));
    expect(risky.map((p) => `${p.rule.file} ${p.rule.name}: ${p.pattern}`)).toEqual([]);
  });

  it("should see lookaround and backreferences", () => {
    expect(analyzePattern("(?=a)b").needsBacktracking).toBe(true);
    expect(analyzePattern("(a)\\1").needsBacktracking).toBe(true);
    expect(analyzePattern("(?<n>a)\\k<n>").needsBacktracking).toBe(true);
    expect(analyzePattern("[\\1]").needsBacktracking).toBe(false);
  });

  it.each([
    ["(a+)+(?=b)", "(a+)+(?:)"],
    ["(\\w+)\\s\\1+$", "(\\w+)\\s(?:[\\s\\S]*)+$"],
    ["(?<=x)(?!(?=y)z)(a|ab)+c", "(?:)(?:)(a|ab)+c"],
    ["(?<n>a+)+\\k<n>$", "(?<n>a+)+(?:[\\s\\S]*)$"],
  ])("should give %s the linear superset %s", (pattern, superset) => {
    expect(analyzePattern(pattern).superset).toBe(superset);
  });
});

describe("GuardedRegExp", () => {
  it("should match like the native engine on both sides of the length cut", () => {
    const cases: [string, string, string[]][] = [
      ["\\brm\\s+-rf\\b", "", ["rm -rf /", "echo rm  -rf", "rmx -rf", "no"]],
      ["^GIT\\s+push", "i", ["git push", " git push", "Git   Push x"]],
      ["(?<verb>push|pull)\\s+(\\w+)", "", ["git push origin", "pull"]],
      ["^b$", "m", ["a\nb\nc", "ab"]],
    ];
    for (const [pattern, flags, inputs] of cases) {
      const native = new RegExp(pattern, flags);
      for (const nativeMax of [-1, 1000]) {
        const re = guardedRegExp(pattern, flags, nativeMax);
        for (const s of inputs) {
          expect(re.test(s)).toBe(native.test(s));
          expect(re.exec(s)?.[0]).toBe(native.exec(s)?.[0] ?? undefined);
          expect(re.exec(s)?.index).toBe(native.exec(s)?.index);
        }
      }
    }
  });

  it("should keep named groups and indexes in exec results", () => {
    const re = guardedRegExp("(?<verb>push|pull)\\s+(\\w+)", "", -1);
    const m = re.exec("git push origin");
    expect(m?.index).toBe(4);
    expect(m?.[2]).toBe("origin");
    expect(m?.groups?.verb).toBe("push");
  });

  it("should replace globally through the copy the rewrite path makes", () => {
    const re = guardedRegExp("rm\\s+(-\\w+)", "", -1);
    const copy = new (re.constructor as RegExpConstructor)(re, "g");
    expect(copy).toBeInstanceOf(GuardedRegExp);
    expect((copy as GuardedRegExp).isLinearFor("x")).toBe(true);
    expect("rm -rf a; rm -f b".replace(copy, "trash $1")).toBe("trash -rf a; trash -f b");
  });

  it("should iterate a global or sticky copy like a native RegExp on both engines", () => {
    for (const nativeMax of [-1, 1000]) {
      const re = guardedRegExp("rm\\s+(-\\w+)", "", nativeMax);
      const global = new (re.constructor as RegExpConstructor)(re, "g");
      expect(global).toBeInstanceOf(GuardedRegExp);
      expect((global as GuardedRegExp).isLinearFor("x")).toBe(nativeMax === -1);
      const input = "rm -rf a; rm -f b";
      expect(input.replace(global, "trash $1")).toBe("trash -rf a; trash -f b");
      expect([...input.matchAll(global)].map((m) => [m.index, m[1]])).toEqual([[0, "-rf"], [10, "-f"]]);
      global.lastIndex = 0;
      expect(global.exec(input)?.index).toBe(0);
      expect(global.lastIndex).toBe(6);
      expect(global.test(input)).toBe(true);
      expect(global.lastIndex).toBe(15);
      expect(global.test(input)).toBe(false);
      expect(global.lastIndex).toBe(0);
      const sticky = new (re.constructor as RegExpConstructor)(re, "y");
      sticky.lastIndex = 10;
      expect(sticky.test(input)).toBe(true);
      expect(sticky.test(input)).toBe(false);
      // The original keeps no state of its own.
      expect(re.lastIndex).toBe(0);
      expect(re.exec(input)?.index).toBe(0);
      expect(re.exec(input)?.index).toBe(0);
    }
  });

  it("should answer a catastrophic pattern on a long input at once", () => {
    const re = guardedRegExp("(a+)+$", "", -1);
    const start = performance.now();
    expect(re.test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(re.test("aaaa")).toBe(true);
    // Generous: the backtracking engine would need longer than the age of the universe.
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  it("should switch to the linear engine past the native length", () => {
    const re = guardedRegExp(".*a", "", 100);
    expect(re.isLinearFor("x".repeat(100))).toBe(false);
    expect(re.isLinearFor("x".repeat(101))).toBe(true);
    expect(re.test(`${"b".repeat(200_000)}`)).toBe(false);
  });
});

describe("createSafeRegexCompiler", () => {
  it("should run every untrusted project pattern on the linear-time engine", () => {
    const compile = createSafeRegexCompiler({ trusted: false });
    const re = compile("rm", undefined, rule("project", "rm"));
    expect(re).toBeInstanceOf(GuardedRegExp);
    expect((re as GuardedRegExp).isLinearFor("")).toBe(true);
  });

  it("should skip an untrusted pattern that needs backtracking, and report it", () => {
    const reports: RegexSafetyReport[] = [];
    const compile = createSafeRegexCompiler({ trusted: false, onReport: (r) => reports.push(r) });
    expect(() => compile("(?=a)a", undefined, rule("project", "(?=a)a"))).toThrow(/linear time/);
    expect(reports[0]?.outcome).toBe("skipped");
  });

  it.each([
    ["trusted", true, "project"],
    ["untrusted", false, "project"],
    ["global", true, "global"],
  ] as const)("should reject an invalid %s pattern with the native syntax error", (_name, trusted, source) => {
    const compile = createSafeRegexCompiler({ trusted });
    for (const bad of ["(", "a{2,1}", "[z-a]"]) {
      let native = "";
      try {
        new RegExp(bad);
      } catch (err) {
        native = (err as Error).message;
      }
      expect(native).not.toBe("");
      expect(() => compile(bad, undefined, rule(source, "x"))).toThrow(native);
    }
  });

  it("should let a trusted project use lookaround when the pattern is not exponential", () => {
    const compile = createSafeRegexCompiler({ trusted: true });
    const re = compile("foo(?!bar)", undefined, rule("project", "foo(?!bar)"));
    expect(re).not.toBeInstanceOf(GuardedRegExp);
    expect(re.test("foobaz")).toBe(true);
  });

  it.each([
    ["global", true],
    ["builtin", true],
    ["project", true],
  ] as const)("should move a risky %s pattern re2js can run to the linear engine, and report it", (source, trusted) => {
    const reports: RegexSafetyReport[] = [];
    const compile = createSafeRegexCompiler({ trusted, onReport: (r) => reports.push(r) });
    for (const pattern of ["(a+)+$", "(\\w+\\s?){1,3}$", "(a|ab){2}"]) {
      const re = compile(pattern, undefined, rule(source, pattern));
      expect(re).toBeInstanceOf(GuardedRegExp);
      expect((re as GuardedRegExp).isLinearFor("")).toBe(true);
    }
    expect(reports.map((r) => r.outcome)).toEqual(["linear", "linear", "linear"]);
    expect(reports[1]?.message).toMatch(/^risky: pattern \/\(\\w\+\\s\?\)\{1,3\}\$\/ .* runs on the linear-time engine$/);
  });

  it("should run a risky trusted pattern re2js cannot run under a budget, and report it", () => {
    const reports: RegexSafetyReport[] = [];
    const compile = createSafeRegexCompiler({ trusted: true, onReport: (r) => reports.push(r) });
    const re = compile("(a+)+(?=b)", undefined, rule("global", "(a+)+(?=b)"));
    expect(re).toBeInstanceOf(BudgetedRegExp);
    expect((re as BudgetedRegExp).maxLength).toBe(24);
    expect(re.test("aaab")).toBe(true);
    expect(re.test("aaa!")).toBe(false);
    // Longer, but re2js rules a match out at once: an exact "no match".
    expect(re.test("x".repeat(10_000))).toBe(false);
    // Longer, and it may match: an error naming the rule, never a silent "no match".
    expect(() => re.test(`${"a".repeat(40)}!`)).toThrow(RegexBudgetError);
    expect(() => re.test(`${"a".repeat(40)}!`)).toThrow(/rule "r": .* over its budget of 24/);
    expect(reports.map((r) => [r.outcome, /runs under a budget/.test(r.message)])).toEqual([["budget", true]]);
  });

  it("should bound a quadratic trusted pattern with lookaround by a larger budget, unreported", () => {
    const reports: RegexSafetyReport[] = [];
    const compile = createSafeRegexCompiler({ trusted: true, onReport: (r) => reports.push(r) });
    const re = compile("git.*push.*(?!--dry)", undefined, rule("global", "x"));
    expect(re).toBeInstanceOf(BudgetedRegExp);
    expect((re as BudgetedRegExp).maxLength).toBe(QUADRATIC_MAX_LENGTH);
    expect(re.test(`git ${"x".repeat(10_000)} push`)).toBe(true);
    expect(re.test(`git ${"x".repeat(100_000)}`)).toBe(false);
    expect(() => re.test(`git ${"x".repeat(100_000)} push`)).toThrow(RegexBudgetError);
    expect(reports).toEqual([]);
  });

  it("should answer the built-in secrets pattern on a hostile 64 KB argument at once", () => {
    // The read tool's path pattern (the upload rule now matches the effect, not a pattern).
    const secrets = builtinPatterns().find((p) => p.rule.name === "safety-secrets-read-tool");
    expect(secrets).toBeDefined();
    const { rule: r, pattern } = secrets as { rule: Rule; pattern: string };
    const re = createSafeRegexCompiler({ trusted: true })(pattern, undefined, r);
    const started = performance.now();
    // Natively ~2 s: `[\w.-]*(?:-key)[\w.-]*\.pem` retries every "-key" to the end.
    expect(re.test(`/${"-key".repeat(16_000)}`)).toBe(false);
    expect(re.test("/home/u/.env")).toBe(true);
    expect(re.test("/home/u/.env.example")).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("should make mergeLayers skip the rule with the reason", () => {
    const r = rule("project", "(x+)+(?<=y)");
    const set = mergeLayers([{ source: "project", files: [{ file: r.file, rules: [r] }] }], [], {
      trusted: false,
      compileRegex: createSafeRegexCompiler({ trusted: false }),
    });
    expect(set.rules).toEqual([]);
    expect(set.skipped[0]?.reason).toMatch(/^cannot compile: pattern .* linear time/);
  });
});

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function inputs(seed: number, alphabet: string, count: number, maxLength: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * (maxLength + 1)) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""));
}

describe("risky trusted patterns answer like re2js, never a silent no-match", () => {
  // Risky patterns re2js can run, with an alphabet that makes both outcomes common.
  const linearCases: [string, string][] = [
    ["(\\w+\\s?){1,3}$", "ab -"],
    ["^(\\w+\\s?){1,3}$", "ab -"],
    ["(a|ab){2}c", "abc"],
    ["(x+x+)+y", "xy!"],
    ["(\\d+\\.?){2,}$", "12.a"],
    ["^(a+)+$", "a!"],
    ["(?:[a-z]+-?){1,5}\\.js$", "ab-.js"],
  ];

  it.each(linearCases)("should match %s like re2js and like the native engine where that one finishes", (pattern, alphabet) => {
    const compile = createSafeRegexCompiler({ trusted: true });
    const re = compile(pattern, undefined, rule("global", pattern));
    expect(isRisky(analyzePattern(pattern))).toBe(true);
    const linear = compileLinear(pattern);
    const native = new RegExp(pattern);
    // Short: the native engine finishes, and all three agree.
    for (const s of inputs(pattern.length, alphabet, 300, 12)) {
      expect([s, re.test(s)]).toEqual([s, native.test(s)]);
      expect([s, re.test(s)]).toEqual([s, linear.test(s)]);
    }
    // Long: only re2js is a reference (the native engine may take minutes, then say "no match").
    for (const s of inputs(pattern.length + 1, alphabet, 20, 2_000)) expect([s.length, re.test(s)]).toEqual([s.length, linear.test(s)]);
  });

  it("should find the match in a 1 KB command that the native engine gives up on", () => {
    const compile = createSafeRegexCompiler({ trusted: true });
    const re = compile("(\\w+\\s?){1,3}$", undefined, rule("global", "x"));
    const command = `${"a".repeat(1_000)}- b`;
    const started = performance.now();
    expect(re.test(command)).toBe(true);
    expect(re.exec(command)?.[0]).toBe("b");
    // Natively this costs minutes (the fourth power of the length); here it is linear. Generous bound.
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it.each([
    ["^zz (\\w+\\s?){1,3}(?=$)", "zab -"],
    ["(a+)+(?=b)", "ab!"],
    ["(\\w+)\\s(\\w+\\s?){1,3}\\1$", "ab "],
  ])("should answer %s like the native engine within its budget, and otherwise exactly no or an error", (pattern, alphabet) => {
    const compile = createSafeRegexCompiler({ trusted: true });
    const re = compile(pattern, undefined, rule("global", pattern));
    expect(re).toBeInstanceOf(BudgetedRegExp);
    const budget = (re as BudgetedRegExp).maxLength;
    const native = new RegExp(pattern);
    for (const s of inputs(pattern.length, alphabet, 300, Math.min(budget, 16))) expect([s, re.test(s)]).toEqual([s, native.test(s)]);
    let errors = 0;
    let noes = 0;
    for (const s of [...inputs(pattern.length + 1, alphabet, 40, 400), "q".repeat(500)]) {
      if (s.length <= budget) continue;
      try {
        // A "no" past the budget comes from a superset of the pattern, so it is exact.
        expect(re.test(s)).toBe(false);
        expect(compileLinear(analyzePattern(pattern).superset as string).test(s)).toBe(false);
        noes++;
      } catch (err) {
        expect(err).toBeInstanceOf(RegexBudgetError);
        errors++;
      }
    }
    expect(noes).toBeGreaterThan(0);
    expect(errors).toBeGreaterThan(0);
  });

  it("should carry the budget into the copy the rewrite path makes", () => {
    const compile = createSafeRegexCompiler({ trusted: true });
    const re = compile("(a+)+(?=b)", undefined, rule("global", "x"));
    const global = new (re.constructor as RegExpConstructor)(re, "g");
    expect(global).toBeInstanceOf(BudgetedRegExp);
    expect("aab aab".replace(global, "x")).toBe("xb xb");
    expect(() => `${"a".repeat(40)}b`.replace(global, "x")).toThrow(RegexBudgetError);
    expect("c".repeat(100).replace(global, "x")).toBe("c".repeat(100));
  });
});

describe("evaluate with a pattern over its budget", () => {
  const LONG = `zz ${"a".repeat(1_000)} b`;
  const set = (rules: unknown[]) => ruleSetOf({ global: rules }, { trusted: true, compileRegex: createSafeRegexCompiler({ trusted: true }) });
  const look = "^zz (\\w+\\s?){1,3}(?=$)";

  it.each([["block"], ["ask"]] as const)("should fail the evaluation of a %s rule, naming it", async (action) => {
    const { run } = makeEvaluator(set([{ name: "guard", action, pattern: look, reason: "r" }]));
    expect((await run(bashCall("zz a b"))).action).toBe(action);
    // Thrown (synchronously or not): the face answers it with its fail mode.
    const attempt = async () => run(bashCall(LONG));
    await expect(attempt()).rejects.toThrow(/^rule "guard": .*over its budget/);
    // An input the linear superset rules out is an exact "no match".
    expect((await run(bashCall(`ls ${"a".repeat(1_000)}`))).action).toBe("allow");
  });

  it.each([["notify"], ["steer"]] as const)("should turn a %s rule's overrun into a notification, and let the call through", async (action) => {
    const { run } = makeEvaluator(set([{ name: "hint", action, pattern: look, reason: "r" }]));
    const d = await run(bashCall(LONG));
    expect(d.action).toBe("allow");
    expect(d.fired).toEqual([]);
    expect(d.notify).toHaveLength(1);
    expect(d.notify[0]).toMatch(/^Shepherd could not evaluate rule "hint": .*over its budget/);
  });
});
