/** @module unit tests: Claude Code hook JSON <-> Shepherd events and decisions. */
import { describe, expect, it } from "bun:test";
import type { Decision } from "../engine/schema.ts";
import { AdapterInputError, emptyDecision, mergeDecisions } from "./agent-adapter.ts";
import { ClaudeStyleInputSchema, claudeCodeAdapter, isClaudeStyleInput, toolResponseText } from "./claude-code.ts";
import fc from "fast-check";
import { anyValue, expectGuardAgrees, expectOddTwinsAgree, mostly } from "../../tests/helpers/guard-agreement.ts";

const base = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/proj/sub" };
const env = { CLAUDE_PROJECT_DIR: "/proj" };
const decision = (d: Partial<Decision>): Decision => ({ ...emptyDecision(), ...d });

describe("claudeCodeAdapter.parse", () => {
  const cases: { name: string; raw: Record<string, unknown>; hooks: string[]; check?: (p: ReturnType<typeof claudeCodeAdapter.parse>) => void }[] = [
    {
      name: "PreToolUse as tool_call with the agent's tool name and input",
      raw: { ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" },
      hooks: ["tool_call"],
      check: (p) => {
        expect(p.preTool).toBe(true);
        expect(p.events[0]?.tool).toEqual({ name: "Bash", input: { command: "ls" }, callId: "t1" });
        expect(p.events[0]?.session).toEqual({ id: "s1", cwd: "/proj", agent: "claude-code" });
      },
    },
    {
      name: "PostToolUse as a successful tool_result with stdout and stderr",
      raw: { ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a", stderr: "b" } },
      hooks: ["tool_result"],
      check: (p) => expect(p.events[0]?.result).toEqual({ text: "a\nb", isError: false }),
    },
    {
      name: "PostToolUseFailure as a failed tool_result",
      raw: { ...base, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, error: "Exit code 1" },
      hooks: ["tool_result"],
      check: (p) => expect(p.events[0]?.result).toEqual({ text: "Exit code 1", isError: true }),
    },
    {
      name: "UserPromptSubmit as input",
      raw: { ...base, hook_event_name: "UserPromptSubmit", prompt: "hello" },
      hooks: ["input"],
      check: (p) => expect(p.events[0]?.prompt).toBe("hello"),
    },
    {
      name: "Stop as message_end then agent_end",
      raw: { ...base, hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "done" },
      hooks: ["message_end", "agent_end"],
      check: (p) => {
        expect(p.stopHookActive).toBe(true);
        expect(p.events[1]?.stopReason).toBe("stop");
      },
    },
    { name: "Stop without a message as agent_end only", raw: { ...base, hook_event_name: "Stop" }, hooks: ["agent_end"] },
    { name: "SessionStart", raw: { ...base, hook_event_name: "SessionStart", source: "startup" }, hooks: ["session_start"] },
    { name: "SessionEnd", raw: { ...base, hook_event_name: "SessionEnd", reason: "other" }, hooks: ["session_shutdown"] },
    { name: "an unknown event as nothing", raw: { ...base, hook_event_name: "Notification" }, hooks: [] },
    { name: "PreCompact as nothing", raw: { ...base, hook_event_name: "PreCompact", trigger: "auto" }, hooks: [] },
    { name: "an event of a newer CLI, with fields unknown today, as nothing", raw: { ...base, hook_event_name: "BrandNewEvent", brand_new: { x: 1 } }, hooks: [] },
    {
      name: "SubagentStart as a sub-agent's session_start, under its own session id",
      raw: { ...base, hook_event_name: "SubagentStart", agent_id: "a1", agent_type: "general-purpose" },
      hooks: ["session_start"],
      check: (p) => {
        expect(p.events[0]?.session).toEqual({ id: "s1/agent:a1", cwd: "/proj", agent: "claude-code", subagent: true });
        expect(p.sessionId).toBe("s1/agent:a1");
      },
    },
    {
      name: "PermissionRequest as a tool_call evaluated without counting it again",
      raw: { ...base, hook_event_name: "PermissionRequest", tool_name: "Write", tool_input: { file_path: "/p/a", content: "x" }, permission_suggestions: [] },
      hooks: ["tool_call"],
      check: (p) => {
        expect(p.dryRun).toBe(true);
        expect(p.preTool).toBe(false);
        expect(p.events[0]?.tool?.name).toBe("Write");
      },
    },
    {
      name: "a hook from a sub-agent as subagent, counted per sub-agent",
      raw: { ...base, hook_event_name: "PreToolUse", tool_name: "Read", tool_input: {}, agent_id: "a1" },
      hooks: ["tool_call"],
      check: (p) => {
        expect(p.events[0]?.session.subagent).toBe(true);
        expect(p.events[0]?.session.id).toBe("s1/agent:a1");
      },
    },
  ];
  for (const c of cases) {
    it(`should map ${c.name}`, () => {
      const p = claudeCodeAdapter.parse(c.raw, env);
      expect(p.events.map((e): string => e.hook)).toEqual(c.hooks);
      c.check?.(p);
    });
  }

  it("should fall back to the hook's cwd without CLAUDE_PROJECT_DIR", () => {
    const p = claudeCodeAdapter.parse({ ...base, hook_event_name: "SessionStart" }, {});
    expect(p.events[0]?.session.cwd).toBe("/proj/sub");
  });

  const invalid: [string, unknown][] = [
    ["null", null],
    ["an array", []],
    ["a missing session id", { hook_event_name: "PreToolUse" }],
    ["a non-object tool_input", { ...base, hook_event_name: "PreToolUse", tool_input: "rm" }],
  ];
  for (const [name, raw] of invalid) {
    it(`should reject ${name} with an AdapterInputError`, () => {
      expect(() => claudeCodeAdapter.parse(raw, env)).toThrow(AdapterInputError);
    });
  }
});

describe("claudeCodeAdapter.answer", () => {
  const parsed = (raw: Record<string, unknown>) => claudeCodeAdapter.parse({ ...base, ...raw }, env);
  const answer = (raw: Record<string, unknown>, d: Decision): unknown => JSON.parse(claudeCodeAdapter.answer(parsed(raw), d).stdout);
  const pre = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" } };

  it("should deny a blocked tool call with the reason", () => {
    expect(answer(pre, decision({ action: "block", reason: "no rm" }))).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" },
    });
  });

  it("should ask for an ask rule", () => {
    expect(answer(pre, decision({ action: "ask", reason: "sure?" }))).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?" },
    });
  });

  it("should send updatedInput for a rewrite without granting permission", () => {
    expect(answer(pre, decision({ action: "rewrite", input: { command: "trash /" } }))).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "trash /" } },
    });
  });

  it("should answer an empty object when nothing fired", () => {
    expect(answer(pre, decision({}))).toEqual({});
  });

  const perm = { hook_event_name: "PermissionRequest", tool_name: "Write", tool_input: { file_path: "/p/secret", content: "x" } };
  it("should deny a permission prompt a rule blocks, and leave an ask or no rule to the person", () => {
    expect(answer(perm, decision({ action: "block", reason: "no secrets" }))).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no secrets" } },
    });
    expect(answer(perm, decision({ action: "ask", reason: "sure?" }))).toEqual({});
    expect(answer(perm, decision({}))).toEqual({});
  });

  it("should give a sub-agent's start its context", () => {
    expect(answer({ hook_event_name: "SubagentStart", agent_id: "a1" }, decision({ steer: ["be careful"] }))).toEqual({
      hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "be careful" },
    });
  });

  it("should write no text for PreCompact, where Claude Code reads text as compaction instructions", () => {
    expect(claudeCodeAdapter.answer(parsed({ hook_event_name: "PreCompact", trigger: "auto" }), decision({})).stdout).toBe("");
  });

  it("should give notify to the user and notify plus steer to the model", () => {
    const post = { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: {}, tool_response: { stdout: "" } };
    expect(answer(post, decision({ notify: ["run tests"], steer: ["be brief"] }))).toEqual({
      systemMessage: "run tests",
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "run tests\n\nbe brief" },
    });
  });

  it("should answer PostToolUseFailure with its own event name", () => {
    const fail = { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: {}, error: "x" };
    expect(answer(fail, decision({ steer: ["three errors"] }))).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "three errors" },
    });
  });

  it("should block a prompt with the reason", () => {
    expect(answer({ hook_event_name: "UserPromptSubmit", prompt: "x" }, decision({ action: "block", reason: "no" }))).toEqual({ decision: "block", reason: "no" });
  });

  it("should block a Stop with the wrap-up reminders", () => {
    expect(answer({ hook_event_name: "Stop", stop_hook_active: false }, decision({ notify: ["commit"], steer: ["tests"] }))).toEqual({
      decision: "block",
      reason: "commit\n\ntests",
    });
  });

  it("should never block a Stop that is already a forced continuation", () => {
    expect(answer({ hook_event_name: "Stop", stop_hook_active: true }, decision({ notify: ["commit"] }))).toEqual({ systemMessage: "commit" });
  });
});

