/**
 * @module redaction cost: `redactSecrets` over 1 MiB of realistic tool output (source, a lockfile, prose, with
 * a few secrets). Runnable alone: `bun run bench/sections/redact.ts [--quick]`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { redactSecrets } from "../../lib/secrets/redact.ts";
import { ROOT } from "../lib/paths.ts";
import { median } from "../lib/stats.ts";

export interface RedactResult {
  bytes: number;
  /** Median milliseconds to redact the whole output once. */
  msPerOutput: number;
  secretsFound: number;
}

/** 1 MiB of what tools print: TypeScript, package-lock.json, markdown, and a secret every ~100 KiB. */
export function sampleOutput(size = 1 << 20): string {
  const parts = ["lib/engine/evaluate.ts", "package-lock.json", "README.md"].map((f) => readFileSync(join(ROOT, f), "utf8").slice(0, 200_000));
  let out = "";
  for (let i = 0; out.length < size; i++) {
    out += parts[i % parts.length];
    out += `\nexport GITHUB_TOKEN=ghp_${"A1b2C3d4E5".repeat(3)}123456\n`;
  }
  return out.slice(0, size);
}

export function benchRedact(opts: { runs: number }): RedactResult {
  const text = sampleOutput();
  let found = 0;
  for (let i = 0; i < 5; i++) found = redactSecrets(text).total; // JIT warm-up
  const times: number[] = [];
  for (let r = 0; r < opts.runs; r++) {
    const t0 = performance.now();
    redactSecrets(text);
    times.push(performance.now() - t0);
  }
  return { bytes: text.length, msPerOutput: median(times), secretsFound: found };
}

if (import.meta.main) {
  const r = benchRedact({ runs: process.argv.includes("--quick") ? 5 : 50 });
  process.stdout.write(`redact ${r.bytes} chars: ${r.msPerOutput.toFixed(2)} ms median (target < 10 ms), ${r.secretsFound} secrets found\n`);
}
