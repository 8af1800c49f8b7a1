/**
 * @module a property for the hand-written guards that stand before valibot schemas: on generated values
 * the guard accepts exactly what the schema returns unchanged, so using an accepted value as is equals
 * parsing it (lib/engine/guard-kit.ts).
 */
import { expect } from "bun:test";
import fc from "fast-check";
import * as v from "valibot";

/** Values that are right for some field and wrong for others. */
export const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: false }),
  fc.constantFrom("", "x", "open", "closed"),
  fc.string({ maxLength: 4 }),
  fc.constant("s".repeat(513)),
  fc.constant([]),
  fc.constant(["a", 1]),
  fc.constant({}),
  fc.constant(JSON.parse('{"__proto__":{"a":1}}') as unknown),
);

/** Mostly right: with many fields, an even mix would almost never build an accepted value. */
export const mostly = <T,>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ arbitrary: arb, weight: 12 }, { arbitrary: anyValue, weight: 1 });

export function expectGuardAgrees(guard: (x: unknown) => boolean, schema: v.GenericSchema, values: fc.Arbitrary<unknown>, minAccepted: number, numRuns = 3000): void {
  let accepted = 0;
  fc.assert(
    fc.property(values, (x) => {
      const parsed = v.safeParse(schema, x);
      const unchanged = parsed.success && Bun.deepEquals(parsed.output, x, true);
      expect(guard(x)).toBe(unchanged);
      if (unchanged) accepted++;
    }),
    { numRuns },
  );
  // The generator must reach the accepting branch, or the agreement proves little.
  expect(accepted).toBeGreaterThan(minAccepted);
}
