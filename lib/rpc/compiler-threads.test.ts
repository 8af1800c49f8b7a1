/** @module unit tests: finding the JIT's compiler threads under /proc and lowering only them, never failing. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILER_NICE, COMPILER_THREAD_NAME, compilerTicks, keepCompilerThreadsYielding, listThreads, parseTaskStat, type ThreadInfo, yieldCompilerThreads } from "./compiler-threads.ts";

/** A stat line as proc(5) prints it: utime, stime and nice at fields 14, 15 and 19. */
const stat = (tid: number, name: string, utime: number, stime: number, nice: number) =>
  `${tid} (${name}) S 1 1 1 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 ${nice} 9 0 100 1000 200\n`;

let root = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-threads-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("parseTaskStat", () => {
  it.each([
    ["a plain name", stat(7, "JITWorker", 12, 3, 0), { tid: 7, name: "JITWorker", nice: 0, cpuTicks: 15 }],
    ["a name with spaces and parentheses", stat(8, "a (b) c", 1, 1, 19), { tid: 8, name: "a (b) c", nice: 19, cpuTicks: 2 }],
    ["a negative nice value", stat(9, "x", 0, 0, -5), { tid: 9, name: "x", nice: -5, cpuTicks: 0 }],
  ])("should read %s", (_label, line, expected) => {
    expect(parseTaskStat(expected.tid, line)).toEqual(expected);
  });

  it.each([
    ["no name", "7 S 1 1"],
    ["too few fields", "7 (JITWorker) S 1 1 1"],
    ["an empty line", ""],
  ])("should refuse %s", (_label, line) => {
    expect(parseTaskStat(7, line)).toBeUndefined();
  });
});

describe("listThreads", () => {
  it("should list the threads of a task folder, skipping what is not a thread", () => {
    for (const [tid, line] of [
      ["11", stat(11, "shepherd", 5, 5, 0)],
      ["12", stat(12, COMPILER_THREAD_NAME, 40, 2, 0)],
      ["13", "garbage"],
    ] as const) {
      mkdirSync(join(root, tid));
      writeFileSync(join(root, tid, "stat"), line);
    }
    mkdirSync(join(root, "not-a-tid"));
    mkdirSync(join(root, "14"));
    expect(listThreads(root).sort((a, b) => a.tid - b.tid)).toEqual([
      { tid: 11, name: "shepherd", nice: 0, cpuTicks: 10 },
      { tid: 12, name: COMPILER_THREAD_NAME, nice: 0, cpuTicks: 42 },
    ]);
    expect(compilerTicks(listThreads(root))).toBe(42);
  });

  it("should give no threads where the folder cannot be read", () => {
    expect(listThreads(join(root, "missing"))).toEqual([]);
  });

  it("should find this process's own threads on Linux", () => {
    expect(existsSync("/proc/self/task")).toBe(process.platform === "linux");
    if (process.platform === "linux") expect(listThreads().map((t) => t.tid)).toContain(process.pid);
    else expect(listThreads()).toEqual([]);
  });
});

describe("yieldCompilerThreads", () => {
  const threads: ThreadInfo[] = [
    { tid: 1, name: "shepherd", nice: 0, cpuTicks: 0 },
    { tid: 2, name: COMPILER_THREAD_NAME, nice: 0, cpuTicks: 0 },
    { tid: 3, name: COMPILER_THREAD_NAME, nice: COMPILER_NICE, cpuTicks: 0 },
    { tid: 4, name: "HeapHelper", nice: 0, cpuTicks: 0 },
    { tid: 5, name: COMPILER_THREAD_NAME, nice: 5, cpuTicks: 0 },
    // Weaker already: never raised (nor could it be, unprivileged).
    { tid: 6, name: COMPILER_THREAD_NAME, nice: 19, cpuTicks: 0 },
  ];

  it("should lower only the compiler threads not yet at COMPILER_NICE or weaker", () => {
    const calls: [number, number][] = [];
    expect(yieldCompilerThreads(threads, (tid, nice) => void calls.push([tid, nice]))).toBe(2);
    expect(calls).toEqual([
      [2, COMPILER_NICE],
      [5, COMPILER_NICE],
    ]);
  });

  it("should not throw when a thread is gone or may not be changed, and count only those it lowered", () => {
    const set = (tid: number) => {
      if (tid === 2) throw new Error("ESRCH");
    };
    expect(yieldCompilerThreads(threads, set)).toBe(1);
  });

  it("should leave this process's compiler threads at COMPILER_NICE or weaker (Linux), and the others as they were", () => {
    const before = listThreads();
    yieldCompilerThreads();
    const after = listThreads();
    expect(after.filter((t) => t.name === COMPILER_THREAD_NAME && t.nice < COMPILER_NICE)).toEqual([]);
    const main = (list: ThreadInfo[]) => list.find((t) => t.tid === process.pid)?.nice;
    expect(main(after)).toBe(main(before));
  });

  it("should look at once and then every interval until stopped", async () => {
    let checks = 0;
    const stop = keepCompilerThreadsYielding(5, () => void checks++);
    expect(checks).toBe(1);
    await Bun.sleep(40);
    stop();
    const seen = checks;
    expect(seen).toBeGreaterThan(1);
    await Bun.sleep(30);
    expect(checks).toBe(seen);
  });
});
