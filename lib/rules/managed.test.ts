import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadIssue } from "../engine/schema.ts";
import { DEFAULT_SETTINGS } from "../engine/schema-core.ts";
import { applyManagedPolicy, loadManagedSettings, managedDir, OPEN_POLICY } from "./managed.ts";
import { loadSettings } from "./settings.ts";

let root = "";
let env: Record<string, string> = {};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-managed-"));
  for (const d of ["managed", "agent", "proj/.pi"]) mkdirSync(join(root, d), { recursive: true });
  env = { HOME: root, PI_CODING_AGENT_DIR: join(root, "agent"), SHEPHERD_MANAGED_DIR: join(root, "managed") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const writeManaged = (text: string) => writeFileSync(join(root, "managed", "managed-settings.json"), text);

describe("managedDir", () => {
  it("should default to /etc/shepherd and honour SHEPHERD_MANAGED_DIR", () => {
    expect(managedDir({})).toBe("/etc/shepherd");
    expect(managedDir(env)).toBe(join(root, "managed"));
  });

  it("should keep a policy in the default folder whatever SHEPHERD_MANAGED_DIR says", () => {
    const system = join(root, "etc-shepherd");
    mkdirSync(system);
    expect(managedDir(env, system)).toBe(join(root, "managed"));
    writeFileSync(join(system, "managed-settings.json"), "{}");
    expect(managedDir(env, system)).toBe(system);
    expect(managedDir({}, system)).toBe(system);
  });
});

describe("loadManagedSettings", () => {
  const cases: { name: string; text: string | undefined; policy: Record<string, unknown>; errors: number }[] = [
    { name: "no file: no policy", text: undefined, policy: { projectRules: true }, errors: 0 },
    { name: "a valid policy as written", text: '{"failMode":"closed","projectRules":false,"audit":true}', policy: { failMode: "closed", projectRules: false, audit: true }, errors: 0 },
    { name: "JSON with comments", text: '// org\n{"projectRules": false}', policy: { projectRules: false }, errors: 0 },
    { name: "a syntax error: the most restrictive reading", text: "{bad", policy: { failMode: "closed", projectRules: false }, errors: 2 },
    { name: "an array: the most restrictive reading", text: "[]", policy: { failMode: "closed", projectRules: false }, errors: 1 },
    { name: "failMode halt as written", text: '{"failMode":"halt"}', policy: { failMode: "halt", projectRules: true }, errors: 0 },
    { name: "an invalid value: the most restrictive reading", text: '{"failMode":"sometimes"}', policy: { failMode: "closed", projectRules: false }, errors: 2 },
    { name: "a pack allow-list", text: '{"allowedPacks":["@acme/*","git+https://git.acme.example/*"]}', policy: { projectRules: true, allowedPacks: ["@acme/*", "git+https://git.acme.example/*"] }, errors: 0 },
    { name: "an invalid pack allow-list: no pack allowed, read most restrictively", text: '{"allowedPacks":"@acme/*"}', policy: { failMode: "closed", projectRules: false, allowedPacks: [] }, errors: 2 },
    { name: "nesting past the depth cap: the most restrictive reading", text: `${"[".repeat(200)}${"]".repeat(200)}`, policy: { failMode: "closed", projectRules: false }, errors: 2 },
  ];
  for (const c of cases) {
    it(`should read ${c.name}`, () => {
      if (c.text !== undefined) writeManaged(c.text);
      const issues: LoadIssue[] = [];
      const policy = loadManagedSettings(env, issues);
      expect(policy).toMatchObject(c.policy);
      expect(issues.filter((i) => i.severity === "error")).toHaveLength(c.errors);
      expect(policy.broken !== undefined).toBe(c.errors > 0);
    });
  }

  it("should refuse a FIFO unread, as the most restrictive reading", () => {
    const fifo = join(root, "managed", "managed-settings.json");
    Bun.spawnSync(["mkfifo", fifo]);
    const issues: LoadIssue[] = [];
    const policy = loadManagedSettings(env, issues);
    expect(policy.broken).toContain("not a regular file");
    expect(policy.projectRules).toBe(false);
  });

  it("should warn about an unknown key", () => {
    writeManaged('{"failmode":"closed"}');
    const issues: LoadIssue[] = [];
    expect(loadManagedSettings(env, issues)).toEqual(OPEN_POLICY);
    expect(issues[0]?.message).toContain('unknown managed setting "failmode"');
  });
});

describe("applyManagedPolicy", () => {
  const cases: { name: string; user: Record<string, unknown>; policy: Parameters<typeof applyManagedPolicy>[1]; failMode: "open" | "closed" | "halt"; audit: unknown }[] = [
    { name: "keep a user's halt under a closed policy", user: { failMode: "halt" }, policy: { projectRules: true, failMode: "closed" }, failMode: "halt", audit: undefined },
    { name: "impose a managed halt", user: { failMode: "open" }, policy: { projectRules: true, failMode: "halt" }, failMode: "halt", audit: undefined },
    { name: "close an open fail mode", user: { failMode: "open" }, policy: { projectRules: true, failMode: "closed" }, failMode: "closed", audit: undefined },
    { name: "leave a user's closed fail mode under an open policy", user: { failMode: "closed" }, policy: { projectRules: true, failMode: "open" }, failMode: "closed", audit: undefined },
    { name: "replace a user's audit off with the policy's", user: { audit: false }, policy: { projectRules: true, audit: { dir: "/var/log/shepherd" } }, failMode: "closed", audit: { dir: "/var/log/shepherd" } },
    { name: "not turn a user's audit off", user: { audit: true }, policy: { projectRules: true, audit: false }, failMode: "closed", audit: true },
  ];
  for (const c of cases) {
    it(`should ${c.name}`, () => {
      const out = applyManagedPolicy({ ...DEFAULT_SETTINGS, ...c.user }, c.policy);
      expect(out.failMode).toBe(c.failMode);
      expect(out.audit).toEqual(c.audit);
    });
  }
});

describe("loadSettings with a managed policy", () => {
  it("should keep failMode closed against the global settings and a trusted project", () => {
    const proj = join(root, "proj");
    writeFileSync(join(root, "agent", "settings.json"), JSON.stringify({ shepherd: { failMode: "open", trustedProjects: [proj] } }));
    writeFileSync(join(proj, ".pi", "settings.json"), JSON.stringify({ shepherd: { failMode: "open", audit: false } }));
    writeManaged('{"failMode":"closed","audit":true}');
    const r = loadSettings(proj, env);
    expect(r.trusted).toBe(true);
    expect(r.settings.failMode).toBe("closed");
    expect(r.settings.audit).toBe(true);
    expect(r.managed.failMode).toBe("closed");
  });

  it("should leave the settings as they are without a policy", () => {
    writeFileSync(join(root, "agent", "settings.json"), JSON.stringify({ shepherd: { failMode: "open" } }));
    const r = loadSettings(join(root, "proj"), env);
    expect(r.settings.failMode).toBe("open");
    expect(r.managed).toEqual(OPEN_POLICY);
  });
});
