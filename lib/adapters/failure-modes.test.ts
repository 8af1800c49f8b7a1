/** @module One table of Shepherd-failure answers, by fail mode and event, run against every hook adapter. */
import { describe, expect, it } from "bun:test";
import type { FailMode } from "../engine/schema-core.ts";
import type { AgentAdapter } from "./agent-adapter.ts";
import { claudeCodeAdapter } from "./claude-code.ts";
import { codexAdapter } from "./codex.ts";
import { geminiAdapter } from "./gemini.ts";

const base = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/proj" };
const inputs: Record<"claude-code" | "codex" | "gemini", { pre: unknown; post: unknown }> = {
  "claude-code": {
    pre: { ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } },
    post: { ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "" } },
  },
  codex: {
    pre: { ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } },
    post: { ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "" } },
  },
  gemini: {
    pre: { ...base, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "ls" } },
    post: { ...base, hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "ls" }, tool_response: { llmContent: "" } },
  },
};

/** What each agent must see: is the pending call denied, and is the run stopped. */
const cases: [FailMode, "pre" | "post", { denied: boolean; stopped: boolean }][] = [
  ["open", "pre", { denied: false, stopped: false }],
  ["open", "post", { denied: false, stopped: false }],
  ["closed", "pre", { denied: true, stopped: false }],
  ["closed", "post", { denied: false, stopped: false }],
  ["halt", "pre", { denied: true, stopped: true }],
  ["halt", "post", { denied: false, stopped: true }],
];

function seen(agent: keyof typeof inputs, stdout: string): { denied: boolean; stopped: boolean } {
  const out: Record<string, unknown> = stdout.trim() === "" ? {} : JSON.parse(stdout);
  const hso = out.hookSpecificOutput as Record<string, unknown> | undefined;
  const denied = agent === "gemini" ? out.decision === "deny" : hso?.permissionDecision === "deny";
  return { denied, stopped: out.continue === false };
}

const adapters: [keyof typeof inputs, AgentAdapter][] = [
  ["claude-code", claudeCodeAdapter],
  ["codex", codexAdapter],
  ["gemini", geminiAdapter],
];

describe.each(adapters)("%s failure", (agent, adapter) => {
  it.each(cases)("should answer failMode %s at a %s-tool event as the table says", (mode, at, expected) => {
    const parsed = adapter.parse(inputs[agent][at], { CLAUDE_PROJECT_DIR: "/proj" });
    const answer = adapter.failure(parsed, "boom", mode);
    expect(answer.exitCode).toBe(0);
    expect(seen(agent, answer.stdout)).toEqual(expected);
    if (expected.stopped) expect(answer.stdout).toContain('failMode is \\"halt\\"');
  });
});
