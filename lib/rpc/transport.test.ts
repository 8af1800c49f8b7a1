/** @module the stdio transport's inputs: a stream reader, an async iterable, and a node Readable (which has both shapes). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Logger } from "../log.ts";
import { Workspace } from "../rules/workspace.ts";
import { Dispatcher } from "./dispatch.ts";
import { serveStdio, type TransportIO } from "./transport.ts";

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
