/** @module the stdio transport's inputs: a stream reader, an async iterable, and a node Readable (which has both shapes). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Logger } from "../log.ts";
import { Workspace } from "../rules/workspace.ts";
import { Dispatcher } from "./dispatch.ts";
import { inputAfter, serveStdio, type TransportIO } from "./transport.ts";

const quiet: Logger = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };
let root = "";
let workspace: Workspace;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-transport-"));
  workspace = new Workspace({ env: { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") }, cwd: root, watch: false, builtin: [] }, "test");
});
afterEach(() => {
  workspace.close();
  rmSync(root, { recursive: true, force: true });
});

const text = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n';
/** The text cut inside the second line, as pipes deliver it. */
const pieces = () => [new TextEncoder().encode(text.slice(0, 50)), new TextEncoder().encode(text.slice(50))];

const inputs: [string, () => TransportIO["input"]][] = [
  ["a stream reader", () => new ReadableStream<Uint8Array>({ start: (c) => (pieces().forEach((p) => c.enqueue(p)), c.close()) }).getReader()],
  [
    "an async iterable",
    () => ({
      async *[Symbol.asyncIterator]() {
        yield* pieces();
      },
    }),
  ],
  // A Readable has a `read()` too (returning null when nothing is buffered): it must be iterated.
  ["a node Readable", () => Readable.from(pieces()) as unknown as TransportIO["input"]],
];

describe("serveStdio", () => {
  it.each(inputs)("should answer every line of %s, then end", async (_name, input) => {
    const out: string[] = [];
    const t = serveStdio({ input: input(), write: (l) => out.push(l) }, new Dispatcher({ workspace, version: "test", log: quiet }), quiet);
    await t.done;
    expect(out.map((l) => JSON.parse(l) as { id: number; result: unknown })).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ] as never);
  });
});

describe("inputAfter", () => {
  /** A reader that records when it was first asked for a chunk. */
  const recording = () => {
    const asked: number[] = [];
    const input = inputs[0]?.[1]() as { read(): Promise<{ done: boolean; value?: Uint8Array | undefined }> };
    return { asked, reader: { read: () => (asked.push(asked.length), input.read()) } };
  };

  it.each([
    ["resolves", (p: { resolve: () => void; reject: (e: Error) => void }) => p.resolve()],
    ["rejects", (p: { resolve: () => void; reject: (e: Error) => void }) => p.reject(new Error("warm-up failed"))],
  ])("should read nothing until the gate settles, then every line (when it %s)", async (_label, settle) => {
    const { asked, reader } = recording();
    let gate: { resolve: () => void; reject: (e: Error) => void } = { resolve: () => {}, reject: () => {} };
    const ready = new Promise<void>((resolve, reject) => {
      gate = { resolve, reject };
    });
    const out: string[] = [];
    const t = serveStdio({ input: inputAfter(ready, reader), write: (l) => out.push(l) }, new Dispatcher({ workspace, version: "test", log: quiet }), quiet);
    await Bun.sleep(10);
    expect(asked).toEqual([]);
    expect(out).toEqual([]);
    settle(gate);
    await t.done;
    expect(asked.length).toBeGreaterThan(0);
    expect(out.length).toBe(2);
  });

  it("should gate an async iterable the same way", async () => {
    let started = false;
    const iterable = {
      async *[Symbol.asyncIterator]() {
        started = true;
        yield* pieces();
      },
    };
    let open = () => {};
    const ready = new Promise<void>((resolve) => {
      open = resolve;
    });
    const out: string[] = [];
    const t = serveStdio({ input: inputAfter(ready, iterable), write: (l) => out.push(l) }, new Dispatcher({ workspace, version: "test", log: quiet }), quiet);
    await Bun.sleep(10);
    expect(started).toBe(false);
    open();
    await t.done;
    expect(out.length).toBe(2);
  });
});

describe("serveStdio onInput", () => {
  const line = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  const chunks = () => [line.subarray(0, 10), new Uint8Array(0), line.subarray(10)];
  it.each([
    ["an async iterable", () => (async function* () { yield* chunks(); })()],
    ["a chunk reader", () => { const cs = chunks(); let i = 0; return { read: async () => (i < cs.length ? { done: false, value: cs[i++] } : { done: true }) }; }],
  ] as const)("should tell the bytes of every chunk of %s and still answer its lines", async (_name, make) => {
    const seen: number[] = [];
    const out: string[] = [];
    const t = serveStdio({ input: make(), write: (l) => out.push(l), onInput: (n) => seen.push(n) }, new Dispatcher({ workspace, version: "test", log: quiet }), quiet);
    await t.done;
    expect(seen).toEqual([10, 0, line.byteLength - 10]);
    expect(out).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n']);
  });
});
