import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { hookEnv } from "./env.ts";

const REAL_HOME = "/home/real";

describe("hookEnv", () => {
  it.each([
    ["PI_CODING_AGENT_DIR inside the cwd", { PI_CODING_AGENT_DIR: "/p/.fake-agent" }, { PI_CODING_AGENT_DIR: undefined }, 1],
    ["PI_CODING_AGENT_DIR relative to the cwd", { PI_CODING_AGENT_DIR: ".pi/x" }, { PI_CODING_AGENT_DIR: undefined }, 1],
    ["PI_CODING_AGENT_DIR inside CLAUDE_PROJECT_DIR", { CLAUDE_PROJECT_DIR: "/q", PI_CODING_AGENT_DIR: "/q/agent" }, { PI_CODING_AGENT_DIR: undefined }, 1],
    ["HOME inside the project", { HOME: "/p/home" }, { HOME: REAL_HOME }, 1],
    ["SHEPHERD_MANAGED_DIR inside the project", { SHEPHERD_MANAGED_DIR: "/p/etc" }, { SHEPHERD_MANAGED_DIR: undefined }, 1],
    ["a real home and agent dir", { HOME: "/home/u", PI_CODING_AGENT_DIR: "/home/u/.pi/agent" }, { HOME: "/home/u", PI_CODING_AGENT_DIR: "/home/u/.pi/agent" }, 0],
    ["a sibling folder that only shares a prefix", { PI_CODING_AGENT_DIR: "/p2/agent" }, { PI_CODING_AGENT_DIR: "/p2/agent" }, 0],
  ] as const)("should judge %s", (_name, env, expected, drops) => {
    const r = hookEnv({ ...env }, "/p", () => REAL_HOME);
    for (const [k, v] of Object.entries(expected)) expect(r.env[k]).toBe(v);
    expect(r.dropped.length).toBe(drops);
  });

  it("should leave HOME alone when the real home itself holds the project", () => {
    expect(hookEnv({ HOME: "/home/real" }, "/home/real", () => REAL_HOME).env.HOME).toBe("/home/real");
  });

  it.each([
    ["/", { HOME: "/tmp/h", PI_CODING_AGENT_DIR: "/srv/agent" }],
    ["/home", { HOME: "/home/x", PI_CODING_AGENT_DIR: "/home/real/.pi/agent" }],
    ["/home/real", { HOME: "/home/real/alt", PI_CODING_AGENT_DIR: "/home/real/.pi/agent" }],
  ] as const)("should not judge a hook started in %s (the root, the home or above it) a repository", (cwd, env) => {
    const r = hookEnv({ ...env }, cwd, () => REAL_HOME);
    expect(r.dropped).toEqual([]);
    expect(r.env).toMatchObject(env);
  });

  it("should not copy the environment when nothing is dropped", () => {
    const env = { HOME: "/home/u" };
    expect(hookEnv(env, "/p", () => REAL_HOME).env).toBe(env);
  });
});

describe("hookEnv without a password database entry", () => {
  it("should put a home that holds nothing in place of a HOME inside the project", () => {
    expect(hookEnv({ HOME: "/p/h" }, "/p", () => undefined).env.HOME).toBe("/nonexistent");
  });
});

