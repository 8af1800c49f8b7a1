/** @module the JSON-RPC 2.0 envelope of a request or notification: its schema, and a guard for the hot path. */
import * as v from "valibot";
import { isDenseArray, isLooseObject, isNumber, stringWithin } from "../engine/guard-kit.ts";

// Loose: members JSON-RPC does not define are kept, as the guard keeps them, so an accepted message is the
// schema's output as it is.
export const EnvelopeSchema = v.looseObject({
  jsonrpc: v.literal("2.0"),
  method: v.pipe(v.string(), v.minLength(1)),
  // Numbers first: most clients count ids, and a failed union branch builds an issue message.
  id: v.optional(v.union([v.number(), v.string(), v.null()])),
  // Arrays first: valibot's record accepts an array too, and would hand positional params back as an object.
  params: v.optional(v.union([v.array(v.unknown()), v.record(v.string(), v.unknown())])),
});

export type Envelope = v.InferOutput<typeof EnvelopeSchema>;

/**
 * True when `EnvelopeSchema` returns `x` unchanged (it is then used as is); whatever it refuses, the schema
 * judges (and explains). The gaps it must not have: a NaN id, a prototype key or a null prototype on the
 * message or its params, holes in positional params (guard-kit.ts).
 */
export function isEnvelope(x: unknown): x is Envelope {
  if (!isLooseObject(x) || x.jsonrpc !== "2.0" || !stringWithin(x.method, 1)) return false;
  const id = x.id;
  if (id !== undefined && id !== null && typeof id !== "string" && !isNumber(id)) return false;
  const p = x.params;
  return p === undefined || isLooseObject(p) || isDenseArray(p);
}
