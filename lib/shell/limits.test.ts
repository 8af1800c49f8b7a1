/**
 * @module tests of the shell analysis caps and of its linear cost: hostile lines from the model must be
 * read (or judged too complex) with work proportional to their length, never silently passed.
 */
import { describe, expect, it } from "bun:test";
import { compileCommandCondition, MISMATCH, PARSE_CACHE, parseCacheSize, parseShell } from "./index.ts";
import { SHELL_LIMITS } from "./limits.ts";
import { parseShellLine } from "./parse.ts";
import type { ParseResult } from "./types.ts";

const opts = { cwd: "/home/u/proj", home: "/home/u" };
const ctx = { cwd: "/home/u/proj", projectRoot: "/home/u/proj", home: "/home/u" };

/** Argv words the result holds in all: what copying per wrapper or per stage would make quadratic. */
function argvWords(r: ParseResult): number {
  return r.commands.reduce((n, c) => n + c.argv.length, 0);
}

function timed(command: string): { r: ParseResult; ms: number } {
  const t0 = performance.now();
  const r = parseShellLine(command, opts);
  return { r, ms: performance.now() - t0 };
}

const rmHome = (r: ParseResult) => r.commands.some((c) => c.argv.join(" ") === "rm -rf /home/u");

function nestedShC(levels: number): string {
  let s = "rm -rf ~";
  for (let i = 0; i < levels; i++) s = `sh -c "$(${s})"`;
  return s;
}

describe("parseShellLine on long wrapper chains", () => {
  const cases: [string, string][] = [
    ["64 KB of `command `", `${"command ".repeat(8192)}rm -rf ~`],
    ["150 KB of `sudo `", `${"sudo ".repeat(30_000)}rm -rf ~`],
    ["about 1 MiB of env wrappers", `${"env LONG_VARIABLE_NAME_TO_FILL_THE_LINE_UP=1 ".repeat(22_000)}rm -rf ~`],
  ];
  it.each(cases)("should still see rm -rf ~ behind %s, with linear work and a limit noted", (_name, command) => {
    const { r, ms } = timed(command);
    expect(rmHome(r)).toBe(true);
    expect(r.limit).toContain(`more than ${SHELL_LIMITS.maxWrappers} wrappers`);
    const words = command.split(" ").length;
    // Recording every wrapper with the words after it was n²/2 words; now at most the cap's worth of copies.
    expect(argvWords(r)).toBeLessThanOrEqual((SHELL_LIMITS.maxWrappers + 2) * words);
    expect(r.commands.length).toBeLessThanOrEqual(SHELL_LIMITS.maxWrappers + 1);
    expect(ms).toBeLessThan(1000);
  });

  it("should record up to the cap of wrappers one by one, with no limit", () => {
    const r = parseShellLine(`${"sudo ".repeat(SHELL_LIMITS.maxWrappers - 1)}rm -rf ~`, opts);
    expect(r.limit).toBeUndefined();
    expect(r.commands.map((c) => c.program)).toEqual([...Array(SHELL_LIMITS.maxWrappers - 1).fill("sudo"), "rm"]);
  });

  it("should cap find -exec nesting", () => {
    const r = parseShellLine(`${"find . -exec ".repeat(5000)}rm {} ;`, opts);
    expect(r.limit).toContain("find -exec nested");
    expect(argvWords(r)).toBeLessThanOrEqual((SHELL_LIMITS.maxWrappers + 2) * 15_003);
  });
});

describe("parseShellLine on long lists and pipelines", () => {
  it("should share the pipeTo lists of a long pipeline instead of building one per stage", () => {
    const { r, ms } = timed(`curl x | ${"cat | ".repeat(9000)}sh`);
    expect(r.limit).toBeUndefined();
    expect(r.commands[0]?.pipeTo).toEqual(["cat", "sh"]);
    expect(new Set(r.commands.map((c) => c.pipeTo)).size).toBeLessThanOrEqual(3);
    expect(ms).toBeLessThan(1000);
  });

  it("should cap the distinct programs a stage feeds, and note it", () => {
    const r = parseShellLine(Array.from({ length: 200 }, (_, i) => `p${i}`).join(" | "), opts);
    expect(r.limit).toContain("feeds more than");
    expect(Math.max(...r.commands.map((c) => c.pipeTo.length))).toBe(SHELL_LIMITS.maxPipeTo);
  });

  it("should read 10,000 `;`-separated commands, the last one included", () => {
    const { r, ms } = timed(`${"ls; ".repeat(9999)}rm -rf ~`);
    expect(r.limit).toBeUndefined();
    expect(r.commands).toHaveLength(10_000);
    expect(rmHome(r)).toBe(true);
    expect(ms).toBeLessThan(1000);
  });

  it("should stop past 10,000 simple commands and keep those read", () => {
    const r = parseShellLine(`rm -rf ~; ${"ls; ".repeat(12_000)}`, opts);
    expect(r.limit).toContain(`more than ${SHELL_LIMITS.maxCommands} simple commands`);
    expect(r.commands).toHaveLength(SHELL_LIMITS.maxCommands);
    expect(rmHome(r)).toBe(true);
  });

  it("should follow a cd chain without growing the cwd past PATH_MAX", () => {
    const { r, ms } = timed(`${"cd a && ".repeat(5000)}rm -rf *`);
    expect(r.limit).toContain("cd goes deeper than");
    expect(Math.max(...r.commands.map((c) => c.cwd.length))).toBeLessThanOrEqual(SHELL_LIMITS.maxCwd);
    // Past the cap the cwd is unknowable, never a wrong directory.
    expect(r.commands.at(-1)?.cwd).toBe("");
    expect(ms).toBeLessThan(1000);
  });

  it("should still follow a short cd chain exactly", () => {
    const r = parseShellLine(`${"cd a && ".repeat(3)}rm -rf *`, opts);
    expect(r.limit).toBeUndefined();
    expect(r.commands.at(-1)?.cwd).toBe("/home/u/proj/a/a/a");
  });
});

