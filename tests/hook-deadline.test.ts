/**
 * @module black-box: the deadline and the input bounds of `dist/shepherd hook <agent>` and `dist/shepherd serve`.
 * Whatever the input or the state of the machine, a hook answers in the agent's contract before the agent's
 * own timeout, failing closed for a pending tool call: input over the 8 MiB cap or not JSON is blocked
 * (exit 2, which Claude Code, Codex and Gemini CLI all read as a block), stdin that never closes and an
 * evaluation that hangs are answered at the deadline, and a main thread stuck in synchronous work is
 * answered by the watchdog thread. The sidecar answers a late evaluation and keeps serving.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startHttp } from "./helpers/http-server.ts";
import { BINARY, bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

const PEAK_RSS = join(import.meta.dir, "helpers", "peak-rss.ts");

let tp: TempProject;
let sc: Sidecar | undefined;
beforeEach(() => {
  tp = tempProject("shepherd-deadline-");
});
afterEach(async () => {
  if (sc && sc.child.exitCode === null) await sc.close();
  sc = undefined;
  tp.cleanup();
});

interface HookRun {
  code: number | null;
  out: string;
  err: string;
  ms: number;
  /** Peak resident memory of the hook process (Bun reports bytes). */
  maxRssMb: number;
}

/** Runs one hook with `input` on stdin; `keepOpen` leaves stdin's write end open after writing it. */
async function hook(agent: string, input: string | Uint8Array, opts: { keepOpen?: boolean } = {}): Promise<HookRun> {
  const t0 = performance.now();
  // Through a wrapper of its own: the test process's children usage is a maximum over every child it spawned.
  const rssFile = join(tp.root, `peak-rss-${Math.random().toString(36).slice(2)}`);
  const child = Bun.spawn([process.execPath, PEAK_RSS, BINARY, "hook", agent], { cwd: tp.project, env: { ...tp.env, PEAK_RSS_OUT: rssFile }, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  // The hook may answer and leave before reading all of a huge input: a closed pipe is its business.
  try {
    child.stdin.write(input);
    await child.stdin.flush();
    if (!opts.keepOpen) await child.stdin.end();
  } catch {
    // EPIPE
  }
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  const code = await child.exited;
  const ms = performance.now() - t0;
  if (opts.keepOpen) {
    try {
      await child.stdin.end();
    } catch {
      // already gone
    }
  }
  const peak = Number(readFileSync(rssFile, "utf8"));
  return { code, out, err, ms, maxRssMb: (peak > 0 ? peak : Number.POSITIVE_INFINITY) / (1024 * 1024) };
}

const settings = (shepherd: Record<string, unknown>) => writeFileSync(join(tp.agentDir, "settings.json"), JSON.stringify({ shepherd }));
const globalRules = (rules: unknown[]) => writeFileSync(join(tp.agentDir, "shepherd-rules.json"), JSON.stringify(rules));
function plugin(name: string, body: string): void {
  const dir = join(tp.agentDir, "shepherd", "plugins");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `import { definePlugin } from "shepherd:plugin";\nexport default definePlugin(${body});\n`);
}

const PRE_TOOL: Record<string, string> = { "claude-code": "PreToolUse", codex: "PreToolUse", gemini: "BeforeTool" };
const hookJson = (agent: string, extra: Record<string, unknown>) =>
  JSON.stringify({ session_id: "s1", cwd: tp.project, hook_event_name: PRE_TOOL[agent], tool_name: "Bash", ...extra });

describe("shepherd hook on input it cannot take", () => {
  for (const agent of ["claude-code", "codex", "gemini"]) {
    it(`should block a ${agent} tool call over 8 MiB with exit 2, reading it with bounded memory`, async () => {
      const big = hookJson(agent, { tool_input: { file_path: "a.txt", content: "x".repeat(9 * 1024 * 1024) } });
      const r = await hook(agent, big);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toContain("Shepherd blocked this tool call");
      expect(r.err).toContain("exceeds the 8388608-byte limit");
      expect(r.maxRssMb).toBeLessThan(300);
    });

    it(`should block ${agent} input that is not JSON with exit 2`, async () => {
      const r = await hook(agent, `${hookJson(agent, {}).slice(0, 80)} and then not JSON`);
      expect(r.code).toBe(2);
      expect(r.err).toContain("not JSON");
    });
  }

  it("should keep memory bounded on 64 MiB of input, read to its end", async () => {
    const head = new TextEncoder().encode(hookJson("claude-code", {}).replace(/}$/, ',"tool_input":{"content":"'));
    const input = new Uint8Array(64 * 1024 * 1024).fill(120);
    input.set(head);
    const r = await hook("claude-code", input);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`hook input of ${input.length} bytes`);
    expect(r.maxRssMb).toBeLessThan(300);
  });

  it("should give no opinion (exit 0) on an oversized input of an event with nothing pending", async () => {
    const big = JSON.stringify({ session_id: "s1", cwd: tp.project, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: {}, tool_response: { stdout: "x".repeat(9 * 1024 * 1024) } });
    const r = await hook("claude-code", big);
    expect(r.code).toBe(0);
    expect(r.err).toContain("PostToolUse: no opinion");
  });

  it("should answer stdin that never closes at the deadline, failing closed", async () => {
    const r = await hook("claude-code", hookJson("claude-code", { tool_input: { command: "ls" } }).slice(0, 100), { keepOpen: true });
    expect(r.code).toBe(2);
    expect(r.err).toContain("the hook input did not end within 5 s");
    expect(r.ms).toBeLessThan(9_000); // the default deadline, 5 s, and the machine's load
  }, 20_000);
});

