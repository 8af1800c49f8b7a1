/**
 * @module soak: a million evaluations through the JSON-RPC dispatcher with periodic rule reloads,
 * heap sampled after forced GC. `bun run bench/soak.ts [evaluations]` prints the samples and exits 1 if
 * the heap grew past the bound; `bench/soak.test.ts` runs a smaller variant in CI.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../lib/log.ts";
import { Dispatcher } from "../lib/rpc/dispatch.ts";
import { Workspace } from "../lib/rules/workspace.ts";

/** Growth of the live heap allowed from the first sample after warm-up to the last, in MiB. */
export const HEAP_GROWTH_BOUND_MIB = 32;

export interface SoakOptions {
  evaluations: number;
  /** A rule file is rewritten and reloaded every this many evaluations. */
  reloadEvery: number;
  samples: number;
  /** Distinct session ids cycled through (more than the store keeps, so eviction is exercised). */
  sessions: number;
}

export interface SoakResult {
  evaluations: number;
  reloads: number;
  seconds: number;
  /** Live heap after GC, MiB, one per sample. */
  heapMiB: number[];
  rssMiB: number[];
  growthMiB: number;
  decisions: Record<string, number>;
}

const quiet: Logger = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };
const MiB = 1024 * 1024;

function gc(): void {
  if (typeof Bun !== "undefined") Bun.gc(true);
}

function rules(generation: number): string {
  return JSON.stringify([
    { name: "no-rm", action: "block", pattern: "\\brm\\s+-rf\\b", reason: `no rm (${generation})` },
    { name: "sudo", action: "ask", pattern: "^sudo\\b" },
    { name: "npm-ci", action: "rewrite", pattern: "^npm install$", rewrite: { replace: "npm ci" } },
    { name: `push-${generation % 7}`, action: "notify", pattern: "git push", reason: "pushing" },
    { name: "errors", hook: "tool_result", tool: "*", action: "steer", state: { countKind: "errors", gte: 3 }, reason: "slow down" },
    { name: "env", tool: ["read", "write", "edit"], action: "block", conditions: [{ field: "path", pattern: "\\.env$" }] },
    { name: "wrap", hook: "agent_end", action: "notify", check: "has_edits", reason: "run the tests" },
  ]);
}

const COMMANDS = ["ls -la", "rm -rf /tmp/x", "sudo apt install x", "npm install", "git push origin main", "git status", "cat README.md"];

function eventLine(i: number, sessions: number, cwd: string): string {
  const session = { id: `soak-${i % sessions}`, cwd };
  const kind = i % 10;
  let event: unknown;
  if (kind < 6) event = { hook: "tool_call", session, tool: { name: "bash", input: { command: `${COMMANDS[i % COMMANDS.length]} ${i % 100}` } } };
  else if (kind < 8) event = { hook: "tool_result", session, tool: { name: "bash", input: { command: "make" } }, result: { text: "out", isError: i % 3 === 0 } };
  else if (kind === 8) event = { hook: "tool_call", session, tool: { name: "write", input: { path: i % 4 ? "a.ts" : ".env", content: "x" } } };
  else event = { hook: "agent_end", session, stopReason: "stop" };
  return JSON.stringify({ jsonrpc: "2.0", id: i, method: "shepherd/evaluate", params: { event } });
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const root = mkdtempSync(join(tmpdir(), "shepherd-soak-"));
  const cwd = join(root, "project");
  const agent = join(root, "agent");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  mkdirSync(agent, { recursive: true });
  const file = join(cwd, ".pi", "shepherd-rules.json");
  writeFileSync(file, rules(0));
  writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [cwd] } }));
  const workspace = new Workspace({ env: { HOME: join(root, "home"), PI_CODING_AGENT_DIR: agent }, cwd, watch: false }, "soak");
  const dispatcher = new Dispatcher({ workspace, version: "soak", log: quiet });
  const heapMiB: number[] = [];
  const rssMiB: number[] = [];
  const decisions: Record<string, number> = {};
  let reloads = 0;
  const sampleEvery = Math.max(1, Math.floor(opts.evaluations / opts.samples));
  const started = performance.now();
  try {
    for (let i = 0; i < opts.evaluations; i++) {
      if (i > 0 && i % opts.reloadEvery === 0) {
        writeFileSync(file, rules(++reloads));
        workspace.reload(cwd);
      }
      const res = await dispatcher.handleLine(eventLine(i, opts.sessions, cwd));
      const action = res && "result" in res ? String((res.result as { action: unknown }).action) : "error";
      decisions[action] = (decisions[action] ?? 0) + 1;
      if ((i + 1) % sampleEvery === 0) {
        gc();
        const m = process.memoryUsage();
        heapMiB.push(m.heapUsed / MiB);
        rssMiB.push(m.rss / MiB);
      }
    }
  } finally {
    workspace.close();
    rmSync(root, { recursive: true, force: true });
  }
  // The first tenth warms caches (JIT, session store filling to its bound); growth counts after it.
  const base = heapMiB[Math.floor(heapMiB.length / 10)] ?? 0;
  const growthMiB = Math.max(...heapMiB.slice(Math.floor(heapMiB.length / 10))) - base;
  return { evaluations: opts.evaluations, reloads, seconds: (performance.now() - started) / 1000, heapMiB, rssMiB, growthMiB, decisions };
}

if (import.meta.main) {
  const evaluations = Number(process.argv[2] ?? 1_000_000);
  const result = await runSoak({ evaluations, reloadEvery: 10_000, samples: 50, sessions: 20_000 });
  const round = (xs: number[]) => xs.map((x) => Math.round(x * 10) / 10);
  process.stdout.write(
    `${JSON.stringify({ ...result, heapMiB: round(result.heapMiB), rssMiB: round(result.rssMiB), boundMiB: HEAP_GROWTH_BOUND_MIB }, null, 1)}\n`,
  );
  process.exit(result.growthMiB <= HEAP_GROWTH_BOUND_MIB && !result.decisions.error ? 0 : 1);
}
