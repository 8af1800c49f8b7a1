/** @module unit tests: one hook invocation end to end in-process (stdin JSON -> rules -> agent answer). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHook } from "./hook.ts";

let root = "";
let env: Record<string, string> = {};
const rules = [
  { name: "no-rm", action: "block", pattern: "\\brm\\b", reason: "no rm: {{command}}" },
  { name: "errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "two errors now" },
  { name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "commit your edits" },
];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-hook-"));
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  mkdirSync(join(root, "proj"));
  writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify(rules));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

async function hook(agent: string, input: unknown): Promise<{ code: number; out: unknown; err: string }> {
  let out = "";
  let err = "";
  const code = await runHook(agent, {
    env,
    cwd: join(root, "proj"),
    readStdin: () => (typeof input === "string" ? input : JSON.stringify(input)),
    writeOut: (t) => void (out += t),
    writeErr: (t) => void (err += t),
  });
  return { code, out: out ? JSON.parse(out) : undefined, err };
}

const cc = (extra: Record<string, unknown>) => ({ session_id: "s1", cwd: join(root, "proj"), ...extra });

describe("runHook", () => {
  it("should deny a Claude Code Bash call a rule blocks", async () => {
    const r = await hook("claude-code", cc({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf x" } }));
    expect(r.code).toBe(0);
    expect(r.out).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm: rm -rf x" } });
  });

  it("should count errors across separate invocations of one session", async () => {
    const fail = cc({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, error: "Exit code 1" });
    expect((await hook("claude-code", fail)).out).toEqual({});
    expect((await hook("claude-code", fail)).out).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "two errors now" } });
  });

  it("should remind once at Stop after an edit, and not loop", async () => {
    await hook("claude-code", cc({ hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "a", content: "x" }, tool_response: {} }));
    const first = (await hook("claude-code", cc({ hook_event_name: "Stop", stop_hook_active: false }))).out as { decision: string; reason: string };
    expect(first.decision).toBe("block");
    expect(first.reason).toContain("commit your edits");
    expect((await hook("claude-code", cc({ hook_event_name: "Stop", stop_hook_active: true }))).out).toEqual({});
  });

  it("should drop the session state at SessionEnd", async () => {
    await hook("claude-code", cc({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } }));
    await hook("claude-code", cc({ hook_event_name: "SessionEnd", reason: "other" }));
    expect(readdirSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd", "sessions"))).toEqual([]);
  });

  it("should deny a Gemini shell call a rule blocks", async () => {
    const r = await hook("gemini", { session_id: "g", cwd: join(root, "proj"), hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "rm a" } });
    expect(r.out).toEqual({ decision: "deny", reason: "no rm: rm a" });
  });

  it("should exit 1 with a message on input that is not JSON", async () => {
    const r = await hook("codex", "{nope");
    expect(r.code).toBe(1);
    expect(r.err).toContain("not JSON");
  });

  it("should exit 2 for an unknown agent", async () => {
    expect((await hook("cursor", {})).code).toBe(2);
  });
});
