/**
 * @module black-box: `failMode: "halt"` (which the pi extension acts on) is a setting the binary reads too;
 * it must be taken as a value, not as a broken settings section that would take the trust list with it.
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
  root = mkdtempSync(join(tmpdir(), "shepherd-halt-"));
  project = join(root, "p");
  mkdirSync(join(project, ".pi"), { recursive: true });
  mkdirSync(join(root, "agent"), { recursive: true });
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent"), SHEPHERD_LOG: "error" };
  // Only a trusted project may rewrite: the rewrite shows the trust list survived.
  writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify([{ name: "tag", action: "rewrite", pattern: "^ls$", rewrite: { prefix: "echo TAGGED &&" } }]));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("failMode halt in the binary", () => {
  it.each(["closed", "halt"])("should keep the rest of the settings (the trust list) with failMode %s", (failMode) => {
    writeFileSync(join(root, "agent", "settings.json"), JSON.stringify({ shepherd: { failMode, trustedProjects: [project] } }));
    const input = JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: project, env, input, encoding: "utf8" });
    expect(res.stderr).toBe("");
    expect(JSON.parse(res.stdout).hookSpecificOutput?.updatedInput).toEqual({ command: "echo TAGGED && ls" });
  });
});
