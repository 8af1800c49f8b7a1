/**
 * @module the stdio round-trip over the first requests after start, as a pi session meets the sidecar: a
 * session is hundreds of tool calls, not 20,000, so the JIT's warm-up and the collections after the rules'
 * load fall inside it. Each start is fresh (a new `shepherd serve` and a new echo server, side by side,
 * interleaved request by request, in the placement asked); the figure is the median over starts of each
 * start's p99, and of the per-start ratios. Run directly, it compares binaries start by start:
 * `bun bench/sections/stdio-early.ts [--starts N] [--requests N] [--rules N] [--same-cpu | --separate-cpus] BIN...`
 * (both placements unless one is named).
 */
import { spawnLineClient } from "../lib/line-client.ts";
import { BUN, ECHO_SERVER, SHEPHERD } from "../lib/paths.ts";
import { type BenchProject, createProject } from "../lib/project.ts";
import { fmtMs, fmtRatio, interleavedRun, median, type RoundTrip } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";
import { canPin, cpusFor, pinSelf, type Placement } from "./stdio.ts";
import { takeNumber } from "../lib/args.ts";

export interface EarlyStdioResult {
  rules: number;
  placement: Placement;
  /** Requests timed per start, from the first one after `initialize`. */
  requests: number;
  starts: number;
  /** Medians over starts of each start's p50 and p99. */
  shepherd: RoundTrip;
  echo: RoundTrip;
  /** Medians over starts of the per-start ratios (shepherd / echo). */
  ratioP50: number;
  ratioP99: number;
}

type Start = { s: RoundTrip; e: RoundTrip };

/** One fresh start of `bin serve` beside a fresh echo server: `requests` interleaved round trips. */
async function oneStart(bin: string, project: BenchProject, lines: string[], requests: number, prefix: string[]): Promise<Start> {
  const shepherd = spawnLineClient([...prefix, bin, "serve"], { cwd: project.cwd, env: project.env });
  const echo = spawnLineClient([...prefix, BUN, ECHO_SERVER], { cwd: project.cwd, env: project.env });
  try {
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } };
    await shepherd.request("initialize", init);
    await echo.request("initialize", init);
    let k = 0;
    const one = async (client: typeof shepherd): Promise<number> => {
      const id = client.nextId();
      const line = `{"id":${id},${(lines[k++ % lines.length] as string).slice(1)}\n`;
      const t0 = performance.now();
      const res = await client.send(id, line);
      const dt = performance.now() - t0;
      if (!("result" in res)) throw new Error(`bench: evaluate failed: ${JSON.stringify(res)}`);
      return dt;
    };
    return await interleavedRun(shepherd, echo, one, requests);
  } finally {
    await shepherd.close();
    await echo.close();
  }
}

function summarize(rules: number, placement: Placement, requests: number, starts: Start[]): EarlyStdioResult {
  return {
    rules,
    placement,
    requests,
    starts: starts.length,
    shepherd: { p50: median(starts.map((x) => x.s.p50)), p99: median(starts.map((x) => x.s.p99)) },
    echo: { p50: median(starts.map((x) => x.e.p50)), p99: median(starts.map((x) => x.e.p99)) },
    ratioP50: median(starts.map((x) => x.s.p50 / x.e.p50)),
    ratioP99: median(starts.map((x) => x.s.p99 / x.e.p99)),
  };
}

/** Fresh starts of each binary in turn (a, b, a, b, ...), so each sees the same minutes of the host. */
export async function benchStdioEarlyOf(bins: readonly string[], ruleCount: number, opts: { starts: number; requests: number; placement: Placement; onStart?: (bin: string, start: Start) => void }): Promise<Map<string, EarlyStdioResult>> {
  const cpus = cpusFor(opts.placement);
  const unpin = cpus ? pinSelf(cpus.client, cpus.all) : () => {};
  const prefix = cpus ? ["taskset", "-c", cpus.servers] : [];
  const project = createProject(ruleCount, "stdio");
  const lines = eventMix(project.cwd).map((event) => JSON.stringify({ jsonrpc: "2.0", method: "shepherd/evaluate", params: { event } }));
  const starts = new Map<string, Start[]>(bins.map((b) => [b, []]));
  try {
    for (let start = 0; start < opts.starts; start++) {
      for (const bin of bins) {
        const s = await oneStart(bin, project, lines, opts.requests, prefix);
        starts.get(bin)?.push(s);
        opts.onStart?.(bin, s);
      }
    }
  } finally {
    project.dispose();
    unpin();
  }
  return new Map([...starts].map(([bin, list]) => [bin, summarize(ruleCount, opts.placement, opts.requests, list)]));
}

export async function benchStdioEarly(ruleCount: number, opts: { starts: number; requests: number; placement: Placement; bin?: string }): Promise<EarlyStdioResult> {
  const bin = opts.bin ?? SHEPHERD;
  const r = (await benchStdioEarlyOf([bin], ruleCount, opts)).get(bin);
  if (!r) throw new Error("bench: no early stdio result");
  return r;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number) => takeNumber(args, name, fallback);
  const starts = flag("--starts", 5);
  const requests = flag("--requests", 5_000);
  const rules = flag("--rules", 1_000);
  const bins = args.length > 0 ? args : [SHEPHERD];
  const ratios = (list: number[]) => `${fmtRatio(Math.min(...list))}-${fmtRatio(Math.max(...list))}`;
  // `--same-cpu` or `--separate-cpus`: one placement only (both by default, where the host can pin).
  const only = (["same CPU", "separate CPUs"] as const).filter((p) => args.includes(`--${p.replace(" ", "-").toLowerCase()}`));
  for (const flagName of ["--same-cpu", "--separate-cpus"]) if (args.includes(flagName)) args.splice(args.indexOf(flagName), 1);
  const placements: readonly Placement[] = !canPin() ? ["unpinned"] : only.length > 0 ? only : ["same CPU", "separate CPUs"];
  for (const placement of placements) {
    const per = new Map<string, Start[]>(bins.map((b) => [b, []]));
    const results = await benchStdioEarlyOf(bins, rules, {
      starts,
      requests,
      placement,
      onStart: (bin, s) => {
        per.get(bin)?.push(s);
        process.stdout.write(`${placement} ${bin}: p50 ${fmtMs(s.s.p50)} p99 ${fmtMs(s.s.p99)}, echo p50 ${fmtMs(s.e.p50)} p99 ${fmtMs(s.e.p99)} (p99 ${fmtRatio(s.s.p99 / s.e.p99)})\n`);
      },
    });
    for (const [bin, r] of results) {
      const list = per.get(bin) ?? [];
      process.stdout.write(
        `== ${placement}, ${rules} rules, first ${requests} requests, ${r.starts} starts, ${bin}: p99 ${fmtMs(r.shepherd.p99)} vs ${fmtMs(r.echo.p99)}, ratio median ${fmtRatio(r.ratioP99)} (${ratios(list.map((x) => x.s.p99 / x.e.p99))}); p50 ${fmtMs(r.shepherd.p50)} vs ${fmtMs(r.echo.p50)}, ratio median ${fmtRatio(r.ratioP50)} (${ratios(list.map((x) => x.s.p50 / x.e.p50))})\n`,
      );
    }
  }
}