describe("shepherd hook when the evaluation hangs", () => {
  beforeEach(() => {
    // A plugin action that never settles, with a plugin budget far longer than any hook may take.
    plugin("hang.ts", `{ actions: { hang: () => new Promise(() => {}) } }`);
    globalRules([{ name: "hangs", action: "hang", pattern: "." }]);
  });

  it("should deny at hookDeadlineMs, long before the plugin's own budget", async () => {
    settings({ pluginTimeoutMs: 60_000, hookDeadlineMs: 1_000 });
    const r = await hook("claude-code", hookJson("claude-code", { tool_input: { command: "ls" } }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: 'Shepherd could not evaluate this call (evaluation exceeded 1 s); it is blocked because failMode is "closed".',
      },
    });
    expect(r.ms).toBeLessThan(6_000);
  }, 20_000);

  it("should answer before the timeout Claude Code's settings give Shepherd's hook", async () => {
    settings({ pluginTimeoutMs: 60_000 });
    mkdirSync(join(tp.project, ".claude"), { recursive: true });
    const entry = { type: "command", command: `${BINARY} hook claude-code`, timeout: 2 };
    writeFileSync(join(tp.project, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [entry] }] } }));
    const r = await hook("claude-code", hookJson("claude-code", { tool_input: { command: "ls" } }));
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason).toContain("evaluation exceeded 1.5 s");
  }, 20_000);

  it.each([
    ["claude-code", "Bash"],
    ["codex", "Bash"],
    ["gemini", "run_shell_command"],
  ])('should deny the %s call and stop the run at the deadline with failMode "halt"', async (agent, tool) => {
    settings({ pluginTimeoutMs: 60_000, hookDeadlineMs: 1_000, failMode: "halt" });
    const r = await hook(agent, hookJson(agent, { tool_name: tool, tool_input: { command: "ls" } }));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.continue).toBe(false);
    expect(out.stopReason).toContain('failMode is "halt"');
    if (agent === "gemini") expect(out.decision).toBe("deny");
    else expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
  }, 20_000);

  it("should deny a Gemini call in Gemini's format at the deadline", async () => {
    settings({ pluginTimeoutMs: 60_000, hookDeadlineMs: 1_000 });
    const r = await hook("gemini", hookJson("gemini", { tool_name: "run_shell_command", tool_input: { command: "ls" } }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ decision: "deny" });
  }, 20_000);
});

