/** @module unit tests of writeAllSync: short writes and EAGAIN never lose or reorder text. */
import { describe, expect, it } from "bun:test";
import { writeAllSync } from "./write-fd.ts";

function fakeFd(plan: ("eagain" | number)[]): { bytes: number[]; write: (fd: number, b: Uint8Array, o: number, l: number) => number } {
  const bytes: number[] = [];
  let call = 0;
  return {
    bytes,
    write: (_fd, b, o, l) => {
      const step = plan[call++] ?? l;
      if (step === "eagain") throw Object.assign(new Error("EAGAIN"), { code: "EAGAIN" });
      const n = Math.min(step, l);
      for (let i = 0; i < n; i++) bytes.push(b[o + i] ?? 0);
      return n;
    },
  };
}

describe("writeAllSync", () => {
  const text = `${"é".repeat(5000)}\nend\n`;
  it.each([
    ["one write", []],
    ["short writes", [1, 7, 100, 3]],
    ["EAGAIN between short writes", [10, "eagain", "eagain", 5, "eagain", 2]],
  ] as [string, ("eagain" | number)[]][])("should write every byte in order through %s", (_what, plan) => {
    const fd = fakeFd(plan);
    writeAllSync(1, text, { write: fd.write, sleep: () => {} });
    expect(Buffer.from(fd.bytes).toString("utf8")).toBe(text);
  });

  it("should give up on a reader that never reads, with a message", () => {
    const fd = fakeFd(Array.from({ length: 10_000 }, () => "eagain" as const));
    expect(() => writeAllSync(1, "x", { write: fd.write, sleep: () => {}, maxWaitMs: 100 })).toThrow("took nothing");
  });

  it("should rethrow other errors (EPIPE is the caller's)", () => {
    const write = () => {
      throw Object.assign(new Error("EPIPE"), { code: "EPIPE" });
    };
    expect(() => writeAllSync(1, "x", { write })).toThrow("EPIPE");
  });
});
