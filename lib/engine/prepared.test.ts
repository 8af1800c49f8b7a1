import { describe, expect, it } from "bun:test";
import { loadRuleText } from "./load.ts";
import { PATTERN_MEMO_CAP, patternMemoSize, prepareRule } from "./prepared.ts";
import type { Rule } from "./schema.ts";

const load = (rules: unknown[]): Rule[] => {
  const r = loadRuleText(JSON.stringify({ rules }), { file: "rules.json", source: "project" });
  expect(r.issues).toEqual([]);
  return r.rules;
};

describe("prepareRule", () => {
  it("should reuse the facts of a pattern seen before, and analyse a changed one anew", () => {
    const [a] = load([{ name: "a", action: "block", pattern: "(\\w+\\s?)+$memo-one" }]);
    const [b] = load([{ name: "b", action: "block", pattern: "(\\w+\\s?)+$memo-one" }]);
    const [c] = load([{ name: "c", action: "block", pattern: "(\\w+\\s?)+$memo-two" }]);
    const pa = prepareRule(a as Rule);
    expect(pa.analyses[0]?.risk?.kind).toBe("exponential");
    expect(prepareRule(b as Rule).analyses[0]).toBe(pa.analyses[0] as never);
    expect(prepareRule(c as Rule).analyses[0]).not.toBe(pa.analyses[0] as never);
    expect(prepareRule(c as Rule).analyses[0]?.risk?.kind).toBe("exponential");
  });

  it("should give the same verdicts with and without flags, keyed apart", () => {
    const [plain, folded] = load([
      { name: "p", action: "block", pattern: "GitPushMemo" },
      { name: "f", action: "block", pattern: "GitPushMemo", flags: "i" },
    ]);
    expect(prepareRule(plain as Rule).keys).toEqual([{ field: "subject", literals: ["gitpushmemo"] }]);
    expect(prepareRule(folded as Rule).keys).toEqual([{ field: "subject", literals: ["gitpushmemo"] }]);
  });

  it("should share one value between rules with the same only pattern, and key each field on its own", () => {
    const [a, b, path, cmd, negated] = load([
      { name: "a", action: "block", pattern: "shared-only-x" },
      { name: "b", action: "ask", pattern: "shared-only-x" },
      { name: "p", action: "block", conditions: [{ field: "path", pattern: "shared-only-x" }] },
      { name: "c", action: "block", conditions: [{ field: "command", pattern: "shared-only-x" }] },
      { name: "n", action: "block", conditions: [{ field: "path", pattern: "shared-only-x", negate: true }] },
    ]) as Rule[];
    expect(a?.prepared).toBe(b?.prepared as never);
    expect(a?.prepared?.keys).toEqual([{ field: "subject", literals: ["shared-only-x"] }]);
    expect(path?.prepared?.keys).toEqual([{ field: "path", literals: ["shared-only-x"] }]);
    expect(cmd?.prepared?.keys).toEqual([{ field: "command", literals: ["shared-only-x"] }]);
    expect(negated?.prepared?.keys).toEqual([]);
    expect(negated?.prepared?.gate).toBe(-1);
  });

  it("should take an unchanged rule's prepared value from the file's last load, and prepare a changed one anew", () => {
    const text = (second: string) => JSON.stringify([
      { name: "same", action: "block", pattern: "previous-same-x", conditions: [{ field: "path", pattern: "\\.env$" }] },
      { name: "edited", action: "block", pattern: second },
      { name: "cmd", action: "block", command: { program: "git", args: "previous-args" } },
    ]);
    const first = loadRuleText(text("previous-one-x"), { file: "rules.json", source: "project" }).rules;
    // Prepared values made elsewhere than from these patterns: taken again only when the patterns are the same.
    const marks = first.map((r, i) => ({ keys: [{ field: "subject", literals: [`mark-${i}`] }], gate: 0, analyses: r.prepared?.analyses ?? [] }));
    first.forEach((r, i) => (r.prepared = marks[i]));
    const again = loadRuleText(text("previous-two-x"), { file: "rules.json", source: "project", previous: first }).rules;
    expect(again[0]?.prepared).toBe(marks[0] as never);
    expect(again[1]?.prepared?.keys).toEqual([{ field: "subject", literals: ["previous-two-x"] }]);
    expect(again[2]?.prepared).toBe(marks[2] as never);
    // A condition's flags are part of what a rule's prepared value depends on.
    const flagged = JSON.stringify([{ name: "same", action: "block", pattern: "previous-same-x", conditions: [{ field: "path", pattern: "\\.env$", flags: "i" }] }]);
    expect(loadRuleText(flagged, { file: "rules.json", source: "project", previous: first }).rules[0]?.prepared).not.toBe(marks[0] as never);
  });

  it("should hold no more patterns than its cap", () => {
    const rules = load(Array.from({ length: PATTERN_MEMO_CAP + 50 }, (_, i) => ({ name: `r${i}`, action: "block", pattern: `capped-${i}-x` })));
    expect(rules).toHaveLength(PATTERN_MEMO_CAP + 50);
    expect(patternMemoSize()).toBe(PATTERN_MEMO_CAP);
    // The oldest went first: the newest is still known, with its keys.
    expect(prepareRule(rules.at(-1) as Rule).keys[0]?.literals).toEqual([`capped-${PATTERN_MEMO_CAP + 49}-x`]);
  });
});
