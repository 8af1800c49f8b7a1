/**
 * @module e2e: the real GitHub Copilot CLI (1.0.102), offline (`COPILOT_OFFLINE`, no GitHub sign-in) against
 * the scripted fake Anthropic API as its BYOK provider, with `shepherd hook copilot` installed by
 * `shepherd init copilot --user`. What the model saw is read from the fake API's log.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ClaudeRequest, initAgent, makeSandbox, readJsonl, run, type Sandbox, shepherdBin, startFake, writeGlobalRules } from "./helpers/agent-sandbox.ts";
import { copilotBin, copilotRunEnv } from "./helpers/copilot-cli.ts";

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "E2E-BLOCK: curl is not allowed here" },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original$", rewrite: { replace: "echo rewritten-by-shepherd" } },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls$", reason: "E2E-REMIND: you listed a folder" },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "E2E-ERRORS: two commands failed, stop and think" },
  { name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "E2E-WRAPUP: you edited files, commit them" },
];

const bash = (command: string) => ({ tool_use: [{ name: "bash", input: { command, description: "e2e step" } }] });

let sb: Sandbox;
let requests: ClaudeRequest[] = [];
let result: { code: number | null; stdout: string; stderr: string };
let blockedMarker = "";
let allowedMarker = "";
let notes = "";

beforeAll(async () => {
  sb = makeSandbox("e2e-copilot");
  writeGlobalRules(sb, RULES);
  blockedMarker = join(sb.proj, "blocked-marker");
  allowedMarker = join(sb.proj, "allowed-marker");
  notes = join(sb.proj, "notes.txt");
  const script = {
    steps: [
      bash(`curl http://example.invalid; touch ${blockedMarker}`),
      bash(`touch ${allowedMarker}`),
      bash("echo original"),
      bash("ls"),
      bash("false"),
      bash("ls /nonexistent-e2e"),
      { tool_use: [{ name: "create", input: { path: notes, file_text: "hello\n" } }] },
      { text: "done" },
      { text: "done after the wrap-up reminder" },
    ],
    side_text: "ok",
  };
  const api = await startFake("anthropic", script, join(sb.root, "api"));
  await initAgent(sb, "copilot", { COPILOT_HOME: join(sb.home, ".copilot") }, ["--user"]);
  try {
    result = await run(copilotBin(), ["-p", "tidy up", "--allow-all-tools", "--no-auto-update"], { cwd: sb.proj, env: copilotRunEnv(sb, api.port), timeoutMs: 150_000 });
  } finally {
    await api.stop();
  }
  requests = readJsonl(api.logFile).filter((r) => r.kind === "main") as unknown as ClaudeRequest[];
}, 200_000);

afterAll(() => sb?.cleanup());

/** What the model got back after script step `step` ran. */
const seenAfter = (step: number): string =>
  (requests.find((r) => r.step === step + 1)?.new_messages ?? [])
    .map((m) => m.text)
    .join("\n");

