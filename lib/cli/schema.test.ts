/** @module unit tests of the rule file JSON Schema and the helpers `shepherd init` uses. */
import { afterEach, describe, expect, it } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuleSchema } from "../engine/schema.ts";
import { ruleFileJsonSchema, SCHEMA_FILE_NAME, SCHEMA_URL, schemaRef, writeSchemaFile } from "./schema.ts";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

describe("ruleFileJsonSchema", () => {
  it("should describe exactly the keys the valibot RuleSchema accepts", () => {
    const schema = ruleFileJsonSchema() as { $defs: { rule: { properties: Record<string, unknown> } } };
    expect(Object.keys(schema.$defs.rule.properties).sort()).toEqual(Object.keys(RuleSchema.entries).sort());
  });
});

describe("writeSchemaFile", () => {
  it("should write the schema beside the rule files and return the $schema value", () => {
    dir = mkdtempSync(join(tmpdir(), "shepherd-schema-"));
    const res = writeSchemaFile(join(dir, ".pi"));
    expect(res).toEqual({ ok: true, path: join(dir, ".pi", SCHEMA_FILE_NAME), ref: SCHEMA_URL });
    expect(JSON.parse(readFileSync(join(dir, ".pi", SCHEMA_FILE_NAME), "utf8"))).toHaveProperty("$defs.rule");
  });
});

describe("schemaRef", () => {
  it.each([
    ["/p/.pi/shepherd-rules.json", "/p/.pi/shepherd-rules.schema.json", "./shepherd-rules.schema.json"],
    ["/p/.pi/shepherd-rules.json", "/p/dist/rules.schema.json", "../dist/rules.schema.json"],
  ])("should point %p at %p as %p", (ruleFile, schemaFile, want) => {
    expect(schemaRef(ruleFile, schemaFile)).toBe(want);
  });
});
