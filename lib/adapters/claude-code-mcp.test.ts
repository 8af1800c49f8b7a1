/** @module unit tests: Claude Code's filled-in `mcp_tool` hook arguments back into its hook JSON. */
import { describe, expect, it } from "bun:test";
import { HOOK_INPUT_FIELDS, hookJsonFromToolArgs, hookToolInputTemplate, toolTextOfAnswer } from "./claude-code-mcp.ts";
import { claudeCodeAdapter } from "./claude-code.ts";

/** What Claude Code 2.1.332 does with the template (seen in its code): `${path}` from the JSON, objects as JSON, missing as "". */
function fill(template: Record<string, string>, hookJson: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(template)) {
    out[k] = v.replace(/\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}/g, (_m, path: string) => {
      const x = hookJson[path];
      return x === undefined || x === null ? "" : typeof x === "object" ? JSON.stringify(x) : String(x);
    });
  }
  return out;
}

describe("hookToolInputTemplate", () => {
  it("should name every field as a ${field} string", () => {
    const t = hookToolInputTemplate();
    expect(Object.keys(t)).toEqual([...HOOK_INPUT_FIELDS]);
    expect(t.tool_input).toBe("${tool_input}");
  });
});

describe("hookJsonFromToolArgs", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["PreToolUse", { hook_event_name: "PreToolUse", session_id: "s1", cwd: "/p", tool_name: "Bash", tool_input: { command: "ls -la" }, tool_use_id: "t1", permission_mode: "default" }],
    ["PostToolUse", { hook_event_name: "PostToolUse", session_id: "s1", cwd: "/p", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a\nb", stderr: "", interrupted: false } }],
    ["Stop", { hook_event_name: "Stop", session_id: "s1", cwd: "/p", stop_hook_active: true, last_assistant_message: "done" }],
    ["UserPromptSubmit", { hook_event_name: "UserPromptSubmit", session_id: "s1", cwd: "/p", prompt: "fix ${x} and {braces}" }],
  ];
  for (const [name, json] of cases) {
    it(`should give back the ${name} hook JSON`, () => {
      expect(hookJsonFromToolArgs(fill(hookToolInputTemplate(), json))).toEqual(json);
    });
  }

  it("should read stop_hook_active false as false and drop absent fields", () => {
    expect(hookJsonFromToolArgs({ hook_event_name: "Stop", session_id: "s", stop_hook_active: "false", agent_id: "" })).toEqual({ hook_event_name: "Stop", session_id: "s", stop_hook_active: false });
  });

  it("should leave a tool_input that is not JSON a string, which the adapter refuses", () => {
    const raw = hookJsonFromToolArgs({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: "{not json" });
    expect((raw as { tool_input: unknown }).tool_input).toBe("{not json");
    expect(() => claudeCodeAdapter.parse(raw, {})).toThrow();
  });

  it("should pass values that are not strings through, and drop keys that pollute prototypes", () => {
    const args = JSON.parse('{"hook_event_name":"PreToolUse","session_id":"s","tool_input":{"command":"x"},"__proto__":{"polluted":1}}') as unknown;
    const raw = hookJsonFromToolArgs(args) as Record<string, unknown>;
    expect(raw.tool_input).toEqual({ command: "x" });
    expect(Object.hasOwn(raw, "__proto__")).toBe(false);
  });
});

describe("toolTextOfAnswer", () => {
  it.each([
    ["", "{}"],
    ["\n", "{}"],
    ['{"decision":"block"}\n', '{"decision":"block"}'],
  ])("should answer %p as %p", (stdout, text) => {
    expect(toolTextOfAnswer(stdout)).toBe(text);
  });
});
