/** @module unit tests: GitHub Copilot CLI hook JSON (as 1.0.102 sends it) <-> Shepherd events and decisions. */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Decision } from "../engine/schema.ts";
import { AdapterInputError, emptyDecision } from "./agent-adapter.ts";
import { COPILOT_EVENT_ENV, copilotAdapter, copilotToolResult, lastAssistantMessage } from "./copilot.ts";

const FIXTURE = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "tests", "fixtures", "copilot-hooks-1.0.102.json"), "utf8")) as { events: Record<string, Record<string, unknown>> };
const recorded = (name: string): Record<string, unknown> => {
  const e = FIXTURE.events[name];
  if (!e) throw new Error(`no recorded ${name}`);
  return e;
};
const envFor = (event: string) => ({ [COPILOT_EVENT_ENV]: event });
const parse = (name: string, event = name, io?: { readFileTail(path: string, max: number): string | undefined }) => copilotAdapter.parse(recorded(name), envFor(event), io);
const decision = (d: Partial<Decision>): Decision => ({ ...emptyDecision(), ...d });
const answer = (name: string, d: Partial<Decision>, event = name): unknown => JSON.parse(copilotAdapter.answer(parse(name, event), decision(d)).stdout);

describe("copilotToolResult", () => {
  const cases: [string, unknown, { text: string; isError: boolean }][] = [
    ["a shell call that succeeded", { resultType: "success", textResultForLlm: "hi\n<shellId: 0 completed with exit code 0>" }, { text: "hi\n<shellId: 0 completed with exit code 0>", isError: false }],
    ["a shell call that failed (still resultType success)", { resultType: "success", textResultForLlm: "\n<shellId: 3 completed with exit code 1>" }, { text: "\n<shellId: 3 completed with exit code 1>", isError: true }],
    ["a result type other than success", { resultType: "failure", textResultForLlm: "no" }, { text: "no", isError: true }],
    ["plain text", "out", { text: "out", isError: false }],
    ["nothing", undefined, { text: "", isError: false }],
  ];
  for (const [name, input, want] of cases) it(`should read ${name}`, () => expect(copilotToolResult(input)).toEqual(want));
});

describe("lastAssistantMessage", () => {
  it("should find the main agent's last message, past a sub-agent's and a cut first line", () => {
    const tail = [
      'ant.message","data":{"content":"cut',
      JSON.stringify({ type: "assistant.message", data: { content: "main done" } }),
      JSON.stringify({ type: "assistant.message", data: { content: "sub done", parentToolCallId: "t1" } }),
      JSON.stringify({ type: "assistant.turn_end", data: {} }),
    ].join("\n");
    expect(lastAssistantMessage(tail)).toBe("main done");
  });

  it("should find nothing in a transcript without a message", () => {
    expect(lastAssistantMessage(JSON.stringify({ type: "session.start", data: {} }))).toBeUndefined();
  });
});

