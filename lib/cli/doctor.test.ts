import { describe, expect, it } from "bun:test";
import { commandBinary, matcherCovers } from "./doctor.ts";

describe("matcherCovers", () => {
  const cases: [string | undefined, string, boolean][] = [
    [undefined, "Bash", true],
    ["", "Bash", true],
    ["*", "mcp__github__create_issue", true],
    [".*", "run_shell_command", true],
    ["Bash", "Bash", true],
    ["Bash", "PowerShell", false],
    ["Bash|Edit|Write", "Edit", true],
    ["Bash|Edit|Write", "MultiEdit", false],
    ["mcp__.*", "mcp__server__tool", true],
    ["Bash(", "Bash", false],
  ];
  it.each(cases)("should read matcher %p for %p as %p", (matcher, tool, want) => {
    expect(matcherCovers(matcher, tool)).toBe(want);
  });
});

describe("commandBinary", () => {
  it.each([
    ["/usr/local/bin/shepherd hook claude-code", "/usr/local/bin/shepherd"],
    ["'/Users/a b/bin/shepherd' hook codex", "/Users/a b/bin/shepherd"],
    ["'/it'\\''s/shepherd' hook gemini", "/it's/shepherd"],
    ["  shepherd hook claude-code", "shepherd"],
  ])("should find the binary of %p", (command, want) => {
    expect(commandBinary(command)).toBe(want);
  });
});
