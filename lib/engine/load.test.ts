import { describe, expect, it } from "bun:test";
import { deriveName, loadRuleText } from "./load.ts";

const load = (text: string) => loadRuleText(text, { file: "/p/.pi/shepherd-rules.json", source: "project" });

describe("loadRuleText", () => {
  it("should accept both file shapes, comments and trailing commas", () => {
    const arr = load(`[ // a comment\n {"action": "block", "pattern": "x",},\n]`);
    const obj = load(`{"$schema": "s.json", /* c */ "rules": [{"action": "notify", "hook": "input", "comment": "Say Hi!"}]}`);
    expect(arr.ok && obj.ok).toBe(true);
    expect(arr.rules[0]).toMatchObject({ hook: "tool_call", tools: ["bash"], action: "block", source: "project", jsonPath: "[0]" });
    expect(obj.rules[0]).toMatchObject({ name: "say-hi", hook: "input", tools: [], jsonPath: "rules[0]" });
  });

  it("should share frozen lists between rules, so changing one rule's list cannot change another's", () => {
    const res = load('[{"action": "block", "pattern": "a"}, {"action": "block", "pattern": "b", "tool": "Bash"}, {"action": "notify", "hook": "input"}]');
    const [a, b, c] = res.rules;
    expect(a?.tools).toBe(b?.tools as string[]);
    expect(a?.tests).toBe(c?.tests as never[]);
    expect(a?.conditions).toEqual([]);
    expect(Object.isFrozen(a?.tools) && Object.isFrozen(a?.tests) && Object.isFrozen(a?.conditions)).toBe(true);
    expect(() => a?.tools.push("edit")).toThrow();
    expect(b?.tools).toEqual(["bash"]);
  });

  it("should keep each rule's conditions and their fields", () => {
    const res = load('{"rules": [{"action": "block", "conditions": [{"field": "path", "pattern": "x", "flags": "i", "negate": true}, {"field": "command", "pattern": "y"}]}]}');
    expect(res.rules[0]?.conditions).toEqual([{ field: "path", pattern: "x", flags: "i", negate: true }, { field: "command", pattern: "y" }]);
    expect(res.rules[0]?.jsonPath).toBe("rules[0]");
  });

  it.each([
    ['[{"action": "block", "patern": "x"}]', "[0].patern", /unknown key "patern"/, 0],
    ['{"rules": [{"action": "block"}, {"action": "block", "pattern": "("}]}', "rules[1].pattern", /invalid regular expression/, 1],
    ['[{"action": "block", "hook": "tool_cal"}]', "[0].hook", /tool_call/, 0],
    ['[{"action": "rewrite", "pattern": "x"}]', "[0].rewrite", /needs a "rewrite"/, 0],
    ['[{"action": "notify", "check": "has_edits"}]', "[0].check", /only evaluated on agent_end/, 0],
    ['[{"action": "notify", "state": {"countKind": "oops", "gte": 1}}]', "[0].state.countKind", /errors/, 0],
    ['[{"name": "a", "action": "block"}, {"name": "a", "action": "notify"}]', "[1].name", /duplicate rule name "a"/, 1],
    ['[{"pattern": "x"}]', "[0]", /needs an "action"/, 0],
    ['{"rules": 3}', "", /expected a JSON array/, 0],
  ])("should report %s at %s and apply only the valid rules", (text, path, message, applied) => {
    const res = load(text);
    expect(res.ok).toBe(false);
    expect(res.rules.length).toBe(applied);
    const issue = res.issues.find((i) => i.severity === "error");
    expect(issue?.path).toBe(path);
    expect(issue?.message).toMatch(message);
    expect(issue?.file).toBe("/p/.pi/shepherd-rules.json");
  });

  it("should point syntax errors and bad values at line and column", () => {
    const syntax = load('[\n  {"action": "block",\n   "pattern": }\n]');
    expect(syntax.issues[0]).toMatchObject({ line: 3, severity: "error" });
    const value = load('[\n  {"action": "block",\n   "flags": "zz"}\n]');
    expect(value.issues[0]).toMatchObject({ path: "[0].flags", line: 3, column: 4 });
  });

  it("should load a patch (name without action) keeping only the given fields", () => {
    const res = load('[{"name": "git-push-force", "enabled": false}]');
    expect(res.ok).toBe(true);
    expect(res.rules[0]?.patch).toEqual({ enabled: false });
  });

  it("should ignore locked in a project file with a warning", () => {
    const res = load('[{"action": "block", "locked": true}]');
    expect(res.ok).toBe(true);
    expect(res.rules[0]?.locked).toBe(false);
    expect(res.issues[0]).toMatchObject({ severity: "warning", path: "[0].locked" });
  });
});

