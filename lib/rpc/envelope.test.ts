/** @module the envelope guard against its valibot schema: the same verdict on every generated message. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import * as v from "valibot";
import { EnvelopeSchema, isEnvelope } from "./envelope.ts";

const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string({ maxLength: 3 }), fc.constant([]), fc.constant({}));
const mostly = <T,>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: arb, weight: 6 }, { arbitrary: anyValue, weight: 1 });
const message = fc.record(
  {
    jsonrpc: mostly(fc.constantFrom("2.0", "1.0")),
    method: mostly(fc.constantFrom("ping", "shepherd/evaluate", "")),
    id: mostly(fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null))),
    params: mostly(fc.oneof(fc.dictionary(fc.string({ maxLength: 2 }), anyValue, { maxKeys: 2 }), fc.array(anyValue, { maxLength: 2 }))),
  },
  { requiredKeys: [] },
);

describe("isEnvelope", () => {
  it("should agree with EnvelopeSchema on generated messages", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(message, anyValue), (msg) => {
        const ok = v.safeParse(EnvelopeSchema, msg).success;
        expect(isEnvelope(msg)).toBe(ok);
        if (ok) accepted++;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it.each([
    [{ jsonrpc: "2.0", method: "ping", id: 1 }, true],
    [{ jsonrpc: "2.0", method: "ping", id: true }, false],
    [{ jsonrpc: "2.0", method: "", id: 1 }, false],
    [{ jsonrpc: "2.0", method: "x", params: "p" }, false],
    [{ jsonrpc: "2.0", method: "x", params: [1] }, true],
  ])("should judge %j as %p", (msg, ok) => {
    expect(isEnvelope(msg)).toBe(ok);
  });
});
