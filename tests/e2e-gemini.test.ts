/**
 * @module e2e: the real Gemini CLI (0.61.0), offline against a scripted fake Gemini API, with
 * `shepherd hook gemini` installed by `shepherd init gemini --user`. The fake logs each request's
 * contents, so what the model saw after a step is in the request for the next one.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initAgent, makeSandbox, readJsonl, REPO, run, type Sandbox, shepherdBin, startFake, writeGlobalRules, writeGeminiSettings } from "./helpers/agent-sandbox.ts";

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "E2E-BLOCK: curl is not allowed here" },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original$", rewrite: { replace: "echo rewritten-by-shepherd" } },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls$", reason: "E2E-REMIND: you listed a folder" },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "E2E-ERRORS: two commands failed, stop and think" },
];

const shell = (command: string) => ({ functionCall: { name: "run_shell_command", args: { command } } });
const SCRIPT = { steps: [shell("curl http://example.invalid"), shell("echo original"), shell("ls"), shell("false"), shell("ls /nonexistent-e2e"), { text: "done" }] };

let sb: Sandbox;
const bodies = new Map<number, string>();
let result: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  sb = makeSandbox("e2e-gemini");
  writeGlobalRules(sb, RULES);
  writeGeminiSettings(sb);
  await initAgent(sb, "gemini", { GEMINI_CLI_HOME: sb.home }, ["--user"]);
  const fake = await startFake("gemini", SCRIPT, join(sb.root, "fake"));
  try {
    result = await run("node", [join(REPO, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js"), "-p", "tidy up", "--output-format", "json", "--approval-mode", "yolo"], {
      cwd: sb.proj,
      env: {
        PATH: process.env.PATH,
        HOME: sb.home,
        GEMINI_CLI_HOME: sb.home,
        TERM: "dumb",
        NO_COLOR: "1",
        GEMINI_API_KEY: "fake",
        GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${fake.port}`,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
        GEMINI_TELEMETRY_ENABLED: "false",
        PI_CODING_AGENT_DIR: sb.agentDir,
      },
    });
  } finally {
    await fake.stop();
  }
  for (const r of readJsonl(fake.logFile)) if (r.role === "main" && typeof r.stepIdx === "number") bodies.set(r.stepIdx, JSON.stringify(r.body));
}, 180_000);

afterAll(() => sb?.cleanup());

const seenAfter = (step: number): string => bodies.get(step + 1) ?? "";

describe("shepherd hook gemini with the real Gemini CLI", () => {
  it("should let the run finish", () => {
    expect(result.code).toBe(0);
    expect([...bodies.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("should keep the user's settings when installing its hooks", () => {
    const settings = JSON.parse(readFileSync(join(sb.home, ".gemini", "settings.json"), "utf8")) as Record<string, unknown>;
    expect(settings.security).toEqual({ auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } });
    expect(settings.hooksConfig).toEqual({ enabled: true });
  });

  it("should block a shell call and give the model the reason", () => {
    expect(seenAfter(0)).toContain("Tool execution blocked: E2E-BLOCK: curl is not allowed here");
  });

  it("should run the rewritten command", () => {
    expect(seenAfter(1)).toContain("Output: rewritten-by-shepherd");
  });

  it("should bring an AfterTool reminder to the model", () => {
    expect(seenAfter(1)).not.toContain("E2E-REMIND");
    expect(seenAfter(2)).toContain("E2E-REMIND: you listed a folder");
  });

  it("should count errors across separate hook processes", () => {
    expect(seenAfter(3)).not.toContain("E2E-ERRORS");
    expect(seenAfter(4)).toContain("E2E-ERRORS: two commands failed");
  });

  it("should pass shepherd doctor for the hooks the real CLI just ran, canary included", async () => {
    const r = await run(shepherdBin(), ["doctor", "gemini", "--json"], { cwd: sb.proj, env: { PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir, GEMINI_CLI_HOME: sb.home } });
    const report = JSON.parse(r.stdout) as { ok: boolean; agents: { checks: { name: string; ok: boolean }[] }[] };
    expect(report.agents[0]?.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.agents[0]?.checks.map((c) => c.name)).toContain("canary");
    expect(r.code).toBe(0);
  });
});
