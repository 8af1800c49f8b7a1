/** @module unit tests: which mappings the code-page dropper may advise (only the executable's clean, read-only ones), and that it never throws. */
import { describe, expect, it } from "bun:test";
import { codePageDropper, droppableRanges, rateLimitedDropper } from "./code-pages.ts";

const EXE = "/opt/shepherd/bin/shepherd";

/** One smaps entry as Linux prints it (only the fields the dropper reads, plus a neighbour). */
const entry = (range: string, perms: string, path: string, anonKb: number) =>
  `${range} ${perms} 00000000 fd:01 1234                       ${path}\nSize:                 80 kB\nRss:                  40 kB\nAnonymous:        ${String(anonKb).padStart(8)} kB\nLocked:                0 kB\n`;

const SMAPS = [
  entry("555500000000-555501000000", "r--p", EXE, 0),
  entry("555501000000-555506000000", "r-xp", EXE, 0),
  entry("555506000000-555506400000", "r--p", EXE, 12),
  entry("555506400000-555506800000", "rw-p", EXE, 0),
  entry("555506800000-555506900000", "rwxp", EXE, 0),
  entry("7f0000000000-7f0000100000", "r-xp", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0),
  entry("7f0000200000-7f0000300000", "r-xs", EXE, 0),
  entry("7f0000400000-7f0000500000", "rw-p", "", 100),
  entry("7f0000600000-7f0000700000", "r-xp", `${EXE} (deleted)`, 0),
].join("");

describe("droppableRanges", () => {
  it("should keep only the executable's private mappings that are not writable and hold no anonymous page", () => {
    expect(droppableRanges(SMAPS, EXE)).toEqual([
      { start: 0x555500000000n, end: 0x555501000000n },
      { start: 0x555501000000n, end: 0x555506000000n },
    ]);
  });

  it.each([
    ["an empty text", ""],
    ["a header without its fields", "555501000000-555506000000 r-xp 00000000 fd:01 1234 /opt/shepherd/bin/shepherd\n"],
    ["another file only", entry("7f0000000000-7f0000100000", "r-xp", "/usr/lib/libm.so.6", 0)],
    ["an empty range", entry("555501000000-555501000000", "r-xp", EXE, 0)],
  ])("should find nothing in %s", (_label, text) => {
    expect(droppableRanges(text, EXE)).toEqual([]);
  });
});

describe("codePageDropper", () => {
  it("should advise MADV_DONTNEED over exactly the droppable ranges and return their bytes", () => {
    const calls: [bigint, bigint, number][] = [];
    const drop = codePageDropper({ exe: EXE, smaps: () => SMAPS, madvise: (start, length, advice) => (calls.push([start, length, advice]), 0) });
    expect(drop?.()).toBe(0x1000000 + 0x5000000);
    expect(calls).toEqual([
      [0x555500000000n, 0x1000000n, 4],
      [0x555501000000n, 0x5000000n, 4],
    ]);
  });

  it("should count only the ranges the kernel accepted, and never throw", () => {
    let n = 0;
    const drop = codePageDropper({
      exe: EXE,
      smaps: () => SMAPS,
      madvise: () => {
        if (n++ === 0) throw new Error("refused");
        return -1;
      },
    });
    expect(drop?.()).toBe(0);
  });

  it("should do nothing when /proc cannot be read", () => {
    let advised = 0;
    const drop = codePageDropper({
      exe: EXE,
      smaps: () => {
        throw new Error("ENOENT");
      },
      madvise: () => (advised++, 0),
    });
    expect(drop?.()).toBe(0);
    expect(advised).toBe(0);
  });
});

describe("rateLimitedDropper", () => {
  it("should drop at most once per interval unless forced", () => {
    let t = 0;
    let drops = 0;
    const drop = rateLimitedDropper(() => (drops++, 1), 1_000, () => t);
    drop();
    t = 500;
    drop();
    expect(drops).toBe(1);
    drop(true);
    expect(drops).toBe(2);
    t = 1_400;
    drop();
    expect(drops).toBe(2);
    t = 1_500;
    drop();
    expect(drops).toBe(3);
  });

  it("should be a no-op without a dropper", () => {
    expect(() => rateLimitedDropper(undefined)(true)).not.toThrow();
  });
});
