/**
 * @module small checks for the hand-written guards that stand before a valibot schema on a hot or cold-start
 * path (event-guard.ts, the settings, the session state file, an agent's hook input). A guard answers
 * "does the schema accept this value unchanged?"; whatever it refuses, the schema judges and explains.
 */
import * as v from "valibot";

/**
 * `v.safeParse` behind a guard: a value the guard accepts (the schema would return it unchanged) is the
 * output as it is; anything else is parsed by the schema, which judges it and explains a failure.
 */
export function guardedParse<const S extends v.GenericSchema>(guard: (x: unknown) => x is v.InferOutput<S>, schema: S, x: unknown): { success: true; output: v.InferOutput<S> } | v.SafeParseResult<S> {
  return guard(x) ? { success: true, output: x } : v.safeParse(schema, x);
}

export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;
export const isPlainRecord = (x: unknown): x is Record<string, unknown> => isObject(x) && !Array.isArray(x);
export const optString = (x: unknown): boolean => x === undefined || typeof x === "string";
export const optBoolean = (x: unknown): boolean => x === undefined || typeof x === "boolean";
/** valibot's `number()`: every number but NaN. */
export const isNumber = (x: unknown): x is number => typeof x === "number" && !Number.isNaN(x);

/** Keys valibot's `record` and `looseObject` drop from their output: a value holding one is left to the schema. */
export const hasUnsafeKey = (o: object): boolean => Object.hasOwn(o, "__proto__") || Object.hasOwn(o, "prototype") || Object.hasOwn(o, "constructor");

/** An object valibot's `looseObject` returns with the same keys: not null, and no key it would drop. */
export const isLooseObject = (x: unknown): x is Record<string, unknown> => isObject(x) && !hasUnsafeKey(x);

/** A string length within bounds, counted as valibot counts (UTF-16 units). */
export const stringWithin = (x: unknown, min: number, max = Number.POSITIVE_INFINITY): x is string => typeof x === "string" && x.length >= min && x.length <= max;

export function isStringArray(x: unknown): x is string[] {
  if (!Array.isArray(x)) return false;
  for (const s of x) if (typeof s !== "string") return false;
  return true;
}

/** A record of numbers that valibot's `record(string(), number())` returns unchanged. */
export function isNumberRecord(x: unknown): x is Record<string, number> {
  if (!isPlainRecord(x) || hasUnsafeKey(x)) return false;
  for (const k in x) if (!isNumber(x[k])) return false;
  return true;
}

/** Every own key of `o` is one of `known` (what valibot's `object()` keeps: it drops the others). */
export function onlyKeys(o: object, known: ReadonlySet<string>): boolean {
  for (const k in o) if (!known.has(k)) return false;
  return true;
}
