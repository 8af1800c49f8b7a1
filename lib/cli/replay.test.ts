/** @module unit tests of the pi session -> hook events reconstruction used by `shepherd replay`. */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseSession } from "./replay.ts";

const FIXTURE = join(import.meta.dir, "..", "..", "tests", "fixtures", "sessions", "basic-session.jsonl");

describe("parseSession", () => {
  it("should rebuild the hooks of a recorded pi session in order", () => {
    const parsed = parseSession(readFileSync(FIXTURE, "utf8"), "fallback", "/cwd");
    const hooks = parsed.steps.map((s) => s.event.hook);
    expect(hooks[0]).toBe("session_start");
    expect(hooks[1]).toBe("input");
    expect(hooks.at(-1)).toBe("session_shutdown");
    expect(hooks.at(-2)).toBe("agent_end");
    expect(hooks.filter((h) => h === "tool_call")).toHaveLength(10);
    expect(hooks.filter((h) => h === "tool_result")).toHaveLength(10);
    expect(parsed.problems).toEqual([]);
    expect(parsed.id).not.toBe("fallback");
    const errors = parsed.steps.filter((s) => s.event.result?.isError).map((s) => s.event.tool?.input.command);
    expect(errors).toEqual(["test -f build/out.js", "cat does-not-exist.txt", "ls /nonexistent-dir", "git add -A && git commit -m wip"]);
  });

  it.each([
    ['{"type":"message","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"out"}],"isError":true}}', "tool_result"],
    ['{"type":"message","message":{"role":"user","content":"plain string prompt"}}', "input"],
    ['{"type":"message","message":{"role":"bashExecution","command":"ls","output":""}}', undefined],
    ['{"type":"compaction","summary":"s"}', undefined],
  ])("should map the entry %s to %p", (line, hook) => {
    const parsed = parseSession(`${line}\n`, "id", "/cwd");
    const inner = parsed.steps.filter((s) => s.event.hook !== "session_shutdown");
    expect(inner.map((s): string => s.event.hook)).toEqual(hook === undefined ? [] : [hook]);
  });

  it("should give a tool result the input of its call", () => {
    const text = [
      '{"type":"session","version":3,"id":"s1","cwd":"/p"}',
      '{"type":"message","id":"a","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"write","arguments":{"path":"x.ts","content":"y"}}],"stopReason":"toolUse"}}',
      '{"type":"message","id":"b","message":{"role":"toolResult","toolCallId":"c1","toolName":"write","content":[],"isError":false}}',
    ].join("\n");
    const parsed = parseSession(text, "f", "/cwd");
    const result = parsed.steps.find((s) => s.event.hook === "tool_result");
    expect(result?.event.tool?.input).toEqual({ path: "x.ts", content: "y" });
    expect(result?.entryId).toBe("b");
    expect(parsed.steps.some((s) => s.event.hook === "agent_end")).toBe(false);
    expect(parsed.cwd).toBe("/p");
  });
});
