/** @module unit tests: a command rule the line rules out is passed over before it is compiled, with the same verdicts. */
import { describe, expect, it } from "bun:test";
import { lineFacts, ruledOutBy } from "../shell/index.ts";
import type { CommandCondition } from "../shell/command-condition-schema.ts";
import { explain } from "./evaluate.ts";
import { defaultRegexCompiler, type RegexCompiler } from "./match.ts";
import { SessionStore } from "./state.ts";
import { bashCall, makeEvaluator, ruleSetOf } from "./test-helpers.ts";

const RULES = [
  { name: "no-delete-x", action: "block", reason: "deletes x", command: { effect: "delete", args: "x" } },
  { name: "no-discard", action: "block", reason: "discards", command: { effect: ["discard-work", "destroy-history"] } },
  { name: "no-py-home", action: "block", reason: "python", command: { program: ["python3.*", "node"], args: "secret" } },
  { name: "no-stash-drop", action: "block", reason: "stash", command: { program: "git", subcommand: "stash", args: "drop" } },
  { name: "no-write-etc", action: "block", reason: "etc", command: { program: "*", writes: "outside_project" } },
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

describe("the command pre-check", () => {
  it.each([
    ["a line with no effect", "git status", "allow"] as const,
    ["a line whose effect is another kind", "git reset --hard", "block"],
    ["a line with the effect", "rm -rf x", "block"],
    ["the effect in a later command of the line", "ls && rm x", "block"],
    ["the effect but not the rule's arguments", "rm y", "allow"],
    ["a program named by a glob", "python3.12 -c secret", "block"],
    ["a program named exactly, after a cd", "cd /tmp && node secret.js", "block"],
    ["the subcommand", "git stash drop", "block"],
    ["another subcommand", "git stash list", "allow"],
    ["a write outside the project", "echo hi > /etc/x", "block"],
    ["a write inside it", "echo hi > notes.txt", "allow"],
  ] as const)("should give the verdict of the full check on %s", async (_, command, action) => {
    const { rules } = counted();
    const decision = await makeEvaluator(rules).run(bashCall(command));
    expect(decision.action).toBe(action);
  });

  it("should not compile a command rule the line rules out", async () => {
    const { rules, compiled } = counted();
    await makeEvaluator(rules).run(bashCall("git status"));
    expect(compiled).toEqual([]);
    await makeEvaluator(rules).run(bashCall("rm y"));
    expect(compiled).toContain("no-delete-x");
  });

  it("should still explain why a command rule did not match (explain skips the pre-check)", () => {
    const { rules } = counted();
    const sessions = new SessionStore();
    const ctx = { rules, sessions, maxWarnings: 0, projectRoot: "/proj", home: "/home/u" };
    const rows = explain(ctx, bashCall("git status"), sessions.get("s1"));
    const row = rows.find((r) => r.rule.name === "no-delete-x");
    expect(row?.fired).toBe(false);
    expect(row?.why).toStartWith("command condition: ");
  });
});

const ctx = { cwd: "/proj", projectRoot: "/proj", home: "/home/u" };

describe("lineFacts", () => {
  it.each([
    ["git status", [] as string[]],
    ["rm -rf build", ["delete"]],
    ["git status && git reset --hard", ["discard-work"]],
  ])("should list the effect kinds of %s", (command, kinds) => {
    expect([...lineFacts(command, ctx).kinds].sort()).toEqual(kinds);
  });

  it("should list programs and subcommands, and whether anything is written", () => {
    const facts = lineFacts("git stash list | tee out.txt", ctx);
    expect([...facts.programs].sort()).toEqual(["git", "tee"]);
    expect(facts.subs.has("stash")).toBe(true);
    expect(facts.writes).toBe(true);
    expect(lineFacts("git status", ctx).writes).toBe(false);
  });
});

describe("ruledOutBy", () => {
  it.each([
    [{ program: "rm" }, "git status", true],
    [{ program: "rm" }, "ls; rm x", false],
    [{ program: ["python*", "node"] }, "python3 -c 1", false],
    [{ program: "py*on3" }, "python3 -c 1", false],
    [{ program: "py*on3" }, "python2 -c 1", true],
    [{ program: "*" }, "anything", false],
    [{ program: "git", subcommand: ["push", "stash"] }, "git status", true],
    [{ program: "git", subcommand: ["push", "stash"] }, "git push", false],
    [{ effect: "delete" }, "git status", true],
    [{ effect: ["truncate", "delete"] }, "rm x", false],
    [{ writes: "inside_project" }, "cat a", true],
    [{ writes: "inside_project" }, "cat a > b", false],
    [{ tooComplex: true }, "git status", false],
  ] as [CommandCondition, string, boolean][])("should judge %j on %s: %p", (cond, command, out) => {
    expect(ruledOutBy(cond, lineFacts(command, ctx))).toBe(out);
  });
});
