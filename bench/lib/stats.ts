/** @module small statistics for the bench: percentiles of samples, medians across repeated runs, formatting. */

/** Nearest-rank percentile of unsorted samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** A duration in the unit that keeps three significant digits readable. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : ms < 0.1 ? 1 : 0)} µs`;
  if (ms < 100) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${ms.toFixed(0)} ms`;
}

export function fmtUs(us: number): string {
  if (!Number.isFinite(us)) return "n/a";
  return `${us.toFixed(us < 10 ? 2 : 1)} µs`;
}

export function fmtRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}x` : "n/a";
}

export function fmtMb(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : "n/a";
}

export interface RoundTrip {
  p50: number;
  p99: number;
}

export interface SideBySide {
  shepherd: RoundTrip;
  echo: RoundTrip;
  /** Medians over runs of the per-run ratios (shepherd / echo). */
  ratioP50: number;
  ratioP99: number;
}

/** One run of `requests` round trips each, interleaved, alternating which goes first: its p50 and p99 per side. */
export async function interleavedRun<T>(shepherd: T, echo: T, one: (target: T) => Promise<number>, requests: number): Promise<{ s: RoundTrip; e: RoundTrip }> {
  const s: number[] = [];
  const e: number[] = [];
  for (let i = 0; i < requests; i++) {
    if (i % 2 === 0) {
      e.push(await one(echo));
      s.push(await one(shepherd));
    } else {
      s.push(await one(shepherd));
      e.push(await one(echo));
    }
  }
  return { s: { p50: percentile(s, 50), p99: percentile(s, 99) }, e: { p50: percentile(e, 50), p99: percentile(e, 99) } };
}

/**
 * Times `one(shepherd)` against `one(echo)` interleaved request by request, alternating which goes first
 * so neither always follows the other's wake-up; per run p50/p99, then medians across runs.
 */
export async function sideBySide<T>(shepherd: T, echo: T, one: (target: T) => Promise<number>, opts: { runs: number; requests: number; warmup: number }): Promise<SideBySide> {
  for (let i = 0; i < opts.warmup; i++) {
    await one(echo);
    await one(shepherd);
  }
  const runs: { s: RoundTrip; e: RoundTrip }[] = [];
  for (let r = 0; r < opts.runs; r++) runs.push(await interleavedRun(shepherd, echo, one, opts.requests));
  return {
    shepherd: { p50: median(runs.map((x) => x.s.p50)), p99: median(runs.map((x) => x.s.p99)) },
    echo: { p50: median(runs.map((x) => x.e.p50)), p99: median(runs.map((x) => x.e.p99)) },
    ratioP50: median(runs.map((x) => x.s.p50 / x.e.p50)),
    ratioP99: median(runs.map((x) => x.s.p99 / x.e.p99)),
  };
}
