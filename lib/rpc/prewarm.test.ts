/** @module unit tests: warming a sidecar at start runs the serving path on a scratch session store and leaves no trace. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Logger } from "../log.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";
import { Dispatcher } from "./dispatch.ts";
import { prewarm, settleCompiler, warmEvents, warmLines } from "./prewarm.ts";

const quiet: Logger = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };
let root = "";
let cwd = "";
let env: Record<string, string> = {};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-prewarm-"));
  cwd = join(root, "p");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  // A shadow rule every warm-up command meets: a warm-up that counted would show in the shadow tally.
  writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify([{ name: "shadow-all", mode: "shadow", action: "block", pattern: "." }]));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Plugins that finish loading when the test says so (as the sidecar's provider does after its workers start). */
function slowPlugins(): { provider: PluginProvider; finish: () => void } {
  let finish = () => {};
  const ready = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const none = { actions: new Set<string>(), checks: new Set<string>() };
  return { provider: { names: () => none, evalHost: () => ({}), ready: () => ready }, finish };
}

function warmOptions(ws: Workspace, evaluations: number) {
  return { dispatcherFor: (evaluate: (e: HookEvent) => Decision | Promise<Decision>) => new Dispatcher({ workspace: ws, version: "test", log: quiet, evaluate }), log: quiet, evaluations };
}

