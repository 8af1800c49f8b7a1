/** @module unit tests of the inline rule test runner (real evaluate, one rule at a time). */
import { describe, expect, it } from "bun:test";
import { loadRuleText } from "./load.ts";
import { inlineTestIssues, runInlineTests, runRuleTests } from "./inline-tests.ts";
import { mergeLayers } from "./merge.ts";
import type { Rule } from "./schema.ts";

function rulesOf(rules: unknown[]): Rule[] {
  const res = loadRuleText(JSON.stringify({ rules }), { file: "t.json", source: "project" });
  if (!res.ok) throw new Error(JSON.stringify(res.issues));
  return res.rules;
}

describe("runRuleTests", () => {
  it.each([
    [{ action: "block", pattern: "git checkout --" }, { command: "git checkout -- a.ts", expect: "block" }, "pass"],
    [{ action: "block", pattern: "git checkout --" }, { command: "git checkout main", expect: "allow" }, "pass"],
    [{ action: "block", pattern: "git checkout --" }, { command: "git checkout main", expect: "block" }, "fail"],
    [{ action: "ask", pattern: "^rm " }, { command: "rm x", expect: "ask" }, "pass"],
    [{ action: "rewrite", pattern: "^npm ", rewrite: { replace: "pnpm " } }, { command: "npm i", expect: "rewrite" }, "pass"],
    [{ action: "notify", tool: "write", conditions: [{ field: "path", pattern: "\\.env$" }] }, { path: ".env", text: "X=1", expect: "notify" }, "pass"],
    [{ action: "steer", hook: "message_end", pattern: "tests pass" }, { text: "All tests pass", expect: "steer" }, "pass"],
    [{ action: "notify", hook: "tool_result", state: { countKind: "errors", gte: 3 } }, { command: "false", isError: true, expect: "notify" }, "pass"],
    [{ action: "notify", hook: "tool_result", state: { countKind: "errors", gte: 3 } }, { command: "true", expect: "notify" }, "fail"],
    [{ action: "notify", hook: "agent_end", check: "has_edits" }, { text: "done", expect: "notify" }, "pass"],
    [{ action: "block", hook: "input", pattern: "deploy" }, { text: "please deploy", expect: "block" }, "pass"],
    [{ action: "line_guard", tool: "write" }, { path: "a", text: "x", expect: "block" }, "skip"],
  ])("should run %j with case %j -> %p", async (rule, test, status) => {
    const [r] = rulesOf([{ ...rule, tests: [test] }]);
    const results = await runRuleTests(r as Rule);
    expect(results.map((x): string => x.status)).toEqual([status]);
  });

  it("should explain why a rule that should have fired did not", async () => {
    const [r] = rulesOf([{ action: "block", pattern: "^git push", tests: [{ command: "git pull", expect: "block" }] }]);
    const [res] = await runRuleTests(r as Rule);
    expect(res?.message).toContain("expected block, got allow");
    expect(res?.message).toContain("does not match");
    expect(res?.path).toBe("rules[0].tests[0]");
  });

  it("should test a disabled rule as if it were enabled", async () => {
    const [r] = rulesOf([{ action: "block", pattern: "x", enabled: false, tests: [{ command: "x", expect: "block" }] }]);
    expect((await runRuleTests(r as Rule)).map((x) => x.status)).toEqual(["pass"]);
  });
});

describe("runInlineTests", () => {
  it("should judge each rule alone, not by what its neighbours do", async () => {
    const rules = rulesOf([
      { name: "everything", action: "block", pattern: "." },
      { name: "push", action: "notify", pattern: "^git push", tests: [{ command: "git status", expect: "allow" }, { command: "git push", expect: "notify" }] },
    ]);
    const set = mergeLayers([{ source: "project", files: [{ file: "t.json", rules }] }]);
    const results = await runInlineTests(set);
    expect(results.map((r) => [r.rule.name, r.status])).toEqual([
      ["push", "pass"],
      ["push", "pass"],
    ]);
  });
});

describe("inlineTestIssues", () => {
  it("should turn failing cases into warnings with the case path", async () => {
    const rules = rulesOf([{ name: "r", action: "block", pattern: "^rm", tests: [{ command: "rm -rf /", expect: "allow" }] }]);
    const set = mergeLayers([{ source: "project", files: [{ file: "t.json", rules }] }]);
    const issues = await inlineTestIssues(set);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: "t.json", path: "rules[0].tests[0]", severity: "warning" });
    expect(issues[0]?.message).toContain("expected allow, got block");
  });
});

describe("inline tests compile like the rules they test", () => {
  // Natively `^(a+)+$` on 40 a's and a "!" backtracks ~2^40 times: only the linear-time engine answers.
  const EVIL = `${"a".repeat(40)}!`;
  const evilRules = () =>
    rulesOf([
      ...Array.from({ length: 5 }, (_, i) => ({
        name: `evil-${i}`,
        action: "block",
        pattern: "^(a+)+$",
        tests: [
          { command: EVIL, expect: "allow" },
          { command: "aaaa", expect: "block" },
        ],
      })),
      // Bun's engine gives up on this one after ~0.7 s and answers "no match": the case would fail natively.
      { name: "evil-found", action: "block", pattern: "(a+)+b", tests: [{ command: `${EVIL}ab`, expect: "block" }] },
    ]);

  it.each([
    ["an untrusted project (unset trust)", undefined],
    ["an untrusted project", false],
    ["a trusted project (the pattern is risky)", true],
  ] as const)("should run catastrophic patterns of %s on the linear-time engine", async (_name, trusted) => {
    const started = performance.now();
    const results: string[] = [];
    for (const r of evilRules()) for (const x of await runRuleTests(r, trusted === undefined ? {} : { trusted })) results.push(x.status);
    expect(results).toEqual(Array.from({ length: 11 }, () => "pass"));
    // Generous: on the backtracking engine one case alone would take hours.
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("should skip the case of an untrusted pattern the linear-time engine cannot run, as the load does", async () => {
    const [r] = rulesOf([{ action: "block", pattern: "rm(?= -rf)", tests: [{ command: "rm -rf /", expect: "block" }] }]);
    const [untrusted] = await runRuleTests(r as Rule, { trusted: false });
    expect(untrusted?.status).toBe("skip");
    expect(untrusted?.message).toMatch(/linear time/);
    const [trusted] = await runRuleTests(r as Rule, { trusted: true });
    expect(trusted?.status).toBe("pass");
  });
});
