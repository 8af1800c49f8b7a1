/** @module unit tests for catastrophic-pattern detection and the re2js-backed RegExp. */
import { describe, expect, it } from "bun:test";
import { mergeLayers } from "./merge.ts";
import { analyzePattern, createSafeRegexCompiler, GuardedRegExp, guardedRegExp, type RegexSafetyReport } from "./regex-safety.ts";
import type { Rule } from "./schema.ts";
import { loadRuleText } from "./load.ts";

function rule(source: Rule["source"], pattern: string): Rule {
  const loaded = loadRuleText(JSON.stringify([{ name: "r", action: "block", pattern }]), { file: `${source}.json`, source });
  const r = loaded.rules[0];
  if (!r) throw new Error(JSON.stringify(loaded.issues));
  return r;
}

describe("analyzePattern", () => {
  it.each([
    ["(a+)+$"],
    ["(a*)*b"],
    ["([a-zA-Z]+)*$"],
    ["(\\w+\\s?)+$"],
    ["(a|aa)+$"],
    ["(a|a?)+$"],
    ["(\\w|\\d)+!"],
    ["^(([a-z])+.)+[A-Z]([a-z])+$"],
    ["(.*a){12}"],
    ["(?:x+x+)+y"],
  ])("should flag %s as exponential", (pattern) => {
    expect(analyzePattern(pattern).risk?.kind).toBe("exponential");
  });

  it.each([["\\s*\\s*$"], [".*a.*b"], ["git.*push.*--force"]])("should flag %s as polynomial", (pattern) => {
    expect(analyzePattern(pattern).risk?.kind).toBe("polynomial");
  });

  it.each([
    ["\\brm\\s+-rf\\b"],
    ["^git\\s+(push|commit)\\b"],
    ["(foo|bar)+"],
    ["\\d+\\.\\d+"],
    ["[^\"]*\"[^\"]*\""],
    ["^\\s*npm (install|i)\\b"],
    ["(ab)+c"],
    ["a{2,3}"],
  ])("should not flag %s", (pattern) => {
    expect(analyzePattern(pattern).risk).toBeUndefined();
  });

  it("should see lookaround and backreferences", () => {
    expect(analyzePattern("(?=a)b").needsBacktracking).toBe(true);
    expect(analyzePattern("(a)\\1").needsBacktracking).toBe(true);
    expect(analyzePattern("(?<n>a)\\k<n>").needsBacktracking).toBe(true);
    expect(analyzePattern("[\\1]").needsBacktracking).toBe(false);
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

  it("should move an exponential global pattern to the linear engine and skip one it cannot run", () => {
    const reports: RegexSafetyReport[] = [];
    const compile = createSafeRegexCompiler({ trusted: true, onReport: (r) => reports.push(r) });
    const re = compile("(a+)+$", undefined, rule("global", "(a+)+$"));
    expect((re as GuardedRegExp).isLinearFor("a")).toBe(true);
    expect(() => compile("(a+)+(?=b)", undefined, rule("global", "(a+)+(?=b)"))).toThrow(/exponential/);
    expect(reports.map((r) => r.outcome)).toEqual(["linear", "skipped"]);
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
