import { describe, expect, it } from "bun:test";
import { candidates } from "./merge.ts";
import { ruleSetOf } from "./test-helpers.ts";

describe("mergeLayers", () => {
  it("should let a later layer override an earlier one by name and record it", () => {
    const set = ruleSetOf({
      builtin: [{ name: "a", action: "block", pattern: "x" }],
      project: [{ name: "a", action: "notify", pattern: "x", reason: "only a note" }],
    });
    expect(set.rules.map((r) => [r.name, r.source, r.action])).toEqual([["a", "project", "notify"]]);
    expect(set.overrides[0]?.rule.source).toBe("builtin");
  });

  it("should keep a locked global rule out of reach of the project", () => {
    const set = ruleSetOf({
      global: [{ name: "a", action: "block", pattern: "x", locked: true }],
      project: [{ name: "a", enabled: false }],
    });
    expect(set.rules.map((r) => r.source)).toEqual(["global"]);
    expect(set.skipped[0]?.reason).toMatch(/locked by global/);
  });

  it("should disable a built-in rule through a patch", () => {
    const set = ruleSetOf({ builtin: [{ name: "a", action: "block", pattern: "x" }], global: [{ name: "a", enabled: false }] });
    expect(set.rules).toEqual([]);
    expect(set.skipped[0]?.reason).toMatch(/disabled/);
  });

  it.each([
    [{ name: "rw", action: "rewrite", pattern: "^ls", rewrite: { prefix: "rtk" } }, /may not rewrite/],
    [{ name: "a", enabled: false }, /may not override builtin/],
  ])("should skip untrusted project rule %p", (rule, reason) => {
    const set = ruleSetOf({ builtin: [{ name: "a", action: "block", pattern: "x" }], project: [rule] }, { trusted: false, projectDir: "/p" });
    expect(set.skipped.some((s) => reason.test(s.reason) && s.reason.includes("shepherd trust /p"))).toBe(true);
  });

  it("should let an untrusted project add restrictions", () => {
    const set = ruleSetOf({ project: [{ name: "b", action: "block", pattern: "y" }] }, { trusted: false });
    expect(set.rules.map((r) => r.name)).toEqual(["b"]);
  });

  it("should skip rules whose plugin action is unknown", () => {
    const set = ruleSetOf({ project: [{ name: "p", action: "line_guard" }] });
    expect(set.skipped[0]?.reason).toMatch(/unknown action "line_guard"/);
  });

  it("should index by hook and tool, keeping definition order across any-tool and tool rules", () => {
    const set = ruleSetOf({
      builtin: [
        { name: "1", action: "notify", tool: "*" },
        { name: "2", action: "notify", tool: "Edit" },
        { name: "3", action: "notify", tool: "bash" },
        { name: "4", action: "notify", tool: "*" },
      ],
    });
    expect(candidates(set, "tool_call", "bash").map((c) => c.rule.name)).toEqual(["1", "3", "4"]);
    expect(candidates(set, "tool_call", "edit").map((c) => c.rule.name)).toEqual(["1", "2", "4"]);
    expect(candidates(set, "agent_end", "").map((c) => c.rule.name)).toEqual([]);
  });
});