describe("prewarm", () => {
  it("should answer every warm line without a decision reaching the audit, a session or the shadow tally", async () => {
    const decisions: Decision[] = [];
    const ws = new Workspace({ env, cwd, watch: false, onDecision: (_e, d) => decisions.push(d) }, "test");
    try {
      expect(ws.host(cwd).issues).toEqual([]);
      const rounds = 4;
      // A budget no loaded host reaches: all the rounds asked for run.
      expect(await prewarm(ws, cwd, { ...warmOptions(ws, rounds * warmEvents(cwd).length), budgetMs: 60_000 })).toBe(rounds * warmEvents(cwd).length);
      expect(decisions).toEqual([]);
      expect(ws.status(cwd).sessions).toBe(0);
      expect(ws.shadowCounts()).toEqual([]);
      const event: HookEvent = { hook: "tool_call", session: { id: "real", cwd }, tool: { name: "bash", input: { command: "git status" } } };
      await ws.evaluate(event);
      expect(decisions.length).toBe(1);
      expect(ws.status(cwd, "real").session?.calls).toBe(1);
      expect(ws.shadowCounts().length).toBe(1);
    } finally {
      ws.close();
    }
  });

  it("should stop after the first whole round once its budget is spent", async () => {
    const ws = new Workspace({ env, cwd, watch: false }, "test");
    try {
      const n = warmEvents(cwd).length;
      expect(await prewarm(ws, cwd, { ...warmOptions(ws, 50 * n), budgetMs: 0 })).toBe(n);
      expect(await prewarm(ws, cwd, { ...warmOptions(ws, 3 * n), budgetMs: 60_000 })).toBe(3 * n);
    } finally {
      ws.close();
    }
  });

  it("should wait for the project's plugins, then warm (a sidecar with plugins warmed nothing before)", async () => {
    const { provider, finish } = slowPlugins();
    const ws = new Workspace({ env, cwd, watch: false, plugins: provider }, "test");
    try {
      ws.host(cwd);
      expect(ws.scratch(cwd)).toBeUndefined();
      let done = false;
      const warmed = prewarm(ws, cwd, warmOptions(ws, 1)).then((n) => ((done = true), n));
      await Bun.sleep(20);
      expect(done).toBe(false);
      finish();
      expect(await warmed).toBe(warmEvents(cwd).length);
    } finally {
      ws.close();
    }
  });

  it("should await its beforeWarm once the rules are final, before the first warm evaluation, and call afterWarm after the last", async () => {
    const { provider, finish } = slowPlugins();
    const ws = new Workspace({ env, cwd, watch: false, plugins: provider }, "test");
    try {
      ws.host(cwd);
      const order: string[] = [];
      const dispatcherFor = (evaluate: (e: HookEvent) => Decision | Promise<Decision>) =>
        new Dispatcher({ workspace: ws, version: "test", log: quiet, evaluate: (e) => (order.push("evaluate"), evaluate(e)) });
      const beforeWarm = async () => {
        order.push(`before, plugins ${ws.scratch(cwd) ? "loaded" : "loading"}`);
        await Bun.sleep(10);
        order.push("before done");
      };
      const afterWarm = () => void order.push("after");
      const warmed = prewarm(ws, cwd, { dispatcherFor, log: quiet, evaluations: 1, beforeWarm, afterWarm, settleMs: 0 });
      await Bun.sleep(20);
      expect(order).toEqual([]);
      finish();
      const n = warmEvents(cwd).length;
      expect(await warmed).toBe(n);
      expect(order).toEqual(["before, plugins loaded", "before done", ...Array.from({ length: n }, () => "evaluate"), "after"]);
    } finally {
      ws.close();
    }
  });

  it("should call afterSettle once after afterWarm, then run one more round of every warm event", async () => {
    const ws = new Workspace({ env, cwd, watch: false }, "test");
    try {
      ws.host(cwd);
      const order: string[] = [];
      const dispatcherFor = (evaluate: (e: HookEvent) => Decision | Promise<Decision>) =>
        new Dispatcher({ workspace: ws, version: "test", log: quiet, evaluate: (e) => (order.push("evaluate"), evaluate(e)) });
      const warmed = await prewarm(ws, cwd, { dispatcherFor, log: quiet, evaluations: 1, afterWarm: () => void order.push("after"), afterSettle: () => void order.push("settled"), settleMs: 0 });
      const n = warmEvents(cwd).length;
      expect(warmed).toBe(2 * n);
      const evaluations = Array.from({ length: n }, () => "evaluate");
      expect(order).toEqual([...evaluations, "after", "settled", ...evaluations]);
    } finally {
      ws.close();
    }
  });

  it("should give up, warming nothing, when the plugins take longer than it waits", async () => {
    const { provider, finish } = slowPlugins();
    const ws = new Workspace({ env, cwd, watch: false, plugins: provider }, "test");
    try {
      let before = 0;
      expect(await prewarm(ws, cwd, { ...warmOptions(ws, 1), readyWaitMs: 20, beforeWarm: () => void before++ })).toBe(0);
      expect(before).toBe(0);
    } finally {
      finish();
      ws.close();
    }
  });

  it("should warm each kind of event a session sends, in the project, and never end a session", () => {
    const events = warmEvents(cwd);
    const kinds = new Set(events.map((e) => `${e.hook}:${e.tool?.name ?? ""}`));
    for (const k of ["tool_call:bash", "tool_result:bash", "tool_call:read", "tool_call:edit", "tool_call:write", "tool_result:read", "input:", "message_end:"]) expect(kinds).toContain(k);
    expect(events.every((e) => e.session.cwd === cwd)).toBe(true);
    // A warm session_shutdown would reach the approval store (Dispatcher's withApprovals).
    expect(events.some((e) => e.hook === "session_shutdown")).toBe(false);
  });

  it("should frame the warm events as request lines, one a chunk, with distinct ids", () => {
    const events = warmEvents(cwd);
    const lines = warmLines(events, 2).map((c) => new TextDecoder().decode(c));
    expect(lines.length).toBe(2 * events.length);
    expect(lines.every((l) => l.endsWith("\n") && l.indexOf("\n") === l.length - 1)).toBe(true);
    const parsed = lines.map((l) => JSON.parse(l) as { jsonrpc: string; id: number; method: string; params: { event: HookEvent } });
    expect(new Set(parsed.map((p) => p.id)).size).toBe(lines.length);
    expect(parsed.every((p) => p.jsonrpc === "2.0" && p.method === "shepherd/evaluate")).toBe(true);
    expect(parsed.slice(0, events.length).map((p) => p.params.event)).toEqual(events);
  });
});

describe("settleCompiler", () => {
  const noSleep = () => Promise.resolve();

  it("should stop once the compiler threads spent nothing over two polls in a row (Linux)", async () => {
    const readings = [0, 3, 7, 7, 9, 9, 9, 12];
    let polls = 0;
    await settleCompiler(10_000, () => readings[Math.min(polls++, readings.length - 1)] as number, noSleep);
    // Linux: 0 3 7 7 9 9 9 (quiet twice at the 7th); elsewhere no thread is visible, so nothing is read.
    expect(polls).toBe(process.platform === "linux" ? 7 : 0);
  });

  it("should give up after its budget while the threads keep compiling", async () => {
    let polls = 0;
    const t0 = performance.now();
    await settleCompiler(30, () => polls++, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(polls > 1).toBe(process.platform === "linux");
  });

  it("should not wait at all without a budget", async () => {
    let polls = 0;
    await settleCompiler(0, () => polls++, noSleep);
    expect(polls).toBe(0);
  });
});
