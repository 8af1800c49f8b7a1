/**
 * @module black-box tests of `dist/shepherd hook claude-code` on the paths a hook rarely takes: a rule file
 * with comments (jsonc-parser) and an untrusted project's patterns (re2js). Both are loaded on first use
 * (lib/lazy-deps.ts), so these check the binary really carries them, and that the per-project snapshot
 * answers as the files do.
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
  root = mkdtempSync(join(tmpdir(), "shepherd-hook-bin-"));
  project = join(root, "p");
  mkdirSync(join(project, ".pi"), { recursive: true });
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent"), SHEPHERD_LOG: "error" };
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function hook(command: string): { out: string; err: string } {
  const input = JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
  const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: project, env, input, encoding: "utf8" });
  return { out: res.stdout, err: res.stderr };
}

describe("shepherd hook claude-code (binary)", () => {
  it("should load a rule file with comments, from the files and then from the snapshot", () => {
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), '// the team\'s rules\n[{"name": "no-shred", "action": "block", "pattern": "\\\\bshred\\\\b", "reason": "no shred"}]\n');
    for (let i = 0; i < 2; i++) {
      const r = hook("shred -u notes.txt");
      expect(r.err).toBe("");
      expect(r.out).toContain('"permissionDecisionReason":"no shred"');
    }
  });

  it("should run an untrusted project's exponential pattern on the linear-time engine", () => {
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify([{ name: "evil", action: "block", pattern: "^(a+)+$", reason: "all a" }]));
    // Backtracking would take minutes on this input; re2js answers at once.
    const r = hook(`${"a".repeat(40)}b`);
    expect(r.err).toBe("");
    expect(r.out.trim()).toBe("{}");
    expect(hook("a".repeat(40)).out).toContain('"deny"');
  });

  it("should read an input of several pipe buffers, multi-byte text split anywhere, whole", () => {
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify([{ name: "tail", action: "block", pattern: "ünïcødé-end$", reason: "the end arrived" }]));
    // ~300 KB: read in 64 KB pieces, with two-byte characters falling across the cuts.
    const r = hook(`echo ${"é".repeat(150_000)} ünïcødé-end`);
    expect(r.err).toBe("");
    expect(r.out).toContain('"permissionDecisionReason":"the end arrived"');
  });
});
