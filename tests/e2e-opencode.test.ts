/**
 * @module e2e: the real OpenCode CLI (opencode-ai 1.18.33, `opencode run`), offline against a scripted fake
 * OpenAI-compatible server, with the Shepherd plugin installed by `shepherd init opencode`. OpenCode sends the
 * whole history with every request, so what the model saw after a step is in the request for the next step.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, readJsonl, run, type RunResult, type Sandbox, shepherdBin, writeGlobalRules } from "./helpers/agent-sandbox.ts";
import { opencodeBin, opencodeEnv, processesIn, startFakeOpenAI, writeOpenCodeConfig } from "./helpers/opencode-sandbox.ts";

const RULES = [
  { name: "no-marker", action: "block", pattern: "blocked\\.marker", reason: "E2E-BLOCK: this marker may not be made" },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original > rewrite\\.out$", rewrite: { replace: "echo rewritten-by-shepherd > rewrite.out" } },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls$", reason: "E2E-REMIND: you listed a folder" },
  { name: "first-error", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 1 }, reason: "E2E-STEER: a command failed, stop and think" },
  { name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "E2E-WRAPUP: you edited files, commit them" },
];

const bash = (command: string) => ({ tool_calls: [{ name: "bash", arguments: { command, description: "e2e step" } }] });
const SCRIPT = {
  steps: [
    bash("touch blocked.marker"),
    bash("echo original > rewrite.out"),
    bash("echo allowed > allowed.marker"),
    bash("ls"),
    bash("false"),
    { tool_calls: [{ name: "write", arguments: { filePath: "notes.txt", content: "hello\n" } }] },
    { text: "done" },
    { text: "done after the wrap-up reminder" },
  ],
};

let sb: Sandbox;
let bodies = new Map<number, string>();
let result: RunResult;
let init: RunResult;
let leftBehind: number[] = [];

beforeAll(async () => {
  sb = makeSandbox("e2e-opencode");
  writeGlobalRules(sb, RULES);
  const fake = await startFakeOpenAI(SCRIPT, join(sb.root, "fake"));
  writeOpenCodeConfig(sb, fake.port);
  const env = opencodeEnv(sb);
  init = await run(shepherdBin(), ["init", "opencode"], { cwd: sb.proj, env });
  try {
    result = await run(opencodeBin(), ["run", "--model", "fake/fake-model", "tidy up"], { cwd: sb.proj, env, timeoutMs: 120_000 });
    // The sidecar ends on its stdin's EOF when OpenCode exits: give it the moment that takes.
    for (let i = 0; i < 50 && processesIn(sb.proj, "shepherd").length > 0; i++) await Bun.sleep(100);
    leftBehind = processesIn(sb.proj, "shepherd");
  } finally {
    await fake.stop();
  }
  for (const r of readJsonl(fake.logFile)) if (typeof r.step === "number") bodies.set(r.step, JSON.stringify(r.body));
}, 180_000);

afterAll(() => {
  for (const pid of leftBehind) process.kill(pid, "SIGKILL");
  sb?.cleanup();
});

/** Everything the model had been told when it was asked for the step after `step`. */
const seenAfter = (step: number): string => bodies.get(step + 1) ?? "";

describe("the Shepherd plugin with the real OpenCode CLI", () => {
  it("should be installed by shepherd init opencode and let the run finish", () => {
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("Installed the Shepherd OpenCode plugin");
    expect(result.code).toBe(0);
    expect(bodies.has(6)).toBe(true);
  });

  it("should block a shell call: the command does not run and the model gets the reason", () => {
    expect(existsSync(join(sb.proj, "blocked.marker"))).toBe(false);
    expect(seenAfter(0)).toContain("E2E-BLOCK: this marker may not be made");
  });

  it("should run the rewritten command instead of the model's", () => {
    expect(readFileSync(join(sb.proj, "rewrite.out"), "utf8")).toBe("rewritten-by-shepherd\n");
    expect(seenAfter(1)).toContain("rewritten-by-shepherd");
  });

  it("should let an allowed command run", () => {
    expect(readFileSync(join(sb.proj, "allowed.marker"), "utf8")).toBe("allowed\n");
  });

  it("should bring a tool_result reminder to the model with that result", () => {
    expect(seenAfter(2)).not.toContain("E2E-REMIND");
    expect(seenAfter(3)).toContain("E2E-REMIND: you listed a folder");
  });

  it("should steer the model's next call after a failed command", () => {
    expect(seenAfter(3)).not.toContain("E2E-STEER");
    expect(seenAfter(4)).toContain("E2E-STEER: a command failed, stop and think");
  });

  it("should leave no sidecar process behind", () => {
    expect(leftBehind).toEqual([]);
  });
});
