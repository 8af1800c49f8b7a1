/** @module unit tests: `pack add` puts a pack into `extends` without losing the file's comments or rules. */
import { describe, expect, it } from "bun:test";
import { parse } from "jsonc-parser";
import { addToExtends } from "./extends-edit.ts";

describe("addToExtends", () => {
  it.each([
    ["a new file", undefined, { extends: ["p"], rules: [] }],
    ["an array file", '[{"name":"a","action":"block","pattern":"x"}]', { extends: ["p"], rules: [{ name: "a", action: "block", pattern: "x" }] }],
    ["an object without extends", '{\n  // keep me\n  "rules": []\n}', { extends: ["p"], rules: [] }],
    ["an object extending others", '{"extends": ["q", {"pack": "r", "mode": "shadow"}], "rules": []}', { extends: ["q", { pack: "r", mode: "shadow" }, "p"], rules: [] }],
  ])("should add the pack to %s", (_why, text, want) => {
    const r = addToExtends(text, "p");
    if (!r.ok) throw new Error(r.message);
    expect(r.changed).toBe(true);
    expect(parse(r.text)).toEqual(want);
    if (text?.includes("keep me")) expect(r.text).toContain("// keep me");
  });

  it("should change nothing when the pack is there, and refuse a file that does not parse", () => {
    expect(addToExtends('{"extends": [{"pack": "p"}], "rules": []}', "p")).toMatchObject({ ok: true, changed: false });
    expect(addToExtends("{bad", "p").ok).toBe(false);
    expect(addToExtends('{"extends": "p", "rules": []}', "q").ok).toBe(false);
  });
});
