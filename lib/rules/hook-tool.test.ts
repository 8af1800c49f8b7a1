/** @module unit tests: the `shepherd_hook` tool answers Claude Code's `mcp_tool` hooks through the claude-code adapter. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hookToolInputTemplate } from "../adapters/claude-code-mcp.ts";
import { runHookTool } from "./hook-tool.ts";
import { Workspace } from "./workspace.ts";

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "NO-CURL" },
  { name: "rw", action: "rewrite", pattern: "^echo a$", rewrite: { replace: "echo b" } },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "TWO-ERRORS" },
  { name: "wrap", hook: "agent_end", check: "always", action: "notify", reason: "WRAP" },
];

let root = "";
let ws: Workspace;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-hooktool-"));
  ws = new Workspace({ env: { HOME: root, PI_CODING_AGENT_DIR: join(root, "agent") }, cwd: root, watch: false, builtin: [{ file: "rules/t.json", text: JSON.stringify(RULES) }] }, "test");
});
afterEach(() => {
  ws.close();
  rmSync(root, { recursive: true, force: true });
});

/** The arguments as Claude Code fills the template in: strings, objects as JSON, missing fields "". */
function args(json: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(hookToolInputTemplate())) {
    const v = json[key];
    out[key] = v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  }
  return out;
}
const call = async (json: Record<string, unknown>) => {
  const r = await runHookTool(ws, args({ session_id: "s1", cwd: root, ...json }));
  return { isError: r.isError, answer: JSON.parse(r.text) as Record<string, unknown> };
};
const pre = (command: string) => ({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });

describe("runHookTool", () => {
  it("should deny a blocked call with the rule's reason", async () => {
    const r = await call(pre("curl http://x"));
    expect(r).toEqual({ isError: false, answer: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "NO-CURL" } } });
  });

  it("should rewrite a call's input", async () => {
    expect((await call(pre("echo a"))).answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo b" } } });
  });

  it("should answer no opinion as {} (a hook JSON, never read as a failure)", async () => {
    expect(await call(pre("ls"))).toEqual({ isError: false, answer: {} });
    expect(await call({ hook_event_name: "SomeFutureEvent" })).toEqual({ isError: false, answer: {} });
  });

  it("should keep counters across calls of one session in memory", async () => {
    const fail = { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, error: "exit 1" };
    expect(JSON.stringify((await call(fail)).answer)).not.toContain("TWO-ERRORS");
    expect(JSON.stringify((await call(fail)).answer)).toContain("TWO-ERRORS");
    expect(ws.sessions.peek("s1")?.errors).toBe(2);
  });

  it("should block a Stop once with the wrap-up, and let the forced continuation stop", async () => {
    expect((await call({ hook_event_name: "Stop", stop_hook_active: false })).answer).toEqual({ decision: "block", reason: "WRAP" });
    expect((await call({ hook_event_name: "Stop", stop_hook_active: true })).answer).toEqual({});
  });

  it("should deny the model's own call of the hook tool", async () => {
    const r = await call({ hook_event_name: "PreToolUse", tool_name: "mcp__shepherd__shepherd_hook", tool_input: { hook_event_name: "Stop" } });
    expect(r.answer.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
  });

  it("should deny a tool call whose input cannot be read, and call anything else unreadable an error", async () => {
    const bad = await runHookTool(ws, { hook_event_name: "PreToolUse", session_id: "s", tool_input: "{oops" });
    expect(JSON.parse(bad.text).hookSpecificOutput.permissionDecision).toBe("deny");
    const noSession = await runHookTool(ws, { hook_event_name: "PostToolUse" });
    expect(noSession.isError).toBe(true);
    expect((await runHookTool(ws, "not an object")).text).toContain("deny");
  });

  it("should answer a permission prompt by rule without counting the call twice", async () => {
    await call(pre("ls"));
    const r = await call({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "curl http://x" } });
    expect(r.answer).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "NO-CURL" } } });
    expect(ws.sessions.peek("s1")?.calls).toBe(1);
  });

  it("should keep a sub-agent's counters apart from its session's", async () => {
    const fail = { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, error: "exit 1" };
    await call(fail);
    await call({ ...fail, agent_id: "a1" });
    expect(ws.sessions.peek("s1")?.errors).toBe(1);
    expect(ws.sessions.peek("s1/agent:a1")?.errors).toBe(1);
  });

  it("should log an event of a newer CLI once, however often it comes", async () => {
    const seen: string[] = [];
    ws.onNotify((_level, message) => seen.push(message));
    for (let i = 0; i < 3; i++) expect((await call({ hook_event_name: "FutureEventForLogTest" })).answer).toEqual({});
    expect(seen.filter((m) => m.includes("FutureEventForLogTest"))).toHaveLength(1);
  });

  it("should forget a session when it ends", async () => {
    await call(pre("ls"));
    expect(ws.sessions.peek("s1")).toBeDefined();
    await call({ hook_event_name: "SessionEnd", reason: "exit" });
    expect(ws.sessions.peek("s1")).toBeUndefined();
  });
});
