/**
 * @module black-box tests of `shepherd doctor` against `dist/shepherd`, in a temp HOME after the real
 * `shepherd init <agent>`: a clean install passes with a canary blocked through each agent's hook command;
 * each way a hook can be broken is named with its fix and exits 1.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./helpers/sidecar-client.ts";

let root = "";
let project = "";
let home = "";
let env: Record<string, string> = {};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-doctor-"));
  project = join(root, "p");
  home = join(root, "home");
  for (const d of [project, home]) mkdirSync(d, { recursive: true });
  // No PI_CODING_AGENT_DIR: pi is "found" only once its folder exists.
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, SHEPHERD_MANAGED_DIR: join(root, "managed"), SHEPHERD_LOG: "error" };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function shepherd(args: string[]) {
  const r = spawnSync(BINARY, args, { cwd: project, env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface DoctorJson {
  ok: boolean;
  agents: { agent: string; checks: { name: string; ok: boolean; detail: string; fix?: string }[] }[];
  rules: { ok: boolean };
  problem?: { detail: string; fix: string };
}

function doctor(args: string[] = []): { code: number | null; json: DoctorJson } {
  const r = shepherd(["doctor", ...args, "--json"]);
  return { code: r.code, json: JSON.parse(r.stdout) as DoctorJson };
}

const failing = (j: DoctorJson, agent: string) => j.agents.find((a) => a.agent === agent)?.checks.filter((c) => !c.ok) ?? [];

function editSettings(file: string, change: (data: { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> }) => void): void {
  const data = JSON.parse(readFileSync(file, "utf8"));
  change(data);
  writeFileSync(file, JSON.stringify(data, null, 2));
}

describe("shepherd doctor (binary)", () => {
  it("should pass every agent installed by shepherd init, canary included", () => {
    for (const agent of ["claude-code", "codex", "gemini", "copilot"]) expect(shepherd(["init", agent, "--user"]).code).toBe(0);
    const { code, json } = doctor();
    expect(json.agents.map((a) => a.agent)).toEqual(["claude-code", "codex", "gemini", "copilot"]);
    for (const a of json.agents) {
      expect(a.checks.filter((c) => !c.ok)).toEqual([]);
      expect(a.checks.find((c) => c.name === "canary")?.detail).toContain("was blocked by the built-in rule");
    }
    expect(json.ok).toBe(true);
    expect(code).toBe(0);
    const text = shepherd(["doctor"]);
    expect(text.stdout).toContain("No problems found.");
    // The canaries' sessions leave no state behind.
    const sessions = join(home, ".pi", "agent", "shepherd", "sessions");
    expect(existsSync(sessions) ? readdirSync(sessions).filter((f) => f.endsWith(".json")) : []).toEqual([]);
  });

  it("should exit 1 and say how to install when no agent is found, or the named one has no hooks", () => {
    const none = doctor();
    expect(none.code).toBe(1);
    expect(none.json.problem?.fix).toContain("shepherd init");
    const named = doctor(["claude-code"]);
    expect(named.code).toBe(1);
    expect(failing(named.json, "claude-code")).toEqual([expect.objectContaining({ name: "installed", fix: expect.stringContaining("shepherd init claude-code") })]);
  });

  it("should name a narrow matcher, a short timeout, a missing onFailure and a missing event, each with its fix", () => {
    shepherd(["init", "claude-code", "--user"]);
    editSettings(join(home, ".claude", "settings.json"), (d) => {
      const pre = d.hooks.PreToolUse?.[0];
      if (!pre) throw new Error("no PreToolUse group");
      pre.matcher = "Bash|Edit";
      const h = pre.hooks[0] as Record<string, unknown>;
      h.timeout = 2;
      delete h.onFailure;
      delete d.hooks.Stop;
    });
    const { code, json } = doctor(["claude-code"]);
    expect(code).toBe(1);
    const byName = new Map(failing(json, "claude-code").map((c) => [c.name, c]));
    expect([...byName.keys()].sort()).toEqual(["events", "fail-closed", "matchers", "timeout"]);
    expect(byName.get("matchers")?.detail).toContain("PowerShell, MultiEdit, Write, NotebookEdit, mcp__server__tool");
    expect(byName.get("timeout")?.fix).toContain('"timeout": 10');
    expect(byName.get("fail-closed")?.fix).toContain('"onFailure": "block"');
    expect(byName.get("events")?.detail).toContain("Stop");
    for (const c of byName.values()) expect(c.fix).toBeTruthy();
    // The hook itself still answers: the canary passes.
    expect(json.agents[0]?.checks.find((c) => c.name === "canary")?.ok).toBe(true);
  });

  it("should name a Claude Code settings file of the repository that turns every hook off", () => {
    expect(shepherd(["init", "claude-code", "--user"]).code).toBe(0);
    expect(failing(doctor(["claude-code"]).json, "claude-code")).toEqual([]);
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ disableAllHooks: true }));
    const { code, json } = doctor(["claude-code"]);
    const off = failing(json, "claude-code").find((c) => c.name === "hooks-enabled");
    expect(off?.detail).toContain(join(project, ".claude", "settings.json"));
    expect(off?.fix).toContain("disableAllHooks");
    expect(code).toBe(1);
  });

  it("should find a binary that is gone, and the canary that then goes unblocked", () => {
    shepherd(["init", "codex", "--user"]);
    editSettings(join(home, ".codex", "hooks.json"), (d) => {
      for (const groups of Object.values(d.hooks)) for (const g of groups) for (const h of g.hooks) h.command = `${join(root, "gone", "shepherd")} hook codex`;
    });
    const { code, json } = doctor(["codex"]);
    expect(code).toBe(1);
    const byName = new Map(failing(json, "codex").map((c) => [c.name, c]));
    expect(byName.get("binary")?.detail).toContain("missing or not executable");
    expect(byName.get("canary")?.detail).toContain("not sent");
    expect(byName.get("canary")?.fix).toContain("shepherd init codex");
  });

  it("should report an unguarded canary when the hook's binary answers without blocking", () => {
    shepherd(["init", "codex", "--user"]);
    const fake = join(root, "bin", "shepherd");
    mkdirSync(join(root, "bin"));
    writeFileSync(fake, '#!/bin/sh\nif [ "$1" = --version ]; then echo "shepherd 0.1.0"; else cat >/dev/null; echo "{}"; fi\n', { mode: 0o755 });
    editSettings(join(home, ".codex", "hooks.json"), (d) => {
      for (const groups of Object.values(d.hooks)) for (const g of groups) for (const h of g.hooks) h.command = `${fake} hook codex`;
    });
    const { code, json } = doctor(["codex"]);
    expect(code).toBe(1);
    expect(failing(json, "codex").map((c) => c.name)).toEqual(["canary"]);
    expect(failing(json, "codex")[0]?.detail).toContain("was NOT blocked");
  });

  it("should run nothing from a project's hook settings but the plain command shepherd init writes", () => {
    shepherd(["init", "claude-code"]);
    const file = join(project, ".claude", "settings.json");
    const pwned = join(root, "pwned");
    editSettings(file, (d) => {
      for (const groups of Object.values(d.hooks)) for (const g of groups) for (const h of g.hooks) h.command = `touch ${pwned}; ${BINARY} hook claude-code`;
    });
    const { code, json } = doctor(["claude-code"]);
    expect(code).toBe(1);
    expect(failing(json, "claude-code").find((c) => c.name === "binary")?.detail).toContain("not run");
    expect(existsSync(pwned)).toBe(false);
  });

  it("should not run a binary that lies inside the project", () => {
    shepherd(["init", "claude-code"]);
    const inside = join(project, "tools", "shepherd");
    mkdirSync(join(project, "tools"));
    const pwned = join(root, "pwned");
    writeFileSync(inside, `#!/bin/sh\ntouch ${pwned}\n`, { mode: 0o755 });
    editSettings(join(project, ".claude", "settings.json"), (d) => {
      for (const groups of Object.values(d.hooks)) for (const g of groups) for (const h of g.hooks) h.command = `${inside} hook claude-code`;
    });
    const { json } = doctor(["claude-code"]);
    expect(failing(json, "claude-code").find((c) => c.name === "binary")?.detail).toContain("inside this project");
    expect(existsSync(pwned)).toBe(false);
  });

  it("should name rule files that do not load", () => {
    shepherd(["init", "gemini", "--user"]);
    mkdirSync(join(project, ".pi"));
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), "[{");
    const { code, json } = doctor(["gemini"]);
    expect(code).toBe(1);
    expect(json.rules).toMatchObject({ ok: false, fix: expect.stringContaining("shepherd rules check") });
  });

  it("should name a managed policy file that does not parse", () => {
    shepherd(["init", "gemini", "--user"]);
    mkdirSync(join(root, "managed"));
    writeFileSync(join(root, "managed", "managed-settings.json"), "{ nope");
    const r = shepherd(["doctor", "gemini", "--json"]);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as { managed?: { ok: boolean; detail: string; fix: string } };
    expect(json.managed).toMatchObject({ ok: false, detail: expect.stringContaining("managed-settings.json") });
  });

  it("should check the pi extension and its binary", () => {
    env.PI_CODING_AGENT_DIR = join(root, "agent");
    expect(doctor(["pi"]).code).toBe(1);
    expect(shepherd(["init", "pi"]).code).toBe(0);
    const { code, json } = doctor();
    expect(json.agents.map((a) => a.agent)).toEqual(["pi"]);
    expect(failing(json, "pi")).toEqual([]);
    expect(code).toBe(0);
  });
});
