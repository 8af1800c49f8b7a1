/**
 * @module e2e: the real Claude Code CLI (2.1.332), offline against a scripted fake Anthropic API, with
 * `shepherd hook claude-code` installed by `shepherd init claude-code`. What the model saw is read from
 * the fake API's log, so every assertion is about what reached the model or what ran.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { claudeBin, claudeRunEnv, type ClaudeRequest, initAgent, makeSandbox, readJsonl, run, type Sandbox, shepherdBin, startFake, writeGlobalRules } from "./helpers/agent-sandbox.ts";
import { startHttp } from "./helpers/http-server.ts";

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "E2E-BLOCK: curl is not allowed here ({{command}})" },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original$", rewrite: { replace: "echo rewritten-by-shepherd" } },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls\\b", reason: "E2E-REMIND: you listed a folder" },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "E2E-ERRORS: two commands failed, stop and think" },
  { name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "E2E-WRAPUP: you edited files, commit them" },
];

const SCRIPT = {
  steps: [
    { tool_use: [{ name: "Bash", input: { command: "curl http://example.invalid" } }] },
    { tool_use: [{ name: "Bash", input: { command: "echo original" } }] },
    { tool_use: [{ name: "Bash", input: { command: "ls" } }] },
    { tool_use: [{ name: "Bash", input: { command: "false" } }] },
    { tool_use: [{ name: "Bash", input: { command: "ls /nonexistent-e2e" } }] },
    { tool_use: [{ name: "Write", input: { file_path: "PLACEHOLDER", content: "hello\n" } }] },
    { text: "done" },
    { text: "done after the wrap-up reminder" },
  ],
  side_text: "ok",
};

let sb: Sandbox;
let requests: ClaudeRequest[] = [];
let result: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  sb = makeSandbox("e2e-cc");
  writeGlobalRules(sb, RULES);
  const script = { ...SCRIPT, steps: [...SCRIPT.steps] };
  script.steps[5] = { tool_use: [{ name: "Write", input: { file_path: join(sb.proj, "notes.txt"), content: "hello\n" } }] };
  const api = await startFake("anthropic", script, join(sb.root, "api"));
  const claudeEnv = { CLAUDE_CONFIG_DIR: join(sb.home, ".claude") };
  await initAgent(sb, "claude-code", claudeEnv);
  try {
    result = await run(claudeBin(), ["-p", "tidy up", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash,Write"], {
      cwd: sb.proj,
      env: claudeRunEnv(sb, api.port),
    });
  } finally {
    await api.stop();
  }
  requests = readJsonl(api.logFile).filter((r) => r.kind === "main") as unknown as ClaudeRequest[];
}, 180_000);

afterAll(() => sb?.cleanup());

/** What the model got back after script step `step` ran. */
function seenAfter(step: number): string {
  const next = requests.find((r) => r.step === step + 1);
  return next ? next.new_messages.map((m) => m.text).join("\n") : "";
}

describe("shepherd hook claude-code with the real Claude Code CLI", () => {
  it("should let the run finish", () => {
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("should install its hooks with shepherd init claude-code", () => {
    const settings = JSON.parse(readFileSync(join(sb.proj, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(settings.hooks.PreToolUse?.[0]?.hooks[0]?.command).toBe(`${shepherdBin()} hook claude-code`);
  });

  it("should pass shepherd doctor for the hooks the real CLI just ran, canary included", async () => {
    const r = await run(shepherdBin(), ["doctor", "claude-code", "--json"], { cwd: sb.proj, env: { PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir, CLAUDE_CONFIG_DIR: join(sb.home, ".claude") } });
    const report = JSON.parse(r.stdout) as { ok: boolean; agents: { checks: { name: string; ok: boolean }[] }[] };
    expect(report.agents[0]?.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.agents[0]?.checks.map((c) => c.name)).toContain("canary");
    expect(r.code).toBe(0);
  });

  it("should block a Bash call and give the model the reason", () => {
    const block = requests.find((r) => r.step === 1)?.tool_results[0];
    expect(block?.is_error).toBe(true);
    expect(block?.text).toContain("E2E-BLOCK: curl is not allowed here (curl http://example.invalid)");
  });

  it("should run the rewritten command", () => {
    expect(requests.find((r) => r.step === 2)?.tool_results[0]?.text).toContain("rewritten-by-shepherd");
  });

  it("should bring a PostToolUse reminder to the model", () => {
    expect(seenAfter(2)).toContain("E2E-REMIND: you listed a folder");
  });

  it("should count errors across separate hook processes", () => {
    expect(seenAfter(3)).not.toContain("E2E-ERRORS");
    expect(seenAfter(4)).toContain("E2E-ERRORS: two commands failed");
  });

  it("should block the first Stop after an edit with the wrap-up reminder, and only once", () => {
    expect(existsSync(join(sb.proj, "notes.txt"))).toBe(true);
    expect(seenAfter(6)).toContain("E2E-WRAPUP: you edited files, commit them");
    expect(requests.some((r) => r.step === null)).toBe(false);
  });

  it("should drop the session state when the session ends", () => {
    const dir = join(sb.agentDir, "shepherd", "sessions");
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : []).toEqual([]);
  });
});

describe("shepherd http with Claude Code's http hook type", () => {
  it("should block a Bash call through POST /v1/hooks/claude-code", async () => {
    const box = makeSandbox("e2e-cc-http");
    try {
      writeGlobalRules(box, RULES);
      const srv = await startHttp([], { cwd: box.proj, env: { PATH: process.env.PATH, HOME: box.home, PI_CODING_AGENT_DIR: box.agentDir } });
      const api = await startFake("anthropic", { steps: [{ tool_use: [{ name: "Bash", input: { command: "curl http://example.invalid" } }] }, { text: "done" }] }, join(box.root, "api"));
      try {
        mkdirSync(join(box.proj, ".claude"), { recursive: true });
        const hook = { matcher: "*", hooks: [{ type: "http", url: `${srv.url}/v1/hooks/claude-code` }] };
        writeFileSync(join(box.proj, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [hook] } }));
        const r = await run(claudeBin(), ["-p", "go", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash"], { cwd: box.proj, env: claudeRunEnv(box, api.port) });
        expect(r.code).toBe(0);
      } finally {
        await api.stop();
        await srv.stop();
      }
      const main = readJsonl(api.logFile).filter((x) => x.kind === "main") as unknown as ClaudeRequest[];
      const blocked = main.find((x) => x.step === 1)?.tool_results[0];
      expect(blocked?.is_error).toBe(true);
      expect(blocked?.text).toContain("E2E-BLOCK: curl is not allowed here (curl http://example.invalid)");
    } finally {
      box.cleanup();
    }
  }, 180_000);
});
