/** @module unit tests: settings a face cannot use are reported, never ignored in silence. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditConfig } from "../audit/audit-log.ts";
import { DEFAULT_SETTINGS, MAX_TIMER_MS, SettingsSchema } from "../engine/schema-core.ts";
import { loadSettings } from "./settings.ts";

let root = "";
let env: Record<string, string> = {};
let globalFile = "";
let project = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-settings-"));
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  globalFile = join(env.PI_CODING_AGENT_DIR as string, "settings.json");
  project = join(root, "p");
  mkdirSync(join(project, ".pi"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const writeGlobal = (shepherd: Record<string, unknown>) => writeFileSync(globalFile, JSON.stringify({ shepherd }));
const errors = () => loadSettings(project, env).issues.filter((i) => i.severity === "error").map((i) => [i.path, i.message]);

describe("loadSettings audit", () => {
  it.each([
    [{ retainDays: -1 }, "shepherd.audit.retainDays", /Expected >=0/],
    ["yes", "shepherd.audit", /Expected \(boolean \| Object\)/],
    [{ enabeld: true }, "shepherd.audit.enabeld", /unknown key "enabeld"/],
  ])("should report the invalid audit setting %p at %s instead of turning auditing off in silence", (audit, path, message) => {
    writeGlobal({ audit, failMode: "closed" });
    const found = errors();
    expect(found.length).toBe(1);
    expect(found[0]?.[0]).toBe(path);
    expect(found[0]?.[1]).toMatch(message);
    expect(found[0]?.[1]).toContain("this audit setting is ignored");
  });

  it("should keep the global audit setting when a trusted project's is invalid", () => {
    writeFileSync(globalFile, JSON.stringify({ shepherd: { audit: true, trustedProjects: [project] } }));
    writeFileSync(join(project, ".pi", "settings.json"), JSON.stringify({ shepherd: { audit: { retainDays: "30" } } }));
    const res = loadSettings(project, env);
    expect(res.trusted).toBe(true);
    expect(res.issues.map((i) => [i.file, i.path])).toEqual([[join(project, ".pi", "settings.json"), "shepherd.audit.retainDays"]]);
    expect(auditConfig(res.settings.audit, env)).toBeDefined();
  });

  it("should accept a valid audit setting with no issue", () => {
    writeGlobal({ audit: { includeContent: true, retainDays: 7 } });
    expect(errors()).toEqual([]);
  });
});

describe("loadSettings unknown keys", () => {
  it("should know every key with a default from the schema (the unknown-key check looks there first, without the schema)", () => {
    const entries = SettingsSchema().entries;
    expect(Object.keys(DEFAULT_SETTINGS).filter((k) => !Object.hasOwn(entries, k))).toEqual([]);
  });

  it("should warn about no known key, with or without a default", () => {
    writeGlobal({ maxWarnings: 2, hookDeadlineMs: 3000 });
    expect(loadSettings(project, env).issues.filter((i) => i.severity === "warning")).toEqual([]);
  });

  it("should warn about a setting no version knows (a typo), and still apply the others", () => {
    writeGlobal({ failmode: "open", maxWarnings: 2 });
    const res = loadSettings(project, env);
    expect(res.issues).toEqual([{ file: globalFile, path: "shepherd.failmode", message: 'unknown setting "failmode": ignored', severity: "warning" }]);
    expect(res.settings.maxWarnings).toBe(2);
    expect(res.settings.failMode).toBe("closed");
  });
});

describe("loadSettings timers", () => {
  it.each(["timeoutMs", "gitTimeoutMs", "pluginTimeoutMs", "hookDeadlineMs"])("should report a %s over what a timer keeps, and keep the default", (key) => {
    writeGlobal({ [key]: MAX_TIMER_MS + 1 });
    expect(errors()).toEqual([[`shepherd.${key}`, `must be at most ${MAX_TIMER_MS} ms (timers cut a longer delay, or Infinity, to 1 ms)`]]);
    expect((loadSettings(project, env).settings as unknown as Record<string, unknown>)[key]).not.toBe(MAX_TIMER_MS + 1);
  });
});
