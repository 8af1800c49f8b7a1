/**
 * @module what rule packs cost: the same rules (10 packs of 1,000) loaded as 10 locked npm packs, hashed against
 * their lock on every full load, against 10 plain project rule files. Measured side by side, in turn: a sidecar
 * from spawn to its first answer, and a spawned hook answering from its warm snapshot.
 *
 *   bun run bench/sections/packs.ts [--quick]     runs this section alone
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SHEPHERD } from "../lib/paths.ts";
import { spawnLineClient } from "../lib/line-client.ts";
import { createProject, type BenchProject } from "../lib/project.ts";
import { median } from "../lib/stats.ts";
import { allowedBashEvent, syntheticRules } from "../lib/synthetic-rules.ts";
import { fileRuleSnapshots } from "../../lib/rules/hook-snapshot.ts";
import { RuleHost } from "../../lib/rules/host.ts";
import { packTreeStats } from "../../lib/rules/packs/pack-tree.ts";
import { packBudget, resolvePacks } from "../../lib/rules/packs/resolve.ts";
import { packSnapshotKey } from "../../lib/rules/packs/snapshot-key.ts";

export interface PacksResult {
  packs: number;
  rulesPerPack: number;
  /** Sidecar spawn to first evaluate answer, ms (medians). */
  sidecarPlain: number;
  sidecarPacks: number;
  /** Spawned hook with a warm snapshot, ms (medians). */
  hookPlain: number;
  hookPacks: number;
  /** In process: what a full load adds for the packs (find, read, sha256 every file, compare with the lock), ms (median). */
  resolveMs: number;
  /** In process: what a snapshot hook adds, computing the packs' part of the snapshot key, µs (median). */
  keyUs: number;
  /** Pack folders read while a rule host answered from its snapshot: the promise is none. */
  snapshotReads: number;
}

/** Rules of pack `i`: distinct names and patterns across packs. */
function packRules(i: number, count: number): unknown[] {
  return syntheticRules(count, 100 + i).map((r) => ({ ...r, name: `pack${i}-${String(r.name)}` }));
}

