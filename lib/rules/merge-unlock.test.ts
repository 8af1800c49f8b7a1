/** @module tests of locked built-in rules at merge: what no layer may change, and the global settings' unlock. */
import { describe, expect, it } from "bun:test";
import { loadRuleText } from "../engine/load.ts";
import type { Layer } from "../engine/merge.ts";
import type { LayerName, LoadIssue } from "../engine/schema.ts";
import { mergeProject } from "./merge-project.ts";

function layer(source: LayerName, rules: unknown[]): Layer {
  const file = `${source}.json`;
  return { source, files: [{ file, rules: loadRuleText(JSON.stringify(rules), { file, source }).rules }] };
}

const builtin = layer("builtin", [
  { name: "guard", action: "block", pattern: "evil", locked: true },
  { name: "plain", action: "block", pattern: "meh" },
]);

describe("mergeProject with locked built-in rules", () => {
  const offSwitches: [string, LayerName, unknown[]][] = [
    ["a global patch disabling it", "global", [{ name: "guard", enabled: false }]],
    ["a global rule replacing it", "global", [{ name: "guard", action: "notify", pattern: "^$" }]],
    ["a trusted project's patch", "project", [{ name: "guard", enabled: false }]],
    ["a trusted project's locked replacement", "project", [{ name: "guard", action: "notify", pattern: "^$", locked: true }]],
  ];
  it.each(offSwitches)("should keep the built-in in force against %s", (_why, source, rules) => {
    const set = mergeProject([builtin, layer(source, rules)], [], { trusted: true, projectDir: "/p" });
    const guard = set.rules.find((r) => r.name === "guard");
    expect([guard?.source, guard?.action, guard?.enabled, guard?.locked]).toEqual(["builtin", "block", true, true]);
    expect(set.skipped.map((s) => s.reason)).toEqual(['rule "guard" is locked by builtin (builtin.json)']);
  });

  it("should let a later layer change a built-in the global settings unlock, and report nothing", () => {
    const issues: LoadIssue[] = [];
    const set = mergeProject([builtin, layer("global", [{ name: "guard", enabled: false }])], issues, {
      trusted: true,
      projectDir: "/p",
      unlock: { names: ["guard"], file: "/a/settings.json", report: true },
    });
    expect(set.rules.map((r) => r.name)).toEqual(["plain"]);
    expect(set.skipped.map((s) => [s.rule.name, s.reason])).toEqual([["guard", "disabled (enabled: false)"]]);
    expect(issues).toEqual([]);
  });

  it("should report unlock names that unlock nothing, once, and not when asked not to", () => {
    const issues: LoadIssue[] = [];
    const unlock = { names: ["typo", "plain", "guard"], file: "/a/settings.json", report: true };
    mergeProject([builtin], issues, { trusted: true, projectDir: "/p", unlock });
    expect(issues.map((i) => [i.path, i.severity])).toEqual([
      ["shepherd.unlockBuiltins[0]", "error"],
      ["shepherd.unlockBuiltins[1]", "error"],
    ]);
    const quiet: LoadIssue[] = [];
    mergeProject([builtin], quiet, { trusted: true, projectDir: "/p", unlock: { ...unlock, report: false } });
    expect(quiet).toEqual([]);
  });
});
