/**
 * @module handing the binary's own code pages back. ~48 MB of a sidecar's RSS are pages of the executable
 * file (Bun's runtime: the parser, the bytecode loader, the JIT tiers, the collector), the same with 0 or
 * 10,000 rules, and most of them were touched once, by the load. Such a page is clean and backed by the
 * file: the kernel may drop it from the process at any time and fault it back from the page cache on the
 * next touch, and `madvise(MADV_DONTNEED)` asks for exactly that, now. Only mappings of the executable that
 * are not writable and hold no private (copied-on-write) page are touched, so nothing the process wrote is
 * ever discarded. Linux with Bun's FFI only; elsewhere there is no dropper.
 */
import { readFileSync, realpathSync } from "node:fs";

/** `madvise`'s advice: drop the pages from this process (file-backed ones come back from the page cache). */
const MADV_DONTNEED = 4;

export interface CodeRange {
  start: bigint;
  end: bigint;
}

/**
 * The ranges of `exe`'s mappings in an smaps text that are safe to drop: not writable, and with no
 * anonymous (private, copied) page. Anything it cannot read whole is left out.
 */
export function droppableRanges(smaps: string, exe: string): CodeRange[] {
  const out: CodeRange[] = [];
  for (const block of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const nl = block.indexOf("\n");
    const head = nl < 0 ? block : block.slice(0, nl);
    const m = /^([0-9a-f]+)-([0-9a-f]+) ([r-][w-][x-][ps]) \S+ \S+ \S+\s+(.+)$/.exec(head);
    if (!m || m[4] !== exe) continue;
    const perms = m[3] as string;
    if (perms[1] !== "-" || perms[3] !== "p") continue;
    if (!/\nAnonymous:\s+0 kB/.test(block)) continue;
    const start = BigInt(`0x${m[1]}`);
    const end = BigInt(`0x${m[2]}`);
    if (end > start) out.push({ start, end });
  }
  return out;
}

type Madvise = (start: bigint, length: bigint, advice: number) => number;

function libcMadvise(): Madvise | undefined {
  if (process.platform !== "linux" || typeof require !== "function") return undefined;
  try {
    const ffi = require("bun:ffi") as typeof import("bun:ffi");
    const lib = ffi.dlopen("libc.so.6", { madvise: { args: ["u64", "u64", "i32"], returns: "i32" } });
    return (start, length, advice) => lib.symbols.madvise(start, length, advice) as number;
  } catch {
    return undefined;
  }
}

export interface CodePageDeps {
  madvise: Madvise;
  smaps: () => string;
  exe: string;
}

/**
 * A function dropping the executable's clean pages (returns the bytes of the ranges advised), or
 * undefined where that cannot be done (not Linux, no FFI, no /proc). Never throws.
 */
export function codePageDropper(deps?: CodePageDeps): (() => number) | undefined {
  let d = deps;
  if (!d) {
    const madvise = libcMadvise();
    if (!madvise) return undefined;
    let exe: string;
    try {
      exe = realpathSync("/proc/self/exe");
    } catch {
      return undefined;
    }
    d = { madvise, exe, smaps: () => readFileSync("/proc/self/smaps", "utf8") };
  }
  const { madvise, smaps, exe } = d;
  return () => {
    let text: string;
    try {
      text = smaps();
    } catch {
      return 0;
    }
    let advised = 0;
    for (const r of droppableRanges(text, exe)) {
      try {
        if (madvise(r.start, r.end - r.start, MADV_DONTNEED) === 0) advised += Number(r.end - r.start);
      } catch {
        // Refused: the pages stay, as they would have.
      }
    }
    return advised;
  };
}

/**
 * The least time between two drops. Each costs ~0.3-0.5 ms (the smaps read, the advice) and the pages the
 * serving path uses (~250 faults from the page cache, ~0.3 ms) come back on the next requests: at most
 * once a second, a busy sidecar pays a few µs of each second for it.
 */
export const CODE_DROP_MIN_MS = 1_000;

/**
 * `drop`, at most once every `minMs` (a call within that time does nothing), or a no-op where there is
 * no dropper. `force` drops whatever the time (the one after the warm-up).
 */
export function rateLimitedDropper(drop: (() => number) | undefined, minMs = CODE_DROP_MIN_MS, now: () => number = () => performance.now()): (force?: boolean) => void {
  if (!drop) return () => {};
  let last = Number.NEGATIVE_INFINITY;
  return (force) => {
    const t = now();
    if (!force && t - last < minMs) return;
    last = t;
    drop();
  };
}