function setup(packs: number, rulesPerPack: number, asPacks: boolean): BenchProject {
  const project = createProject(0, asPacks ? "packs" : "packs-plain");
  const pi = join(project.cwd, ".pi");
  if (!asPacks) {
    for (let i = 0; i < packs; i++) writeFileSync(join(pi, `shepherd-rules-${String(i).padStart(2, "0")}.json`), JSON.stringify({ rules: packRules(i, rulesPerPack) }, null, 1));
    return project;
  }
  const names: string[] = [];
  for (let i = 0; i < packs; i++) {
    const name = `bench-pack-${i}`;
    const dir = join(project.cwd, "node_modules", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0" }));
    writeFileSync(join(dir, "shepherd-rules.json"), JSON.stringify({ rules: packRules(i, rulesPerPack) }, null, 1));
    const added = Bun.spawnSync([SHEPHERD, "pack", "add", name], { cwd: project.cwd, env: project.env, stdout: "pipe", stderr: "pipe" });
    if (added.exitCode !== 0) throw new Error(`bench: shepherd pack add ${name} failed: ${added.stderr.toString()}`);
    names.push(name);
  }
  return project;
}

async function sidecarStart(project: BenchProject): Promise<number> {
  const t0 = performance.now();
  const client = spawnLineClient([SHEPHERD, "serve"], { cwd: project.cwd, env: project.env });
  await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  const answer = await client.request("shepherd/evaluate", { event: allowedBashEvent(project.cwd) });
  const ms = performance.now() - t0;
  await client.close();
  const result = answer.result as { action?: string } | undefined;
  if (result?.action !== "allow") throw new Error(`bench: sidecar did not answer allow: ${JSON.stringify(answer).slice(0, 300)}`);
  return ms;
}

function hookInput(cwd: string, command: string): Buffer {
  return Buffer.from(JSON.stringify({ session_id: "bench-packs", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t" }));
}

function hookOnce(project: BenchProject, command: string): number {
  const t0 = performance.now();
  const res = Bun.spawnSync([SHEPHERD, "hook", "claude-code"], { cwd: project.cwd, env: project.env, stdin: hookInput(project.cwd, command), stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (res.exitCode !== 0 || res.stdout.toString().includes('"deny"')) throw new Error(`bench: hook failed (exit ${res.exitCode}): ${res.stdout.toString().slice(0, 200)} ${res.stderr.toString().slice(0, 300)}`);
  if (res.stderr.toString().includes("pack")) throw new Error(`bench: the pack project reported a problem: ${res.stderr.toString().slice(0, 300)}`);
  return ms;
}

export async function benchPacks(opts: { packs: number; rulesPerPack: number; runs: number; hookRuns: number }): Promise<PacksResult> {
  const plain = setup(opts.packs, opts.rulesPerPack, false);
  const packed = setup(opts.packs, opts.rulesPerPack, true);
  try {
    const sidecar = { plain: [] as number[], packs: [] as number[] };
    // One start each first: the page cache and the load cache's entries are then the same for both.
    await sidecarStart(plain);
    await sidecarStart(packed);
    for (let r = 0; r < opts.runs; r++) {
      sidecar.plain.push(await sidecarStart(plain));
      sidecar.packs.push(await sidecarStart(packed));
    }
    const hook = { plain: [] as number[], packs: [] as number[] };
    const commands = ["git status --short", "git status"];
    for (let r = 0; r < 3; r++) for (const p of [plain, packed]) hookOnce(p, commands[r % 2] as string);
    for (let r = 0; r < opts.hookRuns; r++) {
      const command = commands[r % 2] as string;
      hook.plain.push(hookOnce(plain, command));
      hook.packs.push(hookOnce(packed, command));
    }
    const rulesFile = join(packed.cwd, ".pi", "shepherd-rules.json");
    const extendsList = Array.from({ length: opts.packs }, (_, i) => `bench-pack-${i}`);
    const resolveTimes: number[] = [];
    for (let r = 0; r < opts.runs + 2; r++) {
      const t0 = performance.now();
      const got = resolvePacks(rulesFile, "project", extendsList, { cwd: packed.cwd, env: packed.env, budget: packBudget("project", true), locks: new Map() });
      const ms = performance.now() - t0;
      if (got.files.length !== opts.packs || got.issues.length > 0) throw new Error(`bench: packs did not resolve: ${JSON.stringify(got.issues).slice(0, 300)}`);
      if (r >= 2) resolveTimes.push(ms);
    }
    const keyTimes: number[] = [];
    for (let r = 0; r < 200; r++) {
      const t0 = performance.now();
      packSnapshotKey({ cwd: packed.cwd, env: packed.env }, [rulesFile], undefined);
      keyTimes.push((performance.now() - t0) * 1000);
    }
    // A rule host over a snapshot store of its own: the first build saves it, the second answers from it.
    const store = () => fileRuleSnapshots(join(packed.root, "bench-snapshots"), "bench", [allowedBashEvent(packed.cwd)], packed.env.HOME as string);
    new RuleHost({ cwd: packed.cwd, env: packed.env, snapshots: store(), lazyCompile: true });
    const before = packTreeStats.reads;
    new RuleHost({ cwd: packed.cwd, env: packed.env, snapshots: store(), lazyCompile: true });
    const snapshotReads = packTreeStats.reads - before;
    return {
      resolveMs: median(resolveTimes),
      keyUs: median(keyTimes),
      snapshotReads,
      packs: opts.packs,
      rulesPerPack: opts.rulesPerPack,
      sidecarPlain: median(sidecar.plain),
      sidecarPacks: median(sidecar.packs),
      hookPlain: median(hook.plain),
      hookPacks: median(hook.packs),
    };
  } finally {
    plain.dispose();
    packed.dispose();
  }
}

if (import.meta.main) {
  const quick = process.argv.includes("--quick");
  const r = await benchPacks(quick ? { packs: 3, rulesPerPack: 50, runs: 2, hookRuns: 4 } : { packs: 10, rulesPerPack: 1_000, runs: 9, hookRuns: 41 });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
