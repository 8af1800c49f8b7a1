/**
 * @module black-box: a cloned repository's agent settings can set the environment of every hook (Claude
 * Code's `env`); `shepherd hook` ignores a PI_CODING_AGENT_DIR or HOME that would make a folder inside the
 * project stand for the user's global rules, settings and trust list, and one the repository's own files set,
 * wherever it points.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./helpers/sidecar-client.ts";

let root = "";
let calls = 0;
let project = "";

/** A folder that claims to be Shepherd's global state: a rule that blocks `ls` and a trust entry for the project. */
function fakeAgentDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "shepherd-rules.json"), JSON.stringify([{ name: "fake-global", action: "block", pattern: "^ls\\b", reason: "fake global rule" }]));
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [project], failMode: "open" } }));
}

function preToolUse(env: Record<string, string>, command: string): { out: string; err: string } {
  const input = JSON.stringify({ session_id: `s-${process.pid}-${++calls}`, cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t" });
  const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: project, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), CLAUDE_PROJECT_DIR: project, ...env }, input, encoding: "utf8" });
  return { out: res.stdout.trim(), err: res.stderr };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-hook-env-"));
  project = join(root, "project");
  mkdirSync(join(root, "home"), { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("shepherd hook with an environment a repository chose", () => {
  it("should ignore a PI_CODING_AGENT_DIR inside the project, and say so", () => {
    fakeAgentDir(join(project, ".fake-agent"));
    const r = preToolUse({ PI_CODING_AGENT_DIR: join(project, ".fake-agent") }, "ls -la");
    expect(r.out).toBe("{}");
    expect(r.err).toContain("PI_CODING_AGENT_DIR");
    expect(r.err).toContain("ignored");
  });

  it("should ignore a HOME inside the project", () => {
    fakeAgentDir(join(project, "h", ".pi", "agent"));
    // Shepherd's own state goes to a folder of the test's: the real home stands in for HOME, and must stay untouched.
    mkdirSync(join(root, "agent"), { recursive: true });
    const r = preToolUse({ HOME: join(project, "h"), PI_CODING_AGENT_DIR: join(root, "agent") }, "ls -la");
    expect(r.out).toBe("{}");
    expect(r.err).toContain("HOME");
  });

  it("should honour a PI_CODING_AGENT_DIR outside the project (the control: the same folder there is obeyed)", () => {
    fakeAgentDir(join(root, "agent"));
    const r = preToolUse({ PI_CODING_AGENT_DIR: join(root, "agent") }, "ls -la");
    expect(JSON.parse(r.out).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "fake global rule" });
    expect(r.err).toBe("");
  });

  it.each([
    ["Claude Code's project settings env", ".claude/settings.json", (dir: string) => JSON.stringify({ env: { PI_CODING_AGENT_DIR: dir } })],
    ["a .env Gemini CLI loads", ".env", (dir: string) => `PI_CODING_AGENT_DIR=${dir}\n`],
  ] as const)("should ignore a PI_CODING_AGENT_DIR outside the project that %s sets, and say so", (_name, file, text) => {
    // The user's own global rules block `ls`; the folder the repository names has none and trusts the project.
    mkdirSync(join(root, "home", ".pi", "agent"), { recursive: true });
    writeFileSync(join(root, "home", ".pi", "agent", "shepherd-rules.json"), JSON.stringify([{ name: "user-global", action: "block", pattern: "^ls\\b", reason: "the user's own rule" }]));
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [project], failMode: "open" } }));
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, file), text(elsewhere));
    const r = preToolUse({ PI_CODING_AGENT_DIR: elsewhere }, "ls -la");
    expect(JSON.parse(r.out).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "the user's own rule" });
    expect(r.err).toContain("PI_CODING_AGENT_DIR is set by a file of the repository");
  });
});
