/**
 * @module stdio round-trip: `shepherd serve` against the echo floor, the two interleaved request by request
 * so both see the same machine. One request in flight at a time: this is latency, not throughput.
 */
import { spawnLineClient } from "../lib/line-client.ts";
import { BUN, ECHO_SERVER, SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { median, percentile } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";

export interface RoundTrip {
  p50: number;
  p99: number;
}

export interface StdioResult {
  rules: number;
  shepherd: RoundTrip;
  echo: RoundTrip;
  /** Medians over runs of the per-run ratios (shepherd / echo). */
  ratioP50: number;
  ratioP99: number;
}

export async function benchStdio(ruleCount: number, opts: { runs: number; requests: number; warmup: number }): Promise<StdioResult> {
  const project = createProject(ruleCount, "stdio");
  const shepherd = spawnLineClient([SHEPHERD, "serve"], { cwd: project.cwd, env: project.env });
  const echo = spawnLineClient([BUN, ECHO_SERVER], { cwd: project.cwd, env: project.env });
  try {
    await shepherd.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    const lines = eventMix(project.cwd).map((event) => JSON.stringify({ jsonrpc: "2.0", method: "shepherd/evaluate", params: { event } }));
    let k = 0;
    const one = async (client: typeof shepherd): Promise<number> => {
      const id = client.nextId();
      const body = lines[k++ % lines.length] as string;
      const line = `{"id":${id},${body.slice(1)}\n`;
      const t0 = performance.now();
      const res = await client.send(id, line);
      const dt = performance.now() - t0;
      if (!("result" in res)) throw new Error(`bench: evaluate failed: ${JSON.stringify(res)}`);
      return dt;
    };
    for (let i = 0; i < opts.warmup; i++) {
      await one(echo);
      await one(shepherd);
    }
    const runs: { s: RoundTrip; e: RoundTrip }[] = [];
    for (let r = 0; r < opts.runs; r++) {
      const s: number[] = [];
      const e: number[] = [];
      for (let i = 0; i < opts.requests; i++) {
        // Alternate which goes first, so neither always follows the other's wake-up.
        if (i % 2 === 0) {
          e.push(await one(echo));
          s.push(await one(shepherd));
        } else {
          s.push(await one(shepherd));
          e.push(await one(echo));
        }
      }
      runs.push({ s: { p50: percentile(s, 50), p99: percentile(s, 99) }, e: { p50: percentile(e, 50), p99: percentile(e, 99) } });
    }
    return {
      rules: ruleCount,
      shepherd: { p50: median(runs.map((x) => x.s.p50)), p99: median(runs.map((x) => x.s.p99)) },
      echo: { p50: median(runs.map((x) => x.e.p50)), p99: median(runs.map((x) => x.e.p99)) },
      ratioP50: median(runs.map((x) => x.s.p50 / x.e.p50)),
      ratioP99: median(runs.map((x) => x.s.p99 / x.e.p99)),
    };
  } finally {
    await shepherd.close();
    await echo.close();
    project.dispose();
  }
}
