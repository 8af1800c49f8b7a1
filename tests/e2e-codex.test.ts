/**
 * @module e2e: the real Codex CLI (0.171.0), offline against a scripted fake Responses API, with
 * `shepherd hook codex` installed by `shepherd init codex --user`. Codex sends the whole history with every
 * request, so what the model saw after a step is in the request that asks for the next step.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initAgent, makeSandbox, readJsonl, REPO, run, type Sandbox, shepherdBin, startFake, writeGlobalRules, writeCodexConfig } from "./helpers/agent-sandbox.ts";

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "E2E-BLOCK: curl is not allowed here" },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original$", rewrite: { replace: "echo rewritten-by-shepherd" } },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls$", reason: "E2E-REMIND: you listed a folder" },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "E2E-ERRORS: two commands failed, stop and think" },
];

const call = (cmd: string) => ({ call: { name: "exec_command", arguments: { cmd } } });
const SCRIPT = { steps: [call("curl http://example.invalid"), call("echo original"), call("ls"), call("false"), call("ls /nonexistent-e2e"), { text: "done" }] };

let sb: Sandbox;
let bodies = new Map<number, string>();
let result: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  sb = makeSandbox("e2e-codex");
  writeGlobalRules(sb, RULES);
  const fake = await startFake("codex", SCRIPT, join(sb.root, "fake"));
  const codexHome = writeCodexConfig(sb, fake.port);
  await initAgent(sb, "codex", { CODEX_HOME: codexHome }, ["--user"]);
  try {
    result = await run(
      join(REPO, "node_modules", ".bin", "codex"),
      ["exec", "--json", "--skip-git-repo-check", "--strict-config", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust", "tidy up"],
      { cwd: sb.proj, env: { PATH: process.env.PATH, HOME: sb.home, CODEX_HOME: codexHome, FAKE_API_KEY: "dummy", PI_CODING_AGENT_DIR: sb.agentDir }, input: "" },
    );
  } finally {
    await fake.stop();
  }
  for (const r of readJsonl(fake.logFile)) if (typeof r.step === "number") bodies.set(r.step, JSON.stringify(r.body));
}, 180_000);

afterAll(() => sb?.cleanup());

/** Everything the model had been told when it was asked for the step after `step`. */
const seenAfter = (step: number): string => bodies.get(step + 1) ?? "";

describe("shepherd hook codex with the real Codex CLI", () => {
  it("should let the run finish", () => {
    expect(result.code).toBe(0);
    expect([...bodies.keys()]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("should block a shell call and give the model the reason", () => {
    expect(seenAfter(0)).toContain("Command blocked by PreToolUse hook: E2E-BLOCK: curl is not allowed here");
  });

  it("should run the rewritten command", () => {
    expect(seenAfter(1)).toContain("rewritten-by-shepherd");
  });

  it("should bring a PostToolUse reminder to the model", () => {
    expect(seenAfter(1)).not.toContain("E2E-REMIND");
    expect(seenAfter(2)).toContain("E2E-REMIND: you listed a folder");
  });

  it("should count errors across separate hook processes", () => {
    expect(seenAfter(3)).not.toContain("E2E-ERRORS");
    expect(seenAfter(4)).toContain("E2E-ERRORS: two commands failed");
  });

  it("should pass shepherd doctor for the hooks the real CLI just ran, canary included", async () => {
    const r = await run(shepherdBin(), ["doctor", "codex", "--json"], { cwd: sb.proj, env: { PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir, CODEX_HOME: join(sb.home, ".codex") } });
    const report = JSON.parse(r.stdout) as { ok: boolean; agents: { checks: { name: string; ok: boolean }[] }[] };
    expect(report.agents[0]?.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.agents[0]?.checks.map((c) => c.name)).toContain("canary");
    expect(r.code).toBe(0);
  });
});
