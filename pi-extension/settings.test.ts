/** @module Unit tests of the extension's settings: trust gating, binary lookup order, comments. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings, nestingTooDeep, readBoundedText, stripJsonComments } from "./settings.ts";

let root: string;
let agent: string;
let project: string;
let extDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-settings-"));
  agent = join(root, "agent");
  project = join(root, "project");
  extDir = join(root, "ext");
  for (const d of [agent, join(project, ".pi"), extDir, join(root, "bin")]) mkdirSync(d, { recursive: true });
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function executable(path: string): string {
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
}

describe("loadSettings", () => {
  it("should default to fail closed with a 3 s timeout", () => {
    const s = loadSettings(project, { PI_CODING_AGENT_DIR: agent, PATH: "" }, extDir);
    expect(s).toMatchObject({ failMode: "closed", timeoutMs: 3000, binary: "shepherd", binarySource: "default", trusted: false });
  });

  it("should ignore a project's failMode and binary until the project is trusted", () => {
    writeFileSync(join(project, ".pi", "settings.json"), JSON.stringify({ shepherd: { failMode: "open", binary: "/evil", timeoutMs: 50 } }));
    const untrusted = loadSettings(project, { PI_CODING_AGENT_DIR: agent, PATH: "" }, extDir);
    expect(untrusted).toMatchObject({ failMode: "closed", binarySource: "default", timeoutMs: 50 });
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [project] } }));
    const trusted = loadSettings(project, { PI_CODING_AGENT_DIR: agent, PATH: "" }, extDir);
    expect(trusted).toMatchObject({ failMode: "open", binary: "/evil", binarySource: "setting", trusted: true });
  });

  it.each([
    ["an untrusted project", false],
    ["a trusted project", true],
  ])("should take failMode halt from %s, since it only tightens the guard", (_what, trust) => {
    writeFileSync(join(project, ".pi", "settings.json"), JSON.stringify({ shepherd: { failMode: "halt" } }));
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { failMode: "open", ...(trust ? { trustedProjects: [project] } : {}) } }));
    expect(loadSettings(project, { PI_CODING_AGENT_DIR: agent, PATH: "" }, extDir)).toMatchObject({ failMode: "halt", trusted: trust, issues: [] });
  });

  it("should find the binary by setting, then SHEPHERD_BIN, then the install pointer, then PATH", () => {
    const onPath = executable(join(root, "bin", "shepherd"));
    const installed = executable(join(root, "installed-shepherd"));
    const env = { PI_CODING_AGENT_DIR: agent, PATH: join(root, "bin") };
    expect(loadSettings(project, env, extDir)).toMatchObject({ binary: onPath, binarySource: "PATH" });
    writeFileSync(join(extDir, "install.json"), JSON.stringify({ binary: installed }));
    expect(loadSettings(project, env, extDir)).toMatchObject({ binary: installed, binarySource: "install" });
    expect(loadSettings(project, { ...env, SHEPHERD_BIN: "/from/env" }, extDir)).toMatchObject({ binary: "/from/env", binarySource: "SHEPHERD_BIN" });
    writeFileSync(join(agent, "settings.json"), `{ // pi settings\n "shepherd": { "binary": "/from/setting" } }`);
    expect(loadSettings(project, { ...env, SHEPHERD_BIN: "/from/env" }, extDir)).toMatchObject({ binary: "/from/setting", binarySource: "setting" });
  });

  it("should find a pi package's own dist/shepherd after the install pointer and before PATH", () => {
    const onPath = executable(join(root, "bin", "shepherd"));
    mkdirSync(join(root, "dist"), { recursive: true });
    const packaged = executable(join(root, "dist", "shepherd"));
    const env = { PI_CODING_AGENT_DIR: agent, PATH: join(root, "bin") };
    expect(loadSettings(project, env, extDir)).toMatchObject({ binary: packaged, binarySource: "package" });
    const installed = executable(join(root, "installed-shepherd"));
    writeFileSync(join(extDir, "install.json"), JSON.stringify({ binary: installed }));
    expect(loadSettings(project, env, extDir)).toMatchObject({ binary: installed, binarySource: "install" });
    expect(onPath).not.toBe(packaged);
  });

  it("should report a bad value instead of using it", () => {
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { timeoutMs: -1, failMode: "sometimes" } }));
    const s = loadSettings(project, { PI_CODING_AGENT_DIR: agent, PATH: "" }, extDir);
    expect(s.timeoutMs).toBe(3000);
    expect(s.failMode).toBe("closed");
    expect(s.issues.length).toBe(2);
  });
});

describe("stripJsonComments", () => {
  it("should drop comments but keep comment-like text inside strings", () => {
    const text = `{ "a": "http://x/*y*/", /* block */ "b": 1 // line\n }`;
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: "http://x/*y*/", b: 1 });
  });
});

describe("loadSettings with a hostile settings file", () => {
  it.each([
    ["a FIFO", (p: string) => expect(spawnSync("mkfifo", [p]).status).toBe(0), /not a regular file/],
    ["a link to /dev/urandom", (p: string) => symlinkSync("/dev/urandom", p), /not a regular file/],
    ["a 50 MB file", (p: string) => (writeFileSync(p, "{}"), truncateSync(p, 50 * 1024 * 1024)), /larger than 1048576 bytes/],
    ["800,000 nested arrays", (p: string) => writeFileSync(p, `{"shepherd": ${"[".repeat(800_000)}${"]".repeat(800_000)}}`), /larger than 1048576 bytes/],
    ["200,000 nested arrays", (p: string) => writeFileSync(p, `{"shepherd": ${"[".repeat(200_000)}${"]".repeat(200_000)}}`), /nested more than 64 levels/],
  ])("should refuse %s as the project settings at once and keep failing closed", (_name, make, message) => {
    const file = join(project, ".pi", "settings.json");
    make(file);
    const started = Date.now();
    const s = loadSettings(project, { PI_CODING_AGENT_DIR: agent, PATH: "" }, extDir);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.failMode).toBe("closed");
    expect(s.issues).toHaveLength(1);
    expect(s.issues[0]).toContain(file);
    expect(s.issues[0]).toMatch(message);
  });

  it("should skip comments and strings when measuring depth", () => {
    expect(nestingTooDeep(`// ${"[".repeat(100)}\n{"a": "${"{".repeat(100)}"}`, 4)).toBe(false);
    expect(nestingTooDeep("[[[[[1]]]]]", 4)).toBe(true);
  });

  it("should read a regular file whole and say a missing one is missing", () => {
    writeFileSync(join(root, "f.json"), '{"a": 1}');
    expect(readBoundedText(join(root, "f.json"), 100)).toEqual({ ok: true, text: '{"a": 1}' });
    expect(readBoundedText(join(root, "none.json"), 100)).toMatchObject({ ok: false, missing: true });
  });
});
