/**
 * @module the safety pack's in-process latency (safety-bench's timed pass) of two source trees side by side in
 * one process: each tree warmed on the corpus, then timed passes alternated (A then B, B then A, ...), so a
 * host whose load swings affects both alike. Times are the thread's CPU clock where libc can be reached
 * (Linux), else the wall clock. Prints per corpus the medians over passes of each side's p50 and p90.
 *
 *   bun bench/safety-side-by-side.ts BASE_TREE NEW_TREE [--passes 10] tests/fixtures/corpus/dev.json ...
 *
 * A tree is a checkout with node_modules (e.g. `git worktree add --detach /tmp/base <commit>` and a symlink).
 */
import { join, resolve } from "node:path";
import { takeNumber } from "./lib/args.ts";

const args = process.argv.slice(2);
const passes = takeNumber(args, "--passes", 10);
const [baseTree, newTree, ...files] = args;
if (baseTree === undefined || newTree === undefined || files.length === 0) throw new Error("usage: bun bench/safety-side-by-side.ts BASE_TREE NEW_TREE [--passes N] CORPUS...");

/** Nanoseconds of CPU this thread has used, or of wall time when libc's clock cannot be called. */
async function clock(): Promise<{ kind: string; now: () => number }> {
  try {
    const { dlopen, FFIType, ptr } = await import("bun:ffi");
    const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
    const ts = new BigInt64Array(2);
    const at = ptr(ts);
    const CLOCK_THREAD_CPUTIME_ID = 3;
    return { kind: "thread CPU", now: () => (libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, at), Number(ts[0]) * 1e9 + Number(ts[1])) };
  } catch {
    return { kind: "wall", now: () => performance.now() * 1e6 };
  }
}

interface Side {
  loadCorpus: (f: string) => { cwd: string; projectRoot: string; home: string; cases: { command: string; tool?: string }[] };
  runCorpus: (c: unknown, set: unknown) => Promise<unknown>;
  evaluate: (ctx: unknown, event: unknown) => unknown;
  SessionStore: new () => unknown;
  set: unknown;
}

async function side(tree: string): Promise<Side> {
  const root = resolve(tree);
  const evalMod = await import(join(root, "tests/safety-corpus-eval.ts"));
  const { evaluate } = await import(join(root, "lib/engine/evaluate.ts"));
  const { SessionStore } = await import(join(root, "lib/engine/state.ts"));
  return { loadCorpus: evalMod.loadCorpus, runCorpus: evalMod.runCorpus, evaluate, SessionStore, set: evalMod.loadSafetyPack().set };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const { kind, now } = await clock();
const sides: [string, Side][] = [["base", await side(baseTree)], ["new", await side(newTree)]];
console.log(`${kind} time, ${passes} passes per side, alternated`);
for (const file of files) {
  const corpus = (sides[0] as [string, Side])[1].loadCorpus(file);
  for (const [, s] of sides) await s.runCorpus(corpus, s.set);
  const p50 = new Map<string, number[]>(sides.map(([n]) => [n, []]));
  const p90 = new Map<string, number[]>(sides.map(([n]) => [n, []]));
  for (let pass = 0; pass < passes; pass++) {
    for (const [name, s] of pass % 2 === 0 ? sides : [...sides].reverse()) {
      const ctx = { rules: s.set, sessions: new s.SessionStore(), maxWarnings: 0, projectRoot: corpus.projectRoot, home: corpus.home };
      const us: number[] = [];
      for (const [i, c] of corpus.cases.entries()) {
        // As safety-bench times it: a fresh session and a fresh line each time.
        const event = { hook: "tool_call", session: { id: `bench-${i}`, cwd: corpus.cwd }, tool: { name: c.tool ?? "bash", input: { command: `${c.command}` } } };
        const t = now();
        await s.evaluate(ctx, event);
        us.push((now() - t) / 1000);
      }
      p50.get(name)?.push(quantile(us, 0.5));
      p90.get(name)?.push(quantile(us, 0.9));
    }
  }
  const med = (m: Map<string, number[]>, n: string) => quantile(m.get(n) ?? [], 0.5);
  const cell = (m: Map<string, number[]>) => `${med(m, "base").toFixed(1)} -> ${med(m, "new").toFixed(1)} µs (${(med(m, "new") / med(m, "base")).toFixed(2)}x)`;
  console.log(`${file}: p50 ${cell(p50)}, p90 ${cell(p90)}`);
}