describe("claudeCodeAdapter.failure", () => {
  it("should deny a pending tool call when failing closed", () => {
    const p = claudeCodeAdapter.parse({ ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {} }, env);
    const out = JSON.parse(claudeCodeAdapter.failure(p, "boom", "closed").stdout) as { hookSpecificOutput: { permissionDecision: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("should stay silent on other events and on fail-open", () => {
    const p = claudeCodeAdapter.parse({ ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: {} }, env);
    expect(claudeCodeAdapter.failure(p, "boom", "closed")).toEqual({ stdout: "", exitCode: 0 });
  });

  it("should block with exit 2 and the reason on stderr when it could not parse the input", () => {
    const a = claudeCodeAdapter.failure(undefined, "bad json", "closed");
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("bad json");
  });
});

describe("toolResponseText", () => {
  const cases: [string, unknown, string][] = [
    ["a string", "out", "out"],
    ["stdout only", { stdout: "a", stderr: "" }, "a"],
    ["an object with output", { output: "o" }, "o"],
    ["any other object as JSON", { filePath: "/x" }, '{"filePath":"/x"}'],
    ["nothing", undefined, ""],
  ];
  for (const [name, input, want] of cases) it(`should read ${name}`, () => expect(toolResponseText(input)).toBe(want));
});

describe("mergeDecisions", () => {
  it("should let a block win and keep every reminder once", () => {
    const d = mergeDecisions([
      decision({ notify: ["a"], fired: [{ rule: "r1", source: "global", action: "notify" }] }),
      decision({ action: "block", reason: "stop", notify: ["a", "b"], fired: [{ rule: "r2", source: "global", action: "block" }] }),
    ]);
    expect(d).toEqual({
      action: "block",
      reason: "stop",
      notify: ["a", "b"],
      steer: [],
      fired: [
        { rule: "r1", source: "global", action: "notify" },
        { rule: "r2", source: "global", action: "block" },
      ],
    });
  });

  it("should allow when given nothing", () => {
    expect(mergeDecisions([])).toEqual(emptyDecision());
  });
});

describe("isClaudeStyleInput", () => {
  const input = fc.record(
    {
      hook_event_name: mostly(fc.constantFrom("PreToolUse", "Stop", "")),
      session_id: mostly(fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constant("s".repeat(512)), fc.constant("s".repeat(513)))),
      cwd: mostly(fc.constant("/p")),
      transcript_path: mostly(fc.constant("/t.jsonl")),
      tool_name: mostly(fc.constant("Bash")),
      tool_input: mostly(fc.dictionary(fc.constantFrom("command", "__proto__", "file_path"), anyValue, { noNullPrototype: true, maxKeys: 2 })),
      tool_use_id: mostly(fc.constant("toolu_1")),
      tool_response: anyValue,
      error: anyValue,
      prompt: mostly(fc.string({ maxLength: 3 })),
      stop_hook_active: mostly(fc.boolean()),
      last_assistant_message: mostly(fc.constant("done")),
      agent_id: mostly(fc.constant("a1")),
      source: mostly(fc.constant("startup")),
      reason: mostly(fc.constant("exit")),
      extra: anyValue,
    },
    { noNullPrototype: true, requiredKeys: ["hook_event_name", "session_id"] },
  );

  it("should accept exactly what ClaudeStyleInputSchema returns unchanged", () => {
    // An own "__proto__" key (JSON.parse makes one) is dropped by the schema: such inputs go to valibot.
    const withProtoKey = input.map((x) => ({ ...x, ...(JSON.parse('{"__proto__":{"x":1}}') as object) }));
    expectGuardAgrees(isClaudeStyleInput, ClaudeStyleInputSchema(), fc.oneof(input, anyValue, withProtoKey), 50);
  });

  it("should agree with the schema on every odd twin of a full hook input (holes, prototype keys, null prototypes)", () => {
    expectOddTwinsAgree(isClaudeStyleInput, ClaudeStyleInputSchema(), {
      hook_event_name: "PreToolUse",
      session_id: "s1",
      cwd: "/p",
      transcript_path: "/t.jsonl",
      tool_name: "Bash",
      tool_input: { command: "ls", timeout: 5 },
      tool_use_id: "toolu_1",
      tool_response: { stdout: "", exitCode: 0 },
      prompt: "p",
      stop_hook_active: false,
      agent_id: "a1",
      extra: [1, 2],
    });
  });
});
