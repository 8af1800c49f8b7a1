import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { protectedPathsFor } from "./protected-guard.ts";

describe("protectedPathsFor", () => {
  let root: string;
  let home: string;
  let project: string;
  let elsewhere: string;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "shepherd-guard-")));
    home = join(root, "home");
    project = join(root, "project");
    elsewhere = join(root, "elsewhere");
    for (const d of [join(home, ".pi", "agent"), join(project, ".pi"), elsewhere]) mkdirSync(d, { recursive: true });
    writeFileSync(join(home, ".pi", "agent", "shepherd-rules.json"), "{}");
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const guard = () => protectedPathsFor({ HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi", "agent") }, project, { projectRulesPattern: "shepherd-rules-*.json", audit: undefined }, process.execPath);
  const rules = () => join(home, ".pi", "agent", "shepherd-rules.json");

  const cases: [string, () => string, boolean][] = [
    ["the protected file itself", () => rules(), true],
    ["a link to the protected file", () => (symlinkSync(rules(), join(elsewhere, "notes.md")), join(elsewhere, "notes.md")), true],
    ["a new file in a linked folder that lands among protected files", () => (symlinkSync(join(home, ".pi", "agent"), join(elsewhere, "agent")), join(elsewhere, "agent", "shepherd-rules.json")), true],
    ["a new file in a folder that exists", () => join(elsewhere, "new.md"), false],
    ["a new file in a folder that does not exist", () => join(elsewhere, "missing", "deeper", "new.md"), false],
    ["a path under a regular file", () => (writeFileSync(join(elsewhere, "file"), "x"), join(elsewhere, "file", "below.md")), false],
    ["a dangling link, judged by its folder", () => (symlinkSync(join(elsewhere, "nowhere"), join(elsewhere, "dangling")), join(elsewhere, "dangling")), false],
    ["a relative path (judged by its text alone)", () => "notes.md", false],
    ["a dangling link to a protected file not there yet (a write creates it)", () => (rmSync(rules()), symlinkSync(rules(), join(elsewhere, "notes.json")), join(elsewhere, "notes.json")), true],
    ["a chain of links ending at a protected file not there yet", () => (rmSync(rules()), symlinkSync(rules(), join(elsewhere, "b")), symlinkSync("b", join(elsewhere, "a")), join(elsewhere, "a")), true],
    ["a relative dangling link into the agent folder", () => (rmSync(rules()), symlinkSync(join("..", "home", ".pi", "agent", "shepherd-rules.json"), join(elsewhere, "rel.json")), join(elsewhere, "rel.json")), true],
    ["a loop of links (a write through it fails)", () => (symlinkSync(join(elsewhere, "y"), join(elsewhere, "x")), symlinkSync(join(elsewhere, "x"), join(elsewhere, "y")), join(elsewhere, "x")), false],
  ];
  it.each(cases)("should answer %s", (_name, make, covered) => {
    expect(guard().covers(make(), false)).toBe(covered);
  });

  it("should see a link made after an earlier answer for the same path", () => {
    const g = guard();
    const p = join(elsewhere, "later.md");
    expect(g.covers(p, false)).toBe(false);
    symlinkSync(rules(), p);
    expect(g.covers(p, false)).toBe(true);
  });
});
