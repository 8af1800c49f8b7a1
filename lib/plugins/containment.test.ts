/** @module unit tests: validation of plugin results and the decision for a failed plugin. */
import { describe, expect, it } from "bun:test";
import { checkActionResult, checkCheckResult, clampBudget, failedActionDecision } from "./containment.ts";

describe("checkActionResult", () => {
  it.each([[undefined], [null]])("should treat %p as no opinion", (value) => {
    expect(checkActionResult(value)).toEqual({ ok: true, value: undefined });
  });

  it("should accept a partial decision", () => {
    const d: unknown = { action: "block", reason: "no", notify: ["n"], steer: ["s"] };
    expect(checkActionResult(d)).toEqual({ ok: true, value: { action: "block", reason: "no", notify: ["n"], steer: ["s"] } });
  });

  it.each([
    ["a string", "block", "Invalid type"],
    ["an unknown action", { action: "notify" }, 'must be "block", "ask" or "rewrite"'],
    ["a rewrite without input", { action: "rewrite" }, "needs the whole new tool input"],
    ["a notify that is not a list", { notify: "hi" }, "notify"],
    ["an unknown key", { block: true }, "block"],
  ])("should reject %s", (_what, value, message) => {
    const r = checkActionResult(value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });
});

describe("checkCheckResult", () => {
  it("should accept booleans only", () => {
    expect(checkCheckResult(true)).toEqual({ ok: true, value: true });
    expect(checkCheckResult(1)).toEqual({ ok: false, message: "returned a number instead of true or false" });
  });
});

describe("failedActionDecision", () => {
  it.each(["closed", "halt"] as const)("should block a tool call when failing %s", (mode) => {
    expect(failedActionDecision("tool_call", mode, "plugin x threw")?.action).toBe("block");
  });

  it("should have no opinion when failing open or after the fact", () => {
    expect(failedActionDecision("tool_call", "open", "x")).toBeUndefined();
    expect(failedActionDecision("tool_result", "closed", "x")).toBeUndefined();
  });
});

describe("clampBudget", () => {
  it("should fall back on nonsense and cap huge budgets", () => {
    expect(clampBudget(-1, 1000)).toBe(1000);
    expect(clampBudget("5", 1000)).toBe(1000);
    expect(clampBudget(10 ** 9, 1000)).toBe(60_000);
    expect(clampBudget(250, 1000)).toBe(250);
  });
});
