/** @module unit tests: the bounded, non-blocking hook input reader and the event-name sniffer. */
import { describe, expect, it } from "bun:test";
import { readHookInput, sniffEventName } from "./input.ts";

/** A fake fd that hands out `pieces`, then EOF; counts how many reads it served. */
function source(pieces: Uint8Array[]) {
  let i = 0;
  const served = { reads: 0 };
  const read = (buf: Uint8Array, done: (err: NodeJS.ErrnoException | null, n: number) => void) => {
    served.reads++;
    const p = pieces[i++];
    if (!p) return queueMicrotask(() => done(null, 0));
    buf.set(p.subarray(0, buf.length));
    queueMicrotask(() => done(null, Math.min(p.length, buf.length)));
  };
  return { read, served };
}

const enc = new TextEncoder();

describe("readHookInput", () => {
  it("should join chunks, with a character split across them", async () => {
    const bytes = enc.encode('{"a":"é"}');
    const { read } = source([bytes.subarray(0, 7), bytes.subarray(7)]);
    expect(await readHookInput(1_000, { read }).result).toEqual({ ok: true, text: '{"a":"é"}' });
  });

  it("should read past the cap to the end, keeping only the head", async () => {
    const head = enc.encode('{"hook_event_name":"PreToolUse","tool_input":"');
    const filler = new Uint8Array(65_536).fill(120);
    const pieces = [head, ...Array.from({ length: 20 }, () => filler)];
    const { read, served } = source(pieces);
    let last = 0;
    const reader = readHookInput(100_000, { read, onProgress: (n) => void (last = n) });
    const r = await reader.result;
    expect(r).toEqual({ ok: false, bytes: head.length + 20 * 65_536 });
    expect(served.reads).toBe(22); // every piece, then EOF: the writer is never cut off
    expect(last).toBe(head.length + 20 * 65_536);
    expect(sniffEventName(reader.head())).toBe("PreToolUse");
    expect(reader.head().length).toBeLessThanOrEqual(64 * 1024);
  });

  it("should report a read error", async () => {
    const read = (_b: Uint8Array, done: (err: NodeJS.ErrnoException | null, n: number) => void) => done(Object.assign(new Error("EIO"), { code: "EIO" }), 0);
    await expect(readHookInput(10, { read }).result).rejects.toThrow("EIO");
  });
});

describe("sniffEventName", () => {
  const cases: [string, string, string | undefined][] = [
    ["Claude Code's order", '{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{', "PreToolUse"],
    ["spaces around the colon", '{"hook_event_name" : "BeforeTool"', "BeforeTool"],
    ["an escaped key inside a string", '{"cwd":"\\"hook_event_name\\":\\"Stop\\"","tool_input":{', undefined],
    ["a cut-off name", '{"hook_event_name":"PreTo', undefined],
    ["a name that is not plain", '{"hook_event_name":"Pre Tool"}', undefined],
    ["nothing", "", undefined],
  ];
  for (const [name, head, want] of cases) it(`should handle ${name}`, () => expect(sniffEventName(head)).toBe(want));
});
