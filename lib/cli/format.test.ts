/** @module unit tests of the CLI output helpers: colour policy, tables, clipping, argv parsing. */
import { describe, expect, it } from "bun:test";
import { clip, colorEnabled, makeStyle, parseArgv, stripAnsi, table, visibleWidth } from "./format.ts";

describe("colorEnabled", () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true],
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "0" }, true, true],
    [{ FORCE_COLOR: "1", NO_COLOR: "1" }, true, false],
    [{ TERM: "dumb" }, true, false],
  ])("should decide colour for env %j on tty=%p -> %p", (env, isTTY, want) => {
    expect(colorEnabled({ env, isTTY })).toBe(want);
  });
});

describe("table", () => {
  it("should align columns by visible width, ignoring colour codes", () => {
    const style = makeStyle(true);
    const out = table(["A", "B", "C"], [[style.red("x"), "yy", "z"], ["long", "✓", ""]], style);
    const lines = stripAnsi(out).trimEnd().split("\n");
    expect(lines).toEqual(["A     B   C", "x     yy  z", "long  ✓"]);
  });
});

describe("clip", () => {
  it.each([
    ["short", 10, "short"],
    ["a long sentence", 6, "a lon…"],
    ["two\nlines", 20, "two⏎lines"],
  ])("should clip %p to %p", (s, n, want) => {
    expect(clip(s, n)).toBe(want);
    expect(visibleWidth(clip(s, n))).toBeLessThanOrEqual(n);
  });
});

describe("parseArgv", () => {
  it("should reject unknown flags instead of ignoring them", () => {
    const res = parseArgv(["--nope"], { json: { type: "boolean" } });
    expect(res.ok).toBe(false);
  });

  it("should collect positionals and repeated options", () => {
    const res = parseArgv(["a", "--rules", "x", "--rules", "y"], { rules: { type: "string", multiple: true } });
    expect(res).toEqual({ ok: true, values: { rules: ["x", "y"] }, positionals: ["a"] });
  });
});
