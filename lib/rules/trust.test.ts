/** @module unit tests: the trust list in the global settings (validated, atomic, other keys and comments kept). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isTrusted, listTrusted, revokeDir, trustDir } from "./trust.ts";

let root = "";
let env: Record<string, string> = {};
let settings = "";
let project = "";

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "shepherd-trust-")));
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  settings = join(root, "agent", "settings.json");
  project = join(root, "project");
  mkdirSync(project, { recursive: true });
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("trustDir", () => {
  it("should create the settings file when there is none", async () => {
    const r = await trustDir(project, env);
    expect(r).toEqual({ ok: true, value: { file: settings, dir: project, changed: true } });
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({ shepherd: { trustedProjects: [project] } });
  });

  it("should keep pi's keys, other shepherd settings and comments", async () => {
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(settings, '{\n  // pi model\n  "defaultModel": "x",\n  "shepherd": { "maxWarnings": 2 }\n}\n');
    await trustDir(project, env);
    const text = readFileSync(settings, "utf8");
    expect(text).toContain("// pi model");
    expect(text).toContain('"defaultModel": "x"');
    expect(text).toContain('"maxWarnings": 2');
    expect(isTrusted(project, env)).toBe(true);
  });

  it("should store the canonical folder, so a symlink and its target are one project", async () => {
    const link = join(root, "link");
    symlinkSync(project, link);
    await trustDir(link, env);
    expect(listTrusted(env)).toEqual({ ok: true, value: { file: settings, list: [project] } });
    expect(isTrusted(link, env)).toBe(true);
    expect(await trustDir(project, env)).toMatchObject({ ok: true, value: { changed: false } });
  });

  it("should refuse to overwrite a settings file it cannot parse", async () => {
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(settings, "{ not json");
    const r = await trustDir(project, env);
    expect(r.ok).toBe(false);
    expect(readFileSync(settings, "utf8")).toBe("{ not json");
  });

  it("should refuse a trust list of the wrong type", async () => {
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(settings, '{"shepherd": {"trustedProjects": "yes"}}');
    const r = await trustDir(project, env);
    expect(r.ok ? "" : r.message).toContain("must be a list");
  });

  it("should refuse a folder that does not exist", async () => {
    const r = await trustDir(join(root, "nope"), env);
    expect(r.ok ? "" : r.message).toContain("is not a folder");
  });

  it("should write through a symlinked settings.json", async () => {
    mkdirSync(join(root, "agent"), { recursive: true });
    const real = join(root, "dotfiles-settings.json");
    writeFileSync(real, "{}");
    symlinkSync(real, settings);
    await trustDir(project, env);
    expect(JSON.parse(readFileSync(real, "utf8"))).toEqual({ shepherd: { trustedProjects: [project] } });
  });
});

describe("revokeDir", () => {
  it("should remove the folder and leave the others", async () => {
    const other = join(root, "other");
    mkdirSync(other);
    await trustDir(project, env);
    await trustDir(other, env);
    const r = await revokeDir(project, env);
    expect(r).toMatchObject({ ok: true, value: { changed: true } });
    expect(listTrusted(env)).toMatchObject({ ok: true, value: { list: [other] } });
    expect(isTrusted(project, env)).toBe(false);
  });

  it("should report no change for a folder that was not trusted", async () => {
    expect(await revokeDir(project, env)).toMatchObject({ ok: true, value: { changed: false } });
  });

  it("should revoke a folder that no longer exists", async () => {
    const gone = join(root, "gone");
    mkdirSync(gone);
    await trustDir(gone, env);
    rmSync(gone, { recursive: true });
    await revokeDir(gone, env);
    expect(listTrusted(env)).toMatchObject({ ok: true, value: { list: [] } });
  });
});
