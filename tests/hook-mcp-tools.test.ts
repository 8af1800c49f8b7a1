/**
 * @module black-box: Claude Code's MCP tools (`mcp__<server>__<tool>`, the names pi 1.x uses too) reach the
 * rules through `dist/shepherd hook claude-code`, matched by a tool glob and by conditions on their input;
 * and a terminate rule's block stops Claude Code (`continue: false`).
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./helpers/sidecar-client.ts";

let root = "";
let project = "";
let env: Record<string, string> = {};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-hook-mcp-"));
  project = join(root, "p");
  mkdirSync(join(root, "agent"), { recursive: true });
  mkdirSync(project, { recursive: true });
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent"), SHEPHERD_LOG: "error" };
  // Global rules: a cloned project's own rules would need trust for nothing here.
  writeFileSync(
    join(root, "agent", "shepherd-rules.json"),
    JSON.stringify([
      { name: "gh-prod", tool: "mcp__github__*", action: "block", conditions: [{ field: "repo", pattern: "^acme/prod$" }], reason: "not in prod: {{tool}}" },
      { name: "ps-rm", tool: "powershell", action: "block", pattern: "Remove-Item", reason: "no Remove-Item" },
      { name: "no-shred", action: "block", pattern: "^shred ", reason: "no shred" },
      { name: "stop-prod", tool: "mcp__deploy__*", action: "block", conditions: [{ field: "env", pattern: "^prod$" }], reason: "never prod", terminate: true },
    ]),
  );
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function preToolUse(toolName: string, toolInput: Record<string, unknown>): string {
  const input = JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "PreToolUse", tool_name: toolName, tool_input: toolInput, tool_use_id: "t1" });
  const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: project, env, input, encoding: "utf8" });
  expect(res.stderr).toBe("");
  return res.stdout;
}

describe("shepherd hook claude-code with MCP tools", () => {
  it.each([
    ["mcp__github__create_issue", { repo: "acme/prod", title: "x" }, "not in prod: mcp__github__create_issue"],
    ["mcp__github__delete_repo", { repo: "acme/prod" }, "not in prod: mcp__github__delete_repo"],
    ["mcp__github__create_issue", { repo: "acme/dev" }, undefined],
    ["mcp__gitlab__create_issue", { repo: "acme/prod" }, undefined],
    ["PowerShell", { command: "Remove-Item notes.txt" }, "no Remove-Item"],
    // bash rules judge PowerShell too; a rule naming powershell judges only PowerShell.
    ["PowerShell", { command: "shred notes.txt" }, "no shred"],
    ["Bash", { command: "shred notes.txt" }, "no shred"],
    ["Bash", { command: "echo Remove-Item" }, undefined],
  ] as const)("should decide %s %j (deny reason %p), from the rules and again from the hook snapshot", (tool, input, reason) => {
    // The first hook process writes the snapshot; the second selects its rules from it.
    for (const run of ["first", "snapshot"]) {
      const out = preToolUse(tool, input);
      if (reason === undefined) expect({ run, out: out.trim() }).toEqual({ run, out: "{}" });
      else expect({ run, answer: JSON.parse(out).hookSpecificOutput }).toMatchObject({ run, answer: { permissionDecision: "deny", permissionDecisionReason: reason } });
    }
  });
});

describe("shepherd hook claude-code with a terminate rule", () => {
  it.each([
    ["prod", { continue: false, stopReason: "never prod" }],
    ["dev", {}],
  ] as const)("should answer a deploy to %s with %j beside the decision", (env, stop) => {
    const out = preToolUse("mcp__deploy__run", { env });
    const answer: Record<string, unknown> = JSON.parse(out);
    const { hookSpecificOutput: _decision, ...rest } = answer;
    expect(rest).toEqual(stop);
    if (env === "prod") expect(answer.hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "never prod" });
  });
});
