/**
 * @module save-to-effect: a rule file is replaced atomically (temp file + rename, as editors save) while a
 * client keeps asking; the latency is from the rename to the first answer that applies the new rule.
 */
import { spawnLineClient } from "../lib/line-client.ts";
import { SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { percentile } from "../lib/stats.ts";
import { syntheticRules } from "../lib/synthetic-rules.ts";

export interface ReloadResult {
  rules: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export async function benchReload(ruleCount: number, opts: { samples: number }): Promise<ReloadResult> {
  const project = createProject(ruleCount, "reload");
  const client = spawnLineClient([SHEPHERD, "serve"], { cwd: project.cwd, env: project.env });
  const base = syntheticRules(ruleCount);
  try {
    await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    const ask = async (marker: string) => {
      const res = await client.request("shepherd/evaluate", { event: { hook: "tool_call", session: { id: "reload", cwd: project.cwd }, tool: { name: "bash", input: { command: `echo ${marker}` } } } });
      return (res.result as { action?: string } | undefined)?.action;
    };
    const latencies: number[] = [];
    for (let k = 0; k < opts.samples; k++) {
      const marker = `probe${k}marker`;
      if ((await ask(marker)) !== "allow") throw new Error("bench: probe blocked before its rule existed");
      project.replaceRules([...base, { name: `probe-${k}`, action: "block", pattern: marker, reason: "probe" }]);
      const t0 = performance.now();
      for (;;) {
        if ((await ask(marker)) === "block") break;
        if (performance.now() - t0 > 5000) throw new Error(`bench: rule change not in effect after 5 s (sample ${k})`);
      }
      latencies.push(performance.now() - t0);
      // Let the watcher settle, so samples do not overlap.
      await Bun.sleep(20);
    }
    return { rules: ruleCount, samples: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) };
  } finally {
    await client.close();
    project.dispose();
  }
}
