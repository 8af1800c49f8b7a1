/**
 * @module a hook's stdin, read without blocking the event loop (so the deadline timer can fire while an
 * agent keeps the pipe open) and with bounded memory: past the cap the rest is read and dropped, so the
 * writer is not cut off mid-write, and the first bytes are kept to tell which event it was.
 */
import { closeSync, constants, fstatSync, openSync, read, readSync } from "node:fs";

/** How much of the start of the input is kept to sniff the event name from (Claude Code sends it early). */
const HEAD_BYTES = 64 * 1024;
const CHUNK_BYTES = 1 << 16;

export type HookInput = { ok: true; text: string } | { ok: false; bytes: number };

export interface InputReader {
  /** The whole input, or how many bytes it had once it passed the cap. */
  result: Promise<HookInput>;
  /** The first bytes read so far, decoded leniently: what a failure answer can sniff from. */
  head(): string;
}

type ReadChunk = (buf: Uint8Array, done: (err: NodeJS.ErrnoException | null, n: number) => void) => void;

const readFd = (fd: number): ReadChunk => (buf, done) => read(fd, buf, 0, buf.length, null, done);

/**
 * Stdin read synchronously while it has data, and through the event loop only once it would block: an
 * agent writes its JSON and closes the pipe, so a hook usually reads it whole without the thread pool an
 * asynchronous read starts (~0.6 ms of a hook's start). A pipe is reopened non-blocking through
 * /proc/self/fd/0 (a descriptor of its own, so fd 0 stays as the agent made it); a regular file never
 * blocks. Elsewhere, or when the reopen fails, every read goes through the event loop.
 */
function readStdin(): ReadChunk {
  const async = readFd(0);
  let syncFd: number | undefined;
  try {
    const st = fstatSync(0);
    if (st.isFile()) syncFd = 0;
    else if (st.isFIFO()) syncFd = openSync("/proc/self/fd/0", constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    syncFd = undefined;
  }
  return (buf, done) => {
    if (syncFd !== undefined) {
      try {
        return done(null, readSync(syncFd, buf, 0, buf.length, null));
      } catch (e) {
        // EAGAIN: the writer keeps the pipe open with nothing in it yet; wait on the event loop from here on.
        if ((e as NodeJS.ErrnoException).code !== "EAGAIN") return done(e as NodeJS.ErrnoException, 0);
        if (syncFd !== 0) closeSync(syncFd);
        syncFd = undefined;
      }
    }
    async(buf, done);
  };
}

export interface ReadOptions {
  /** Where the bytes come from: stdin by default. */
  read?: ReadChunk;
  /** Told the running total after every chunk. */
  onProgress?: (total: number) => void;
}

/** Reads stdin (or `opts.read`) to its end, keeping at most `max` bytes. */
export function readHookInput(max: number, opts: ReadOptions = {}): InputReader {
  const readChunk = opts.read ?? readStdin();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let headBytes: Uint8Array | undefined;
  const keepHead = (piece: Uint8Array) => {
    if (headBytes && headBytes.length >= HEAD_BYTES) return;
    const add = piece.subarray(0, HEAD_BYTES - (headBytes?.length ?? 0));
    const next = new Uint8Array((headBytes?.length ?? 0) + add.length);
    if (headBytes) next.set(headBytes);
    next.set(add, headBytes?.length ?? 0);
    headBytes = next;
  };
  const result = new Promise<HookInput>((resolve, reject) => {
    // One buffer while under the cap would be overwritten by the next read: every kept chunk is a copy.
    const buf = new Uint8Array(CHUNK_BYTES);
    const step = (): void =>
      readChunk(buf, (err, n) => {
        if (err) {
          if (err.code === "EAGAIN") return void setTimeout(step, 1); // a non-blocking pipe: wait for data
          if (err.code === "EOF") return finish();
          return reject(err);
        }
        if (n === 0) return finish();
        total += n;
        opts.onProgress?.(total);
        if (total <= max) {
          const piece = buf.slice(0, n);
          chunks.push(piece);
          keepHead(piece);
        } else {
          if (!headBytes || headBytes.length < HEAD_BYTES) keepHead(buf.subarray(0, n));
          chunks.length = 0; // past the cap nothing is kept but the head
        }
        // Through the event loop, not a nested call: a read may answer synchronously, and the deadline's
        // timer must get its turn between chunks of an input that never ends.
        setImmediate(step);
      });
    const finish = (): void => {
      if (total > max) return resolve({ ok: false, bytes: total });
      resolve({ ok: true, text: decode(chunks, total) });
    };
    step();
  });
  return { result, head: () => (headBytes ? new TextDecoder().decode(headBytes) : "") };
}

/** Plain typed arrays and a TextDecoder: a hook's first use of Buffer costs it ~0.1 ms of start-up. */
function decode(chunks: readonly Uint8Array[], total: number): string {
  let all = chunks[0] ?? new Uint8Array(0);
  if (chunks.length > 1) {
    all = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
  }
  return new TextDecoder().decode(all);
}

/**
 * The `hook_event_name` of an input that could not be parsed (too large, cut off, not JSON), from its
 * first bytes. Only a plain name is taken: anything odd is "unknown", which fails closed.
 */
export function sniffEventName(head: string): string | undefined {
  const m = /"hook_event_name"\s*:\s*"([A-Za-z][A-Za-z0-9_]{0,63})"/.exec(head);
  return m?.[1];
}
