/**
 * @module the process's own stdin and stdout for the stdio transport, on the fastest path the runtime has.
 * Under Bun, `Bun.stdin.stream()` and a synchronous write to fd 1 answer a request several microseconds
 * sooner than the node-compatible streams (the echo floor of `npm run bench` uses the same calls).
 */
import { writeSync } from "node:fs";

import type { ChunkReader } from "./transport.ts";

interface BunStdin {
  stdin: { stream(): ReadableStream<Uint8Array> };
}

/** stdin until EOF: Bun's stream reader itself, or the node stream as an async iterable elsewhere. */
export function stdinChunks(): AsyncIterable<Uint8Array> | ChunkReader {
  const bun = (globalThis as { Bun?: BunStdin }).Bun;
  if (!bun) return process.stdin as AsyncIterable<Uint8Array>;
  return bun.stdin.stream().getReader();
}

/**
 * Writes whole lines to fd 1 synchronously: a blocking pipe makes a slow reader slow us down (bounded
 * memory) instead of queueing without limit. The string goes to the kernel as is (no Buffer per line);
 * should the pipe be non-blocking and full (EAGAIN, or a short write), the rest of the line and every later
 * one go through the async stream, in order.
 */
export function createStdoutWriter(
  stream: (chunk: Uint8Array | string) => void = (c) => void process.stdout.write(c),
  write: (fd: number, data: string | Uint8Array, offset?: number) => number = (fd, data, offset) =>
    typeof data === "string" ? writeSync(fd, data) : writeSync(fd, data, offset),
): (line: string) => void {
  let queued = false;
  return (line) => {
    if (queued) {
      stream(line);
      return;
    }
    let off = 0;
    let bytes: Uint8Array | undefined;
    try {
      off = write(1, line);
      const total = Buffer.byteLength(line, "utf8");
      if (off === total) return;
      bytes = Buffer.from(line, "utf8");
      while (off < total) off += write(1, bytes, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      queued = true;
      stream((bytes ?? Buffer.from(line, "utf8")).subarray(off));
    }
  };
}
