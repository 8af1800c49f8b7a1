/** @module unit tests for the bounded session store and the state file guard. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { anyValue, expectGuardAgrees, expectOddTwinsAgree } from "../../tests/helpers/guard-agreement.ts";
import { emptyState, isExactSessionState, SessionStateSchema, SessionStore } from "./state.ts";

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

  it("should keep the order of use through repeated gets, sets and deletes of the last session", () => {
    const store = new SessionStore(3);
    store.get("a");
    store.get("b");
    store.get("b");
    store.get("a");
    store.get("a");
    // b is now the oldest: a new id evicts it.
    store.get("c");
    store.get("d");
    expect(store.ids()).toEqual(["a", "c", "d"]);
    // Replacing the last one's state keeps its place; a set of a new id goes last.
    store.set("d", { ...store.get("d"), calls: 7 });
    expect(store.get("d").calls).toBe(7);
    store.delete("d");
    store.set("e", store.get("a"));
    store.get("a");
    expect(store.ids()).toEqual(["c", "e", "a"]);
    store.get("f");
    expect(store.ids()).toEqual(["e", "a", "f"]);
  });

  it("should stay at its bound with a stream of new ids", () => {
    const store = new SessionStore(100);
    for (let i = 0; i < 100_000; i++) store.get(`s${i}`);
    expect(store.size).toBe(100);
  });
});

describe("isExactSessionState", () => {
  // Rarely wrong: a state has a dozen fields, each a chance to be refused.
  const rarely = <T,>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: arb, weight: 40 }, { arbitrary: anyValue, weight: 1 });
  const key = fc.oneof({ arbitrary: fc.constantFrom("bash", "edit", "x"), weight: 15 }, { arbitrary: fc.constant("__proto__"), weight: 1 });
  const counts = rarely(fc.dictionary(key, rarely(fc.integer({ min: 0, max: 9 })), { noNullPrototype: true, maxKeys: 2 }));
  const state = fc.record(
    {
      calls: rarely(fc.nat(9)),
      errors: rarely(fc.nat(9)),
      callsByTool: counts,
      errorsByTool: counts,
      hasEdits: rarely(fc.boolean()),
      edits: rarely(fc.nat(9)),
      commandsSinceEdit: rarely(fc.array(rarely(fc.oneof({ arbitrary: fc.record({ command: rarely(fc.constant("npm test")), ok: rarely(fc.boolean()) }, { noNullPrototype: true }), weight: 10 }, { arbitrary: fc.constant({ command: "x", ok: true, extra: 1 }), weight: 1 })), { maxLength: 2 })),
      baselines: counts,
      warnings: counts,
      hints: rarely(fc.array(rarely(fc.constant("h")), { maxLength: 2 })),
      wrapUpDelivered: rarely(fc.array(rarely(fc.constant("r")), { maxLength: 2 })),
      lastSeen: rarely(fc.nat()),
      lastCall: rarely(fc.constantFrom("", "0123456789abcdef")),
      repeats: rarely(fc.nat(9)),
      failedCalls: counts,
      startedAt: rarely(fc.nat()),
      // Mostly absent or right, each part wrong now and then: the guard must see every branch.
      pendingAsk: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 6 },
        {
          arbitrary: fc.record(
            {
              callId: fc.oneof({ arbitrary: fc.constant("t1"), weight: 30 }, { arbitrary: fc.constant("x".repeat(513)), weight: 1 }),
              at: fc.oneof({ arbitrary: fc.nat(), weight: 30 }, { arbitrary: anyValue, weight: 1 }),
              remember: fc.oneof(
                {
                  arbitrary: fc.array(
                    fc.record(
                      {
                        rule: fc.constant("r"),
                        source: fc.constant("project"),
                        scope: fc.oneof({ arbitrary: fc.constantFrom("session", "project"), weight: 30 }, { arbitrary: fc.constant("forever"), weight: 1 }),
                        tool: fc.constant("bash"),
                        inputHash: fc.oneof({ arbitrary: fc.constant("a".repeat(64)), weight: 30 }, { arbitrary: fc.constant("a".repeat(65)), weight: 1 }),
                        display: fc.oneof({ arbitrary: fc.constant("deploy"), weight: 30 }, { arbitrary: anyValue, weight: 1 }),
                      },
                      { noNullPrototype: true },
                    ),
                    { maxLength: 2 },
                  ),
                  weight: 30,
                },
                { arbitrary: anyValue, weight: 1 },
              ),
            },
            { noNullPrototype: true },
          ),
          weight: 3,
        },
        { arbitrary: anyValue, weight: 1 },
      ),
      extra: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: anyValue, weight: 1 }),
    },
    // Mostly whole states: the old-format files (no edits, no commandsSinceEdit) get defaults from the schema.
    { noNullPrototype: true, requiredKeys: ["calls", "errors", "callsByTool", "errorsByTool", "hasEdits", "baselines", "warnings", "hints", "wrapUpDelivered", "lastSeen", "lastCall", "repeats", "failedCalls", "startedAt"] },
  );

  it("should accept exactly what SessionStateSchema returns unchanged", () => {
    expectGuardAgrees(isExactSessionState, SessionStateSchema(), fc.oneof(state, anyValue), 50, 6000);
  });

  it("should agree with the schema on every odd twin of a full state (NaN counters, holes, prototype keys)", () => {
    expectOddTwinsAgree(isExactSessionState, SessionStateSchema(), {
      ...emptyState(5),
      calls: 2,
      callsByTool: { bash: 2 },
      errorsByTool: { bash: 1 },
      baselines: { bash: 0 },
      warnings: { w: 1 },
      hints: ["h"],
      wrapUpDelivered: ["r"],
      commandsSinceEdit: [{ command: "npm test", ok: true }],
    });
  });

  it("should agree with the schema on every odd twin of a state with a pending ask", () => {
    expectOddTwinsAgree(isExactSessionState, SessionStateSchema(), {
      ...emptyState(5),
      pendingAsk: { callId: "t1", at: 3, remember: [{ rule: "r", source: "project", scope: "session", tool: "bash", inputHash: "a".repeat(64), display: "deploy" }] },
    });
  });

  it("should accept a fresh state and leave an old-format file (no edits) to the schema", () => {
    expect(isExactSessionState(emptyState(5))).toBe(true);
    const { edits: _e, ...old } = emptyState(5);
    expect(isExactSessionState(old)).toBe(false);
  });
});
