/**
 * @module when the sidecar collects garbage. JSC favours throughput: left alone, a busy sidecar's heap (and
 * RSS) keeps growing between rare full collections, and the garbage of loading a large rule set stays
 * resident. A full collection right after a (re)load, every 250 requests over the first 5,000 after it
 * (they build the prefilter's indexes and compile the rules they meet: with 10,000 rules RSS went from
 * ~71 to ~117 MB before the first periodic collection), then one every 1,000 requests. Measured at 10,000
 * rules over the first 20,000 requests: 95-118 MB with a collection every 5,000, 83-100 MB with this
 * policy (~88 MB steady); the stdio p50 at 1,000 rules did not move (1.24-1.26x the echo either way, one
 * CPU, side by side). A collection costs ~3 ms at 1,000 rules and ~5-12 ms at 10,000 (more on a busy
 * host), so a due one waits for a pause between requests (GC_IDLE_MS), for at most GC_OVERDUE_REQUESTS.
 */

type Collect = () => void;

/** Bun's synchronous full collection; elsewhere (no exposed GC) a no-op. */
export function runtimeCollector(): Collect | undefined {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  return bun ? () => bun.gc(true) : undefined;
}

/** The part of Bun the shrink needs (a parameter, so the tests can stand in for it). */
export interface ShrinkRuntime {
  gc(force: boolean): void;
  /** Deprecated in Bun's types but present (1.4): at the runtime's next idle moment, see runtimeShrinker. */
  shrink?: () => void;
}

/**
 * Once, after a long-running face's first load and before its warm-up: Bun's `shrink`, which at the
 * runtime's next idle moment (before a zero-delay timer fires, measured) collects in full, drops every
 * function's compiled code and hands free pages back. The load's code ran ten thousand times at 10,000
 * rules and was compiled up to the optimizing tiers (code blocks and JIT code a sidecar runs again only on
 * a reload), and its garbage otherwise stayed resident: at 10,000 rules RSS after start 154 -> 118 MB,
 * after 100,000 evaluations 118 -> 108 MB (medians of 5 starts). Never after the warm-up: it would drop
 * the evaluation's warmed code too.
 * Resolves once that idle moment has passed; where Bun has no `shrink`, a plain full collection.
 */
export function runtimeShrinker(runtime: ShrinkRuntime | null = (globalThis as { Bun?: ShrinkRuntime }).Bun ?? null): (() => Promise<void>) | undefined {
  if (!runtime) return undefined;
  return () => {
    if (typeof runtime.shrink === "function") runtime.shrink();
    else runtime.gc(true);
    return new Promise<void>((resolve) => setTimeout(resolve, 0));
  };
}

export interface GcPolicy {
  /** Call once per answered request. */
  request(): void;
  /** Call with the bytes of input read (request lines, bodies): large inputs leave large garbage. */
  input(bytes: number): void;
  /**
   * Call after loading or reloading rules (a burst of garbage). `now`: collect before returning, where
   * nothing waits on it yet (the sidecar's warm-up, before its first client line: RSS is read right after).
   */
  loaded(now?: boolean): void;
  /**
   * Call once a warm-up has run the load's first requests (lib/rpc/prewarm.ts): collects now, and the
   * collections after a load (DEFAULT_GC_AFTER_LOAD) are skipped until the next load, since the garbage
   * they are for (indexes built, rules compiled on first use) was the warm-up's. Back to back, each of those
   * ran inline after an answer (~3 ms at 1,000 rules): ten of a session's first 5,000 requests.
   */
  warmed(): void;
}

export const DEFAULT_GC_EVERY = 1_000;
/** Requests after a load at which to collect as well (100, then every 250 up to 5,000): the first ones leave the most garbage. */
export const DEFAULT_GC_AFTER_LOAD: readonly number[] = [100, ...Array.from({ length: 20 }, (_, i) => 250 * (i + 1))];
/**
 * A collection that is due waits for this long a gap between requests. A session's tool calls are seconds
 * apart, so there it never delays an answer; a collection inline cost the request after it 7-26 ms at 1,000
 * rules on a busy VM, 21 times over a session's first 5,000 requests.
 */
export const GC_IDLE_MS = 5;
/** ...but no longer than this many requests: a client that never pauses still gets its memory back. */
export const GC_OVERDUE_REQUESTS = 250;
/**
 * Input after which a collection follows at once (after the current task, so the answer is written first).
 * A client sending 4 MB commands back to back grew `shepherd http` to ~400 MB on a busy host before JSC
 * collected on its own (each parsed and analysed in several copies); at this bound a collection (~5-30 ms)
 * comes at most every eight such requests, and no face holds more than a few of them as garbage.
 */
export const LARGE_INPUT_GC_BYTES = 32 * 1024 * 1024;

export interface GcTimers {
  /** Calls `fn` after `ms`, without keeping the process alive. */
  after(ms: number, fn: () => void): void;
}

const realTimers: GcTimers = {
  after(ms, fn) {
    setTimeout(fn, ms).unref?.();
  },
};

export function createGcPolicy(
  collect: Collect | null | undefined = runtimeCollector(),
  every = DEFAULT_GC_EVERY,
  afterLoad: readonly number[] = DEFAULT_GC_AFTER_LOAD,
  timers: GcTimers = realTimers,
): GcPolicy {
  if (!collect) return { request() {}, input() {}, loaded() {}, warmed() {} };
  const early = new Set(afterLoad);
  let count = 0;
  let sinceLoad = 0;
  /** False once a warm-up did the work of the collections after a load (until the next load). */
  let earlyArmed = true;
  let served = 0;
  /** `served` when the pending collection fell due, or undefined when none is pending. */
  let dueAt: number | undefined;
  let watching = false;
  let inputBytes = 0;
  let inputCollection = false;
  const run = () => {
    dueAt = undefined;
    count = 0;
    inputBytes = 0;
    collect();
  };
  // One timer at a time: it collects if no request came since it was set, and otherwise looks again.
  const watch = (seen: number) => {
    watching = true;
    timers.after(GC_IDLE_MS, () => {
      watching = false;
      if (dueAt === undefined) return;
      if (served === seen) run();
      else watch(served);
    });
  };
  return {
    request() {
      served++;
      sinceLoad++;
      if (dueAt !== undefined) {
        if (served - dueAt >= GC_OVERDUE_REQUESTS) run();
        return;
      }
      if (++count >= every || (earlyArmed && early.has(sinceLoad))) {
        dueAt = served;
        if (!watching) watch(served);
      }
    },
    input(bytes) {
      if (!(bytes > 0)) return;
      inputBytes += bytes;
      if (inputBytes < LARGE_INPUT_GC_BYTES || inputCollection) return;
      inputCollection = true;
      timers.after(0, () => {
        inputCollection = false;
        run();
      });
    },
    loaded(now) {
      count = 0;
      sinceLoad = 0;
      earlyArmed = true;
      dueAt = undefined;
      if (now) collect();
      // After the current task: the reload's own caller should not wait for the collection.
      else setTimeout(collect, 0).unref?.();
    },
    warmed() {
      earlyArmed = false;
      run();
    },
  };
}
