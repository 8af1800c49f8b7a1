/** @module Unit tests of the one tool vocabulary table: OpenCode's names and input fields land on Shepherd's. */
import { describe, expect, it } from "bun:test";
import { normalizeToolName, pathOf, targetPathsOf, textOf } from "./tools.ts";

describe("normalizeToolName", () => {
  it.each([
    ["bash", "bash"],
    ["edit", "edit"],
    ["multiedit", "edit"],
    ["apply_patch", "edit"],
    ["patch", "edit"],
    ["write", "write"],
    ["read", "read"],
    ["grep", "grep"],
    ["glob", "find"],
    ["list", "ls"],
    ["webfetch", "webfetch"],
  ])("should map OpenCode's %s onto %s", (name, expected) => {
    expect(normalizeToolName(name)).toBe(expected);
  });
});

describe("OpenCode's input fields", () => {
  it("should read an edit's filePath and newString", () => {
    const input = { filePath: "/p/a.ts", oldString: "x", newString: "y" };
    expect(pathOf(input)).toBe("/p/a.ts");
    expect(textOf(input)).toBe("y");
  });

  it("should read a multiedit's new strings", () => {
    expect(textOf({ filePath: "/p/a.ts", edits: [{ oldString: "a", newString: "b" }, { oldString: "c", newString: "d" }] })).toBe("b\nd");
  });

  it("should find the files an apply_patch names in patchText", () => {
    const patchText = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** Add File: src/b.ts\n+x\n*** End Patch";
    expect(targetPathsOf({ patchText })).toEqual(["src/a.ts", "src/b.ts"]);
  });
});
