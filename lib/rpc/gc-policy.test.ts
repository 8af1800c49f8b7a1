/** @module unit tests: the sidecar's collection policy counts requests, collects in pauses between them, and after loads. */
import { describe, expect, it } from "bun:test";
import { createGcPolicy, GC_IDLE_MS, GC_OVERDUE_REQUESTS, type GcTimers, LARGE_INPUT_GC_BYTES, runtimeShrinker } from "./gc-policy.ts";

/** Timers that fire only when told: a "pause" is firing them with no request in between. */
function manualTimers() {
  const pending: { ms: number; fn: () => void }[] = [];
  const timers: GcTimers = { after: (ms, fn) => void pending.push({ ms, fn }) };
  const fire = () => {
    for (const t of pending.splice(0)) t.fn();
  };
  return { timers, pending, fire };
}

describe("createGcPolicy", () => {
  it("should collect a due collection at the first pause, never inside a burst of requests", () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 3, [], t.timers);
    for (let i = 0; i < 3; i++) gc.request();
    expect(runs).toBe(0);
    expect(t.pending.map((p) => p.ms)).toEqual([GC_IDLE_MS]);
    t.fire();
    expect(runs).toBe(1);
    t.fire();
    expect(runs).toBe(1);
  });

  it("should look again when requests came since, and collect at the pause after them", () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 3, [], t.timers);
    for (let i = 0; i < 4; i++) gc.request();
    t.fire();
    expect(runs).toBe(0);
    expect(t.pending.length).toBe(1);
    t.fire();
    expect(runs).toBe(1);
  });

  it("should collect inline once a due collection is GC_OVERDUE_REQUESTS late, and count again from there", () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 3, [], t.timers);
    for (let i = 0; i < 2 + GC_OVERDUE_REQUESTS; i++) gc.request();
    expect(runs).toBe(0);
    gc.request();
    expect(runs).toBe(1);
    t.fire();
    expect(runs).toBe(1);
    for (let i = 0; i < 3; i++) gc.request();
    t.fire();
    expect(runs).toBe(2);
  });

  it("should collect soon after a load, and restart the count", async () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 3, [], t.timers);
    gc.request();
    gc.request();
    gc.loaded();
    gc.request();
    expect(runs).toBe(0);
    await Bun.sleep(5);
    expect(runs).toBe(1);
    gc.request();
    t.fire();
    expect(runs).toBe(1);
  });

  it("should also collect at the given counts of requests after each load", async () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 100, [2, 5], t.timers);
    for (let i = 0; i < 2; i++) gc.request();
    t.fire();
    for (let i = 0; i < 3; i++) gc.request();
    t.fire();
    expect(runs).toBe(2);
    gc.loaded();
    await Bun.sleep(5);
    expect(runs).toBe(3);
    for (let i = 0; i < 2; i++) gc.request();
    t.fire();
    expect(runs).toBe(4);
  });

  it("should collect at once when warmed, skip the counts after the load until the next load, and keep the regular ones", async () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 10, [2, 5], t.timers);
    gc.loaded(true);
    gc.warmed();
    expect(runs).toBe(2);
    for (let i = 0; i < 5; i++) gc.request();
    t.fire();
    expect(runs).toBe(2);
    for (let i = 0; i < 5; i++) gc.request();
    t.fire();
    expect(runs).toBe(3);
    gc.loaded();
    await Bun.sleep(5);
    expect(runs).toBe(4);
    for (let i = 0; i < 2; i++) gc.request();
    t.fire();
    expect(runs).toBe(5);
  });

  it("should do nothing without a collector (null: a runtime with no exposed GC)", () => {
    const t = manualTimers();
    const gc = createGcPolicy(null, 1, [1], t.timers);
    gc.request();
    gc.loaded();
    expect(t.pending).toEqual([]);
  });

  it("should collect right after the request once large inputs add up, once per threshold", () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 1_000_000, [], t.timers);
    const chunk = LARGE_INPUT_GC_BYTES / 4;
    for (let i = 0; i < 3; i++) gc.input(chunk);
    expect(t.pending).toEqual([]);
    gc.input(chunk);
    gc.input(chunk);
    // One collection scheduled, after the current task (the answer is written first), not one per chunk.
    expect(t.pending.map((p) => p.ms)).toEqual([0]);
    t.fire();
    expect(runs).toBe(1);
    // The count starts again after a collection.
    for (let i = 0; i < 3; i++) gc.input(chunk);
    expect(t.pending).toEqual([]);
    gc.input(chunk);
    t.fire();
    expect(runs).toBe(2);
  });

  it("should ignore input sizes that are not positive numbers", () => {
    let runs = 0;
    const t = manualTimers();
    const gc = createGcPolicy(() => runs++, 1_000_000, [], t.timers);
    for (const n of [0, -LARGE_INPUT_GC_BYTES, Number.NaN]) gc.input(n);
    expect(t.pending).toEqual([]);
    expect(runs).toBe(0);
  });

  it.each([
    ["later, after the current task", false, 0],
    ["before returning, when told to", true, 1],
  ])("should collect after a load %s", (_label, now, atOnce) => {
    let runs = 0;
    const gc = createGcPolicy(() => runs++, 1_000_000, []);
    gc.loaded(now);
    expect(runs).toBe(atOnce);
  });
});

describe("runtimeShrinker", () => {
  it("should ask the runtime to shrink (not a plain collection) and resolve only after its idle moment", async () => {
    const calls: string[] = [];
    const shrink = runtimeShrinker({ gc: () => calls.push("gc"), shrink: () => calls.push("shrink") });
    const done = shrink?.().then(() => calls.push("resolved"));
    expect(calls).toEqual(["shrink"]);
    // Not before a zero-delay timer (the shrink runs when the current task has returned).
    await Promise.resolve();
    expect(calls).toEqual(["shrink"]);
    await done;
    expect(calls).toEqual(["shrink", "resolved"]);
  });

  it("should fall back to a full collection where the runtime has no shrink, and to nothing without a runtime", async () => {
    const forced: boolean[] = [];
    await runtimeShrinker({ gc: (force) => forced.push(force) })?.();
    expect(forced).toEqual([true]);
    expect(runtimeShrinker(null)).toBeUndefined();
  });
});
