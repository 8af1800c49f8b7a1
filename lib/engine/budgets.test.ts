/** @module unit tests: per-session budgets (most tool calls, most failures, longest wall time). */
import { describe, expect, it } from "bun:test";
import { budgetHit, type Budgets, tighterBudgets } from "./budgets.ts";
import { evaluate } from "./evaluate.ts";
import type { HookEvent } from "./schema.ts";
import { isSettingsInput, SettingsSchema } from "./schema-core.ts";
import { emptyState, SessionStore } from "./state.ts";
import { bashCall, ruleSetOf, toolResult } from "./test-helpers.ts";
import * as v from "valibot";

describe("budgetHit", () => {
  const state = (over: Partial<ReturnType<typeof emptyState>>) => ({ ...emptyState(1_000), ...over });
  const cases: [string, Budgets | undefined, Partial<ReturnType<typeof emptyState>>, HookEvent, number, string | undefined][] = [
    ["no budgets", undefined, { calls: 99 }, bashCall("ls"), 1_000, undefined],
    ["calls within", { toolCalls: 3 }, { calls: 3 }, bashCall("ls"), 1_000, undefined],
    ["calls past", { toolCalls: 3 }, { calls: 4 }, bashCall("ls"), 1_000, "toolCalls"],
    ["failures reached", { failures: 2 }, { errors: 2 }, bashCall("ls"), 1_000, "failures"],
    ["failures below", { failures: 2 }, { errors: 1 }, bashCall("ls"), 1_000, undefined],
    ["wall time past", { wallTimeMs: 500 }, { startedAt: 1_000 }, bashCall("ls"), 1_501, "wallTimeMs"],
    ["wall time within", { wallTimeMs: 500 }, { startedAt: 1_000 }, bashCall("ls"), 1_500, undefined],
    ["not a tool call", { toolCalls: 1 }, { calls: 5 }, toolResult("bash", { command: "ls" }, false), 1_000, undefined],
  ];
  for (const [name, budgets, over, event, now, want] of cases) {
    it(`should answer ${name}`, () => {
      expect(budgetHit(budgets, state(over), event, now)?.budget).toBe(want as never);
    });
  }
});

describe("evaluate with budgets", () => {
  it("should block the call past the budget with a reason naming the setting, and report it as fired", () => {
    const ctx = { rules: ruleSetOf({ builtin: [] }), sessions: new SessionStore(), maxWarnings: 0, projectRoot: "/proj", home: "/h", budgets: { toolCalls: 2 } };
    const actions = [1, 2, 3].map((i) => evaluate(ctx, bashCall(`echo ${i}`)));
    expect(actions.map((d) => ("action" in d ? d.action : "pending"))).toEqual(["allow", "allow", "block"]);
    const last = actions[2] as { reason: string; fired: unknown[] };
    expect(last.reason).toContain("shepherd.budgets.toolCalls");
    expect(last.fired).toEqual([{ rule: "budgets.toolCalls", source: "settings", action: "block" }]);
  });
});

describe("budget settings", () => {
  it.each([
    [{ budgets: { toolCalls: 10, failures: 3, wallTimeMs: 60_000 } }, true],
    [{ budgets: { toolCalls: 0 } }, false],
    [{ budgets: { toolCalls: 1.5 } }, false],
    [{ budgets: { tooCalls: 5 } }, false],
  ])("should validate %p as %p, guard and schema agreeing", (settings, ok) => {
    expect(v.safeParse(SettingsSchema(), settings).success).toBe(ok);
    expect(isSettingsInput(settings)).toBe(ok);
  });

  it("should let a project tighten the user's budgets, never loosen them", () => {
    expect(tighterBudgets({ toolCalls: 100, failures: 5 }, { toolCalls: 1_000, failures: 2, wallTimeMs: 10 })).toEqual({ toolCalls: 100, failures: 2, wallTimeMs: 10 });
  });
});
