/** @module the settings guard against the settings schema it stands before. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { anyValue, expectGuardAgrees, expectOddTwinsAgree, mostly } from "../../tests/helpers/guard-agreement.ts";
import * as v from "valibot";
import { isSettingsInput, MAX_TIMER_MS, SettingsSchema } from "./schema-core.ts";

const settings = fc.record(
  {
    projectRulesPattern: mostly(fc.constant("shepherd-rules-*.json")),
    maxWarnings: mostly(fc.integer({ min: -1, max: 5 })),
    timeoutMs: mostly(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 2, noNaN: true }))),
    failMode: mostly(fc.constantFrom("open", "closed", "halt", "Open")),
    binary: mostly(fc.constant("/usr/bin/shepherd")),
    trustedProjects: mostly(fc.array(mostly(fc.constant("/p")), { maxLength: 3 })),
    pluginTimeoutMs: mostly(fc.integer({ min: 0, max: 3 })),
    pluginLoadTimeoutMs: mostly(fc.integer({ min: 1, max: 3 })),
    gitTimeoutMs: mostly(fc.integer({ min: 1, max: 3 })),
    hookDeadlineMs: mostly(fc.constantFrom(1, MAX_TIMER_MS, MAX_TIMER_MS + 1, Number.POSITIVE_INFINITY, 1e300)),
    audit: anyValue,
    other: anyValue,
  },
  { noNullPrototype: true, requiredKeys: [] },
);

describe("timer settings", () => {
  it.each(["timeoutMs", "pluginTimeoutMs", "pluginLoadTimeoutMs", "gitTimeoutMs", "hookDeadlineMs"])("should refuse a %s no timer can keep (Infinity, over 2^31-1 ms), in the guard and the schema alike", (key) => {
    for (const [value, ok] of [[MAX_TIMER_MS, true], [MAX_TIMER_MS + 1, false], [Number.POSITIVE_INFINITY, false], [0, false], [1, true]] as const) {
      expect([key, value, isSettingsInput({ [key]: value })]).toEqual([key, value, ok]);
      expect([key, value, v.safeParse(SettingsSchema(), { [key]: value }).success]).toEqual([key, value, ok]);
    }
  });
});

describe("isSettingsInput", () => {
  it("should accept exactly what SettingsSchema returns unchanged", () => {
    expectGuardAgrees(isSettingsInput, SettingsSchema(), fc.oneof(settings, anyValue), 100);
  });

  it("should agree with the schema on every odd twin of full settings (NaN, infinite timeouts, holes, prototype keys)", () => {
    expectOddTwinsAgree(isSettingsInput, SettingsSchema(), {
      projectRulesPattern: "shepherd-rules-*.json",
      maxWarnings: 3,
      timeoutMs: 3000,
      failMode: "closed",
      binary: "/usr/bin/shepherd",
      trustedProjects: ["/a", "/b"],
      pluginTimeoutMs: 1000,
      pluginLoadTimeoutMs: 1000,
      gitTimeoutMs: 1500,
      audit: { file: "/a.log" },
    });
  });

  it.each([
    [{ maxWarnings: 1.5 }, false],
    [{ timeoutMs: 0 }, false],
    [{ failMode: "open", trustedProjects: ["/a"], audit: { anything: 1 } }, true],
    [{ failMode: "halt", trustedProjects: ["/a"] }, true],
    [{ failMode: "stop" }, false],
    [[], false],
  ])("should judge %j as %p", (x, ok) => {
    expect(isSettingsInput(x)).toBe(ok);
  });
});
