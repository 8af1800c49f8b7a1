/** @module unit tests for how each hook adapter delivers a redaction: replaced output where the agent allows it, else a notice. */
import { describe, expect, it } from "bun:test";
import { makeEvaluator, ruleSetOf } from "../engine/test-helpers.ts";
import type { AgentAdapter } from "./agent-adapter.ts";
import { claudeCodeAdapter } from "./claude-code.ts";
import { codexAdapter } from "./codex.ts";
import { geminiAdapter } from "./gemini.ts";

const TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const rules = ruleSetOf({ builtin: [{ name: "redact-secrets", hook: "tool_result", tool: "*", action: "redact" }] });

async function answer(adapter: AgentAdapter, raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const parsed = adapter.parse({ session_id: "s1", cwd: "/proj", ...raw }, {});
  const { run } = makeEvaluator(rules);
  const event = parsed.events[0];
  if (!event) throw new Error("no event");
  const out = adapter.answer(parsed, await run(event));
  return JSON.parse(out.stdout) as Record<string, unknown>;
}

describe("adapter answers to a redaction", () => {
  it("should replace a Claude Code Bash output with the same shape, redacted, and tell the model", async () => {
    const out = await answer(claudeCodeAdapter, { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "cat .env" }, tool_response: { stdout: `T=${TOKEN}`, stderr: "", interrupted: false } });
    const hso = out.hookSpecificOutput as Record<string, unknown>;
    expect(hso.updatedToolOutput).toEqual({ stdout: "T=[REDACTED:github-token]", stderr: "", interrupted: false });
    expect(hso.updatedMCPToolOutput).toBeUndefined();
    expect(String(hso.additionalContext)).toContain("Shepherd redacted 1 secret (github-token)");
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it("should set both output fields for a Claude Code MCP tool", async () => {
    const response = [{ type: "text", text: `key ${TOKEN}` }];
    const out = await answer(claudeCodeAdapter, { hook_event_name: "PostToolUse", tool_name: "mcp__gh__get", tool_input: {}, tool_response: response });
    const hso = out.hookSpecificOutput as Record<string, unknown>;
    expect(hso.updatedMCPToolOutput).toEqual([{ type: "text", text: "key [REDACTED:github-token]" }]);
    expect(hso.updatedToolOutput).toEqual(hso.updatedMCPToolOutput);
  });

  it("should only flag a failed Claude Code call (PostToolUseFailure cannot replace)", async () => {
    const out = await answer(claudeCodeAdapter, { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: {}, error: `exit 1: ${TOKEN}` });
    const hso = out.hookSpecificOutput as Record<string, unknown>;
    expect(hso.updatedToolOutput).toBeUndefined();
    expect(String(hso.additionalContext)).toContain("could not be hidden from you");
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it.each([
    ["a shell call, only flagged", "Bash", `T=${TOKEN}`, false],
    ["an MCP call, replaced", "mcp__gh__get", { content: `T=${TOKEN}` }, true],
  ] as const)("should answer Codex for %s", async (_, tool, response, replaced) => {
    const out = await answer(codexAdapter, { hook_event_name: "PostToolUse", tool_name: tool, tool_input: {}, tool_response: response });
    const hso = out.hookSpecificOutput as Record<string, unknown>;
    expect(hso.updatedToolOutput).toBeUndefined();
    expect(hso.updatedMCPToolOutput !== undefined).toBe(replaced);
    expect(String(hso.additionalContext)).toContain(replaced ? "Shepherd redacted" : "could not be hidden");
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it("should answer Gemini's AfterTool with a deny whose reason is the redacted output", async () => {
    const out = await answer(geminiAdapter, { hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "cat .env" }, tool_response: { llmContent: `T=${TOKEN}`, returnDisplay: `T=${TOKEN}` } });
    expect(out.decision).toBe("deny");
    expect(String(out.reason)).toStartWith("T=[REDACTED:github-token]");
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it("should add nothing when the output holds no secret", async () => {
    const out = await answer(claudeCodeAdapter, { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: {}, tool_response: { stdout: "ok", stderr: "" } });
    expect(out).toEqual({});
  });
});