describe("parseShellLine at the hard caps", () => {
  const cases: [string, string, string][] = [
    ["a line over 1 MiB", `echo ${"a".repeat(SHELL_LIMITS.maxLength)}`, "characters, over"],
    ["100,000 pipes", `${"cat | ".repeat(100_000)}rm -rf ~`, `more than ${SHELL_LIMITS.maxWords} words`],
    ["200 nested sh -c levels", nestedShC(200), "nested more than 64 deep"],
    ["200 stacked evals", `${"eval ".repeat(200)}rm -rf ~`, "scripts nested more than 8 deep"],
    ["a variable doubled 40 times", `X=abcd; ${"X=$X$X; ".repeat(40)}echo $X`, "variables expand to more than"],
    ["subshells 100 deep", `${"( ".repeat(100)}ls${" )".repeat(100)}`, "subshells nested more than"],
    ["100,000 `2>&1`", `ls ${"2>&1 ".repeat(100_000)}`, `more than ${SHELL_LIMITS.maxWords} words`],
  ];
  it.each(cases)("should judge %s too complex, quickly", (_name, command, note) => {
    const { r, ms } = timed(command);
    expect(r.limit).toStartWith("too complex to analyse: ");
    expect(r.limit).toContain(note);
    expect(ms).toBeLessThan(1000);
  });

  it("should read a harmless line just under 1 MiB whole", () => {
    const { r, ms } = timed(`echo ${"a".repeat(SHELL_LIMITS.maxLength - 10)}`);
    expect(r.limit).toBeUndefined();
    expect(r.commands).toHaveLength(1);
    expect(ms).toBeLessThan(1000);
  });

  it("should keep scopes apart without copying them: a subshell's assignment does not leak", () => {
    const r = parseShellLine("X=rm; (X=ls; unset X); (Y=1); $X -rf ~", opts);
    expect(r.commands.map((c) => c.argv.join(" "))).toEqual(["unset X", "rm -rf /home/u"]);
  });

  it("should apply the caps to the fallback split too", () => {
    const r = parseShellLine(`${"command ".repeat(8192)}rm -rf ~ 'unterminated`, opts);
    expect(r.fallback).toBe(true);
    expect(r.limit).toContain("wrappers");
    expect(r.commands.some((c) => c.program === "rm")).toBe(true);
  });
});

describe("the tooComplex condition", () => {
  const tooComplex = compileCommandCondition({ program: "*", tooComplex: true });
  it.each([
    ["a line over 1 MiB, of which nothing was read", `echo ${"a".repeat(SHELL_LIMITS.maxLength)}`, true],
    ["a line over the wrapper cap", `${"sudo ".repeat(20)}ls`, true],
    ["an ordinary line", "sudo env X=1 nice -n 5 ls", false],
    ["a line that is not valid shell but within the caps", "echo 'oops", false],
  ] as const)("should hold for %s: %p", (_name, command, holds) => {
    expect(tooComplex(command, ctx, false) === undefined).toBe(holds);
  });

  it("should check the other keys against the commands read before the cap", () => {
    const rm = compileCommandCondition({ program: "rm", tooComplex: true });
    expect(rm(`${"sudo ".repeat(20)}rm x`, ctx)).toBeUndefined();
    expect(rm(`${"sudo ".repeat(20)}ls x`, ctx, false)).toBe(MISMATCH);
  });

  it("should tell why another rule saw no match on a line over the caps", () => {
    const dd = compileCommandCondition({ program: "dd" });
    expect(dd(`${"sudo ".repeat(20)}ls`, ctx)).toContain("judged unparsable, too complex to analyse");
  });
});

