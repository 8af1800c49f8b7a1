/** @module unit tests: the rule host's bounded reads: refused files, remembered failures, the count cap and the byte budget. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadResult } from "../engine/load.ts";
import type { LayerName } from "../engine/schema.ts";
import { RuleHost } from "./host.ts";
import type { RuleLoadCache } from "./load-cache.ts";
import type { KnownFailure } from "./load-failure-cache.ts";
import { MAX_PROJECT_RULE_FILES, MAX_UNTRUSTED_PROJECT_RULE_BYTES } from "./paths.ts";

let root = "";
let cwd = "";
let env: Record<string, string> = {};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-host-"));
  cwd = join(root, "p");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify([{ name: "global-block", action: "block", pattern: "shred", reason: "no" }]));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const rule = (name: string) => ({ name, action: "block", pattern: `\\b${name}\\b`, reason: name });
const pi = (name: string) => join(cwd, ".pi", name);
const host = (loadCache?: RuleLoadCache) => new RuleHost({ cwd, env, builtin: [], ...(loadCache ? { loadCache } : {}) });
const names = (h: RuleHost) => h.ruleSet.rules.map((r) => r.name).sort();
const errorsOf = (h: RuleHost, file: string) => h.issues.filter((i) => i.file === file && i.severity === "error").map((i) => i.message);

/** A load cache that remembers only failures, in memory, and counts what it is asked. */
function failureSpy() {
  const failures = new Map<string, KnownFailure>();
  const calls = { get: 0, set: 0 };
  const cache: RuleLoadCache = {
    get: (_f: string, _s: LayerName, _t: string): LoadResult | undefined => undefined,
    set: () => {},
    getFailure: (file, source, identity) => {
      calls.get++;
      return failures.get(`${source}\0${file}\0${identity}`);
    },
    setFailure: (file, source, identity, failure) => {
      calls.set++;
      failures.set(`${source}\0${file}\0${identity}`, failure);
    },
  };
  return { cache, failures, calls };
}

describe("RuleHost bounded reads", () => {
  it.each([
    ["a FIFO", (p: string) => expect(spawnSync("mkfifo", [p]).status).toBe(0), /FIFO/],
    ["a link to /dev/urandom", (p: string) => symlinkSync("/dev/urandom", p), /character device/],
    ["a directory", (p: string) => mkdirSync(p), /directory/],
    ["5 MiB of rules", (p: string) => writeFileSync(p, `[${JSON.stringify(rule("big"))}]${" ".repeat(5 * 1024 * 1024)}`), /larger than the 4 MiB limit/],
    ["100,000 nested arrays", (p: string) => writeFileSync(p, `${"[".repeat(100_000)}${"]".repeat(100_000)}`), /nested more than 64 levels/],
    ["800,000 nested arrays (over the untrusted budget)", (p: string) => writeFileSync(p, `${"[".repeat(800_000)}${"]".repeat(800_000)}`), /add up to more than 256 KiB/],
  ])("should refuse %s as the project rule file, keep the other rules and name the file", (_name, make, message) => {
    make(pi("shepherd-rules.json"));
    writeFileSync(pi("shepherd-rules-ok.json"), JSON.stringify([rule("fine")]));
    const started = Date.now();
    const h = host();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(names(h)).toEqual(["fine", "global-block"]);
    expect(errorsOf(h, pi("shepherd-rules.json")).join("\n")).toMatch(message);
  });

  it("should remember a refused file by its identity and not read it again", () => {
    symlinkSync("/dev/zero", pi("shepherd-rules.json"));
    const spy = failureSpy();
    host(spy.cache);
    expect(spy.calls.set).toBe(1);
    // What the next process finds remembered is what it reports: it did not look at the file itself.
    for (const [key, known] of spy.failures) spy.failures.set(key, { ...known, issues: known.issues.map((i) => ({ ...i, message: `remembered: ${i.message}` })) });
    const again = host(spy.cache);
    expect(spy.calls.set).toBe(1);
    expect(errorsOf(again, pi("shepherd-rules.json"))).toEqual(["remembered: not a regular file but a character device: refused unread"]);
  });

  it("should remember a file that does not parse by its identity, and load it again once it changes", () => {
    writeFileSync(pi("shepherd-rules.json"), '[{"name": "x", "action": ');
    const spy = failureSpy();
    const first = host(spy.cache);
    expect(spy.calls.set).toBe(1);
    const issues = errorsOf(first, pi("shepherd-rules.json"));
    expect(issues.length).toBeGreaterThan(0);
    expect(errorsOf(host(spy.cache), pi("shepherd-rules.json"))).toEqual(issues);
    expect(spy.calls.set).toBe(1);
    writeFileSync(pi("shepherd-rules.json"), JSON.stringify([rule("fixed")]));
    const fixed = host(spy.cache);
    expect(names(fixed)).toEqual(["fixed", "global-block"]);
    expect(errorsOf(fixed, pi("shepherd-rules.json"))).toEqual([]);
  });

  it(`should load at most ${MAX_PROJECT_RULE_FILES} project rule files and report each one left out`, () => {
    for (let i = 0; i < MAX_PROJECT_RULE_FILES + 8; i++) writeFileSync(pi(`shepherd-rules-${String(i).padStart(2, "0")}.json`), JSON.stringify([rule(`r${i}`)]));
    const h = host();
    expect(h.ruleSet.rules.filter((r) => r.source === "project").length).toBe(MAX_PROJECT_RULE_FILES);
    const skipped = h.issues.filter((i) => i.message.includes(`at most ${MAX_PROJECT_RULE_FILES} rule files`)).map((i) => i.file);
    expect(skipped).toEqual(Array.from({ length: 8 }, (_, k) => pi(`shepherd-rules-${MAX_PROJECT_RULE_FILES + k}.json`)));
  });

  it("should stop an untrusted project's rule files at the byte budget and report the rest", () => {
    const pad = " ".repeat(Math.floor(MAX_UNTRUSTED_PROJECT_RULE_BYTES * 0.6));
    writeFileSync(pi("shepherd-rules-a.json"), `[${JSON.stringify(rule("first"))}]${pad}`);
    writeFileSync(pi("shepherd-rules-b.json"), `[${JSON.stringify(rule("second"))}]${pad}`);
    writeFileSync(pi("shepherd-rules-c.json"), JSON.stringify([rule("small")]));
    const h = host();
    expect(names(h)).toEqual(["first", "global-block", "small"]);
    expect(errorsOf(h, pi("shepherd-rules-b.json")).join("")).toContain(`add up to more than ${MAX_UNTRUSTED_PROJECT_RULE_BYTES / 1024} KiB`);
  });

  it("should count a remembered invalid file against the budget as when it was read", () => {
    const pad = " ".repeat(Math.floor(MAX_UNTRUSTED_PROJECT_RULE_BYTES * 0.6));
    writeFileSync(pi("shepherd-rules-a.json"), `[{"name": "broken", "action": ${pad}`);
    writeFileSync(pi("shepherd-rules-b.json"), `[${JSON.stringify(rule("second"))}]${pad}`);
    const spy = failureSpy();
    for (let run = 0; run < 2; run++) {
      const h = host(spy.cache);
      expect(names(h)).toEqual(["global-block"]);
      expect(errorsOf(h, pi("shepherd-rules-b.json")).join("")).toContain("add up to more than");
    }
    expect(spy.calls.set).toBe(1);
  });

  it("should keep a file's last good rules when it is replaced by a FIFO", () => {
    writeFileSync(pi("shepherd-rules.json"), JSON.stringify([rule("kept")]));
    const h = host();
    expect(names(h)).toEqual(["global-block", "kept"]);
    rmSync(pi("shepherd-rules.json"));
    expect(spawnSync("mkfifo", [pi("shepherd-rules.json")]).status).toBe(0);
    const report = h.reload();
    expect(report.changed).toEqual([pi("shepherd-rules.json")]);
    expect(names(h)).toEqual(["global-block", "kept"]);
    expect(errorsOf(h, pi("shepherd-rules.json")).join("")).toContain("FIFO");
  });

  it("should refuse a project settings.json that is a FIFO and keep the defaults", () => {
    expect(spawnSync("mkfifo", [pi("settings.json")]).status).toBe(0);
    writeFileSync(pi("shepherd-rules.json"), JSON.stringify([rule("fine")]));
    const h = host();
    expect(h.settings.failMode).toBe("closed");
    expect(names(h)).toEqual(["fine", "global-block"]);
    expect(errorsOf(h, pi("settings.json")).join("")).toContain("FIFO");
  });
});

