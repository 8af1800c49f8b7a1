import { describe, expect, it } from "bun:test";
import { loadRuleText } from "./load.ts";
import { ShadowTally } from "./shadow-tally.ts";
import { bashCall, makeEvaluator, ruleSetOf } from "./test-helpers.ts";

describe("evaluate with shadow-mode rules", () => {
  const cases: { name: string; rule: Record<string, unknown>; command: string; shadow: string }[] = [
    { name: "a block", rule: { name: "s", mode: "shadow", action: "block", pattern: "rm" }, command: "rm x", shadow: "block" },
    { name: "an ask", rule: { name: "s", mode: "shadow", action: "ask", pattern: "rm" }, command: "rm x", shadow: "ask" },
    { name: "a rewrite", rule: { name: "s", mode: "shadow", action: "rewrite", pattern: "^ls", rewrite: { prefix: "rtk" } }, command: "ls -la", shadow: "rewrite" },
    { name: "a notify", rule: { name: "s", mode: "shadow", action: "notify", pattern: "rm", reason: "careful" }, command: "rm x", shadow: "notify" },
    { name: "a steer", rule: { name: "s", mode: "shadow", action: "steer", pattern: "rm", reason: "go on" }, command: "rm x", shadow: "steer" },
  ];
  for (const c of cases) {
    it(`should record ${c.name} it would have made and change nothing`, async () => {
      const { run } = makeEvaluator(ruleSetOf({ global: [c.rule] }));
      const d = await run(bashCall(c.command));
      expect(d).toEqual({ action: "allow", notify: [], steer: [], fired: [{ rule: "s", source: "global", action: c.shadow, shadow: true }] });
    });
  }

  it("should record nothing for a shadow rewrite that would change nothing, or a rule that does not match", async () => {
    const { run } = makeEvaluator(ruleSetOf({ global: [{ name: "s", mode: "shadow", action: "rewrite", pattern: "^ls", rewrite: { prefix: "rtk" } }] }));
    expect((await run(bashCall("rtk ls"))).fired).toEqual([]);
    expect((await run(bashCall("pwd"))).fired).toEqual([]);
  });

  it("should give the decision the enforced rules make, with the shadow entries after theirs", async () => {
    const set = ruleSetOf({ global: [{ name: "s", mode: "shadow", action: "ask", pattern: "rm" }, { name: "real", action: "block", pattern: "rm", reason: "no" }] });
    const { run } = makeEvaluator(set);
    expect(await run(bashCall("rm x"))).toEqual({
      action: "block",
      reason: "no",
      notify: [],
      steer: [],
      fired: [{ rule: "real", source: "global", action: "block" }, { rule: "s", source: "global", action: "ask", shadow: true }],
    });
  });

  it("should not count a shadow notify against the warning limit", async () => {
    const { run, sessions } = makeEvaluator(ruleSetOf({ global: [{ name: "s", mode: "shadow", action: "notify", pattern: "rm", reason: "r" }] }), { maxWarnings: 1 });
    await run(bashCall("rm a"));
    expect((await run(bashCall("rm b"))).fired).toEqual([{ rule: "s", source: "global", action: "notify", shadow: true }]);
    expect(sessions.get("s1").warnings.s).toBeUndefined();
  });

  it("should run a shadow plugin action and record what its answer would have done", async () => {
    const set = ruleSetOf({ global: [{ name: "p", mode: "shadow", action: "custom_guard" }] }, { trusted: true, pluginActions: new Set(["custom_guard"]) });
    const { run } = makeEvaluator(set, { host: { runAction: async () => ({ action: "block", reason: "plugin says no" }) } });
    expect(await run(bashCall("anything"))).toEqual({ action: "allow", notify: [], steer: [], fired: [{ rule: "p", source: "global", action: "block", shadow: true }] });
  });
});

describe("loadRuleText with mode", () => {
  it("should put every full rule of a shadow file in shadow mode, unless it says enforce, and never a patch", () => {
    const text = JSON.stringify({ mode: "shadow", rules: [{ name: "a", action: "block", pattern: "x" }, { name: "b", mode: "enforce", action: "block", pattern: "y" }, { name: "c", enabled: true }] });
    const res = loadRuleText(text, { file: "f.json", source: "global" });
    expect(res.ok).toBe(true);
    expect(res.rules.map((r) => [r.name, r.shadow === true])).toEqual([["a", true], ["b", false], ["c", false]]);
    expect(res.rules[2]?.patch).toEqual({ enabled: true });
  });

  it("should let a patch put an earlier rule in shadow mode", () => {
    const set = ruleSetOf({ builtin: [{ name: "a", action: "block", pattern: "x" }], global: [{ name: "a", mode: "shadow" }] });
    expect(set.rules[0]?.shadow).toBe(true);
  });

  it.each([[{ mode: "loud", rules: [] }], [[{ name: "a", action: "block", pattern: "x", mode: "off" }]]])("should refuse an unknown mode %p", (data) => {
    const res = loadRuleText(JSON.stringify(data), { file: "f.json", source: "global" });
    expect(res.ok).toBe(false);
    expect(res.issues.some((i) => i.path.endsWith("mode"))).toBe(true);
  });
});

describe("ShadowTally", () => {
  it("should count shadow entries per rule and action, most first, and ignore the others", () => {
    const t = new ShadowTally();
    t.add([{ rule: "a", source: "global", action: "block", shadow: true }, { rule: "real", source: "global", action: "block" }]);
    t.add([{ rule: "b", source: "project", action: "ask", shadow: true }]);
    t.add([{ rule: "b", source: "project", action: "ask", shadow: true }]);
    expect(t.list()).toEqual([
      { rule: "b", source: "project", action: "ask", count: 2 },
      { rule: "a", source: "global", action: "block", count: 1 },
    ]);
  });
});
