/**
 * @module black box: the session state file of `shepherd hook claude-code` across processes. A write moves the
 * old version aside instead of renaming over it (ext4 waits on a rename over a file), and a hook that finds no
 * state file counts on from that previous version, as it would after a crash between the two renames.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BINARY, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
beforeEach(() => {
  tp = tempProject("shepherd-state-");
});
afterEach(() => tp.cleanup());

type Hso = { hookSpecificOutput?: { additionalContext?: string } };

function pre(command: string): Hso {
  const input = { session_id: "state-s", cwd: tp.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } };
  const r = spawnSync(BINARY, ["hook", "claude-code"], { cwd: tp.project, env: tp.env, input: JSON.stringify(input), encoding: "utf8" });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout || "{}") as Hso;
}

describe("the session state through shepherd hook claude-code", () => {
  it("should keep the version before the last write beside the state file, never as a second .json", () => {
    const dir = join(tp.agentDir, "shepherd", "sessions");
    pre("cat missing.txt");
    pre("cat missing.txt");
    const state = JSON.parse(readFileSync(join(dir, "claude-code-state-s.json"), "utf8")) as { calls: number };
    const previous = JSON.parse(readFileSync(join(dir, ".claude-code-state-s.json.prev"), "utf8")) as { calls: number };
    expect([previous.calls, state.calls]).toEqual([1, 2]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".json"))).toEqual(["claude-code-state-s.json"]);
  });

  it("should count on from the previous version when the state file is missing", () => {
    const dir = join(tp.agentDir, "shepherd", "sessions");
    const answers = [pre("cat missing.txt"), pre("cat missing.txt"), pre("cat missing.txt")];
    expect(answers[2]?.hookSpecificOutput?.additionalContext).toContain("three times in a row");
    // As a crash between the write's two renames leaves it: the previous version (two calls) and no state file.
    rmSync(join(dir, "claude-code-state-s.json"));
    expect(existsSync(join(dir, ".claude-code-state-s.json.prev"))).toBe(true);
    // From the previous version this is the third identical call again; from nothing it would be the first.
    expect(pre("cat missing.txt").hookSpecificOutput?.additionalContext).toContain("three times in a row");
  });
});