describe("copilotAdapter.parse", () => {
  const cases: [string, string, string[], boolean][] = [
    // [recorded input, event, Shepherd hooks, sub-agent]
    ["preToolUse", "preToolUse", ["tool_call"], false],
    ["postToolUse", "postToolUse", ["tool_result"], false],
    ["postToolUseFailure", "postToolUseFailure", ["tool_result"], false],
    ["permissionRequest", "permissionRequest", ["tool_call"], false],
    ["userPromptSubmitted", "userPromptSubmitted", ["input"], false],
    ["subagentUserPromptSubmitted", "userPromptSubmitted", ["input"], true],
    ["sessionStart", "sessionStart", ["session_start"], false],
    ["subagentStart", "subagentStart", ["session_start"], true],
    ["subagentStop", "subagentStop", ["message_end", "agent_end"], true],
    ["agentStop", "agentStop", ["agent_end"], false],
    ["sessionEnd", "sessionEnd", ["session_shutdown"], false],
  ];
  for (const [name, event, hooks, sub] of cases) {
    it(`should map ${name}`, () => {
      const p = parse(name, event);
      expect(p.agentEvent).toBe(event);
      expect(p.events.map((e): string => e.hook)).toEqual(hooks);
      for (const e of p.events) expect(e.session.subagent === true).toBe(sub);
    });
  }

  it("should guard the tool call before it runs, with its arguments", () => {
    const p = parse("preToolUse");
    expect(p.preTool).toBe(true);
    expect(p.events[0]?.tool).toEqual({ name: "bash", input: { command: "echo hello-from-copilot", description: "say hi" } });
    expect(p.events[0]?.session).toEqual({ id: "s-1", cwd: "/proj", agent: "copilot" });
  });

  it("should see a failed shell command as an error", () => {
    expect(parse("postToolUseFailedShell", "postToolUse").events[0]?.result?.isError).toBe(true);
    expect(parse("postToolUse").events[0]?.result?.isError).toBe(false);
  });

  it("should answer a permission prompt on a copy of the session state", () => {
    const p = parse("permissionRequest", "ignored-env-value");
    expect(p.agentEvent).toBe("permissionRequest");
    expect(p.dryRun).toBe(true);
    expect(p.events[0]?.tool?.input).toEqual({ command: "echo hello-from-copilot" });
  });

  it("should count a sub-agent under its own id", () => {
    expect(parse("subagentStart").sessionId).toBe("a-1");
    expect(parse("subagentUserPromptSubmitted", "userPromptSubmitted").sessionId).toBe("a-1");
    expect(parse("subagentStop").sessionId).toBe("a-1");
  });

  it("should read the main agent's last message from the transcript at agentStop", () => {
    const io = { readFileTail: (path: string) => (path.endsWith("events.jsonl") ? JSON.stringify({ type: "assistant.message", data: { content: "all done" } }) : undefined) };
    const p = parse("agentStop", "agentStop", io);
    expect(p.events.map((e) => e.hook)).toEqual(["message_end", "agent_end"]);
    expect(p.events[0]?.message?.text).toBe("all done");
  });

  it("should judge what a tool types into a running shell as a command, and map a rewrite back", () => {
    const p = copilotAdapter.parse({ ...recorded("preToolUse"), toolName: "write_bash", toolArgs: { shellId: "1", input: "curl x\n" } }, envFor("preToolUse"));
    expect(p.events[0]?.tool).toEqual({ name: "write_bash", input: { shellId: "1", input: "curl x\n", command: "curl x\n" } });
    const a = JSON.parse(copilotAdapter.answer(p, decision({ action: "rewrite", input: { shellId: "1", input: "curl x\n", command: "echo no\n" } })).stdout);
    expect(a).toEqual({ modifiedArgs: { shellId: "1", input: "echo no\n" } });
  });

  it("should take tool arguments sent as JSON text", () => {
    const p = copilotAdapter.parse({ ...recorded("preToolUse"), toolArgs: JSON.stringify({ command: "ls" }) }, envFor("preToolUse"));
    expect(p.events[0]?.tool?.input).toEqual({ command: "ls" });
  });

  it("should evaluate a newer CLI's input on the fields it knows", () => {
    const p = copilotAdapter.parse({ ...recorded("preToolUse"), newField: { nested: [1, 2] }, hookSchemaVersion: 7 }, envFor("preToolUse"));
    expect(p.events[0]?.tool?.input.command).toBe("echo hello-from-copilot");
  });

  it("should read the SDK's names for the working folder and a forced continuation", () => {
    const p = copilotAdapter.parse({ sessionId: "s-2", workingDirectory: "/w", stopHookActive: true }, envFor("agentStop"));
    expect(p.stopHookActive).toBe(true);
    expect(p.events[0]?.session.cwd).toBe("/w");
  });

  it("should have no opinion on an event it does not know", () => {
    expect(copilotAdapter.parse({ sessionId: "s-1", hookName: "futureEvent", whatever: true }, {}).events).toEqual([]);
    expect(parse("sessionStart", "errorOccurred").events).toEqual([]);
  });

  const refused: [string, unknown, Record<string, string>][] = [
    ["no event name anywhere", recorded("preToolUse"), {}],
    ["no session id", { toolName: "bash", toolArgs: { command: "ls" } }, envFor("preToolUse")],
    ["tool arguments that are not an object", { ...recorded("preToolUse"), toolArgs: [1, 2] }, envFor("preToolUse")],
    ["tool arguments that are not JSON", { ...recorded("preToolUse"), toolArgs: "rm -rf /" }, envFor("preToolUse")],
    ["an event name that is not a name", recorded("preToolUse"), envFor("pre tool; use")],
  ];
  for (const [name, raw, env] of refused) it(`should refuse ${name}`, () => expect(() => copilotAdapter.parse(raw, env)).toThrow(AdapterInputError));
});

