import { describe, expect, it, spyOn } from "bun:test";
import { normalJitPolicy, STARTUP_JIT_POLICY } from "./jit-policy.ts";

describe("normalJitPolicy", () => {
  it("should put the normal policy (scale 1) back once, however often it is asked", () => {
    const spy = spyOn(Bun.unsafe, "setJITPolicy");
    try {
      normalJitPolicy();
      normalJitPolicy();
      expect(spy.mock.calls).toEqual([[1]]);
    } finally {
      spy.mockRestore();
    }
  });

  it("should start the binary with a scale Bun accepts (a finite number >= 1)", () => {
    expect(Number.isFinite(STARTUP_JIT_POLICY)).toBe(true);
    expect(STARTUP_JIT_POLICY).toBeGreaterThan(1);
  });
});
