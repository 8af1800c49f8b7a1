/** @module unit tests: an effect rule on a line without its effects is passed over before it is compiled, with the same verdicts. */
import { describe, expect, it } from "bun:test";
import { lineEffectKinds } from "../shell/index.ts";
import { explain } from "./evaluate.ts";
import { defaultRegexCompiler, type RegexCompiler } from "./match.ts";
import { SessionStore } from "./state.ts";
import { bashCall, makeEvaluator, ruleSetOf } from "./test-helpers.ts";

const RULES = [
  { name: "no-delete-x", action: "block", reason: "deletes x", command: { effect: "delete", args: "x" } },
  { name: "no-discard", action: "block", reason: "discards", command: { effect: ["discard-work", "destroy-history"] } },
];

/** The rules, compiled on first use through a compiler that counts what it compiles. */
function counted() {
  const compiled: string[] = [];
  const compileRegex: RegexCompiler = (pattern, flags, rule) => {
    compiled.push(rule.name);
    return defaultRegexCompiler(pattern, flags, rule);
  };
  return { rules: ruleSetOf({ project: RULES }, { trusted: true, lazyCompile: true, compileRegex }), compiled };
}

describe("the effect pre-check", () => {
  it.each([
    ["a line with no effect", "git status", "allow"] as const,
    ["a line whose effect is another kind", "git reset --hard", "block"],
    ["a line with the effect", "rm -rf x", "block"],
    ["the effect in a later command of the line", "ls && rm x", "block"],
    ["the effect but not the rule's arguments", "rm y", "allow"],
  ] as const)("should give the verdict of the full check on %s", async (_, command, action) => {
    const { rules } = counted();
    const decision = await makeEvaluator(rules).run(bashCall(command));
    expect(decision.action).toBe(action);
  });

  it("should not compile an effect rule on a line with none of its effects", async () => {
    const { rules, compiled } = counted();
    await makeEvaluator(rules).run(bashCall("git status"));
    expect(compiled).toEqual([]);
    await makeEvaluator(rules).run(bashCall("rm y"));
    expect(compiled).toContain("no-delete-x");
  });

  it("should still explain why an effect rule did not match (explain skips the pre-check)", () => {
    const { rules } = counted();
    const sessions = new SessionStore();
    const ctx = { rules, sessions, maxWarnings: 0, projectRoot: "/proj", home: "/home/u" };
    const rows = explain(ctx, bashCall("git status"), sessions.get("s1"));
    const row = rows.find((r) => r.rule.name === "no-delete-x");
    expect(row?.fired).toBe(false);
    expect(row?.why).toStartWith("command condition: ");
  });
});

describe("lineEffectKinds", () => {
  it.each([
    ["git status", [] as string[]],
    ["rm -rf build", ["delete"]],
    ["git status && git reset --hard", ["discard-work"]],
  ])("should list the effect kinds of %s", (command, kinds) => {
    const found = lineEffectKinds(command, { cwd: "/proj", projectRoot: "/proj", home: "/home/u" });
    expect([...found].sort()).toEqual(kinds);
  });
});
