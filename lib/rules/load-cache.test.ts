/** @module unit tests: the rule load cache returns a result only for the same file, text and build. */
import { afterEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRuleText } from "../engine/load.ts";
import { fileLoadCache } from "./load-cache.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("fileLoadCache", () => {
  const text = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `r${i}`, action: "block", pattern: `\\bcmd${i}\\b`, reason: "x".repeat(40) })));
  const result = loadRuleText(text, { file: "/p/.pi/shepherd-rules.json", source: "project" });

  it("gives back what was stored for the same file and text, and nothing otherwise", () => {
    dir = mkdtempSync(join(tmpdir(), "shepherd-cache-"));
    const cache = fileLoadCache(dir, "build-1", 1024);
    expect(cache.get("/p/.pi/shepherd-rules.json", "project", text)).toBeUndefined();
    cache.set("/p/.pi/shepherd-rules.json", "project", text, result);
    expect(cache.get("/p/.pi/shepherd-rules.json", "project", text)).toEqual(JSON.parse(JSON.stringify(result)));
    expect(cache.get("/p/.pi/shepherd-rules.json", "project", `${text} `)).toBeUndefined();
    expect(cache.get("/p/.pi/shepherd-rules.json", "global", text)).toBeUndefined();
    expect(cache.get("/q/.pi/shepherd-rules.json", "project", text)).toBeUndefined();
    expect(fileLoadCache(dir, "build-2", 1024).get("/p/.pi/shepherd-rules.json", "project", text)).toBeUndefined();
  });

  it("leaves small files alone and survives an unwritable folder", () => {
    dir = mkdtempSync(join(tmpdir(), "shepherd-cache-"));
    const small = fileLoadCache(dir, "b", 1 << 20);
    small.set("f", "project", text, result);
    expect(small.get("f", "project", text)).toBeUndefined();
    const broken = fileLoadCache("/proc/shepherd-no-such-dir", "b", 1);
    broken.set("f", "project", text, result);
    expect(broken.get("f", "project", text)).toBeUndefined();
  });
});