describe("shepherd hook copilot with the real Copilot CLI", () => {
  it("should run offline to the end of the script", () => {
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("should block a shell call: it never ran, and the model got the reason", () => {
    expect(existsSync(blockedMarker)).toBe(false);
    expect(seenAfter(0)).toContain("Denied by preToolUse hook: E2E-BLOCK: curl is not allowed here");
  });

  it("should allow a call no rule minds", () => {
    expect(existsSync(allowedMarker)).toBe(true);
  });

  it("should run the rewritten command", () => {
    expect(seenAfter(2)).toContain("rewritten-by-shepherd");
    expect(seenAfter(2)).not.toContain("original");
  });

  it("should bring a postToolUse reminder to the model", () => {
    expect(seenAfter(2)).not.toContain("E2E-REMIND");
    expect(seenAfter(3)).toContain("E2E-REMIND: you listed a folder");
  });

  it("should count failed commands across separate hook processes", () => {
    expect(seenAfter(4)).not.toContain("E2E-ERRORS");
    expect(seenAfter(5)).toContain("E2E-ERRORS: two commands failed");
  });

  it("should see Copilot's create tool as a write, and continue the turn once with the wrap-up", () => {
    expect(readFileSync(notes, "utf8")).toBe("hello\n");
    expect(seenAfter(6)).not.toContain("E2E-WRAPUP");
    expect(seenAfter(7)).toContain("E2E-WRAPUP: you edited files, commit them");
  });

  it("should end the session through sessionEnd: its state file is gone", () => {
    const dir = join(sb.agentDir, "shepherd", "sessions");
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : []).toEqual([]);
  });

  it("should pass shepherd doctor for the hooks the real CLI just ran, canary included", async () => {
    const r = await run(shepherdBin(), ["doctor", "copilot", "--json"], { cwd: sb.proj, env: { PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir, COPILOT_HOME: join(sb.home, ".copilot") } });
    const report = JSON.parse(r.stdout) as { agents: { checks: { name: string; ok: boolean }[] }[] };
    expect(report.agents[0]?.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.agents[0]?.checks.map((c) => c.name)).toContain("canary");
    expect(r.code).toBe(0);
  });
});

describe("shepherd init copilot (project) with the real Copilot CLI", () => {
  let box: Sandbox;
  let marker = "";
  let seen: ClaudeRequest[] = [];
  let code: number | null = null;

  beforeAll(async () => {
    box = makeSandbox("e2e-copilot-project");
    writeGlobalRules(box, RULES);
    marker = join(box.proj, "blocked-marker");
    const api = await startFake("anthropic", { steps: [bash(`curl http://example.invalid; touch ${marker}`), { text: "done" }], side_text: "ok" }, join(box.root, "api"));
    await initAgent(box, "copilot", { COPILOT_HOME: join(box.home, ".copilot") });
    try {
      // A repository's .github/hooks/ load only in a folder Copilot trusts: --trust-folder trusts it for this run.
      code = (await run(copilotBin(), ["-p", "tidy up", "--allow-all-tools", "--no-auto-update", "--trust-folder"], { cwd: box.proj, env: copilotRunEnv(box, api.port), timeoutMs: 150_000 })).code;
    } finally {
      await api.stop();
    }
    seen = readJsonl(api.logFile).filter((r) => r.kind === "main") as unknown as ClaudeRequest[];
  }, 200_000);

  afterAll(() => box?.cleanup());

  it("should block a shell call through .github/hooks/shepherd.json", () => {
    expect(code).toBe(0);
    expect(existsSync(join(box.proj, ".github", "hooks", "shepherd.json"))).toBe(true);
    expect(existsSync(marker)).toBe(false);
    expect((seen.find((r) => r.step === 1)?.new_messages ?? []).map((m) => m.text).join("\n")).toContain("E2E-BLOCK: curl is not allowed here");
  });
});

describe("shepherd hook copilot in a real Copilot CLI sub-agent", () => {
  let box: Sandbox;
  let marker = "";
  let seen: ClaudeRequest[] = [];
  let code: number | null = null;

  beforeAll(async () => {
    box = makeSandbox("e2e-copilot-subagent");
    writeGlobalRules(box, RULES);
    marker = join(box.proj, "blocked-in-subagent");
    const steps = [
      { tool_use: [{ name: "task", input: { description: "check the network", prompt: "fetch the page", agent_type: "task", name: "fetcher" } }] },
      bash(`curl http://example.invalid; touch ${marker}`),
      { text: "the sub-agent could not fetch it" },
      { text: "done" },
    ];
    const api = await startFake("anthropic", { steps, side_text: "ok" }, join(box.root, "api"));
    await initAgent(box, "copilot", { COPILOT_HOME: join(box.home, ".copilot") }, ["--user"]);
    try {
      code = (await run(copilotBin(), ["-p", "tidy up", "--allow-all-tools", "--no-auto-update"], { cwd: box.proj, env: copilotRunEnv(box, api.port), timeoutMs: 150_000 })).code;
    } finally {
      await api.stop();
    }
    seen = readJsonl(api.logFile).filter((r) => r.kind === "main") as unknown as ClaudeRequest[];
  }, 200_000);

  afterAll(() => box?.cleanup());

  it("should block a sub-agent's shell call, and give the sub-agent the reason", () => {
    expect(code).toBe(0);
    expect(seen.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(existsSync(marker)).toBe(false);
    expect((seen.find((r) => r.step === 2)?.new_messages ?? []).map((m) => m.text).join("\n")).toContain("E2E-BLOCK: curl is not allowed here");
  });
});

describe("shepherd hook copilot failing closed in the real Copilot CLI", () => {
  let box: Sandbox;
  let marker = "";
  let seen: ClaudeRequest[] = [];

  beforeAll(async () => {
    box = makeSandbox("e2e-copilot-fail-closed");
    writeGlobalRules(box, RULES);
    marker = join(box.proj, "ran-unguarded");
    const api = await startFake("anthropic", { steps: [bash(`touch ${marker}`), { text: "done" }], side_text: "ok" }, join(box.root, "api"));
    await initAgent(box, "copilot", { COPILOT_HOME: join(box.home, ".copilot") }, ["--user"]);
    // A handler that lost its event name: Shepherd cannot tell a tool call from anything else and exits 2,
    // which Copilot must read as a deny (it runs the call only when a hook times out or answers non-JSON).
    const file = join(box.home, ".copilot", "settings.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"SHEPHERD_COPILOT_EVENT": "preToolUse"', '"SHEPHERD_COPILOT_EVENT": ""'));
    try {
      await run(copilotBin(), ["-p", "tidy up", "--allow-all-tools", "--no-auto-update"], { cwd: box.proj, env: copilotRunEnv(box, api.port), timeoutMs: 150_000 });
    } finally {
      await api.stop();
    }
    seen = readJsonl(api.logFile).filter((r) => r.kind === "main") as unknown as ClaudeRequest[];
  }, 200_000);

  afterAll(() => box?.cleanup());

  it("should deny the tool call when Shepherd cannot read its hook input", () => {
    expect(existsSync(marker)).toBe(false);
    expect((seen.find((r) => r.step === 1)?.new_messages ?? []).map((m) => m.text).join("\n")).toContain("Denied by preToolUse hook");
  });
});
