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
