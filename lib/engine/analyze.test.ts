/** @module unit tests of the static rule analysis: suggestions, positions, unknown tools, shadowed and unreachable rules. */
import { describe, expect, it } from "bun:test";
import { analyzeRules, covers, didYouMean, editDistance, locatePath, parsePath, shadowed, sourceText, withSuggestions } from "./analyze.ts";
import { loadRuleText } from "./load.ts";
import type { LayerName, Rule } from "./schema.ts";

function load(text: string, file = "rules.json", source: LayerName = "project"): Rule[] {
  const res = loadRuleText(text, { file, source });
  if (!res.ok) throw new Error(JSON.stringify(res.issues));
  return res.rules;
}

describe("editDistance", () => {
  it.each([
    ["bash", "bash", 0],
    ["bsah", "bash", 1],
    ["tool_cal", "tool_call", 1],
    ["", "abc", 3],
    ["kitten", "sitting", 3],
  ])("should measure %p -> %p as %p", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});

describe("didYouMean", () => {
  it.each([
    ["bsah", ["bash", "edit"], "bash"],
    ["Bash", ["bash"], "bash"],
    ["tool-call", ["tool_call", "tool_result"], "tool_call"],
    ["patern", ["pattern", "path"], "pattern"],
    ["zzzzzz", ["bash", "edit"], undefined],
    ["bash", ["bash"], undefined],
  ])("should suggest for %p", (word, candidates, want) => {
    expect(didYouMean(word, candidates)).toBe(want);
  });
});

describe("parsePath", () => {
  it.each([
    ["rules[2].conditions[0].pattern", ["rules", 2, "conditions", 0, "pattern"]],
    ["[3].tool", [3, "tool"]],
    ["", []],
  ])("should split %p", (path, want) => {
    expect(parsePath(path)).toEqual(want);
  });
});

describe("locatePath", () => {
  const text = '{\n  "rules": [\n    {"action": "block",\n     "pattern": "x"}\n  ]\n}\n';
  it.each([
    ["rules[0].pattern", 4, 6],
    ["rules[0]", 3, 5],
    ["rules[0].missing", 3, 5],
    ["rules[7]", 2, 12],
  ])("should place %p at %p:%p", (path, line, column) => {
    expect(locatePath(sourceText(text), path)).toEqual({ line, column });
  });
});

describe("withSuggestions", () => {
  it.each([
    ['[{"action":"block","patern":"x"}]', '"pattern"'],
    ['[{"action":"block","hook":"tool_cal"}]', '"tool_call"'],
    ['[{"action":"block","conditions":[{"feild":"path","pattern":"x"}]}]', '"field"'],
    ['[{"action":"block","tests":[{"command":"x","expect":"blok"}]}]', '"block"'],
    ['[{"action":"notify","hook":"tool_result","state":{"countKind":"error","gte":2}}]', '"errors"'],
  ])("should add a did-you-mean to the issue of %s", (text, hint) => {
    const res = loadRuleText(text, { file: "f.json", source: "project" });
    const issues = withSuggestions(res.issues, sourceText(text));
    expect(issues.some((i) => i.message.includes(`did you mean ${hint}`))).toBe(true);
  });
});

describe("analyzeRules", () => {
  it.each([
    ['[{"action":"block","tool":"bsah","pattern":"x"}]', "tool", 'unknown tool "bsah"; did you mean "bash"'],
    ['[{"action":"block","tool":["bash","wirte"],"pattern":"x"}]', "tool[1]", 'did you mean "write"'],
    ['[{"action":"blok","pattern":"x"}]', "action", 'did you mean "block"'],
    ['[{"action":"notify","hook":"agent_end","check":"has_edit"}]', "check", 'did you mean "has_edits"'],
    ['[{"action":"notify","hook":"agent_end","stopReason":"tool_use"}]', "stopReason", 'did you mean "toolUse"'],
    ['[{"action":"steer","hook":"session_start","pattern":"x"}]', "pattern", "never fires"],
    ['[{"action":"block","tool":"edit","conditions":[{"field":"command","pattern":"x"}]}]', "conditions[0].field", "never fires"],
    ['[{"action":"block","tool":"write","command":{"program":"rm"}}]', "command", "never fires"],
  ])("should warn about %s at %p", (text, rel, message) => {
    const issues = analyzeRules([{ file: "f.json", source: "project", rules: load(text, "f.json"), text }]);
    const hit = issues.find((i) => i.path === `[0].${rel}`);
    expect(hit?.message).toContain(message);
    expect(hit?.severity).toBe("warning");
    expect(hit?.line).toBe(1);
  });

  it("should accept a clean rule file", () => {
    const text = '[{"name":"no-rm","action":"block","pattern":"rm -rf"},{"action":"notify","tool":"edit","conditions":[{"field":"path","pattern":"\\\\.env$"}]}]';
    expect(analyzeRules([{ file: "f.json", source: "project", rules: load(text), text }])).toEqual([]);
  });

  it("should report a name defined in two files of one layer", () => {
    const a = load('[{"name":"x","action":"block","pattern":"a"}]', "a.json");
    const b = load('[{"name":"x","action":"block","pattern":"b"}]', "b.json");
    const issues = analyzeRules([
      { file: "a.json", source: "project", rules: a },
      { file: "b.json", source: "project", rules: b },
    ]);
    expect(issues.map((i) => [i.file, i.path])).toEqual([["b.json", "[0].name"]]);
    expect(issues[0]?.message).toContain("a.json");
  });

  it("should not report an override in a later layer as a duplicate", () => {
    const a = load('[{"name":"x","action":"block","pattern":"a"}]', "g.json", "global");
    const b = load('[{"name":"x","action":"block","pattern":"b"}]', "p.json");
    expect(analyzeRules([{ file: "g.json", source: "global", rules: a }, { file: "p.json", source: "project", rules: b }])).toEqual([]);
  });
});

describe("covers / shadowed", () => {
  const rules = load(
    JSON.stringify([
      { name: "all-bash", action: "block", tool: "bash", pattern: "^git push" },
      { name: "push-force", action: "notify", tool: "bash", pattern: "^git push", conditions: [{ field: "command", pattern: "--force" }] },
      { name: "other", action: "notify", tool: "bash", pattern: "^git pull" },
      { name: "edit-only", action: "block", tool: "edit", pattern: "^git push" },
      { name: "counted", action: "block", tool: "bash", pattern: "x", state: { countKind: "calls", gte: 2 } },
      { name: "after-counted", action: "notify", tool: "bash", pattern: "x" },
    ]),
  );
  const byName = new Map(rules.map((r) => [r.name, r]));
  const get = (n: string) => byName.get(n) as Rule;

  it.each([
    ["all-bash", "push-force", true],
    ["all-bash", "other", false],
    ["all-bash", "edit-only", false],
    ["counted", "after-counted", false],
  ])("should say whether %p covers %p (%p)", (a, b, want) => {
    expect(covers(get(a), get(b))).toBe(want);
  });

  it("should list rules shadowed by an earlier block", () => {
    expect(shadowed(rules).map(([r, by]) => [r.name, by.name])).toEqual([["push-force", "all-bash"]]);
  });
});
