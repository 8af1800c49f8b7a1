/** @module the JSON-RPC 2.0 envelope of a request or notification: its schema, and a guard for the hot path. */
import * as v from "valibot";

export const EnvelopeSchema = v.object({
  jsonrpc: v.literal("2.0"),
  method: v.pipe(v.string(), v.minLength(1)),
  // Numbers first: most clients count ids, and a failed union branch builds an issue message.
  id: v.optional(v.union([v.number(), v.string(), v.null()])),
  params: v.optional(v.union([v.record(v.string(), v.unknown()), v.array(v.unknown())])),
});

export type Envelope = v.InferOutput<typeof EnvelopeSchema>;

/** `EnvelopeSchema` written out for the common case; whatever it refuses, the schema judges (and explains). */
export function isEnvelope(x: unknown): x is Envelope {
  if (typeof x !== "object" || x === null) return false;
  const m = x as Record<string, unknown>;
  if (m.jsonrpc !== "2.0" || typeof m.method !== "string" || m.method.length === 0) return false;
  const id = m.id;
  if (id !== undefined && id !== null && typeof id !== "number" && typeof id !== "string") return false;
  const p = m.params;
  return p === undefined || (typeof p === "object" && p !== null);
}

