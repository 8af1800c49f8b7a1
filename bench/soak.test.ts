/** @module the CI-sized soak: 100,000 evaluations with reloads and session churn, heap bounded. */
import { describe, expect, it } from "bun:test";
import { HEAP_GROWTH_BOUND_MIB, runSoak } from "./soak.ts";

describe("runSoak", () => {
  it("should keep the live heap within the stated bound over 100,000 evaluations with reloads", async () => {
    const r = await runSoak({ evaluations: 100_000, reloadEvery: 5_000, samples: 20, sessions: 20_000 });
    expect(r.reloads).toBe(19);
    expect(r.decisions.error).toBeUndefined();
    expect(r.decisions.block).toBeGreaterThan(0);
    expect(r.decisions.ask).toBeGreaterThan(0);
    expect(r.growthMiB).toBeLessThan(HEAP_GROWTH_BOUND_MIB);
  }, 120_000);
});
