import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { runsOtherNames } from "./unwrap.ts";

const src = readFileSync(new URL("./unwrap.ts", import.meta.url), "utf8");

/** The text of a function from its signature to the first closing brace at column 0. */
function body(signature: string, from = 0): string {
  const at = src.indexOf(signature, from);
  expect(at).toBeGreaterThan(0);
  return src.slice(at, src.indexOf("\n}\n", at));
}

/** The program-specific part of runsOther (past its dispatch line) and launcherScript, which it calls. */
const dispatched = () => {
  const run = body("function runsOther(");
  return run.slice(run.indexOf("if (!runsOtherNames(p))")) + body("function launcherScript(");
};

describe("runsOtherNames", () => {
  it("should admit every program runsOther's branches and launcherScript compare by name", () => {
    const text = dispatched();
    const names = [...new Set([...text.matchAll(/\b(?:p|win) === "([^"]+)"/g)].map((m) => m[1] ?? ""))];
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((n) => !runsOtherNames(n))).toEqual([]);
  });

  it("should name in the dispatch every set those branches test the program against", () => {
    const sets = [...new Set([...dispatched().matchAll(/\b([A-Z_]+)\.has\(p\)/g)].map((m) => m[1] ?? ""))].sort();
    expect(sets.filter((s) => !["AWK", "EDITORS", "REMOTE", "SHELLS"].includes(s))).toEqual([]);
  });

  it.each([["ls", false], ["cat", false], ["bash", true], ["PowerShell.exe", true], ["kubectl", true], ["vim", true], ["gawk", true]] as const)("should answer %s with %p", (p, want) => {
    expect(runsOtherNames(p)).toBe(want);
  });
});
