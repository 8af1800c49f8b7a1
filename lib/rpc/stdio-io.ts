/**
 * @module the process's own stdin and stdout for the stdio transport, on the fastest path the runtime has.
 * Under Bun, `Bun.stdin.stream()` and a synchronous write to fd 1 answer a request several microseconds
 * sooner than the node-compatible streams (the echo floor of `npm run bench` uses the same calls).
 */
import { writeSync } from "node:fs";

interface BunStdin {
  stdin: { stream(): ReadableStream<Uint8Array> };
}

/** Byte chunks of stdin until EOF. */
export function stdinChunks(): AsyncIterable<Uint8Array> {
  const bun = (globalThis as { Bun?: BunStdin }).Bun;
  if (!bun) return process.stdin as AsyncIterable<Uint8Array>;
  const reader = bun.stdin.stream().getReader();
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    },
  };
}

/**
 * Writes whole lines to fd 1 synchronously: a blocking pipe makes a slow reader slow us down (bounded
 * memory) instead of queueing without limit. Should the pipe be non-blocking and full (EAGAIN), the rest of
 * the line and every later one go through the async stream, in order.
 */
export function createStdoutWriter(stream: (chunk: Uint8Array | string) => void = (c) => void process.stdout.write(c)): (line: string) => void {
  let queued = false;
  return (line) => {
    if (queued) {
      stream(line);
      return;
    }
    const bytes = Buffer.from(line, "utf8");
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(1, bytes, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      queued = true;
      stream(bytes.subarray(off));
    }
  };
}
