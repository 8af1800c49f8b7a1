/**
 * @module Writes all of a CLI command's text to a descriptor, whatever the other end is: a pipe made
 * non-blocking by the reader (EAGAIN) or one that takes part of a write (a short write) gets the rest,
 * in order, once it drains. `rules list --json` of a large rule set piped into `head` must neither crash
 * on EAGAIN nor lose the tail.
 */
import { writeSync } from "node:fs";

export type WriteFn = (fd: number, buf: Uint8Array, offset: number, length: number) => number;

export interface WriteAllOptions {
  write?: WriteFn;
  /** Waits this long before retrying a full pipe (default 1 ms). */
  sleep?: (ms: number) => void;
  /** Gives up (throws) after waiting this long in all for one text (default 60 s): a reader that never reads. */
  maxWaitMs?: number;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function writeAllSync(fd: number, text: string, opts: WriteAllOptions = {}): void {
  const write = opts.write ?? ((f: number, b: Uint8Array, o: number, l: number) => writeSync(f, b, o, l));
  const sleep = opts.sleep ?? sleepSync;
  const maxWait = opts.maxWaitMs ?? 60_000;
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  let waited = 0;
  let pause = 1;
  while (off < buf.length) {
    try {
      off += write(fd, buf, off, buf.length - off);
      pause = 1;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      if (waited >= maxWait) throw new Error(`the reader of descriptor ${fd} took nothing for ${Math.round(waited / 1000)} s`);
      sleep(pause);
      waited += pause;
      pause = Math.min(pause * 2, 50);
    }
  }
}
