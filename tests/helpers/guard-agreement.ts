/**
 * @module a property for the hand-written guards that stand before valibot schemas: on generated values
 * the guard accepts exactly what the schema returns unchanged, so using an accepted value as is equals
 * parsing it (lib/engine/guard-kit.ts). The odd values where a guard and its schema drift apart (NaN and the
 * infinities, `-0`, holes, prototype keys, other prototypes) are generated on purpose, at every level, so a
 * gap cannot hide behind a lucky seed; `expectOddTwinsAgree` runs the same odd values as a fixed table.
 */
import { expect } from "bun:test";
import fc from "fast-check";
import * as v from "valibot";

/** Numbers where `typeof` and valibot's `number()` part ways, or that JSON.parse makes from `1e999`. */
export const oddNumber = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0);

/** A class whose instances look like records but are not plain objects (valibot hands back a plain copy). */
class NotPlain {
  a = 1;
}

/** Own keys that valibot's `record` and `looseObject` drop; JSON.parse makes each of them an own data key. */
const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"] as const;
const withOwnKey = (o: object, key: string): Record<string, unknown> => ({ ...o, ...(JSON.parse(`{${JSON.stringify(key)}:{"a":1}}`) as object) });

/** Values that are right for some field and wrong for others, the odd ones included on purpose. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  oddNumber,
  fc.constantFrom("", "x", "open", "closed"),
  fc.string({ maxLength: 4 }),
  fc.constant("s".repeat(513)),
  fc.constant([]),
  fc.constant(["a", 1]),
  fc.sparseArray(fc.constantFrom("a", 1), { maxLength: 3 }),
  fc.constant({}),
  fc.constantFrom(...PROTOTYPE_KEYS).map((k) => withOwnKey({}, k)),
  fc.constant(Object.create(null) as unknown),
  fc.constant(new NotPlain() as unknown),
);

/**
 * The odd twin of a mostly right value: a number made odd; an object with a null prototype, a prototype key
 * or a class; an array with a hole or a subclass. Each keeps the rest of the value, so the guard sees a value
 * that is right except for this one thing.
 */
function oddTwins(x: unknown): fc.Arbitrary<unknown> {
  if (typeof x === "number") return oddNumber;
  if (Array.isArray(x)) return fc.constantFrom<unknown>(trailingHole(x), leadingHole(x), Object.assign(new OddArray(), x));
  if (typeof x === "object" && x !== null) {
    return fc.constantFrom<unknown>(Object.assign(Object.create(null) as object, x), Object.assign(new NotPlain(), x), ...PROTOTYPE_KEYS.map((k) => withOwnKey(x, k)));
  }
  return fc.constant(x);
}
class OddArray extends Array<unknown> {}

/** The array with one more slot, left empty (what `fc.sparseArray` makes, and JSON.parse never does). */
function trailingHole(a: readonly unknown[]): unknown[] {
  const out = [...a];
  out.length = a.length + 1;
  return out;
}

/** A hole before the first item: a check that reads items by index must still see it. */
function leadingHole(a: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  out[1] = a.length > 0 ? a[0] : "a";
  return out;
}

/**
 * Mostly right: with many fields, an even mix would almost never build an accepted value. Build the right
 * records with `noNullPrototype: true` (fast-check makes null-prototype objects by default, which a guard
 * refuses): the odd twins bring them back, a fixed share at every level.
 */
export const mostly = <T,>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: arb, weight: 12 }, { arbitrary: anyValue, weight: 1 }, { arbitrary: arb.chain(oddTwins), weight: 1 });

/**
 * The schema returned `input` as it is: same prototype, same own keys (a hole is no key; `undefined` is one),
 * the same values by `Object.is` (so `-0` is not `0`). Values are read as valibot reads them, through getters.
 */
export function sameData(output: unknown, input: unknown): boolean {
  if (Object.is(output, input)) return true;
  if (typeof output !== "object" || output === null || typeof input !== "object" || input === null) return false;
  if (Object.getPrototypeOf(output) !== Object.getPrototypeOf(input)) return false;
  if (Array.isArray(output) && (!Array.isArray(input) || output.length !== input.length)) return false;
  const keys = Object.keys(input);
  if (Object.keys(output).length !== keys.length) return false;
  const o = output as Record<string, unknown>;
  const i = input as Record<string, unknown>;
  for (const k of keys) if (!Object.hasOwn(output, k) || !sameData(o[k], i[k])) return false;
  return true;
}

function agrees(guard: (x: unknown) => boolean, schema: v.GenericSchema, x: unknown): boolean {
  const parsed = v.safeParse(schema, x);
  const unchanged = parsed.success && sameData(parsed.output, x);
  expect(guard(x)).toBe(unchanged);
  return unchanged;
}

export function expectGuardAgrees(guard: (x: unknown) => boolean, schema: v.GenericSchema, values: fc.Arbitrary<unknown>, minAccepted: number, numRuns = 3000): void {
  let accepted = 0;
  fc.assert(
    fc.property(values, (x) => {
      if (agrees(guard, schema, x)) accepted++;
    }),
    { numRuns },
  );
  // The generator must reach the accepting branch, or the agreement proves little.
  expect(accepted).toBeGreaterThan(minAccepted);
}

/** Every odd twin of `valid` at every depth, named by where it differs: the table form of the property. */
export function oddTwinTable(valid: unknown): [string, unknown][] {
  const out: [string, unknown][] = [];
  const replaceAt = (path: readonly string[], value: unknown): unknown => {
    if (path.length === 0) return value;
    const copy = structuredClone(valid) as Record<string, unknown>;
    let node = copy;
    for (const p of path.slice(0, -1)) node = node[p] as Record<string, unknown>;
    node[path[path.length - 1] as string] = value;
    return copy;
  };
  const walk = (path: readonly string[], node: unknown): void => {
    const where = path.length === 0 ? "the value" : path.join(".");
    const name = (what: string) => `${what} at ${where}`;
    if (typeof node === "number") for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0]) out.push([name(Object.is(n, -0) ? "-0" : String(n)), replaceAt(path, n)]);
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      out.push([name("a trailing hole"), replaceAt(path, trailingHole(node))], [name("a leading hole"), replaceAt(path, leadingHole(node))], [name("an Array subclass"), replaceAt(path, Object.assign(new OddArray(), node))]);
      node.forEach((item, i) => walk([...path, String(i)], item));
      return;
    }
    out.push([name("a null prototype"), replaceAt(path, Object.assign(Object.create(null) as object, node))], [name("a class instance"), replaceAt(path, Object.assign(new NotPlain(), node))]);
    for (const k of PROTOTYPE_KEYS) out.push([name(`an own "${k}" key`), replaceAt(path, withOwnKey(node, k))]);
    for (const [k, child] of Object.entries(node)) walk([...path, k], child);
  };
  walk([], valid);
  return out;
}

/** `valid` is accepted, and each of its odd twins gets the same verdict from the guard as from the schema. */
export function expectOddTwinsAgree(guard: (x: unknown) => boolean, schema: v.GenericSchema, valid: unknown): void {
  expect(guard(valid)).toBe(true);
  expect(agrees(guard, schema, valid)).toBe(true);
  const table = oddTwinTable(valid);
  expect(table.length).toBeGreaterThan(5);
  for (const [name, x] of table) {
    try {
      agrees(guard, schema, x);
    } catch (err) {
      throw new Error(`guard and schema disagree on ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
