import { describe, expect, it } from "bun:test";
import { candidates, mergeLayers } from "./merge.ts";
import { loadRuleText } from "./load.ts";
import type { LayerName } from "./schema.ts";
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

  it("should lock every managed rule and keep it first, out of reach of every later layer and of an unlock", () => {
    const set = ruleSetOf(
      {
        managed: [{ name: "org", action: "block", pattern: "x" }],
        builtin: [{ name: "org", action: "notify", pattern: "y" }],
        global: [{ name: "org", enabled: false }, { name: "mine", action: "block", pattern: "z" }],
        project: [{ name: "org", action: "notify", pattern: "x" }],
      },
      { trusted: true, unlocked: new Set(["org"]) },
    );
    expect(set.rules.map((r) => [r.name, r.source, r.locked])).toEqual([
      ["org", "managed", true],
      ["mine", "global", false],
    ]);
    expect(set.skipped.map((s) => s.reason)).toEqual([0, 1, 2].map(() => expect.stringMatching(/locked by managed/)));
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

  it("should keep evaluation order (layer, file, position) when merging any-tool and tool lists across files", () => {
    const file = (source: LayerName, name: string, rules: unknown[]) => ({ file: name, rules: loadRuleText(JSON.stringify(rules), { file: name, source }).rules });
    const set = mergeLayers(
      [
        // Out of layer order on purpose: layers sort by source, files keep their order within a layer.
        { source: "project", files: [file("project", "p1.json", [{ name: "p1", action: "notify", tool: "*" }]), file("project", "p2.json", [{ name: "p2", action: "notify" }, { name: "p3", action: "notify", tool: "*" }])] },
        { source: "builtin", files: [file("builtin", "b.json", [{ name: "b1", action: "notify" }, { name: "b2", action: "notify", tool: "*" }, { name: "b3", action: "notify" }])] },
        { source: "global", files: [file("global", "g.json", [{ name: "g1", action: "notify", tool: "*" }, { name: "b1", action: "notify", tool: "edit" }])] },
      ],
      [],
      { trusted: true },
    );
    expect(set.rules.map((r) => r.name)).toEqual(["b2", "b3", "g1", "b1", "p1", "p2", "p3"]);
    expect(candidates(set, "tool_call", "bash").map((c) => c.rule.name)).toEqual(["b2", "b3", "g1", "p1", "p2", "p3"]);
    expect(candidates(set, "tool_call", "edit").map((c) => c.rule.name)).toEqual(["b2", "g1", "b1", "p1", "p3"]);
  });

  it("should look active rules up by name, not skipped ones", () => {
    const set = ruleSetOf({ builtin: [{ name: "a", action: "block", pattern: "x" }, { name: "b", action: "block", enabled: false }], project: [{ name: "c", action: "notify" }] });
    expect([...set.byName.keys()].sort()).toEqual(["a", "c"]);
    expect(set.byName.get("c")?.source).toBe("project");
    expect(set.byName).toBe(set.byName);
  });

  it("should report skipped rules in definition order, whether skipped before or at compiling", () => {
    const set = ruleSetOf(
      { project: [{ name: "a", action: "block", pattern: "bad" }, { name: "b", action: "block", enabled: false }, { name: "c", action: "block", conditions: [{ field: "path", pattern: "bad" }] }, { name: "d", action: "block", pattern: "ok" }] },
      {
        trusted: true,
        compileRegex: (pattern) => {
          if (pattern === "bad") throw new Error("refused");
          return new RegExp(pattern);
        },
      },
    );
    expect(set.skipped.map((s) => [s.rule.name, s.reason])).toEqual([
      ["a", "cannot compile: refused"],
      ["b", "disabled (enabled: false)"],
      ["c", "cannot compile: refused"],
    ]);
    expect(set.rules.map((r) => r.name)).toEqual(["d"]);
    const [d] = candidates(set, "tool_call", "bash");
    expect(d?.pattern?.test("ok")).toBe(true);
    expect(d?.conditions).toEqual([]);
  });
});