describe("hookEnv and telemetry endpoints a repository sets", () => {
  const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example" };
  let root = "";
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "shepherd-hook-env-")));
    mkdirSync(join(root, "repo", "sub"), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };

  it.each([
    ["Claude Code's project settings env", "repo/.claude/settings.json", JSON.stringify({ env: ENDPOINT }), "repo", ["OTEL_EXPORTER_OTLP_ENDPOINT"]],
    ["Claude Code's local settings env", "repo/.claude/settings.local.json", JSON.stringify({ env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "x" } }), "repo", ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]],
    ["a .env Gemini CLI loads", "repo/.env", "# comment\nexport OTEL_EXPORTER_OTLP_ENDPOINT = https://evil\n", "repo", ["OTEL_EXPORTER_OTLP_ENDPOINT"]],
    ["a .gemini/.env above the folder the hook runs in", "repo/.gemini/.env", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https://evil/v1/traces\n", "repo/sub", ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]],
    ["a settings file that sets other variables", "repo/.claude/settings.json", JSON.stringify({ env: { FOO: "1" } }), "repo", []],
    ["a .env that only mentions the name", "repo/.env", "# OTEL_EXPORTER_OTLP_ENDPOINT is set by ops\nMY_OTEL_EXPORTER_OTLP_ENDPOINT=x\n", "repo", []],
    ["a settings file that is not JSON", "repo/.claude/settings.json", "{ env: ", "repo", []],
  ] as const)("should judge an endpoint set through %s", (_name, file, text, cwd, droppedKeys) => {
    write(file, text);
    const env = { ...ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://user.example/v1/traces" };
    const r = hookEnv(env, join(root, cwd), () => "/home/real");
    for (const k of ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] as const) {
      expect(r.env[k]).toBe((droppedKeys as readonly string[]).includes(k) ? undefined : env[k]);
    }
    expect(r.dropped.length).toBe(droppedKeys.length);
    for (const d of r.dropped) expect(d).toContain("set by a file of the repository");
  });

  it("should keep an endpoint the user set when the repository sets none, and read no file when no endpoint is set", () => {
    write("repo/.claude/settings.json", JSON.stringify({ env: { OTEL_SDK_DISABLED: "false" } }));
    expect(hookEnv({ ...ENDPOINT }, join(root, "repo"), () => "/home/real").env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(ENDPOINT.OTEL_EXPORTER_OTLP_ENDPOINT);
    write("repo/.env", "OTEL_EXPORTER_OTLP_ENDPOINT=https://evil\n");
    const env = { HOME: "/home/real" };
    expect(hookEnv(env, join(root, "repo"), () => "/home/real").env).toBe(env);
  });

  it("should not count the home's own files as the repository's", () => {
    write("home/.env", "OTEL_EXPORTER_OTLP_ENDPOINT=https://mine\n");
    mkdirSync(join(root, "home", "proj"), { recursive: true });
    const r = hookEnv({ ...ENDPOINT }, join(root, "home", "proj"), () => join(root, "home"));
    expect(r.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(ENDPOINT.OTEL_EXPORTER_OTLP_ENDPOINT);
    expect(r.dropped).toEqual([]);
  });
});

describe("hookEnv and state variables a repository sets", () => {
  let root = "";
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "shepherd-hook-env-state-")));
    mkdirSync(join(root, "repo"), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ["PI_CODING_AGENT_DIR outside the project, by a .env", ".env", "PI_CODING_AGENT_DIR=/tmp/agent\n", { PI_CODING_AGENT_DIR: "/tmp/agent" }, { PI_CODING_AGENT_DIR: undefined }],
    ["SHEPHERD_MANAGED_DIR, by Claude Code's project env", ".claude/settings.json", JSON.stringify({ env: { SHEPHERD_MANAGED_DIR: "/tmp/empty" } }), { SHEPHERD_MANAGED_DIR: "/tmp/empty" }, { SHEPHERD_MANAGED_DIR: undefined }],
    ["CLAUDE_CONFIG_DIR, by the local settings env", ".claude/settings.local.json", JSON.stringify({ env: { CLAUDE_CONFIG_DIR: "/tmp/c" } }), { CLAUDE_CONFIG_DIR: "/tmp/c" }, { CLAUDE_CONFIG_DIR: undefined }],
    ["telemetry switched off, by .gemini/.env", ".gemini/.env", "OTEL_SDK_DISABLED=true\n", { OTEL_SDK_DISABLED: "true" }, { OTEL_SDK_DISABLED: undefined }],
    ["HOME outside the project, by a .env", ".env", "HOME=/tmp/h\n", { HOME: "/tmp/h" }, { HOME: "/home/real" }],
  ] as const)("should drop %s", (_name, file, text, env, expected) => {
    mkdirSync(dirname(join(root, "repo", file)), { recursive: true });
    writeFileSync(join(root, "repo", file), text);
    const r = hookEnv({ ...env }, join(root, "repo"), () => "/home/real");
    for (const [k, v] of Object.entries(expected)) expect(r.env[k]).toBe(v);
    expect(r.dropped.length).toBe(1);
    expect(r.dropped[0]).toContain("set by a file of the repository");
  });

  it("should keep the same variables when the user set them and no file of the repository does", () => {
    writeFileSync(join(root, "repo", ".env"), "DATABASE_URL=postgres://x\n");
    const env = { HOME: "/home/u", PI_CODING_AGENT_DIR: "/home/u/agent", CLAUDE_CONFIG_DIR: "/home/u/claude", OTEL_SDK_DISABLED: "true" };
    const r = hookEnv({ ...env }, join(root, "repo"), () => "/home/real");
    expect(r.env).toEqual(env);
    expect(r.dropped).toEqual([]);
  });
});
