import { describe, expect, it } from "bun:test";
import { makeEvaluator, ruleSetOf } from "./test-helpers.ts";
import type { HookEvent } from "./schema.ts";
import { isToolGlob, toolGlobTest } from "./tools.ts";

function call(name: string, input: Record<string, unknown>, parentCallId?: string): HookEvent {
  return { hook: "tool_call", session: { id: "s1", cwd: "/proj" }, tool: { name, input, ...(parentCallId ? { parentCallId } : {}) } };
}

describe("tool globs", () => {
  it.each([
    ["mcp__github__*", "mcp__github__create_issue", true],
    ["mcp__github__*", "mcp__github__", true],
    ["mcp__github__*", "mcp__gitlab__create_issue", false],
    ["mcp__github__*", "xmcp__github__a", false],
    ["mcp__*__delete_*", "mcp__jira__delete_issue", true],
    ["mcp__a.b__*", "mcp__aXb__x", false],
    ["mcp__a.b__*", "mcp__a.b__x", true],
  ] as const)("should match %p against %p as %p", (glob, tool, expected) => {
    expect(isToolGlob(glob)).toBe(true);
    expect(toolGlobTest(glob)(tool)).toBe(expected);
  });

  it("should not count a lone * or a plain name as a glob", () => {
    expect(isToolGlob("*")).toBe(false);
    expect(isToolGlob("bash")).toBe(false);
  });

  it("should evaluate an MCP tool by a glob rule and a condition on its input, in definition order", async () => {
    const rules = ruleSetOf({
      global: [
        { name: "gh-prod", tool: "mcp__github__*", action: "block", conditions: [{ field: "repo", pattern: "^acme/prod$" }], reason: "not prod: {{tool}}" },
        { name: "gh-note", tool: ["mcp__github__create_issue", "mcp__github__*"], action: "notify", reason: "github call" },
      ],
    });
    const { run } = makeEvaluator(rules);
    const blocked = await run(call("mcp__github__create_issue", { repo: "acme/prod", title: "x" }));
    expect(blocked).toMatchObject({ action: "block", reason: "not prod: mcp__github__create_issue" });
    const noted = await run(call("mcp__github__create_issue", { repo: "acme/dev" }));
    expect(noted).toMatchObject({ action: "allow", notify: ["github call"] });
    expect(noted.fired).toEqual([{ rule: "gh-note", source: "global", action: "notify" }]);
    expect((await run(call("mcp__gitlab__create_issue", { repo: "acme/prod" }))).action).toBe("allow");
    // Claude Code spells MCP tools the same way; tool names are matched case-insensitively.
    expect((await run(call("MCP__GitHub__list", { repo: "acme/prod" }))).action).toBe("block");
  });

  it("should let a rule tell a nested call (parentCallId) from a top-level one", async () => {
    const rules = ruleSetOf({ global: [{ name: "no-nested-bash", tool: "bash", action: "block", conditions: [{ field: "parentCallId", pattern: "." }], reason: "not from a script" }] });
    const { run } = makeEvaluator(rules);
    expect((await run(call("bash", { command: "ls" }, "call_0_0"))).action).toBe("block");
    expect((await run(call("bash", { command: "ls" }))).action).toBe("allow");
  });

  it("should judge powershell by the bash rules too, and let a rule name powershell alone", async () => {
    const rules = ruleSetOf({
      global: [
        { name: "bash-rm", action: "block", pattern: "Remove-Item", reason: "bash rule" },
        { name: "ps-get", tool: "powershell", action: "block", pattern: "Get-Secret", reason: "powershell rule" },
      ],
    });
    const { run } = makeEvaluator(rules);
    expect(await run(call("powershell", { command: "Remove-Item -Recurse C:\\x" }))).toMatchObject({ action: "block", reason: "bash rule" });
    expect(await run(call("powershell", { command: "Get-Secret x" }))).toMatchObject({ action: "block", reason: "powershell rule" });
    expect((await run(call("bash", { command: "Get-Secret x" }))).action).toBe("allow");
    expect((await run(call("powershell", { command: "Get-ChildItem" }))).action).toBe("allow");
  });
});
