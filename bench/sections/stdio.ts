/**
 * @module stdio round-trip: `shepherd serve` against the echo floor, the two interleaved request by request
 * so both see the same machine. One request in flight at a time: this is latency, not throughput.
 */
import { spawnLineClient } from "../lib/line-client.ts";
import { BUN, ECHO_SERVER, SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { type SideBySide, sideBySide } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";

/** shepherd vs echo p50/p99, and the medians over runs of the per-run ratios. */
export interface StdioResult extends SideBySide {
  rules: number;
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
    return { rules: ruleCount, ...(await sideBySide(shepherd, echo, one, opts)) };
  } finally {
    await shepherd.close();
    await echo.close();
    project.dispose();
  }
}
