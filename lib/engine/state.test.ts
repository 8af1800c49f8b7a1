/** @module unit tests for the bounded session store. */
import { describe, expect, it } from "bun:test";
import { SessionStore } from "./state.ts";

describe("SessionStore", () => {
  it("should evict the least recently used session when full", () => {
    const store = new SessionStore(3);
    store.get("a").calls = 1;
    store.get("b");
    store.get("c");
    store.get("a");
    store.get("d");
    expect(store.ids().sort()).toEqual(["a", "c", "d"]);
    expect(store.get("a").calls).toBe(1);
  });

  it("should stay at its bound with a stream of new ids", () => {
    const store = new SessionStore(100);
    for (let i = 0; i < 100_000; i++) store.get(`s${i}`);
    expect(store.size).toBe(100);
  });
});
