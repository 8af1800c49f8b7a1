/**
 * @module the loop counters: the same tool call (same tool, same normalized input) repeated in a row, and
 * the same call failing again. The session keeps a hash of each call's normalized input, never the input,
 * and at most MAX_FAILED_CALLS of them, so a long session stays small.
 */
import { HashLanes, type NativeHashes, nativeHashes } from "../hash.ts";
import type { EventView } from "./match.ts";
import type { SessionState } from "./state.ts";

export const MAX_FAILED_CALLS = 64;
/** A huge input (a Write of a large file) is hashed by its head, tail and length: bounded work per event. */
const HASHED_EDGE = 4_096;

/** The last event's key: a rule asks again for the event just counted (a WeakMap costs more than the hash). */
let lastView: EventView | undefined;
let lastKey = "";

/**
 * The hash lanes of lib/hash.ts over the call, in one pass with no string built: this runs on every tool
 * call and result. `collapse` folds each run of ASCII whitespace into one space and drops it at the ends
 * (a shell command's spacing does not make it another call). A text longer than twice HASHED_EDGE is hashed
 * by its first and last HASHED_EDGE characters and its length: bounded work for a Write of megabytes.
 */


/**
 * An input value longer than this (a file's content) goes into the lanes as two native 32-bit hashes of
 * it instead of char by char: the key still names the same tool and input, in the one runtime that both
 * writes and reads it (the binary: every face evaluates there). Shorter ones, and every shell command
 * (spacing is folded char by char), keep the lanes' own digits.
 */
const NATIVE_FROM = 256;

/** The char code of each hex digit, 0-15. */
const HEX_CODES = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

function nibble(n: number, shift: number): number {
  return HEX_CODES[(n >>> shift) & 15] as number;
}

class CallHash extends HashLanes {
  /**
   * The same 16 digits as HashLanes#hex (loops.test.ts compares them), as one flat string: `toString(16)`
   * and `padStart` cost ~5x more, and eight two-digit pieces joined by `+` made a rope that the first
   * comparison with the session's last key then flattened.
   */
  override hex(): string {
    const a = this.h1;
    const b = this.h2;
    return String.fromCharCode(
      nibble(a, 28), nibble(a, 24), nibble(a, 20), nibble(a, 16), nibble(a, 12), nibble(a, 8), nibble(a, 4), nibble(a, 0),
      nibble(b, 28), nibble(b, 24), nibble(b, 20), nibble(b, 16), nibble(b, 12), nibble(b, 8), nibble(b, 4), nibble(b, 0),
    );
  }

  text(t: string, collapse: boolean): void {
    const n = t.length;
    if (!collapse && nativeHashes && n > NATIVE_FROM) {
      this.#digest(t, nativeHashes);
      return;
    }
    const long = n > 2 * HASHED_EDGE;
    let space = false;
    let started = false;
    for (let i = 0; i < n; i++) {
      if (long && i === HASHED_EDGE) {
        this.add(0);
        this.add(n & 0xffff);
        this.add(n >>> 16);
        i = n - HASHED_EDGE;
      }
      const c = t.charCodeAt(i);
      if (collapse && (c === 32 || (c >= 9 && c <= 13))) {
        space = started;
        continue;
      }
      if (space) {
        this.add(32);
        space = false;
      }
      started = true;
      this.add(c);
    }
    this.add(0);
  }

  /** The same part of the text as the char loop (head and tail past 2 * HASHED_EDGE), fed as its length and hashes. */
  #digest(t: string, h: NativeHashes): void {
    const n = t.length;
    const long = n > 2 * HASHED_EDGE;
    // Marked apart from a char-by-char text (no char code is above 0xffff).
    this.add(0x10000);
    this.add(n & 0xffff);
    this.add(n >>> 16);
    for (const part of long ? [t.slice(0, HASHED_EDGE), t.slice(n - HASHED_EDGE)] : [t]) {
      const a = h.crc32(part);
      const b = h.xxHash32(part, 0x5bd1e995);
      this.add(a & 0xffff);
      this.add(a >>> 16);
      this.add(b & 0xffff);
      this.add(b >>> 16);
    }
    this.add(0);
  }
}

/** The hash that names this event's tool call (cached per event): same tool and same normalized input. */
export function callKey(view: EventView): string {
  if (view === lastView) return lastKey;
  const h = new CallHash();
  h.text(view.tool, false);
  const command = view.tool === "bash" ? view.command : undefined;
  if (command !== undefined) h.text(command, true);
  else {
    // Object.keys, not entries: the same order, without an array per field.
    const input = view.input;
    const keys = Object.keys(input);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const value = input[key];
      h.text(key, false);
      h.text(typeof value === "string" ? value : (JSON.stringify(value) ?? ""), false);
    }
  }
  lastKey = h.hex();
  lastView = view;
  return lastKey;
}

/** A tool call about to run: the streak grows when it is the previous call again, else starts over. */
export function trackCall(state: SessionState, view: EventView): void {
  const k = callKey(view);
  state.repeats = state.lastCall === k ? state.repeats + 1 : 1;
  state.lastCall = k;
}

/** A failed tool result: one more failure of that exact call (the oldest call is forgotten past the cap). */
export function trackFailure(state: SessionState, view: EventView): void {
  const k = callKey(view);
  const failed = state.failedCalls;
  const n = (failed[k] ?? 0) + 1;
  delete failed[k];
  failed[k] = n;
  const all = Object.keys(failed);
  if (all.length > MAX_FAILED_CALLS) delete failed[all[0] as string];
}

/** The counter a `repeats` or `failing_repeats` rule compares with `gte`. */
export function loopCount(kind: "repeats" | "failing_repeats", state: SessionState, view: EventView): number {
  const ev = view.event;
  if (!ev.tool) return 0;
  if (kind === "repeats") return ev.hook === "tool_call" ? state.repeats : 0;
  // Nothing failed yet (the common case): no call needs hashing to know it has not failed before.
  if (!hasAny(state.failedCalls)) return 0;
  return state.failedCalls[callKey(view)] ?? 0;
}

function hasAny(record: Record<string, number>): boolean {
  for (const _ in record) return true;
  return false;
}
