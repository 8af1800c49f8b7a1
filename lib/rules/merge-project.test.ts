import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
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

describe("one merge path", () => {
  it("should be the only caller of mergeLayers outside tests (faces, authoring commands, replay and inline tests)", () => {
    const lib = join(import.meta.dir, "..");
    const callers: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && name !== "test-helpers.ts" && /\bmergeLayers\s*\(/.test(readFileSync(path, "utf8"))) callers.push(relative(lib, path));
      }
    };
    walk(lib);
    // merge.ts defines it; merge-project.ts is the policy every face goes through.
    expect(callers.sort()).toEqual(["engine/merge.ts", "rules/merge-project.ts"]);
  });

  it("should merge an untrusted project's rewrite for its inline tests only, compiled as untrusted", () => {
    const loaded = loadRuleText(JSON.stringify([{ name: "rw", action: "rewrite", pattern: "^(a+)+$", rewrite: { prefix: "x " } }]), { file: "p.json", source: "project" });
    const layers = [{ source: "project" as const, files: [{ file: "p.json", rules: loaded.rules }] }];
    expect(mergeProject(layers, [], { trusted: false, projectDir: "/p" }).rules).toEqual([]);
    const forTests = mergeProject(layers, [], { trusted: false, toTest: true, projectDir: "/p" });
    expect(forTests.rules.map((r) => r.name)).toEqual(["rw"]);
    const compiled = candidates(forTests, "tool_call", "bash")[0];
    expect(compiled?.pattern).toBeInstanceOf(GuardedRegExp);
    expect((compiled?.pattern as GuardedRegExp).isLinearFor("")).toBe(true);
  });
});