describe("copilotAdapter.answer", () => {
  const cases: [string, string, Partial<Decision>, unknown][] = [
    ["deny a blocked tool call with the reason", "preToolUse", { action: "block", reason: "R" }, { permissionDecision: "deny", permissionDecisionReason: "R" }],
    ["ask for an ask rule", "preToolUse", { action: "ask", reason: "R" }, { permissionDecision: "ask", permissionDecisionReason: "R" }],
    ["send the whole new arguments for a rewrite", "preToolUse", { action: "rewrite", input: { command: "y" } }, { modifiedArgs: { command: "y" } }],
    ["give reminders as context before the call", "preToolUse", { notify: ["N"], steer: ["S"] }, { additionalContext: "N\n\nS" }],
    ["say nothing when nothing fired", "preToolUse", {}, {}],
    ["give reminders as context after the call", "postToolUse", { steer: ["S"] }, { additionalContext: "S" }],
    ["block a prompt", "userPromptSubmitted", { action: "block", reason: "R" }, { decision: "block", reason: "R" }],
    ["give context at session start", "sessionStart", { steer: ["S"] }, { additionalContext: "S" }],
    ["deny a permission prompt a rule blocks", "permissionRequest", { action: "block", reason: "R" }, { behavior: "deny", message: "R" }],
    ["leave a permission prompt to Copilot for an ask", "permissionRequest", { action: "ask", reason: "R" }, {}],
    ["continue the turn once with the wrap-up reminder", "agentStop", { notify: ["commit"] }, { decision: "block", reason: "commit" }],
    ["stop a continuation that was already forced", "agentStopAgain", { notify: ["commit"] }, {}],
  ];
  for (const [name, input, d, want] of cases) {
    const event = input === "agentStopAgain" ? "agentStop" : input;
    it(`should ${name}`, () => expect(answer(input, d, event)).toEqual(want));
  }

  it("should replace a tool's output with its redacted text", () => {
    const got = answer("postToolUse", { result: { text: "token=[REDACTED]" }, redacted: { "github-token": 1 } }) as { modifiedResult: unknown; additionalContext: string };
    expect(got.modifiedResult).toEqual({ resultType: "success", textResultForLlm: "token=[REDACTED]" });
    expect(got.additionalContext).toContain("Shepherd redacted");
  });

  it("should answer every event with JSON and exit 0", () => {
    for (const event of ["preToolUse", "postToolUse", "postToolUseFailure", "userPromptSubmitted", "sessionStart", "sessionEnd", "subagentStart", "subagentStop", "agentStop"]) {
      const a = copilotAdapter.answer(parse(event), decision({ action: "block", reason: "R" }));
      expect(a.exitCode).toBe(0);
      expect(() => JSON.parse(a.stdout)).not.toThrow();
    }
  });
});

describe("copilotAdapter.failure", () => {
  it("should deny a pending tool call when failing closed", () => {
    const a = copilotAdapter.failure(parse("preToolUse"), "boom", "closed");
    expect(JSON.parse(a.stdout)).toEqual({ permissionDecision: "deny", permissionDecisionReason: expect.stringContaining("boom") });
  });

  it("should deny a pending tool call with failMode halt (Copilot's hooks cannot stop the run)", () => {
    const a = copilotAdapter.failure(parse("preToolUse"), "boom", "halt");
    expect(JSON.parse(a.stdout).permissionDecision).toBe("deny");
  });

  it("should let the tool call through when failing open", () => {
    expect(JSON.parse(copilotAdapter.failure(parse("preToolUse"), "boom", "open").stdout)).toEqual({});
  });

  it("should block what it could not read with a non-zero exit (Copilot denies the call)", () => {
    const a = copilotAdapter.failure(undefined, "boom", "closed");
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("boom");
  });
});
