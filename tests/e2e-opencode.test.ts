/**
 * @module e2e: the real OpenCode CLI (opencode-ai 1.18.33), offline against a scripted fake OpenAI-compatible
 * server, with the Shepherd plugin installed by `shepherd init opencode`. OpenCode sends the whole history with
 * every request, so what the model saw after a step is in the request for the next step. `opencode run` exits
 * the moment its session goes idle, so the wrap-up (a follow-up turn) is shown with `opencode serve` and a
 * `run --attach` to it, where the session outlives the run.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
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
const TOKEN = "ghp_0penC0deFlowGuardT0kenAbCdEfGhIjKlMn01";
const SCRIPT = {
  steps: [
    bash("touch blocked.marker"),
    bash("echo original > rewrite.out"),
    bash("echo allowed > allowed.marker"),
    bash("ls"),
    bash("cat deploy.log"),
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
let sidecarsSeen = 0;

beforeAll(async () => {
  sb = makeSandbox("e2e-opencode");
  writeGlobalRules(sb, RULES);
  writeFileSync(join(sb.proj, "deploy.log"), `deploying\nusing DEPLOY_TOKEN=${TOKEN}\ndone\n`);
  const fake = await startFakeOpenAI(SCRIPT, join(sb.root, "fake"));
  writeOpenCodeConfig(sb, fake.port);
  const env = opencodeEnv(sb);
  init = await run(shepherdBin(), ["init", "opencode"], { cwd: sb.proj, env });
  // The sidecar's working folder is the project: seen during the run, the same probe proves none is left after it.
  const poll = setInterval(() => void (sidecarsSeen = Math.max(sidecarsSeen, processesIn(sb.proj, "shepherd").length)), 50);
  try {
    result = await run(opencodeBin(), ["run", "--model", "fake/fake-model", "tidy up"], { cwd: sb.proj, env, timeoutMs: 120_000 });
    clearInterval(poll);
    // The sidecar ends on its stdin's EOF when OpenCode exits: give it the moment that takes.
    for (let i = 0; i < 50 && processesIn(sb.proj, "shepherd").length > 0; i++) await Bun.sleep(100);
    leftBehind = processesIn(sb.proj, "shepherd");
  } finally {
    clearInterval(poll);
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
    expect([...bodies.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
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

  it("should redact a secret a command printed before the model sees it", () => {
    expect(seenAfter(4)).toContain("DEPLOY_TOKEN=");
    expect(seenAfter(4)).not.toContain(TOKEN);
    expect(JSON.stringify([...bodies.values()])).not.toContain(TOKEN);
  });

  it("should steer the model's next call after a failed command, in the system prompt", () => {
    expect(seenAfter(4)).not.toContain("E2E-STEER");
    const next = JSON.parse(seenAfter(5)) as { messages: { role: string; content: unknown }[] };
    const system = next.messages.filter((m) => m.role === "system").map((m) => JSON.stringify(m.content)).join("\n");
    expect(system).toContain("E2E-STEER: a command failed, stop and think");
  });

  it("should pass shepherd doctor for the plugin the real CLI just ran", async () => {
    const r = await run(shepherdBin(), ["doctor", "opencode", "--json"], { cwd: sb.proj, env: opencodeEnv(sb) });
    const report = JSON.parse(r.stdout) as { agents: { checks: { name: string; ok: boolean }[] }[] };
    expect(report.agents[0]?.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("should start a sidecar for the run and leave none behind", () => {
    // At least one: a sidecar that misses timeoutMs on a loaded machine is killed and replaced, by design.
    expect(sidecarsSeen).toBeGreaterThanOrEqual(1);
    expect(leftBehind).toEqual([]);
  });

  it("should not wrap up inside `opencode run`, which exits as the session goes idle", () => {
    expect(bodies.has(8)).toBe(false);
  });
});

describe("the Shepherd plugin in `opencode serve`", () => {
  const WRAP_RULES = [{ name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "E2E-WRAPUP: you edited files, commit them" }];
  const WRAP_SCRIPT = {
    steps: [{ tool_calls: [{ name: "write", arguments: { filePath: "notes.txt", content: "hello\n" } }] }, { text: "done" }, { text: "done after the wrap-up reminder" }, { text: "a second wrap-up?" }],
  };
  let box: Sandbox;
  let server: ChildProcess | undefined;
  let requests: string[] = [];
  let attached: RunResult;
  let whileServing: number[] = [];
  let afterStop: number[] = [];

  beforeAll(async () => {
    box = makeSandbox("e2e-opencode-serve");
    writeGlobalRules(box, WRAP_RULES);
    const fake = await startFakeOpenAI(WRAP_SCRIPT, join(box.root, "fake"));
    writeOpenCodeConfig(box, fake.port);
    const env = opencodeEnv(box);
    await run(shepherdBin(), ["init", "opencode"], { cwd: box.proj, env });
    const port = await freePort();
    try {
      server = spawn(opencodeBin(), ["serve", "--port", String(port), "--hostname", "127.0.0.1"], { cwd: box.proj, env: definedOnly(env), stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      server.stdout?.on("data", (d: Buffer) => void (out += d.toString("utf8")));
      server.stderr?.on("data", (d: Buffer) => void (out += d.toString("utf8")));
      for (let i = 0; i < 600 && !out.includes("listening"); i++) await Bun.sleep(50);
      attached = await run(opencodeBin(), ["run", "--attach", `http://127.0.0.1:${port}`, "--dir", box.proj, "--model", "fake/fake-model", "tidy up"], { cwd: box.proj, env, timeoutMs: 120_000 });
      // The follow-up runs in the server after the attached run has gone: wait for its request (or a stray third).
      for (let i = 0; i < 100 && readJsonl(fake.logFile).length < 3; i++) await Bun.sleep(100);
      await Bun.sleep(1000);
      whileServing = processesIn(box.proj, "shepherd");
      await stop(server);
      for (let i = 0; i < 50 && processesIn(box.proj, "shepherd").length > 0; i++) await Bun.sleep(100);
      afterStop = processesIn(box.proj, "shepherd");
    } finally {
      if (server) await stop(server);
      await fake.stop();
    }
    requests = readJsonl(fake.logFile).map((r) => JSON.stringify(r.body));
  }, 180_000);

  afterAll(() => {
    for (const pid of afterStop) process.kill(pid, "SIGKILL");
    box?.cleanup();
  });

  it("should send the agent_end reminder once, as a follow-up turn the model answers", () => {
    expect(attached.code).toBe(0);
    expect(requests.length).toBe(3);
    expect(requests[1]).not.toContain("E2E-WRAPUP");
    expect(requests[2]).toContain("E2E-WRAPUP: you edited files, commit them");
  });

  it("should keep a sidecar while OpenCode serves and end every one with the server", () => {
    // One per OpenCode instance; under load a sidecar that misses timeoutMs is replaced by design (as in run mode).
    expect(whileServing.length).toBeGreaterThanOrEqual(1);
    expect(afterStop).toEqual([]);
  });
});

describe("the Shepherd plugin with OpenCode's task sub-agent", () => {
  const TASK_RULES = [{ name: "parent-only", action: "block", pattern: "parent-only", reason: "E2E-PARENT: not in the main session", subagent: false }];
  const TASK_SCRIPT = {
    steps: [
      { tool_calls: [{ name: "task", arguments: { description: "child work", prompt: "do the child work", subagent_type: "general" } }] },
      bash("echo child > parent-only.child"),
      { text: "child done" },
      bash("echo parent > parent-only.parent"),
      { text: "done" },
    ],
  };
  let box: Sandbox;
  let taskRun: RunResult;
  let seen: string[] = [];

  beforeAll(async () => {
    box = makeSandbox("e2e-opencode-task");
    writeGlobalRules(box, TASK_RULES);
    const fake = await startFakeOpenAI(TASK_SCRIPT, join(box.root, "fake"));
    writeOpenCodeConfig(box, fake.port);
    const env = opencodeEnv(box);
    await run(shepherdBin(), ["init", "opencode"], { cwd: box.proj, env });
    try {
      taskRun = await run(opencodeBin(), ["run", "--model", "fake/fake-model", "tidy up"], { cwd: box.proj, env, timeoutMs: 120_000 });
    } finally {
      await fake.stop();
    }
    seen = readJsonl(fake.logFile).map((r) => JSON.stringify(r.body));
  }, 180_000);

  afterAll(() => box?.cleanup());

  it("should keep a subagent: false rule quiet in the child session and apply it in the main one", () => {
    expect(taskRun.code).toBe(0);
    // Step 1 is the child session's first request: it was asked to do the child work.
    expect(seen[1]).toContain("do the child work");
    expect(readFileSync(join(box.proj, "parent-only.child"), "utf8")).toBe("child\n");
    expect(existsSync(join(box.proj, "parent-only.parent"))).toBe(false);
    expect(seen[4]).toContain("E2E-PARENT: not in the main session");
  });
});

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => ok(port));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok();
    child.once("exit", () => ok());
    child.kill("SIGTERM");
  });
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
