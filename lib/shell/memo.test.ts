import { describe, expect, it } from "bun:test";
import { effectsOf, onlyPrintsHelp } from "./effects.ts";
import { analyze } from "./flags.ts";
import { memoOf } from "./memo.ts";
import { parseShellLine } from "./parse.ts";
import type { SimpleCommand } from "./types.ts";

const opts = { cwd: "/home/user/project", home: "/home/user" };
const first = (line: string): SimpleCommand => parseShellLine(line, opts).commands[0] as SimpleCommand;

describe("memoOf", () => {
  it("should keep a command's analyses on the command, computed once", () => {
    const cmd = first("rm -rf ~/x");
    const effects = effectsOf(cmd);
    expect(effects.map((e) => e.kind)).toContain("delete");
    expect(effectsOf(cmd)).toBe(effects);
    expect(analyze(cmd)).toBe(analyze(cmd));
    expect(memoOf(cmd).owner).toBe(cmd);
  });

  it("should not hand a spread copy its original's analyses", () => {
    const cmd = first("rm -rf ~/x");
    effectsOf(cmd);
    analyze(cmd);
    onlyPrintsHelp(cmd);
    const copy: SimpleCommand = { ...cmd, argv: ["ls", "--help"], dynamic: [false, false], program: "ls" };
    expect(copy.memo?.owner).toBe(cmd);
    expect(onlyPrintsHelp(copy)).toBe(true);
    expect(effectsOf(copy)).toEqual([]);
    expect(analyze(copy).positional).toEqual([]);
    expect(memoOf(copy).owner).toBe(copy);
    // The original's memo is its own still.
    expect(effectsOf(cmd).map((e) => e.kind)).toContain("delete");
    expect(onlyPrintsHelp(cmd)).toBe(false);
  });
});
