/** @module unit tests: a load takes a pack only when allowed, locked and matching, else its verified copy or nothing, and says why. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireAndStore } from "./acquire.ts";
import { updateLock } from "./lock-file.ts";
import { MAX_UNTRUSTED_PACK_RULE_BYTES, packAllowed, packBudget, packRuleFileNames, resolvePacks, withPackMode } from "./resolve.ts";
import { parsePackSpec, type PackSpec } from "./spec.ts";

let root = "";
let cwd = "";
let env: Record<string, string> = {};
let rulesFile = "";

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-resolve-"));
  cwd = join(root, "p");
  env = { HOME: root, PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  rulesFile = join(cwd, ".pi", "shepherd-rules.json");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const spec = (s: string): PackSpec => {
  const r = parsePackSpec(s);
  if (!r.ok) throw new Error(r.message);
  return r.pack;
};

function install(name: string, rules: string): string {
  const dir = join(cwd, "node_modules", ...name.split("/"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "shepherd-rules.json"), rules);
  return dir;
}

async function lockIt(name: string): Promise<void> {
  const got = await acquireAndStore(spec(name), { cwd, env });
  if (!got.ok) throw new Error(got.message);
  const r = await updateLock(join(cwd, ".pi", "shepherd-rules.lock"), (l) => ({ ...l, packs: { ...l.packs, [name]: got.entry } }));
  if (!r.ok) throw new Error(r.message);
}

const ctx = (over: Partial<Parameters<typeof resolvePacks>[3]> = {}) => ({ cwd, env, budget: packBudget("project", true), locks: new Map(), ...over });

describe("packAllowed", () => {
  it.each([
    ["@acme/pack", ["@acme/*"], true],
    ["@other/pack", ["@acme/*"], false],
    [`git+https://git.acme.example/team/p.git#${"a".repeat(40)}`, ["git+https://git.acme.example/*"], true],
    [`git+https://evil.example/git.acme.example/p.git#${"a".repeat(40)}`, ["git+https://git.acme.example/*"], false],
    ["acme-pack", [], false],
  ])("should decide %s against %j: %s", (s, globs, want) => {
    expect(packAllowed(spec(s), globs)).toBe(want);
  });
});

describe("packRuleFileNames", () => {
  const file = (path: string, text: string) => ({ path, sha256: "", bytes: new TextEncoder().encode(text) });
  it("should take package.json's shepherd.rules, else shepherd-rules.json, and refuse paths out of the pack", () => {
    expect(packRuleFileNames([file("package.json", '{"shepherd":{"rules":["./a.json","r/b.json"]}}')])).toEqual({ names: ["a.json", "r/b.json"] });
    expect(packRuleFileNames([file("package.json", '{"name":"x"}')])).toEqual({ names: ["shepherd-rules.json"] });
    expect(packRuleFileNames([file("package.json", '{"shepherd":{"rules":["../x.json"]}}')])).toMatchObject({ message: expect.stringContaining("not a path inside") });
  });
});

describe("resolvePacks", () => {
  it("should return the pack's rule text, from node_modules while it matches the lock", async () => {
    install("acme", "[1]");
    await lockIt("acme");
    const r = resolvePacks(rulesFile, "project", ["acme"], ctx());
    expect(r.issues).toEqual([]);
    expect(r.files.map((f) => [f.text, f.file.includes("node_modules")])).toEqual([["[1]", true]]);
  });

  it("should refuse a changed pack, naming the file, and hand over the verified copy instead", async () => {
    const dir = install("acme", "[1]");
    await lockIt("acme");
    writeFileSync(join(dir, "shepherd-rules.json"), "[2]");
    const r = resolvePacks(rulesFile, "project", ["acme"], ctx());
    expect(r.files.map((f) => f.text)).toEqual(["[1]"]);
    expect(r.issues[0]).toMatchObject({ file: rulesFile, path: "extends[0]", severity: "error" });
    expect(r.issues[0]?.message).toContain("shepherd-rules.json: sha256");
    expect(r.issues[0]?.message).toContain("last verified copy");
  });

  it.each([
    ["not locked", async () => install("acme", "[1]"), "is not in"],
    ["not allowed", async () => (install("acme", "[1]"), await lockIt("acme")), "allowedPacks"],
    ["missing everywhere", async () => { install("acme", "[1]"); await lockIt("acme"); rmSync(join(cwd, "node_modules"), { recursive: true }); rmSync(join(root, "agent"), { recursive: true }); }, "not found"],
  ])("should load nothing of a pack %s, with an issue", async (why, setup, message) => {
    await setup();
    const r = resolvePacks(rulesFile, "project", ["acme"], ctx(why === "not allowed" ? { allowed: ["@corp/*"] } : {}));
    expect(r.files).toEqual([]);
    expect(r.issues[0]?.message).toContain(message);
  });

  it("should keep an untrusted project's packs within their budget", async () => {
    install("big", `[${" ".repeat(MAX_UNTRUSTED_PACK_RULE_BYTES)}]`);
    await lockIt("big");
    const untrusted = resolvePacks(rulesFile, "project", ["big"], ctx({ budget: packBudget("project", false) }));
    expect(untrusted.files).toEqual([]);
    expect(untrusted.issues[0]?.message).toContain("untrusted project's budget");
    expect(resolvePacks(rulesFile, "project", ["big"], ctx()).files).toHaveLength(1);
  });
});

describe("resolvePacks read budget", () => {
  it("should stop reading packs once a layer's read budget is spent, and say so", async () => {
    install("acme", `[${" ".repeat(100)}]`);
    await lockIt("acme");
    const small = resolvePacks(rulesFile, "project", ["acme"], ctx({ budget: { ...packBudget("project", false), readLeft: 10 } }));
    expect(small.files).toEqual([]);
    expect(small.issues[0]?.message).toContain("may hold");
    const spent = resolvePacks(rulesFile, "project", ["acme"], ctx({ budget: { ...packBudget("project", false), readLeft: 0 } }));
    expect(spent.issues[0]?.message).toContain("used up");
    const budget = packBudget("project", false);
    const before = budget.readLeft ?? 0;
    expect(resolvePacks(rulesFile, "project", ["acme"], ctx({ budget })).files).toHaveLength(1);
    expect(before - (budget.readLeft ?? 0)).toBe(102);
  });
});

describe("withPackMode", () => {
  it("should put every full rule in the pack's mode and leave patches alone", () => {
    const rules = [{ name: "a" }, { name: "b", patch: {} }, { name: "c", shadow: true }];
    expect(withPackMode(rules, "shadow").map((r) => r.shadow)).toEqual([true, undefined, true]);
    expect(withPackMode(rules, "enforce").map((r) => r.shadow)).toEqual([false, undefined, false]);
    expect(withPackMode(rules, undefined)).toBe(rules);
  });
});
