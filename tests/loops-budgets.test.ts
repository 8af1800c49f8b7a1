/**
 * @module black box: the built-in loop rules and the session budgets through the compiled binary's
 * `shepherd hook claude-code`, one process per call, the counters carried by the session state file.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
beforeEach(() => {
  tp = tempProject("shepherd-loops-");
});
afterEach(() => tp.cleanup());

function hook(input: Record<string, unknown>): Record<string, unknown> {
  const r = spawnSync(BINARY, ["hook", "claude-code"], { cwd: tp.project, env: tp.env, input: JSON.stringify({ session_id: "loop-s", cwd: tp.project, ...input }), encoding: "utf8" });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout || "{}") as Record<string, unknown>;
}
const pre = (command: string) => hook({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
const failed = (command: string) => hook({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command }, error: "Exit code 1" });
type Hso = { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string } };

describe("built-in loop rules through shepherd hook claude-code", () => {
  it("should steer on the third identical call in a row and deny the fifth", () => {
    const answers = [1, 2, 3, 4, 5].map(() => pre("cat missing.txt") as Hso);
    expect(answers.slice(0, 2).map((a) => a.hookSpecificOutput)).toEqual([undefined, undefined]);
    expect(answers[2]?.hookSpecificOutput?.additionalContext).toContain("three times in a row");
    expect(answers[4]?.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(answers[4]?.hookSpecificOutput?.permissionDecisionReason).toContain("fifth identical Bash call");
  });

  it("should deny the same call after it failed three times, and keep only hashes in the state file", () => {
    for (let i = 0; i < 3; i++) {
      pre(`echo between-${i}`);
      pre("npm test -- --token=SECRET-IN-COMMAND");
      failed("npm test -- --token=SECRET-IN-COMMAND");
    }
    const fourth = pre("npm test -- --token=SECRET-IN-COMMAND") as Hso;
    expect(fourth.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(fourth.hookSpecificOutput?.permissionDecisionReason).toContain("already failed three times");
    const dir = join(tp.agentDir, "shepherd", "sessions");
    const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(files.length).toBe(1);
    const state = readFileSync(join(dir, files[0] as string), "utf8");
    expect(Object.keys((JSON.parse(state) as { failedCalls: object }).failedCalls)).toHaveLength(1);
    // The state file records recent shell commands for `tests_ran` already; the loop fields add only hashes.
    expect((JSON.parse(state) as { lastCall: string }).lastCall).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("session budgets through shepherd hook claude-code", () => {
  it("should deny the tool call past the project's toolCalls budget, saying which budget bit", () => {
    mkdirSync(join(tp.project, ".pi"), { recursive: true });
    writeFileSync(join(tp.project, ".pi", "settings.json"), JSON.stringify({ shepherd: { budgets: { toolCalls: 2 } } }));
    const answers = ["ls", "pwd", "date"].map((c) => pre(c) as Hso);
    expect(answers.map((a) => a.hookSpecificOutput?.permissionDecision)).toEqual([undefined, undefined, "deny"]);
    expect(answers[2]?.hookSpecificOutput?.permissionDecisionReason).toContain("budget of 2 tool calls (setting shepherd.budgets.toolCalls)");
  });

  it("should not let a project loosen the user's failures budget", () => {
    writeFileSync(join(tp.agentDir, "settings.json"), JSON.stringify({ shepherd: { budgets: { failures: 1 } } }));
    mkdirSync(join(tp.project, ".pi"), { recursive: true });
    writeFileSync(join(tp.project, ".pi", "settings.json"), JSON.stringify({ shepherd: { budgets: { failures: 100 } } }));
    failed("false");
    const next = pre("ls") as Hso;
    expect(next.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(next.hookSpecificOutput?.permissionDecisionReason).toContain("shepherd.budgets.failures");
  });
});
