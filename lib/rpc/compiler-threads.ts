/**
 * @module the JIT's compiler threads yield the CPU to the thread that answers requests. JSC compiles hot
 * functions on threads of its own ("JITWorker"); at 1,000 rules a sidecar's first few thousand requests
 * bring ~0.3-0.5 s of such compilation (a single optimizing compile of a matcher takes 30-130 ms). Where
 * the client, the sidecar and other work share one CPU, each of those slices lands inside some request:
 * ~40 requests of the first 5,000 took 2-5 ms that way. Lowered after the warm-up, a compiler thread
 * gets a tenth of a normal thread's share while both want the CPU (and all of it between a session's tool
 * calls, seconds apart): the serving thread runs first, and the compilations still finish. At the weakest
 * priority (19, a 1.5% share) they barely ran on a host others keep busy, so the code stayed in lower
 * tiers (the first 5,000 requests' p50 +10 µs). JSC ends an idle compiler thread after a few seconds and starts
 * a new one, at normal priority, on the next compile, so the sidecar looks again now and then. Linux only
 * (per-thread nice values under /proc); elsewhere nothing is changed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";

/** The name JSC gives its compiler (worklist) threads. */
export const COMPILER_THREAD_NAME = "JITWorker";
/** Nice 10: CFS weight 110 against a normal thread's 1,024. */
export const COMPILER_NICE = 10;
/** How often a running sidecar looks for new compiler threads. */
export const RECHECK_MS = 1_000;

export interface ThreadInfo {
  tid: number;
  name: string;
  nice: number;
  /** User plus system CPU time, in clock ticks. */
  cpuTicks: number;
}

/** Parses one `/proc/<pid>/task/<tid>/stat` line; undefined when it is not one. */
export function parseTaskStat(tid: number, stat: string): ThreadInfo | undefined {
  const open = stat.indexOf("(");
  const close = stat.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
  // cutime cstime priority nice ... (proc(5), fields 3 onwards).
  const f = stat.slice(close + 2).split(" ");
  const utime = Number(f[11]);
  const stime = Number(f[12]);
  const nice = Number(f[16]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime) || !Number.isInteger(nice)) return undefined;
  return { tid, name: stat.slice(open + 1, close), nice, cpuTicks: utime + stime };
}

/** This process's threads (Linux); [] where /proc cannot be read. */
export function listThreads(dir = "/proc/self/task"): ThreadInfo[] {
  let tids: string[];
  try {
    tids = readdirSync(dir);
  } catch {
    return [];
  }
  const out: ThreadInfo[] = [];
  for (const t of tids) {
    const tid = Number(t);
    if (!Number.isInteger(tid)) continue;
    try {
      const info = parseTaskStat(tid, readFileSync(`${dir}/${t}/stat`, "utf8"));
      if (info) out.push(info);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** CPU ticks spent so far by the compiler threads alive now (a warm-up's "still compiling?" probe). */
export function compilerTicks(threads: readonly ThreadInfo[] = listThreads()): number {
  let ticks = 0;
  for (const t of threads) if (t.name === COMPILER_THREAD_NAME) ticks += t.cpuTicks;
  return ticks;
}

/** Lowers every compiler thread not yet at COMPILER_NICE (or weaker); returns how many it lowered. Never throws. */
export function yieldCompilerThreads(threads: readonly ThreadInfo[] = listThreads(), set: (tid: number, nice: number) => void = setPriority): number {
  let lowered = 0;
  for (const t of threads) {
    if (t.name !== COMPILER_THREAD_NAME || t.nice >= COMPILER_NICE) continue;
    try {
      set(t.tid, COMPILER_NICE);
      lowered++;
    } catch {
      // Gone already, or not allowed here: it keeps its priority.
    }
  }
  return lowered;
}

/** Yields the compiler threads now and again every `everyMs` (without keeping the process alive); returns the stop. */
export function keepCompilerThreadsYielding(everyMs = RECHECK_MS, check: () => void = () => void yieldCompilerThreads()): () => void {
  check();
  const timer = setInterval(check, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
