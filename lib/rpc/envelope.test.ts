/** @module the envelope guard against its valibot schema: the same verdict on every generated message. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import * as v from "valibot";
import { anyValue, expectGuardAgrees, expectOddTwinsAgree, mostly, oddNumber } from "../../tests/helpers/guard-agreement.ts";
import { EnvelopeSchema, isEnvelope } from "./envelope.ts";

const message = fc.record(
  {
    jsonrpc: mostly(fc.constantFrom("2.0", "1.0")),
    method: mostly(fc.constantFrom("ping", "shepherd/evaluate", "")),
    // Odd numbers on purpose: a NaN id once passed the guard and failed the schema, found only by a lucky seed.
    id: mostly(fc.oneof(fc.integer(), fc.double(), oddNumber, fc.string({ maxLength: 3 }), fc.constant(null))),
    params: mostly(
      fc.oneof(
        fc.dictionary(fc.oneof(fc.string({ maxLength: 2 }), fc.constantFrom("__proto__", "constructor", "prototype")), anyValue, { noNullPrototype: true, maxKeys: 2 }),
        fc.array(anyValue, { maxLength: 2 }),
        fc.sparseArray(anyValue, { maxLength: 3 }),
      ),
    ),
    extra: anyValue,
  },
  { noNullPrototype: true, requiredKeys: [] },
);
// An own "__proto__" key on the message itself, as JSON.parse makes it.
const withProtoKey = message.map((m) => ({ ...m, ...(JSON.parse('{"__proto__":{"x":1}}') as object) }));

describe("isEnvelope", () => {
  it("should accept exactly what EnvelopeSchema returns unchanged", () => {
    expectGuardAgrees(isEnvelope, EnvelopeSchema, fc.oneof(message, anyValue, withProtoKey), 100, 5000);
  });

  it("should agree with the schema on every odd twin of a full request", () => {
    expectOddTwinsAgree(isEnvelope, EnvelopeSchema, { jsonrpc: "2.0", method: "ping", id: 7, params: { a: 1, b: [2, "x"] } });
    expectOddTwinsAgree(isEnvelope, EnvelopeSchema, { jsonrpc: "2.0", method: "ping", id: "x", params: [1, "a", { b: 2 }] });
  });

  it("should keep positional params an array (valibot's record would take them as an object)", () => {
    const msg = { jsonrpc: "2.0" as const, method: "m", params: [1, "a"] };
    const out = v.parse(EnvelopeSchema, msg);
    expect(Array.isArray(out.params)).toBe(true);
    expect(out).toEqual(msg);
  });

  it.each([
    ["a numeric id", { jsonrpc: "2.0", method: "ping", id: 1 }, true],
    ["a boolean id", { jsonrpc: "2.0", method: "ping", id: true }, false],
    ["a NaN id", { jsonrpc: "2.0", method: "ping", id: Number.NaN }, false],
    ["an infinite id (JSON.parse makes one of 1e999)", JSON.parse('{"jsonrpc":"2.0","method":"ping","id":1e999}') as unknown, true],
    ["a -0 id", { jsonrpc: "2.0", method: "ping", id: -0 }, true],
    ["an empty method", { jsonrpc: "2.0", method: "", id: 1 }, false],
    ["string params", { jsonrpc: "2.0", method: "x", params: "p" }, false],
    ["positional params", { jsonrpc: "2.0", method: "x", params: [1] }, true],
    ["an extra member", { jsonrpc: "2.0", method: "x", trace: "t" }, true],
  ])("should judge %s as the schema does", (_name, msg, ok) => {
    expect(isEnvelope(msg)).toBe(ok);
    expect(v.safeParse(EnvelopeSchema, msg).success).toBe(ok);
  });

  it.each([
    ["an own __proto__ key", JSON.parse('{"jsonrpc":"2.0","method":"ping","__proto__":{"id":1}}') as unknown],
    ["an own constructor key", JSON.parse('{"jsonrpc":"2.0","method":"ping","constructor":1}') as unknown],
    ["an own __proto__ key in params", JSON.parse('{"jsonrpc":"2.0","method":"ping","params":{"__proto__":{"a":1}}}') as unknown],
    ["a null-prototype message", Object.assign(Object.create(null) as object, { jsonrpc: "2.0", method: "ping" })],
    ["a hole in positional params", { jsonrpc: "2.0", method: "ping", params: [1, , 3] }],
  ])("should leave %s to the schema, which accepts a cleaned copy", (_name, msg) => {
    expect(isEnvelope(msg)).toBe(false);
    const parsed = v.safeParse(EnvelopeSchema, msg);
    expect(parsed.success).toBe(true);
    expect(parsed.output).not.toBe(msg);
  });
});
