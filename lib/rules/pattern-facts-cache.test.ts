import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRuleText } from "../engine/load.ts";
import type { PatternFactsStore, StoredFacts } from "../engine/prepared.ts";
import { filePatternFactsCache, MAX_STORED_PATTERNS } from "./pattern-facts-cache.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-facts-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const RISKY: StoredFacts = { analysis: { risk: { kind: "exponential", why: "w" }, needsBacktracking: false }, sets: [["ab"]], shapes: ["aaa"] };

describe("filePatternFactsCache", () => {
  it("should give back what an earlier process wrote, under the same salt only", () => {
    const a = filePatternFactsCache(dir, "s1");
    a.add("/(ab+)+", RISKY);
    a.add("i/x", { analysis: null, sets: null, shapes: [] });
    a.flush();
    expect(statSync(join(dir, "pattern-facts.json")).mode & 0o777).toBe(0o600);
    const b = filePatternFactsCache(dir, "s1");
    expect(b.get("/(ab+)+")).toEqual(RISKY);
    expect(b.get("i/x")).toEqual({ analysis: null, sets: null, shapes: [] });
    expect(b.get("/other")).toBeUndefined();
    expect(filePatternFactsCache(dir, "s2").get("/(ab+)+")).toBeUndefined();
  });

  it("should ignore a corrupt file and rows of the wrong shape, and keep the rows that are sound", () => {
    const file = join(dir, "pattern-facts.json");
    writeFileSync(file, "{not json");
    expect(filePatternFactsCache(dir, "s").get("/a")).toBeUndefined();
    const rows = {
      "/good": [0, [["g"]], []],
      "/bad-kind": [{ needsBacktracking: false, risk: { kind: "linear", why: "" } }, 0, []],
      "/bad-sets": [0, [[1]], []],
      "/bad-length": [0, 0],
      "/bad-degree": [{ needsBacktracking: false, risk: { kind: "polynomial", why: "", degree: 1 } }, 0, []],
    };
    writeFileSync(file, JSON.stringify({ salt: "s", rows }));
    const c = filePatternFactsCache(dir, "s");
    expect(c.get("/good")).toEqual({ analysis: null, sets: [["g"]], shapes: [] });
    for (const k of ["/bad-kind", "/bad-sets", "/bad-length", "/bad-degree"]) expect(c.get(k)).toBeUndefined();
  });

  it("should keep the newest patterns when full", () => {
    const a = filePatternFactsCache(dir, "s");
    for (let i = 0; i < MAX_STORED_PATTERNS + 10; i++) a.add(`/p${i}`, { analysis: null, sets: [], shapes: [] });
    a.flush();
    const rows = (JSON.parse(readFileSync(join(dir, "pattern-facts.json"), "utf8")) as { rows: Record<string, unknown> }).rows;
    expect(Object.keys(rows)).toHaveLength(MAX_STORED_PATTERNS);
    const b = filePatternFactsCache(dir, "s");
    expect(b.get("/p0")).toBeUndefined();
    expect(b.get(`/p${MAX_STORED_PATTERNS + 9}`)).toEqual({ analysis: null, sets: [], shapes: [] });
  });

  it("should write what a deferred flush holds at once when told to", () => {
    const file = join(dir, "pattern-facts.json");
    const a = filePatternFactsCache(dir, "s", { deferMs: 60_000 });
    a.add("/(ab+)+", RISKY);
    a.flush();
    expect(() => statSync(file)).toThrow();
    a.writeNow();
    expect(filePatternFactsCache(dir, "s").get("/(ab+)+")).toEqual(RISKY);
  });

  it("should write nothing for a load that found no new pattern, and survive an unwritable folder", () => {
    const a = filePatternFactsCache(dir, "s");
    a.flush();
    expect(() => statSync(join(dir, "pattern-facts.json"))).toThrow();
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const blocked = filePatternFactsCache(join(file, "sub"), "s");
    blocked.add("/x", RISKY);
    expect(() => blocked.flush()).not.toThrow();
  });
});

describe("loadRuleText with pattern facts", () => {
  const recording = (known: Record<string, StoredFacts>) => {
    const added: [string, StoredFacts][] = [];
    const store: PatternFactsStore = { get: (k) => known[k], add: (k, f) => void added.push([k, f]) };
    return { store, added };
  };

  it("should take a pattern's facts from the store instead of parsing it", () => {
    const { store, added } = recording({ "/facts-known-x": { analysis: RISKY.analysis, sets: [["from-store"]], shapes: [] } });
    const [rule] = loadRuleText(JSON.stringify([{ name: "k", action: "block", pattern: "facts-known-x" }]), { file: "r.json", source: "project", facts: store }).rules;
    expect(rule?.prepared?.keys).toEqual([{ field: "subject", literals: ["from-store"] }]);
    expect(rule?.prepared?.analyses[0]?.risk?.kind).toBe("exponential");
    expect(added).toEqual([]);
  });

  it("should add every pattern it parsed, with its risk, so a later process need not", () => {
    const { store, added } = recording({});
    const text = JSON.stringify([{ name: "e", action: "block", pattern: "(\\w+\\s?)+$facts-new", conditions: [{ field: "path", pattern: "facts-path", flags: "i" }] }]);
    const r = loadRuleText(text, { file: "r.json", source: "project", facts: store });
    expect(r.issues).toEqual([]);
    expect(added.map(([k]) => k)).toEqual(["/(\\w+\\s?)+$facts-new", "i/facts-path"]);
    expect(added[0]?.[1].analysis?.risk?.kind).toBe("exponential");
    expect(added[1]?.[1].sets).toEqual([["facts-path"]]);
  });
});
