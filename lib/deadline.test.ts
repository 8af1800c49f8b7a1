/** @module unit tests: deadline arithmetic, the late decision, and racing work against the clock. */
import { describe, expect, it } from "bun:test";
import { clampDeadline, deadlineWithin, effectiveDeadline, lateDecision, raceDeadline } from "./deadline.ts";

describe("clampDeadline", () => {
  const cases: [string, unknown, number][] = [
    ["a sane value", 2_000, 2_000],
    ["too small", 5, 100],
    ["too large", 10 * 60_000, 60_000],
    ["not a number", "9", 5_000],
    ["negative", -1, 5_000],
    ["NaN", Number.NaN, 5_000],
  ];
  for (const [name, input, want] of cases) it(`should handle ${name}`, () => expect(clampDeadline(input, 5_000)).toBe(want));
});

describe("effectiveDeadline", () => {
  it("should keep a quarter of a short agent timeout back", () => {
    expect(deadlineWithin(1_000)).toBe(750);
    expect(deadlineWithin(30_000)).toBe(29_000);
  });

  it("should take the shorter of the setting and the agent's timeout", () => {
    expect(effectiveDeadline(undefined, undefined)).toBe(5_000);
    expect(effectiveDeadline(20_000, 10_000)).toBe(9_000);
    expect(effectiveDeadline(1_000, 60_000)).toBe(1_000);
  });
});

describe("lateDecision", () => {
  it("should block a tool call when failing closed", () => {
    const d = lateDecision("tool_call", "closed", 1_500);
    expect(d.action).toBe("block");
    expect(d.reason).toContain("evaluation exceeded 1.5 s");
  });

  it("should block a tool call and stop the run with failMode halt", () => {
    const d = lateDecision("tool_call", "halt", 1_000);
    expect(d).toMatchObject({ action: "block", terminate: true });
    expect(d.reason).toContain('failMode is "halt"');
  });

  it("should give no opinion after the fact or when failing open", () => {
    expect(lateDecision("tool_result", "closed", 100).action).toBe("allow");
    expect(lateDecision("tool_call", "open", 100).action).toBe("allow");
  });
});

describe("raceDeadline", () => {
  it("should pass a synchronous value straight through", () => {
    expect(raceDeadline(7, 10)).toEqual({ late: false, value: 7 });
  });

  it("should give the value of work that finishes in time", async () => {
    expect(await raceDeadline(Promise.resolve("ok"), 1_000)).toEqual({ late: false, value: "ok" });
  });

  it("should say late for work that never finishes", async () => {
    expect(await raceDeadline(new Promise(() => {}), 20)).toEqual({ late: true });
  });

  it("should pass a rejection on", async () => {
    await expect(raceDeadline(Promise.reject(new Error("boom")), 1_000)).rejects.toThrow("boom");
  });
});
