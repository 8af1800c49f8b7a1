/**
 * @module stdio round-trip with decision telemetry on vs off: two `shepherd serve` sidecars of the same
 * project, one exporting a span per decision to an OTLP/HTTP receiver in this process, one with telemetry
 * off, sent the same `shepherd/evaluate` lines alternately (sideBySide). Placed as the stdio section's
 * headline (client and both servers on one vCPU where taskset allows), so the two differ only in telemetry.
 *
 *   bun run bench/sections/telemetry.ts [--quick]     runs this section alone
 */
import { createServer } from "node:http";
import { spawnLineClient } from "../lib/line-client.ts";
import { SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { type RoundTrip, sideBySide } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";
import { cpusFor, type Placement, pinSelf } from "./stdio.ts";

export interface TelemetryResult {
  rules: number;
  placement: Placement;
  on: RoundTrip;
  off: RoundTrip;
  /** Medians over runs of on / off. */
  ratioP50: number;
  ratioP99: number;
  /** What reached the receiver: proves the "on" sidecar exported while it was timed. */
  exports: number;
  bytes: number;
}

/** Drains each export and answers an empty ExportTraceServiceResponse; decoding is left to the tests. */
function startSink(): Promise<{ url: string; stats: { exports: number; bytes: number }; close: () => Promise<void> }> {
  const stats = { exports: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on("data", (c: Buffer) => {
      stats.bytes += c.length;
    });
    req.on("end", () => {
      stats.exports++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((ok) => {
    server.listen(0, "127.0.0.1", () => {
      const addr = server.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      ok({ url: `http://127.0.0.1:${port}`, stats, close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))) });
    });
  });
}

export async function benchTelemetry(ruleCount: number, opts: { runs: number; requests: number; warmup: number; placement: Placement }): Promise<TelemetryResult> {
  const cpus = cpusFor(opts.placement);
  const unpin = cpus ? pinSelf(cpus.client, cpus.all) : () => {};
  const prefix = cpus ? ["taskset", "-c", cpus.servers] : [];
  const project = createProject(ruleCount, "telemetry");
  const sink = await startSink();
  const on = spawnLineClient([...prefix, SHEPHERD, "serve"], { cwd: project.cwd, env: { ...project.env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } });
  const off = spawnLineClient([...prefix, SHEPHERD, "serve"], { cwd: project.cwd, env: project.env });
  try {
    for (const c of [on, off]) await c.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    const lines = eventMix(project.cwd).map((event) => JSON.stringify({ jsonrpc: "2.0", method: "shepherd/evaluate", params: { event } }));
    let k = 0;
    const one = async (client: typeof on): Promise<number> => {
      const id = client.nextId();
      const body = lines[k++ % lines.length] as string;
      const t0 = performance.now();
      const res = await client.send(id, `{"id":${id},${body.slice(1)}\n`);
      const dt = performance.now() - t0;
      if (!("result" in res)) throw new Error(`bench: evaluate failed: ${JSON.stringify(res)}`);
      return dt;
    };
    const m = await sideBySide(on, off, one, opts);
    // The last batch leaves on the sidecar's next timer tick: wait for it before reading the counts.
    await Bun.sleep(700);
    return { rules: ruleCount, placement: opts.placement, on: m.shepherd, off: m.echo, ratioP50: m.ratioP50, ratioP99: m.ratioP99, exports: sink.stats.exports, bytes: sink.stats.bytes };
  } finally {
    await on.close();
    await off.close();
    await sink.close();
    project.dispose();
    unpin();
  }
}

if (import.meta.main) {
  const quick = process.argv.includes("--quick");
  const { canPin } = await import("./stdio.ts");
  const r = await benchTelemetry(quick ? 100 : 1_000, { ...(quick ? { runs: 2, requests: 100, warmup: 50 } : { runs: 5, requests: 2_000, warmup: 10_000 }), placement: canPin() ? "same CPU" : "unpinned" });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
