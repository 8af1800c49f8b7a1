/**
 * @module resident memory of `shepherd serve` at a large rule set: after loading, then through 100,000
 * evaluations (the event mix over 50 sessions), sampled every 1% to see its peak and whether it keeps growing.
 */
import { rssOf, spawnLineClient } from "../lib/line-client.ts";
import { SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { fmtMb, median } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";
import { takeNumber } from "../lib/args.ts";

export interface MemoryResult {
  rules: number;
  evaluations: number;
  afterLoad: number;
  /** RSS at each checkpoint (bytes), the last one after all evaluations. */
  checkpoints: { evaluations: number; rss: number }[];
  final: number;
  /**
   * Median RSS of the second half of the run minus that of the first (after its first checkpoint, which
   * still holds the warm-up): near zero when nothing accumulates; single samples swing with each GC.
   */
  growthSecondHalf: number;
}

const IN_FLIGHT = 32;

export async function benchMemory(ruleCount: number, opts: { evaluations: number; bin?: string }): Promise<MemoryResult> {
  const project = createProject(ruleCount, "memory");
  const client = spawnLineClient([opts.bin ?? SHEPHERD, "serve"], { cwd: project.cwd, env: project.env });
  try {
    await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    await client.request("ping", {});
    const afterLoad = rssOf(client.pid);
    const mixes = Array.from({ length: 50 }, (_, i) => eventMix(project.cwd, `memory-${i}`).map((event) => JSON.stringify({ jsonrpc: "2.0", method: "shepherd/evaluate", params: { event } })));
    const checkpoints: { evaluations: number; rss: number }[] = [];
    // Every 1%: the first thousands of requests (indexes built, rules compiled on first use) must show too.
    const every = Math.max(1, Math.floor(opts.evaluations / 100));
    let sent = 0;
    const worker = async () => {
      while (sent < opts.evaluations) {
        const n = sent++;
        const mix = mixes[n % mixes.length] as string[];
        const body = mix[Math.floor(n / mixes.length) % mix.length] as string;
        const id = client.nextId();
        await client.send(id, `{"id":${id},${body.slice(1)}\n`);
        if ((n + 1) % every === 0) checkpoints.push({ evaluations: n + 1, rss: rssOf(client.pid) });
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await client.request("ping", {});
    const final = rssOf(client.pid);
    const sorted = [...checkpoints].sort((a, b) => a.evaluations - b.evaluations);
    const first = sorted.filter((c, i) => i > 0 && c.evaluations <= opts.evaluations / 2).map((c) => c.rss);
    const second = sorted.filter((c) => c.evaluations > opts.evaluations / 2).map((c) => c.rss);
    const growth = first.length > 0 && second.length > 0 ? median(second) - median(first) : final - afterLoad;
    return { rules: ruleCount, evaluations: opts.evaluations, afterLoad, checkpoints: sorted, final, growthSecondHalf: growth };
  } finally {
    await client.close();
    project.dispose();
  }
}

if (import.meta.main) {
  // Side by side: `bun bench/sections/memory.ts [--starts N] [--rules N] [--evaluations N] BIN...`, fresh
  // starts of each binary in turn (a, b, a, b, ...), so each sees the same minutes of the host.
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number) => takeNumber(args, name, fallback);
  const starts = flag("--starts", 5);
  const rules = flag("--rules", 10_000);
  const evaluations = flag("--evaluations", 100_000);
  const bins = args.length > 0 ? args : [SHEPHERD];
  const runs = new Map<string, MemoryResult[]>(bins.map((b) => [b, []]));
  for (let start = 0; start < starts; start++) {
    for (const bin of bins) {
      const r = await benchMemory(rules, { evaluations, bin });
      runs.get(bin)?.push(r);
      process.stdout.write(`${bin}: after load ${fmtMb(r.afterLoad)}, after ${evaluations} evaluations ${fmtMb(r.final)}, peak ${fmtMb(Math.max(...r.checkpoints.map((c) => c.rss)))}\n`);
    }
  }
  for (const [bin, list] of runs) {
    const range = (xs: number[]) => `${fmtMb(Math.min(...xs))}-${fmtMb(Math.max(...xs))}`;
    const load = list.map((r) => r.afterLoad);
    const final = list.map((r) => r.final);
    process.stdout.write(`== ${rules} rules, ${list.length} starts, ${bin}: after load median ${fmtMb(median(load))} (${range(load)}), after ${evaluations} evaluations median ${fmtMb(median(final))} (${range(final)})\n`);
  }
}
