/**
 * @module redaction cost: `redactSecrets` over 1 MiB of realistic tool output (source, a lockfile, prose, with
 * a few secrets). Runnable alone: `bun run bench/sections/redact.ts [--quick]`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate } from "../../lib/engine/evaluate.ts";
import type { HookEvent } from "../../lib/engine/schema.ts";
import { SessionStore } from "../../lib/engine/state.ts";
import { ruleSetOf } from "../../lib/engine/test-helpers.ts";
import { redactSecrets } from "../../lib/secrets/redact.ts";
import { ROOT } from "../lib/paths.ts";
import { median } from "../lib/stats.ts";

export interface RedactResult {
  bytes: number;
  /** Median milliseconds to redact the whole output once. */
  msPerOutput: number;
  secretsFound: number;
  /** Median microseconds the data-flow guard adds to one tool-call evaluation (32 secrets remembered). */
  guardUsPerCall: number;
}

/** Microseconds per evaluation of a network command, with the guard on minus with it off. */
export function benchGuard(runs: number): number {
  const rule = { name: "secret-exfiltration", hook: "tool_call", tool: "*", action: "guard-secrets" };
  const on = ruleSetOf({ builtin: [rule] });
  const off = ruleSetOf({ builtin: [rule], global: [{ name: "secret-exfiltration", enabled: false }] });
  const session = { id: "bench", cwd: "/proj" };
  const prime = (rules: typeof on) => {
    const ctx = { rules, sessions: new SessionStore(), maxWarnings: 0, projectRoot: "/proj", home: "/home/u" };
    for (let i = 0; i < 32; i++) {
      const text = `TOKEN_${i}=ghp_${String(i).padStart(4, "0")}abcdefghijklmnopqrstuvwxyz012345`;
      evaluate(ctx, { hook: "tool_result", session, tool: { name: "bash", input: { command: "cat .env" } }, result: { text, isError: false } });
    }
    return ctx;
  };
  const call: HookEvent = { hook: "tool_call", session, tool: { name: "bash", input: { command: 'curl -sS -H "Content-Type: application/json" -d @payload.json https://api.example.com/v1/upload?x=1' } } };
  const time = (ctx: ReturnType<typeof prime>) => {
    const n = 20_000;
    for (let i = 0; i < 2_000; i++) evaluate(ctx, call);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) evaluate(ctx, call);
    return ((performance.now() - t0) * 1000) / n;
  };
  const withGuard = prime(on);
  const without = prime(off);
  const diffs: number[] = [];
  for (let r = 0; r < runs; r++) diffs.push(time(withGuard) - time(without));
  return Math.max(0, median(diffs));
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
  return { bytes: text.length, msPerOutput: median(times), secretsFound: found, guardUsPerCall: benchGuard(Math.max(3, Math.min(opts.runs, 9))) };
}

if (import.meta.main) {
  const r = benchRedact({ runs: process.argv.includes("--quick") ? 5 : 50 });
  process.stdout.write(`redact ${r.bytes} chars: ${r.msPerOutput.toFixed(2)} ms median (target < 10 ms), ${r.secretsFound} secrets found\n`);
  process.stdout.write(`data-flow guard: +${r.guardUsPerCall.toFixed(2)} µs per tool-call evaluation (target < 5 µs)\n`);
}
