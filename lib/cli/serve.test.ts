/** @module unit tests: `shepherd serve` warms through its serving path before it reads the client's first line. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../log.ts";
import { warmEvents, WARM_EVALUATIONS } from "../rpc/prewarm.ts";
import type { PluginProvider } from "../rules/workspace.ts";
import { runServe } from "./serve.ts";

const quiet: Logger = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };
let root = "";
let cwd = "";
let env: Record<string, string> = {};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-serve-"));
  cwd = join(root, "p");
  mkdirSync(cwd, { recursive: true });
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** One ping line, recording whether the warm-up had finished when it was first asked for. */
function pingInput(warmed: () => boolean) {
  const order: string[] = [];
  let sent = false;
  return {
    order,
    input: {
      read: async () => {
        order.push(warmed() ? "read after warm-up" : "read before warm-up");
        if (sent) return { done: true };
        sent = true;
        return { done: false, value: new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n') };
      },
    },
  };
}

const none = { actions: new Set<string>(), checks: new Set<string>() };
const providers: [string, PluginProvider | undefined][] = [
  ["no plugin provider", undefined],
  // The binary always passes one, already loaded: the warm-up used to see the project as loading and skip.
  ["a plugin provider, loaded", { names: () => none, evalHost: () => ({}), ready: () => Promise.resolve() }],
];

describe("runServe", () => {
  it.each(providers)("should warm with %s, then read and answer the client's first line", async (_label, plugins) => {
    let done = false;
    const { order, input } = pingInput(() => done);
    const out: string[] = [];
    const server = await runServe({ cwd, env, version: "test", log: quiet, input, write: (l) => out.push(l), yieldCompiler: false, ...(plugins ? { plugins } : {}) });
    const warmed = await server.warmed.then((n) => ((done = true), n));
    // Whole rounds, the first one always, then as many as the time budget lets a loaded host run, and one
    // more after the compiler settled (the binary's code pages handed back come in again before the client).
    const perRound = warmEvents(cwd).length;
    const rounds = Math.round(WARM_EVALUATIONS / perRound);
    expect(warmed % perRound).toBe(0);
    expect(warmed).toBeGreaterThanOrEqual(2 * perRound);
    expect(warmed).toBeLessThanOrEqual((rounds + 1) * perRound);
    expect(await server.done).toBe(0);
    expect(order[0]).toBe("read after warm-up");
    expect(out).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n']);
  });

  it("should answer at once, with nothing warmed, when told not to warm", async () => {
    const { input } = pingInput(() => true);
    const out: string[] = [];
    const server = await runServe({ cwd, env, version: "test", log: quiet, input, write: (l) => out.push(l), prewarm: false, yieldCompiler: false });
    expect(await server.warmed).toBe(0);
    expect(await server.done).toBe(0);
    expect(out).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n']);
  });
});
