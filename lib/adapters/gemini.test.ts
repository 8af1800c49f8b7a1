/** @module unit tests: Gemini CLI hook JSON <-> Shepherd events and decisions. */
import { describe, expect, it } from "bun:test";
import type { Decision } from "../engine/schema.ts";
import { AdapterInputError, emptyDecision } from "./agent-adapter.ts";
import { geminiAdapter, geminiToolResult } from "./gemini.ts";

const base = { session_id: "g1", transcript_path: "/t.json", cwd: "/proj/sub", timestamp: "2026-01-01T00:00:00Z" };
const env = { GEMINI_PROJECT_DIR: "/proj" };
const decision = (d: Partial<Decision>): Decision => ({ ...emptyDecision(), ...d });

describe("geminiToolResult", () => {
  const cases: [string, unknown, { text: string; isError: boolean }][] = [
    ["a successful shell call", { llmContent: "<untrusted_context>\nOutput: hi\nProcess Group PGID: 1\n</untrusted_context>" }, { text: "Output: hi\nProcess Group PGID: 1", isError: false }],
    ["a non-zero exit code", { llmContent: "Output: no\nExit Code: 2" }, { text: "Output: no\nExit Code: 2", isError: true }],
    ["an explicit error", { llmContent: "x", error: { message: "boom" } }, { text: "x\nboom", isError: true }],
    ["a list of parts", { llmContent: [{ text: "a" }, { text: "b" }] }, { text: "a\nb", isError: false }],
  ];
  for (const [name, input, want] of cases) it(`should read ${name}`, () => expect(geminiToolResult(input)).toEqual(want));
});

describe("geminiAdapter.parse", () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ["BeforeTool", { hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "ls" } }, ["tool_call"]],
    ["AfterTool", { hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: {}, tool_response: { llmContent: "" } }, ["tool_result"]],
    ["BeforeAgent", { hook_event_name: "BeforeAgent", prompt: "p" }, ["input"]],
    ["AfterAgent", { hook_event_name: "AfterAgent", prompt: "p", prompt_response: "done" }, ["message_end", "agent_end"]],
    ["SessionStart", { hook_event_name: "SessionStart", source: "startup" }, ["session_start"]],
    ["SessionEnd", { hook_event_name: "SessionEnd", reason: "exit" }, ["session_shutdown"]],
    ["BeforeModel (no rules)", { hook_event_name: "BeforeModel" }, []],
  ];
  for (const [name, raw, hooks] of cases) {
    it(`should map ${name}`, () => {
      const p = geminiAdapter.parse({ ...base, ...raw }, env);
      expect(p.events.map((e): string => e.hook)).toEqual(hooks);
      for (const e of p.events) expect(e.session).toEqual({ id: "g1", cwd: "/proj", agent: "gemini" });
    });
  }

  it("should reject input without a session id", () => {
    expect(() => geminiAdapter.parse({ hook_event_name: "BeforeTool" }, env)).toThrow(AdapterInputError);
  });
});

describe("geminiAdapter.answer", () => {
  const p = (raw: Record<string, unknown>) => geminiAdapter.parse({ ...base, ...raw }, env);
  const before = p({ hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "x" } });
  const cases: [string, Decision, unknown][] = [
    ["deny a block", decision({ action: "block", reason: "R" }), { decision: "deny", reason: "R" }],
    ["deny an ask", decision({ action: "ask", reason: "R" }), { decision: "deny", reason: "R" }],
    ["replace the input for a rewrite", decision({ action: "rewrite", input: { command: "y" } }), { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "y" } } }],
    ["say nothing when nothing fired", decision({}), {}],
  ];
  for (const [name, d, want] of cases) it(`should ${name}`, () => expect(JSON.parse(geminiAdapter.answer(before, d).stdout)).toEqual(want));

  it("should append reminders to a tool result", () => {
    const after = p({ hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: {}, tool_response: { llmContent: "" } });
    expect(JSON.parse(geminiAdapter.answer(after, decision({ steer: ["S"] })).stdout)).toEqual({ hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "S" } });
  });

  it("should retry an AfterAgent once with the wrap-up reminder", () => {
    const first = p({ hook_event_name: "AfterAgent", stop_hook_active: false });
    const second = p({ hook_event_name: "AfterAgent", stop_hook_active: true });
    expect(JSON.parse(geminiAdapter.answer(first, decision({ notify: ["commit"] })).stdout)).toEqual({ decision: "deny", reason: "commit" });
    expect(JSON.parse(geminiAdapter.answer(second, decision({ notify: ["commit"] })).stdout)).toEqual({ systemMessage: "commit" });
  });
});
