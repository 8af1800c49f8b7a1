/** @module unit tests: the sidecar's collection policy counts requests and collects after loads. */
import { describe, expect, it } from "bun:test";
import { createGcPolicy } from "./gc-policy.ts";

describe("createGcPolicy", () => {
  it("collects once every `every` requests", () => {
    let runs = 0;
    const gc = createGcPolicy(() => runs++, 3, []);
    for (let i = 0; i < 10; i++) gc.request();
    expect(runs).toBe(3);
  });

  it("collects soon after a load, and restarts the count", async () => {
    let runs = 0;
    const gc = createGcPolicy(() => runs++, 3, []);
    gc.request();
    gc.request();
    gc.loaded();
    gc.request();
    expect(runs).toBe(0);
    await Bun.sleep(5);
    expect(runs).toBe(1);
  });

  it("also collects at the given counts of requests after each load", async () => {
    let runs = 0;
    const gc = createGcPolicy(() => runs++, 100, [2, 5]);
    for (let i = 0; i < 6; i++) gc.request();
    expect(runs).toBe(2);
    gc.loaded();
    await Bun.sleep(5);
    expect(runs).toBe(3);
    for (let i = 0; i < 5; i++) gc.request();
    expect(runs).toBe(5);
  });

  it("does nothing without a collector", () => {
    const gc = createGcPolicy(undefined, 1);
    gc.request();
    gc.loaded();
  });
});
