/** @module the stdout writer: whole lines, short writes completed in order, EAGAIN handed to the stream. */
import { describe, expect, it } from "bun:test";
import { createStdoutWriter } from "./stdio-io.ts";

/** A fake fd 1: records bytes and can accept only `limit` bytes per call or throw EAGAIN on call n. */
function fakeFd(opts: { limit?: number; eagainOnCall?: number } = {}) {
  const out: number[] = [];
  let calls = 0;
  const write = (_fd: number, data: string | Uint8Array, offset = 0): number => {
    calls++;
    if (opts.eagainOnCall === calls) throw Object.assign(new Error("EAGAIN"), { code: "EAGAIN" });
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data.subarray(offset);
    const n = Math.min(bytes.length, opts.limit ?? bytes.length);
    out.push(...bytes.subarray(0, n));
    return n;
  };
  return { write, text: () => Buffer.from(out).toString("utf8"), calls: () => calls };
}

describe("createStdoutWriter", () => {
  it.each([
    ["ascii", '{"id":1}\n'],
    ["multi-byte", '{"text":"ünïcødé ✓ 🐑"}\n'],
  ])("should write a %s line whole in one call when the pipe takes it", (_name, line) => {
    const fd = fakeFd();
    createStdoutWriter(() => {}, fd.write)(line);
    expect(fd.text()).toBe(line);
    expect(fd.calls()).toBe(1);
  });

  it("should finish a short write of a multi-byte line from the right byte", () => {
    const fd = fakeFd({ limit: 5 });
    const line = '{"a":"ééé🐑🐑"}\n';
    createStdoutWriter(() => {}, fd.write)(line);
    expect(fd.text()).toBe(line);
    expect(fd.calls()).toBeGreaterThan(1);
  });

  it("should hand the rest of the line and every later line to the stream after EAGAIN, in order", () => {
    const fd = fakeFd({ limit: 4, eagainOnCall: 2 });
    const streamed: string[] = [];
    const write = createStdoutWriter((c) => void streamed.push(typeof c === "string" ? c : Buffer.from(c).toString("utf8")), fd.write);
    write("abcdefgh\n");
    write("second\n");
    expect(fd.text() + streamed.join("")).toBe("abcdefgh\nsecond\n");
    expect(streamed.at(-1)).toBe("second\n");
  });

  it("should rethrow errors other than EAGAIN", () => {
    const write = () => {
      throw Object.assign(new Error("EPIPE"), { code: "EPIPE" });
    };
    expect(() => createStdoutWriter(() => {}, write)("x\n")).toThrow("EPIPE");
  });
});