describe("shepherd hook when its main thread is stuck", () => {
  it("should be answered by the watchdog thread, in the agent's contract", async () => {
    // Synchronous work no timer can interrupt: 300 trusted global patterns with no literal and no class
    // shape to skip them by (`[0-9_]` is neither digits only nor one character), each scanning a 6 MB
    // command on the linear engine (long inputs run there), take many seconds of one uninterrupted call
    // stack. The watchdog starts at once for an input over 64 KiB (else after 25 ms).
    settings({ hookDeadlineMs: 1_000 });
    globalRules(Array.from({ length: 300 }, (_, i) => ({ name: `digits-${i}`, action: "block", pattern: `[0-9_][0-9_][0-9_]{${(i % 5) + 1}}[a-f]` })));
    const r = await hook("claude-code", hookJson("claude-code", { tool_input: { command: `echo ${"a".repeat(6_000_000)}` } }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(r.err).toContain("(watchdog)");
    expect(r.ms).toBeLessThan(6_000);
  }, 20_000);
});

describe("shepherd serve when an evaluation hangs", () => {
  it("should answer a late evaluate by the deadline and keep serving", async () => {
    plugin("hang.ts", `{ actions: { hang: () => new Promise(() => {}) } }`);
    globalRules([{ name: "hangs", action: "hang", pattern: "^hang" }, { name: "no-shred", action: "block", pattern: "^shred ", reason: "no shred" }]);
    // pi waits 1 s for the sidecar: the sidecar answers before that, at 750 ms.
    settings({ pluginTimeoutMs: 60_000, timeoutMs: 1_000 });
    sc = new Sidecar(tp.project, tp.env);
    const t0 = performance.now();
    const late = await sc.evaluate(bashEvent("hang now", tp.project));
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(late).toMatchObject({ action: "block", reason: 'Shepherd could not evaluate this call (evaluation exceeded 750 ms); it is blocked because failMode is "closed".' });
    expect(await sc.evaluate(bashEvent("shred notes", tp.project))).toMatchObject({ action: "block", reason: "no shred" });
    expect((await sc.request("ping")).result).toEqual({});
  }, 20_000);
});

describe("shepherd http when an evaluation hangs or a hook call cannot be read", () => {
  const post = (url: string, body: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });

  it("should answer both the evaluate route and Claude Code's hook route by hookDeadlineMs, and keep serving", async () => {
    plugin("hang.ts", `{ actions: { hang: () => new Promise(() => {}) } }`);
    globalRules([{ name: "hangs", action: "hang", pattern: "^hang" }]);
    settings({ pluginTimeoutMs: 60_000, hookDeadlineMs: 800 });
    const srv = await startHttp([], { cwd: tp.project, env: { ...tp.env, SHEPHERD_LOG: "info" } });
    try {
      const evaluated = (await (await post(`${srv.url}/v1/evaluate`, JSON.stringify({ event: bashEvent("hang now", tp.project) }))).json()) as Record<string, unknown>;
      expect(evaluated).toMatchObject({ action: "block", reason: 'Shepherd could not evaluate this call (evaluation exceeded 800 ms); it is blocked because failMode is "closed".' });
      const res = await post(`${srv.url}/v1/hooks/claude-code`, hookJson("claude-code", { tool_input: { command: "hang now" } }));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { hookSpecificOutput: Record<string, unknown> }).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
      expect(await (await post(`${srv.url}/v1/evaluate`, JSON.stringify({ event: bashEvent("ls", tp.project) }))).json()).toMatchObject({ action: "allow" });
    } finally {
      await srv.stop();
    }
  }, 20_000);

  it("should deny (status 200) a hook call over the body limit or not JSON, where a 4xx would let it run", async () => {
    const srv = await startHttp([], { cwd: tp.project, env: { ...tp.env, SHEPHERD_LOG: "info" } });
    try {
      for (const body of [hookJson("claude-code", { tool_input: { content: "x".repeat(9 * 1024 * 1024) } }), `${hookJson("claude-code", {}).slice(0, 90)}...`]) {
        const res = await post(`${srv.url}/v1/hooks/claude-code`, body);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { hookSpecificOutput: Record<string, unknown> }).hookSpecificOutput).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "deny" });
      }
      expect((await post(`${srv.url}/v1/evaluate`, "x".repeat(9 * 1024 * 1024))).status).toBe(413);
    } finally {
      await srv.stop();
    }
  }, 20_000);
});
