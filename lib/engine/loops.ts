/**
 * @module the loop counters: the same tool call (same tool, same normalized input) repeated in a row, and
 * the same call failing again. The session keeps a hash of each call's normalized input, never the input,
 * and at most MAX_FAILED_CALLS of them, so a long session stays small.
 */
import { textHash } from "../hash.ts";
import type { EventView } from "./match.ts";
import type { SessionState } from "./state.ts";

export const MAX_FAILED_CALLS = 64;
/** A huge input (a Write of a large file) is hashed by its head, tail and length: bounded work per event. */
const HASHED_EDGE = 4_096;

const keys = new WeakMap<EventView, string>();

/** A long text by its head, length and tail: no pass over megabytes, on every event, for a hash. */
function edges(text: string): string {
  return text.length > 2 * HASHED_EDGE ? `${text.slice(0, HASHED_EDGE)}\u0000${text.length}\u0000${text.slice(-HASHED_EDGE)}` : text;
}

/** What makes two calls "the same": a shell command with its spacing collapsed, any other input field by field. */
function normalizedInput(view: EventView): string {
  const command = view.tool === "bash" ? view.command : undefined;
  if (command !== undefined) return edges(command).trim().replace(/\s+/g, " ");
  let out = "";
  for (const [key, value] of Object.entries(view.input)) {
    out += `${key}\u0000${typeof value === "string" ? edges(value) : edges(JSON.stringify(value) ?? "")}\u0000`;
  }
  return out;
}

/** The hash that names this event's tool call (cached per event). */
export function callKey(view: EventView): string {
  let k = keys.get(view);
  if (k !== undefined) return k;
  k = textHash(`${view.tool}\u0000${normalizedInput(view)}`);
  keys.set(view, k);
  return k;
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
  return state.failedCalls[callKey(view)] ?? 0;
}
