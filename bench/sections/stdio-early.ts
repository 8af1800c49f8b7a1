/**
 * @module the stdio round-trip over the first requests after start, as a pi session meets the sidecar: a
 * session is hundreds of tool calls, not 20,000, so the JIT's warm-up and the collections after the rules'
 * load fall inside it. Each start is fresh (a new `shepherd serve` and a new echo server, side by side,
 * interleaved request by request, in the placement asked); the figure is the median over starts of each
 * start's p99, and of the per-start ratios.
 */
import { spawnLineClient } from "../lib/line-client.ts";
import { BUN, ECHO_SERVER, SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { interleavedRun, median, type RoundTrip } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";
import { cpusFor, pinSelf, type Placement } from "./stdio.ts";

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

export async function benchStdioEarly(ruleCount: number, opts: { starts: number; requests: number; placement: Placement; bin?: string }): Promise<EarlyStdioResult> {
  const cpus = cpusFor(opts.placement);
  const unpin = cpus ? pinSelf(cpus.client, cpus.all) : () => {};
  const prefix = cpus ? ["taskset", "-c", cpus.servers] : [];
  const project = createProject(ruleCount, "stdio");
  const lines = eventMix(project.cwd).map((event) => JSON.stringify({ jsonrpc: "2.0", method: "shepherd/evaluate", params: { event } }));
  const starts: { s: RoundTrip; e: RoundTrip }[] = [];
  try {
    for (let start = 0; start < opts.starts; start++) {
      const shepherd = spawnLineClient([...prefix, opts.bin ?? SHEPHERD, "serve"], { cwd: project.cwd, env: project.env });
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
        starts.push(await interleavedRun(shepherd, echo, one, opts.requests));
      } finally {
        await shepherd.close();
        await echo.close();
      }
    }
  } finally {
    project.dispose();
    unpin();
  }
  return {
    rules: ruleCount,
    placement: opts.placement,
    requests: opts.requests,
    starts: opts.starts,
    shepherd: { p50: median(starts.map((x) => x.s.p50)), p99: median(starts.map((x) => x.s.p99)) },
    echo: { p50: median(starts.map((x) => x.e.p50)), p99: median(starts.map((x) => x.e.p99)) },
    ratioP50: median(starts.map((x) => x.s.p50 / x.e.p50)),
    ratioP99: median(starts.map((x) => x.s.p99 / x.e.p99)),
  };
}
