/** @module unit tests: Codex hook JSON <-> Shepherd events and decisions. */
import { describe, expect, it } from "bun:test";
import type { Decision } from "../engine/schema.ts";
import { emptyDecision } from "./agent-adapter.ts";
import { codexAdapter, exitCodeFromTranscript } from "./codex.ts";

const base = { session_id: "s1", transcript_path: "/rollout.jsonl", cwd: "/proj", turn_id: "t" };
const decision = (d: Partial<Decision>): Decision => ({ ...emptyDecision(), ...d });
const completed = (id: string, exit: number) =>
  JSON.stringify({ type: "event_msg", payload: { type: "item_completed", item: { type: "CommandExecution", id, status: exit ? "failed" : "completed", exit_code: exit } } });

describe("exitCodeFromTranscript", () => {
  const tail = ['{"cut in half', completed("call_1", 0), completed("call_2", 2), ""].join("\n");
  const cases: [string, string, number | undefined][] = [
    ["a successful call", "call_1", 0],
    ["a failed call", "call_2", 2],
    ["an unknown call", "call_9", undefined],
  ];
  for (const [name, id, want] of cases) it(`should find the exit code of ${name}`, () => expect(exitCodeFromTranscript(tail, id)).toBe(want));
});

describe("codexAdapter.parse", () => {
  const post = { ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls /x" }, tool_use_id: "call_2", tool_response: "ls: no\n" };
  it("should read a failed call's exit code from the transcript", () => {
    const io = { readFileTail: (p: string) => (p === "/rollout.jsonl" ? completed("call_2", 2) : undefined) };
    const p = codexAdapter.parse(post, {}, io);
    expect(p.events[0]?.result).toEqual({ text: "ls: no\n", isError: true });
    expect(p.events[0]?.session.agent).toBe("codex");
  });

  it("should treat a call as successful when no transcript says otherwise", () => {
    expect(codexAdapter.parse(post, {}, { readFileTail: () => undefined }).events[0]?.result?.isError).toBe(false);
  });

  it("should fall back to the exit code in the output header", () => {
    const p = codexAdapter.parse({ ...post, tool_response: "Process exited with code 3\nOutput:\n" }, {});
    expect(p.events[0]?.result?.isError).toBe(true);
  });
});

describe("codexAdapter.answer", () => {
  const pre = codexAdapter.parse({ ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "x" } }, {});
  const answer = (d: Decision): unknown => JSON.parse(codexAdapter.answer(pre, d).stdout);
  const cases: [string, Decision, unknown][] = [
    ["deny a block", decision({ action: "block", reason: "R" }), { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "R" } }],
    ["deny an ask (Codex cannot ask)", decision({ action: "ask", reason: "R" }), { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "R" } }],
    [
      "allow with updatedInput for a rewrite",
      decision({ action: "rewrite", input: { command: "y" } }),
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "y" } } },
    ],
    ["say nothing when nothing fired", decision({}), {}],
  ];
  for (const [name, d, want] of cases) it(`should ${name}`, () => expect(answer(d)).toEqual(want));

  it("should block a Stop once, like Claude Code", () => {
    const stop = codexAdapter.parse({ ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "done" }, {});
    expect(JSON.parse(codexAdapter.answer(stop, decision({ notify: ["commit"] })).stdout)).toEqual({ decision: "block", reason: "commit" });
  });
});
