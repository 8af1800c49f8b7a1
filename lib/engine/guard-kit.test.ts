/** @module guardedParse: a value the guard accepts comes back as it is; the schema judges everything else. */
import { describe, expect, it } from "bun:test";
import * as v from "valibot";
import { guardedParse, isPlainRecord } from "./guard-kit.ts";

const Schema = v.looseObject({ name: v.string() });
const isNamed = (x: unknown): x is v.InferOutput<typeof Schema> => isPlainRecord(x) && typeof x.name === "string";

describe("guardedParse", () => {
  it("should build a schema given as a getter only for a value the guard refuses", () => {
    let built = 0;
    const getter = () => (built++, Schema);
    expect(guardedParse(isNamed, getter, { name: "a" }).success).toBe(true);
    expect(built).toBe(0);
    expect(guardedParse(isNamed, getter, { name: 1 }).success).toBe(false);
    expect(built).toBe(1);
  });

  it("should return a value the guard accepts as the very same object", () => {
    const value = { name: "a", extra: 1 };
    const r = guardedParse(isNamed, Schema, value);
    expect(r.success && r.output).toBe(value);
  });

  it("should leave a refused value to the schema: its output when valid, its issues when not", () => {
    // A guard that refuses everything: the schema accepts this value, and a copy comes back.
    const strict = (_x: unknown): _x is v.InferOutput<typeof Schema> => false;
    const value = { name: "b" };
    const ok = guardedParse(strict, Schema, value);
    expect(ok.success).toBe(true);
    expect(ok.success && ok.output).not.toBe(value);
    expect(ok.success && ok.output).toEqual(value);
    const bad = guardedParse(isNamed, Schema, { name: 3 });
    expect(bad.success).toBe(false);
    expect(!bad.success && bad.issues[0]?.path?.[0]?.key).toBe("name");
  });
});