describe("RuleHost per-rule isolation", () => {
  const file = () => pi("shepherd-rules.json");
  const messages = (h: RuleHost) => errorsOf(h, file()).join("\n");

  it("should apply a file's valid rules on a first load and report the broken one", () => {
    writeFileSync(file(), JSON.stringify([rule("good"), { name: "typo", action: "block", patern: "x" }]));
    const h = host();
    expect(names(h)).toEqual(["global-block", "good"]);
    expect(messages(h)).toContain('rule "typo" (block) is skipped: the guard it gives is off until it is fixed');
  });

  it("should keep the last good version of a rule that breaks on reload, in its place, and say so", () => {
    writeFileSync(file(), JSON.stringify([rule("first"), rule("guard"), rule("last")]));
    const h = host();
    writeFileSync(file(), JSON.stringify([rule("first"), { ...rule("guard"), pattern: "(" }, rule("last"), rule("new")]));
    h.reload();
    const project = h.ruleSet.rules.filter((r) => r.source === "project");
    expect(project.map((r) => [r.name, r.jsonPath])).toEqual([["first", "[0]"], ["guard", "[1]"], ["last", "[2]"], ["new", "[3]"]]);
    expect(project[1]?.pattern).toBe("\\bguard\\b");
    expect(messages(h)).toContain('rule "guard" is broken: its last good version stays in force until it is fixed');
    expect(messages(h)).not.toContain("is skipped");
    // Fixed: the new version applies and the error is gone.
    writeFileSync(file(), JSON.stringify([rule("first"), { ...rule("guard"), pattern: "fixed" }, rule("last")]));
    h.reload();
    expect(h.ruleSet.rules.find((r) => r.name === "guard")?.pattern).toBe("fixed");
    expect(errorsOf(h, file())).toEqual([]);
  });

  it("should drop a rule removed from the file, and skip a broken rule that never was good", () => {
    writeFileSync(file(), JSON.stringify([rule("a"), rule("b")]));
    const h = host();
    writeFileSync(file(), JSON.stringify([rule("a"), { name: "c", action: "block", hook: "nope" }]));
    h.reload();
    expect(names(h)).toEqual(["a", "global-block"]);
    expect(messages(h)).toContain('rule "c" (block) is skipped');
  });

  it("should keep all of a file's last good rules when it no longer parses", () => {
    writeFileSync(file(), JSON.stringify([rule("a"), rule("b")]));
    const h = host();
    writeFileSync(file(), '[{"name": "a", ');
    h.reload();
    expect(names(h)).toEqual(["a", "b", "global-block"]);
  });
});
