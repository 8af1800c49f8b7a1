/**
 * @module `npm run bench`: every measurement of issue 7 in one table, printed and written to bench/results.md.
 *
 *   bun run bench/run.ts            full run (about 10 minutes on 2 cores)
 *   bun run bench/run.ts --quick    tiny sizes, a few samples (the smoke test); writes nothing unless --out
 *   --out FILE                      where to write the markdown (default bench/results.md on a full run)
 *
 * Figures are medians over several runs; every ratio pairs numbers taken side by side in the same run.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectMachineInfo, renderMarkdown, renderTable, type BenchReport } from "./lib/report.ts";
import { ROOT, SHEPHERD } from "./lib/paths.ts";
import { benchHttp } from "./sections/http.ts";
import { benchInProcess } from "./sections/in-process.ts";
import { benchLoops } from "./sections/loops.ts";
import { benchMcpHook } from "./sections/mcp-hook.ts";
import { benchMemory } from "./sections/memory.ts";
import { benchPacks } from "./sections/packs.ts";
import { benchRedact } from "./sections/redact.ts";
import { benchReload } from "./sections/reload.ts";
import { benchSpawn } from "./sections/spawn.ts";
import { benchStdio, canPin, PLACEMENTS, type Placement } from "./sections/stdio.ts";
import { benchTelemetry } from "./sections/telemetry.ts";
import { benchStdioEarly } from "./sections/stdio-early.ts";
import { benchUnmatchable } from "./sections/unmatchable.ts";

export interface BenchOptions {
  quick: boolean;
  log?: (line: string) => void;
}

export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const q = opts.quick;
  const sizes = q ? [10, 100, 200] : [10, 1_000, 10_000];
  const mid = sizes[1] as number;
  const big = sizes[2] as number;
  const started = Date.now();
  const report: BenchReport = { quick: q, sizes, machine: collectMachineInfo(SHEPHERD), stdio: [], inProcess: [], durationMs: 0 };

  // The headline placement pins client and servers to one CPU (see sections/stdio.ts); without taskset, none.
  const headline: Placement = canPin() ? "same CPU" : "unpinned";
  const stdioOpts = q ? { runs: 2, requests: 40, warmup: 20 } : { runs: 5, requests: 2_000, warmup: 20_000 };
  for (const n of sizes) {
    log(`stdio round-trip, ${n} rules, ${headline}...`);
    report.stdio.push(await benchStdio(n, { ...stdioOpts, placement: headline, ...(n === mid ? { early: q ? 10 : 2_000 } : {}) }));
  }
  for (const placement of PLACEMENTS) {
    if (placement === headline || (placement !== "unpinned" && !canPin())) continue;
    log(`stdio round-trip, ${mid} rules, ${placement}...`);
    report.stdio.push(await benchStdio(mid, { ...stdioOpts, placement }));
  }
  log(`stdio round-trip with telemetry on vs off, ${mid} rules, ${headline}...`);
  report.telemetry = await benchTelemetry(mid, { ...(q ? { runs: 2, requests: 40, warmup: 20 } : { runs: 5, requests: 2_000, warmup: 10_000 }), placement: headline });
  report.stdioEarly = [];
  for (const placement of canPin() ? (["same CPU", "separate CPUs"] as const) : (["unpinned"] as const)) {
    log(`stdio round-trip, first requests after start, ${mid} rules, ${placement}...`);
    report.stdioEarly.push(await benchStdioEarly(mid, { ...(q ? { starts: 2, requests: 40 } : { starts: 5, requests: 5_000 }), placement }));
  }
  for (const n of sizes) {
    log(`in-process evaluation, ${n} rules...`);
    report.inProcess.push(benchInProcess(n, q ? { runs: 2, events: 300 } : { runs: 7, events: n >= 10_000 ? 30_000 : 100_000 }));
  }
  report.unmatchable = [];
  for (const n of q ? [100, 1_000] : [10_000, 100_000]) {
    log(`rules that cannot match, ${n} rules, in process and stdio...`);
    report.unmatchable.push(await benchUnmatchable(n, q ? { starts: 1, events: 300, requests: 40, warmup: 20, placement: headline } : { starts: 3, events: 30_000, requests: 2_000, warmup: 20_000, placement: headline }));
  }
  log(`spawn-per-hook, ${mid} rules...`);
  report.spawn = benchSpawn(mid, q ? { runs: 2, warmup: 1 } : { runs: 31, warmup: 3 });
  log("spawn-per-hook, built-in rules only...");
  report.spawnBuiltin = benchSpawn(0, q ? { runs: 2, warmup: 1, shepherdOnly: true } : { runs: 31, warmup: 3, shepherdOnly: true });
  log(`save-to-effect, ${mid} rules...`);
  report.reload = await benchReload(mid, { samples: q ? 3 : 100 });
  log(`resident memory, ${big} rules...`);
  report.memory = await benchMemory(big, { evaluations: q ? 500 : 100_000 });
  log(`http round-trip, ${mid} rules...`);
  report.http = await benchHttp(mid, q ? { runs: 2, requests: 30, warmup: 10 } : { runs: 5, requests: 1_000, warmup: 500 });
  log("redaction of a 1 MiB tool output...");
  report.redact = benchRedact({ runs: q ? 5 : 50 });
  log(`Claude Code mcp_tool hook vs spawned hook, ${mid} rules...`);
  report.mcpHook = await benchMcpHook(mid, q ? { calls: 10, warmup: 3 } : { calls: 300, warmup: 30 });
  log("loop rules, in process...");
  report.loops = benchLoops(q ? { runs: 2, events: 5_000 } : { runs: 9, events: 100_000 });
  log("rule packs: 10 packs of 1,000 rules against the same rules in plain files...");
  report.packs = await benchPacks(q ? { packs: 3, rulesPerPack: 50, runs: 2, hookRuns: 4 } : { packs: 10, rulesPerPack: 1_000, runs: 9, hookRuns: 41 });
  report.durationMs = Date.now() - started;
  return report;
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const quick = argv.includes("--quick");
  const outIdx = argv.indexOf("--out");
  const out = outIdx >= 0 ? argv[outIdx + 1] : quick ? undefined : join(ROOT, "bench", "results.md");
  const report = await runBench({ quick });
  process.stdout.write(`${renderTable(report)}\n`);
  if (out) {
    writeFileSync(out, renderMarkdown(report));
    process.stderr.write(`wrote ${out}\n`);
  }
}
