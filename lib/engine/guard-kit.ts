/**
 * @module small checks for the hand-written guards that stand before a valibot schema on a hot or cold-start
 * path (event-guard.ts, the settings, the session state file, an agent's hook input). A guard answers
 * "does the schema accept this value unchanged?"; whatever it refuses, the schema judges and explains.
 *
 * Where they could differ, these checks refuse in O(1) per value: NaN (valibot's `number()` refuses it), an
 * object whose prototype is not Object's (null-prototype, class instance, array: the schema returns a new plain
 * object), an array that is not a plain dense one (holes: the schema fills them with `undefined`), and the own
 * keys the schema drops (`__proto__`, `constructor`, `prototype`, which JSON.parse does make). Two oddities that
 * JSON.parse cannot make are left out because refusing them costs a walk over every key of every hot-path value:
 * accessor properties (a guard reads a getter as the schema does, once per check, but not once in all) and named
 * keys on an array. Every caller passes JSON.parse output (stdio lines, HTTP bodies, hook stdin, files).
 */
import * as v from "valibot";

/**
 * `v.safeParse` behind a guard: a value the guard accepts (the schema would return it unchanged) is the
 * output as it is; anything else is parsed by the schema, which judges it and explains a failure.
 */
export function guardedParse<const S extends v.GenericSchema>(guard: (x: unknown) => x is v.InferOutput<S>, schema: S | (() => S), x: unknown): { success: true; output: v.InferOutput<S> } | v.SafeParseResult<S> {
  if (guard(x)) return { success: true, output: x };
  // A getter (lazySchema) is called only here: building a schema costs a cold hook process more than the guard.
  return v.safeParse(typeof schema === "function" ? schema() : schema, x);
}

/**
 * An object valibot's object and record schemas hand back with the same prototype: Object's. A null-prototype
 * object, a class instance or an array (which those schemas also accept) comes out as a new plain object.
 */
export const isPlainRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && Object.getPrototypeOf(x) === Object.prototype;
/** An array valibot's `array()` returns as it is: a plain Array (not a subclass); holes are the caller's to refuse. */
const isPlainArray = (x: unknown): x is unknown[] => Array.isArray(x) && Object.getPrototypeOf(x) === Array.prototype;
export const optString = (x: unknown): boolean => x === undefined || typeof x === "string";
export const optBoolean = (x: unknown): boolean => x === undefined || typeof x === "boolean";
/** valibot's `number()`: every number but NaN. */
export const isNumber = (x: unknown): x is number => typeof x === "number" && !Number.isNaN(x);

/** Keys valibot's `record` and `looseObject` drop from their output: a value holding one is left to the schema. */
export const hasUnsafeKey = (o: object): boolean => Object.hasOwn(o, "__proto__") || Object.hasOwn(o, "prototype") || Object.hasOwn(o, "constructor");

/** An object valibot's `looseObject` (or `record`) returns with the same keys: plain, and no key it would drop. */
export const isLooseObject = (x: unknown): x is Record<string, unknown> => isPlainRecord(x) && !hasUnsafeKey(x);

/** A string length within bounds, counted as valibot counts (UTF-16 units). */
export const stringWithin = (x: unknown, min: number, max = Number.POSITIVE_INFINITY): x is string => typeof x === "string" && x.length >= min && x.length <= max;

/** What `array(string())` returns unchanged; a hole reads as `undefined`, so it is refused with the rest. */
export function isStringArray(x: unknown): x is string[] {
  if (!isPlainArray(x)) return false;
  for (let i = 0; i < x.length; i++) if (typeof x[i] !== "string") return false;
  return true;
}

/** What `array(unknown())` returns unchanged: a plain array without holes (the schema writes `undefined` there). */
export function isDenseArray(x: unknown): x is unknown[] {
  if (!isPlainArray(x)) return false;
  for (let i = 0; i < x.length; i++) if (!(i in x)) return false;
  return true;
}

/** A record of numbers that valibot's `record(string(), number())` returns unchanged. */
export function isNumberRecord(x: unknown): x is Record<string, number> {
  if (!isLooseObject(x)) return false;
  for (const k in x) if (!isNumber(x[k])) return false;
  return true;
}

/** Every own key of `o` is one of `known` (what valibot's `object()` keeps: it drops the others). */
export function onlyKeys(o: object, known: ReadonlySet<string>): boolean {
  for (const k in o) if (!known.has(k)) return false;
  return true;
}
