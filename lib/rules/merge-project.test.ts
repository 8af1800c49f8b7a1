import { describe, expect, it } from "bun:test";
import { loadRuleText } from "../engine/load.ts";
import { candidates } from "../engine/merge.ts";
import { BudgetedRegExp, GuardedRegExp } from "../engine/regex-safety.ts";
import type { LayerName, LoadIssue } from "../engine/schema.ts";
import { mergeProject } from "./merge-project.ts";

function merge(source: LayerName, rules: unknown[], trusted: boolean) {
  const file = `${source}.json`;
  const loaded = loadRuleText(JSON.stringify(rules), { file, source });
  const issues: LoadIssue[] = [];
  const set = mergeProject([{ source, files: [{ file, rules: loaded.rules }] }], issues, { trusted, projectDir: "/p" });
  return { set, issues };
}

describe("mergeProject", () => {
  it("should report at merge, and compile kept rules on first use with the same decisions", () => {
    const { set, issues } = merge(
      "global",
      [
        { name: "exp", action: "block", pattern: "(a+)+$" },
        { name: "budget", action: "block", pattern: "(a+)+(?=b)" },
        { name: "plain", action: "block", pattern: "rm\\s+-rf", conditions: [{ field: "command", pattern: "x+y" }] },
      ],
      true,
    );
    expect(set.rules.map((r) => r.name)).toEqual(["exp", "budget", "plain"]);
    expect(set.skipped).toEqual([]);
    const reported = issues.map((i) => [i.path, i.severity]);
    expect(reported).toEqual([
      ["[0].pattern", "warning"],
      ["[1].pattern", "warning"],
    ]);
    const [exp, budget, plain] = candidates(set, "tool_call", "bash");
    expect(budget?.pattern).toBeInstanceOf(BudgetedRegExp);
    expect((exp?.pattern as GuardedRegExp).isLinearFor("a")).toBe(true);
    expect(exp?.pattern?.test(`${"a".repeat(50_000)}!`)).toBe(false);
    expect((plain?.pattern as GuardedRegExp).isLinearFor("rm -rf /")).toBe(false);
    expect(plain?.pattern?.test("rm -rf /")).toBe(true);
    expect(plain?.conditions.map((c) => [c.field, c.re.test("xxy")])).toEqual([["command", true]]);
    // The same objects on every use, and nothing reported again.
    expect(candidates(set, "tool_call", "bash")[0]?.pattern).toBe(exp?.pattern as RegExp);
    expect(issues.map((i) => [i.path, i.severity])).toEqual(reported);
  });

  it("should run an untrusted project's kept patterns on the linear-time engine", () => {
    const { set, issues } = merge("project", [{ name: "p", action: "block", pattern: "secret", conditions: [{ field: "path", pattern: "\\.env$" }] }], false);
    expect(issues).toEqual([]);
    const [p] = candidates(set, "tool_call", "bash");
    expect(p?.pattern).toBeInstanceOf(GuardedRegExp);
    expect((p?.pattern as GuardedRegExp).isLinearFor("")).toBe(true);
    expect((p?.conditions[0]?.re as GuardedRegExp).isLinearFor("")).toBe(true);
  });
});
