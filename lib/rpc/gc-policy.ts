/**
 * @module when the sidecar collects garbage. JSC favours throughput: left alone, a busy sidecar's heap (and
 * RSS) keeps growing between rare full collections, and the garbage of loading a large rule set stays
 * resident. A full collection right after a (re)load, every 250 requests over the first 5,000 after it
 * (they build the prefilter's indexes and compile the rules they meet: with 10,000 rules RSS went from
 * ~71 to ~117 MB before the first periodic collection), then one every 1,000 requests. Measured at 10,000
 * rules over the first 20,000 requests: 95-118 MB with a collection every 5,000, 83-100 MB with this
 * policy (~88 MB steady); the stdio p50 at 1,000 rules did not move (1.24-1.26x the echo either way, one
 * CPU, side by side). A collection costs ~3 ms at 1,000 rules and ~5-12 ms at 10,000: one pause per
 * 1,000 requests leaves the p99 alone, and the extra ones fall in the JIT's warm-up anyway.
 */

type Collect = () => void;

/** Bun's synchronous full collection; elsewhere (no exposed GC) a no-op. */
export function runtimeCollector(): Collect | undefined {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  return bun ? () => bun.gc(true) : undefined;
}

export interface GcPolicy {
  /** Call once per answered request. */
  request(): void;
  /** Call after loading or reloading rules (a burst of garbage). */
  loaded(): void;
}

export const DEFAULT_GC_EVERY = 1_000;
/** Requests after a load at which to collect as well (100, then every 250 up to 5,000): the first ones leave the most garbage. */
export const DEFAULT_GC_AFTER_LOAD: readonly number[] = [100, ...Array.from({ length: 20 }, (_, i) => 250 * (i + 1))];

export function createGcPolicy(collect: Collect | undefined = runtimeCollector(), every = DEFAULT_GC_EVERY, afterLoad: readonly number[] = DEFAULT_GC_AFTER_LOAD): GcPolicy {
  if (!collect) return { request() {}, loaded() {} };
  const early = new Set(afterLoad);
  let count = 0;
  let sinceLoad = 0;
  return {
    request() {
      sinceLoad++;
      if (++count >= every || early.has(sinceLoad)) {
        count = 0;
        collect();
      }
    },
    loaded() {
      count = 0;
      sinceLoad = 0;
      // After the current task: the reload's own caller should not wait for the collection.
      setTimeout(collect, 0).unref?.();
    },
  };
}
