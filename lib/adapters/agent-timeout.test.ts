/** @module unit tests: the agent's own hook timeout, read from its settings files. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentHookTimeoutMs, shortestTimeout } from "./agent-timeout.ts";

let root = "";
let proj = "";
let env: Record<string, string> = {};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-agent-timeout-"));
  proj = join(root, "proj");
  mkdirSync(join(proj, ".claude"), { recursive: true });
  mkdirSync(join(root, "home", ".claude"), { recursive: true });
  env = { HOME: join(root, "home") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const ours = (timeout?: number) => ({ type: "command", command: "/opt/shepherd/bin/shepherd hook claude-code", ...(timeout === undefined ? {} : { timeout }) });
const settings = (handlers: unknown[]) => ({ hooks: { PreToolUse: [{ matcher: "*", hooks: handlers }] } });

describe("shortestTimeout", () => {
  const cases: [string, unknown, number | undefined][] = [
    ["our handler's timeout", settings([ours(10)]), 10],
    ["the shortest of ours", settings([ours(10), ours(3)]), 3],
    ["none set", settings([ours()]), undefined],
    ["another command's timeout", settings([{ type: "command", command: "other-guard", timeout: 1 }]), undefined],
    ["nonsense", { hooks: { PreToolUse: "x" } }, undefined],
    ["a bad timeout", settings([ours(-4)]), undefined],
  ];
  for (const [name, data, want] of cases) it(`should find ${name}`, () => expect(shortestTimeout(data, "claude-code", "PreToolUse")).toBe(want));
});

describe("agentHookTimeoutMs", () => {
  it("should take the shortest over the user's and the project's files, in ms", () => {
    writeFileSync(join(root, "home", ".claude", "settings.json"), JSON.stringify(settings([ours(20)])));
    writeFileSync(join(proj, ".claude", "settings.local.json"), JSON.stringify(settings([ours(4)])));
    expect(agentHookTimeoutMs("claude-code", "PreToolUse", proj, env)).toBe(4_000);
    expect(agentHookTimeoutMs("claude-code", "Stop", proj, env)).toBeUndefined();
  });

  it("should read Gemini's timeout as milliseconds", () => {
    mkdirSync(join(proj, ".gemini"));
    writeFileSync(join(proj, ".gemini", "settings.json"), JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ command: "shepherd hook gemini", timeout: 1500 }] }] } }));
    expect(agentHookTimeoutMs("gemini", "BeforeTool", proj, env)).toBe(1_500);
  });

  it("should skip a FIFO without waiting for a writer", () => {
    const fifo = join(proj, ".claude", "settings.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    writeFileSync(join(proj, ".claude", "settings.local.json"), JSON.stringify(settings([ours(2)])));
    expect(agentHookTimeoutMs("claude-code", "PreToolUse", proj, env)).toBe(2_000);
  });
});