describe("parseShell's cache", () => {
  it("should stay within its byte budget and not keep long lines", () => {
    for (let i = 0; i < 300; i++) parseShell(`echo ${i} ${"ab ".repeat(4000)}`, opts);
    const size = parseCacheSize();
    expect(size.bytes).toBeLessThanOrEqual(PARSE_CACHE.maxBytes);
    expect(size.entries).toBeGreaterThan(0);
    expect(size.entries).toBeLessThanOrEqual(PARSE_CACHE.maxEntries);
    const before = parseCacheSize().entries;
    parseShell(`echo ${"x".repeat(PARSE_CACHE.maxLine)}`, opts);
    parseShell("ls", opts);
    expect(parseCacheSize().entries).toBeLessThanOrEqual(before + 1);
  });

  it("should evict the least recently used line first", () => {
    const first = parseShell("git status --first", opts);
    const filler0 = parseShell("echo filler 0", opts);
    for (let i = 1; i <= PARSE_CACHE.maxEntries * 2; i++) {
      parseShell(`echo filler ${i}`, opts);
      // Used again between the others: it stays the most recently used, and cached.
      expect(parseShell("git status --first", opts)).toBe(first);
    }
    expect(parseShell("echo filler 0", opts)).not.toBe(filler0);
  });
});

describe("parseShellLine on brace expansion", () => {
  it("should expand a short word's groups into its words", () => {
    const r = parseShell("rm -rf {~,/tmp/x} a{b,c}d", opts);
    expect(r.commands[0]?.argv).toEqual(["rm", "-rf", "/home/u", "/tmp/x", "abd", "acd"]);
    expect(r.limit).toBeUndefined();
  });

  it.each([
    ["a word of 200,000 groups", `echo ${"{a,b}".repeat(200_000)}`],
    ["a word of nine groups", `echo ${"{a,b}".repeat(9)}`],
    ["50,000 nested groups", `echo ${"{a,".repeat(50_000)}b${"}".repeat(50_000)}`],
  ])("should judge %s too complex without expanding it", (_name, line) => {
    const r = parseShell(line, opts);
    expect(r.limit).toMatch(/brace/);
    expect(argvWords(r)).toBeLessThan(10);
  });
});

describe("parseShellLine on the new constructs at scale", () => {
  it("should feed a 5,000-stage pipeline of groups without copying it per stage", () => {
    const r = parseShell(`${"{ a; } | ".repeat(5000)}sh`, opts);
    expect(r.commands.length).toBe(5001);
    expect(r.commands[0]?.pipeTo).toContain("sh");
  });

  it("should judge inline code over 64 KiB too complex without scanning it", () => {
    const r = parseShell(`tclsh -c '"${"a".repeat(400_000)}'`, opts);
    expect(r.limit).toMatch(/inline code/);
  });
});

describe("PowerShell and cmd.exe pipelines at scale", () => {
  const ps = { ...opts, dialect: "powershell" as const };

  it("should share one pipeTo list across a 5,000-stage PowerShell pipeline of one program", () => {
    const r = parseShell(`iwr x | ${"Get-ChildItem | ".repeat(5000)}iex`, ps);
    expect(r.limit).toBeUndefined();
    expect(r.commands[0]?.pipeTo[0]).toBe("get-childitem");
    expect(r.commands[0]?.pipeTo).toContain("iex");
    // Before, each stage copied every later stage's name: 5,000 lists holding 12.5 million names.
    expect(new Set(r.commands.map((c) => c.pipeTo)).size).toBeLessThanOrEqual(3);
    expect(r.commands.reduce((n, c) => n + c.pipeTo.length, 0)).toBeLessThan(5 * 5002);
  });

  it("should do the same for a 5,000-stage cmd.exe pipeline", () => {
    const r = parseShell(`cmd /c "type x | ${"find y | ".repeat(5000)}more"`, opts);
    expect(r.limit).toBeUndefined();
    expect(new Set(r.commands.map((c) => c.pipeTo)).size).toBeLessThanOrEqual(4);
  });

  it("should cap a PowerShell stage's distinct programs and note it", () => {
    const r = parseShell(Array.from({ length: 200 }, (_, i) => `p${i}`).join(" | "), ps);
    expect(r.limit).toContain("feeds more than");
    expect(Math.max(...r.commands.map((c) => c.pipeTo.length))).toBe(SHELL_LIMITS.maxPipeTo);
  });

  it("should keep the next stage first when programs alternate", () => {
    const r = parseShell(`${"Get-ChildItem | Sort-Object | ".repeat(2000)}iex`, ps);
    expect(r.limit).toBeUndefined();
    for (const [k, c] of r.commands.slice(0, -1).entries()) expect(c.pipeTo[0]).toBe(r.commands[k + 1]?.program);
    expect(Math.max(...r.commands.map((c) => c.pipeTo.length))).toBe(3);
  });
});
