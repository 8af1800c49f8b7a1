/**
 * @module secret redaction for the audit log: the shared detectors (lib/secrets/redact.ts) on every string,
 * plus values under secret-looking object keys, bounded in depth, keys, items and string length.
 */
import { redactSecrets } from "../secrets/redact.ts";

export const REDACTED = "[REDACTED]";

/** Longest string kept in an audit line; the rest is cut (a `write` of a big file is not audit material). */
export const MAX_STRING = 2_048;
const MAX_DEPTH = 6;
const MAX_KEYS = 64;
const MAX_ITEMS = 64;

/** Object keys whose values are secrets whatever they look like. */
const SECRET_KEY = /pass(?:word|wd|phrase)?$|secret|token|api[-_]?key|apikey|auth(?:orization)?$|credential|private[-_]?key|cookie|session[-_]?key|access[-_]?key/i;

/** Masks secrets in one string and cuts it to `max` characters. */
export function redactText(text: string, max = MAX_STRING): string {
  // Redacted before the cut, on a bounded prefix, so a secret straddling the cut is masked, not half-kept.
  const out = redactSecrets(text.length > max * 4 ? text.slice(0, max * 4) : text, { marker: () => REDACTED }).text;
  return out.length > max ? `${out.slice(0, max)}… [${text.length} chars]` : out;
}

/** A copy of a JSON-like value with secrets masked, bounded in depth, keys, items and string length. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? String(value) : value;
  if (depth >= MAX_DEPTH) return "[…]";
  if (Array.isArray(value)) {
    const out = value.slice(0, MAX_ITEMS).map((v) => redactValue(v, depth + 1));
    if (value.length > MAX_ITEMS) out.push(`… [${value.length - MAX_ITEMS} more]`);
    return out;
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, v] of Object.entries(value)) {
    if (n++ >= MAX_KEYS) {
      out["…"] = "[more keys]";
      break;
    }
    // defineProperty, not assignment: a key named __proto__ must stay a plain key.
    Object.defineProperty(out, k, { value: SECRET_KEY.test(k) && v !== null && v !== "" ? REDACTED : redactValue(v, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
