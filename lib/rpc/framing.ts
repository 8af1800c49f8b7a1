/** @module LF-delimited framing with a line-length cap (U+2028/2029 are data, not line breaks). */

/** 8 MiB: a `write` of a large file travels in one line, so the cap must sit well above common files. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

export type Frame = { kind: "line"; text: string } | { kind: "invalid-utf8" } | { kind: "too-long"; bytes: number };

/**
 * Splits a byte stream into lines. A line longer than the cap is dropped as it streams in (memory stays
 * bounded) and reported once as "too-long" when its LF arrives.
 */
export class LineFramer {
  readonly maxBytes: number;
  #chunks: Uint8Array[] = [];
  #size = 0;
  #discarding = false;
  #discarded = 0;
  #decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(maxBytes = DEFAULT_MAX_LINE_BYTES) {
    this.maxBytes = maxBytes;
  }

  push(chunk: Uint8Array, emit: (frame: Frame) => void): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (nl !== -1 && this.#size === 0 && !this.#discarding && piece.length <= this.maxBytes) {
        // A whole line inside one chunk (nearly every request): decoded in place, no copy.
        this.#emitLine(piece, emit);
        start = nl + 1;
        continue;
      }
      if (this.#discarding) this.#discarded += piece.length;
      else if (this.#size + piece.length > this.maxBytes) {
        this.#discarding = true;
        this.#discarded = this.#size + piece.length;
        this.#chunks = [];
        this.#size = 0;
      } else if (piece.length > 0) {
        // Copy: the caller may reuse its buffer.
        this.#chunks.push(piece.slice());
        this.#size += piece.length;
      }
      if (nl === -1) return;
      this.#flushLine(emit);
      start = nl + 1;
    }
  }

  /** At EOF: a last line without LF still counts. */
  end(emit: (frame: Frame) => void): void {
    if (this.#size > 0 || this.#discarding) this.#flushLine(emit);
  }

  #flushLine(emit: (frame: Frame) => void): void {
    if (this.#discarding) {
      emit({ kind: "too-long", bytes: this.#discarded });
      this.#discarding = false;
      this.#discarded = 0;
      return;
    }
    const bytes = this.#chunks.length === 1 ? (this.#chunks[0] as Uint8Array) : concat(this.#chunks, this.#size);
    this.#chunks = [];
    this.#size = 0;
    this.#emitLine(bytes, emit);
  }

  #emitLine(bytes: Uint8Array, emit: (frame: Frame) => void): void {
    if (bytes.length === 0) return;
    let text: string;
    try {
      text = this.#decoder.decode(bytes);
    } catch {
      emit({ kind: "invalid-utf8" });
      return;
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    emit({ kind: "line", text });
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