describe("loadRuleText per-rule isolation", () => {
  it("should apply a broken rule's valid neighbours and report it by file, JSON path and name", () => {
    const res = load('{"rules": [{"name": "good", "action": "block", "pattern": "rm"}, {"name": "bad", "action": "block", "patern": "x"}, {"name": "after", "action": "notify", "hook": "input"}]}');
    expect(res).toMatchObject({ ok: false, applies: true });
    expect(res.rules.map((r) => [r.name, r.jsonPath])).toEqual([["good", "rules[0]"], ["after", "rules[2]"]]);
    expect(res.broken).toEqual([{ name: "bad", index: 1, jsonPath: "rules[1]", action: "block", locked: false }]);
    const errors = res.issues.filter((i) => i.severity === "error");
    expect(errors.map((i) => [i.file, i.path])).toEqual([["/p/.pi/shepherd-rules.json", "rules[1].patern"], ["/p/.pi/shepherd-rules.json", "rules[1]"]]);
    expect(errors[1]?.message).toBe('rule "bad" (block) is skipped: the guard it gives is off until it is fixed; the file\'s other rules apply');
  });

  it.each([
    ["not JSON", '[{"action": "block", "pattern": "rm"},'],
    ["not a rule list", '{"rulez": []}'],
  ])("should apply nothing from a file that is %s (the caller keeps its last good rules)", (_what, text) => {
    const res = load(text);
    expect(res).toMatchObject({ ok: false, applies: false, rules: [] });
    expect(res.issues.some((i) => i.severity === "error")).toBe(true);
  });

  it.each([
    ["a bad hook and a bad regex", '[{"action": "block", "hook": "tool_cal", "pattern": "("}]', ["[0].hook", "[0].pattern"]],
    ["an unknown key, a bad condition regex and a misplaced field", '[{"action": "notify", "hook": "input", "patern": "x", "conditions": [{"field": "command", "pattern": "["}], "requireSuccess": true}]', ["[0].patern", "[0].conditions[0].pattern", "[0].requireSuccess"]],
    ["a bad action type and a bad command regex", '[{"action": 5, "command": {"program": "rm", "args": "(?<"}}]', ["[0].action", "[0].command.args"]],
  ])("should report every problem of a rule at once: %s", (_what, text, paths) => {
    const res = load(text);
    const errors = res.issues.filter((i) => i.severity === "error" && !i.message.includes("is skipped")).map((i) => i.path);
    expect(errors).toEqual(paths);
  });

  it("should not guess cross-field problems once the hook itself is refused", () => {
    // With "hook" refused, "check" cannot be judged: only the hook is reported.
    const res = load('[{"action": "notify", "hook": "agent_ed", "check": "has_edits"}]');
    expect(res.issues.filter((i) => i.severity === "error" && !i.message.includes("is skipped")).map((i) => i.path)).toEqual(["[0].hook"]);
  });

  it("should record a duplicate without its name, so no last good version of the first stands in for it", () => {
    const res = load('[{"name": "a", "action": "block"}, {"name": "a", "action": "notify"}]');
    expect(res.broken).toEqual([{ index: 1, jsonPath: "[1]", action: "notify", locked: false }]);
  });
});

describe("loadRuleText on an empty file", () => {
  it.each([[""], ["   \n"], ["// only a comment\n"], ["/* block */"]])("should say the file %p is empty, not a syntax error", (text) => {
    const res = load(text);
    expect(res.ok).toBe(false);
    expect(res.issues).toEqual([expect.objectContaining({ path: "", severity: "error", line: 1, column: 1, message: expect.stringContaining("empty file") })]);
  });
});

describe("deriveName", () => {
  it.each([
    ["Never rm -rf /!", "never-rm-rf"],
    [undefined, "fallback"],
    ["!!!", "fallback"],
  ])("should derive %p -> %p", (comment, expected) => {
    expect(deriveName(comment, "fallback")).toBe(expected);
  });
});
