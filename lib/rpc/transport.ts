/** @module stdio transport over injected streams: frames lines in, writes responses and notifications out. */
import type { Logger } from "../log.ts";
import { type Dispatcher, ErrorCodes, errorResponse, type RpcResponse } from "./dispatch.ts";
import { LineFramer } from "./framing.ts";

/** A stream reader's shape (`ReadableStreamDefaultReader`): pulled directly, without an async iterator's extra hops. */
export interface ChunkReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
}

export interface TransportIO {
  /** Byte chunks from the client, ending at EOF: an async iterable, or a reader (a few µs less per line). */
  input: AsyncIterable<Uint8Array> | ChunkReader;
  /** Writes one complete line (with its LF). */
  write: (line: string) => void;
  /**
   * Told the bytes of each chunk as it is read (the GC policy's large-input rule). A callback in the read
   * loop, not a wrapper around `input`: a wrapping async `read()` costs every request a promise and a hop.
   */
  onInput?: (bytes: number) => void;
}

export interface Transport {
  notify(method: string, params: unknown): void;
  /** Resolves at EOF once every in-flight request has been answered. */
  done: Promise<void>;
}

/**
 * `input` read only once `ready` settles: the client's first line waits for the sidecar's warm-up (which
 * runs this same transport over lines of its own) instead of interleaving with it.
 */
export function inputAfter(ready: Promise<unknown>, input: TransportIO["input"]): TransportIO["input"] {
  const settled = ready.then(
    () => undefined,
    () => undefined,
  );
  if (Symbol.asyncIterator in input) {
    return (async function* () {
      await settled;
      yield* input;
    })();
  }
  let gate: Promise<void> | undefined = settled;
  return {
    read() {
      if (!gate) return input.read();
      const g = gate;
      gate = undefined;
      return g.then(() => input.read());
    },
  };
}

/** Upper bound on requests in flight; past it, new ones wait for the stream (natural backpressure). */
const MAX_IN_FLIGHT = 4096;

export function serveStdio(io: TransportIO, dispatcher: Dispatcher, log: Logger, maxLineBytes?: number): Transport {
  const framer = new LineFramer(maxLineBytes);
  const inFlight = new Set<Promise<void>>();
  const send = (msg: RpcResponse | { jsonrpc: "2.0"; method: string; params: unknown }) => {
    try {
      io.write(`${JSON.stringify(msg)}\n`);
    } catch (err) {
      log.error(`cannot write to stdout: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const handle = (frame: Parameters<Parameters<LineFramer["push"]>[1]>[0]) => {
    if (frame.kind === "too-long") {
      send(errorResponse(null, ErrorCodes.InvalidRequest, `line too long: ${frame.bytes} bytes exceeds the ${framer.maxBytes}-byte cap`));
      return;
    }
    if (frame.kind === "invalid-utf8") {
      send(errorResponse(null, ErrorCodes.ParseError, "parse error: line is not valid UTF-8"));
      return;
    }
    const answer = dispatcher.handleLine(frame.text);
    if (!(answer instanceof Promise)) {
      if (answer) send(answer);
      return;
    }
    const p: Promise<void> = answer.then((res) => {
      if (res) send(res);
    });
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  };

  const done = (async () => {
    const input = io.input;
    // An iterable first: a node Readable (process.stdin) has a `read()` of its own, with other semantics.
    const pull: () => Promise<IteratorResult<Uint8Array> | { done: boolean; value?: Uint8Array | undefined }> =
      Symbol.asyncIterator in input ? ((it) => () => it.next())(input[Symbol.asyncIterator]()) : () => input.read();
    const onInput = io.onInput;
    for (;;) {
      const { done, value } = await pull();
      if (done) break;
      if (!value) continue;
      onInput?.(value.byteLength);
      framer.push(value, handle);
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    }
    framer.end(handle);
    await Promise.allSettled([...inFlight]);
  })();

  return {
    notify: (method, params) => send({ jsonrpc: "2.0", method, params }),
    done,
  };
}
