/**
 * @module black-box tests of shadow mode against `dist/shepherd`: a rule or a whole file in `"mode": "shadow"`
 * is evaluated and its "would have" recorded (hook answer unchanged, audit line, `rules list` counts, the
 * sidecar's status, `shepherd replay` counts), while enforced rules keep deciding.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, Sidecar } from "./helpers/sidecar-client.ts";

let root = "";
let project = "";
let agent = "";
let env: Record<string, string> = {};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-shadow-"));
  project = join(root, "p");
  agent = join(root, "agent");
  for (const d of [join(project, ".pi"), agent, join(root, "home")]) mkdirSync(d, { recursive: true });
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), PI_CODING_AGENT_DIR: agent, SHEPHERD_MANAGED_DIR: join(root, "managed"), SHEPHERD_LOG: "error" };
  writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { audit: true } }));
  // A pack measured before it is enforced: the whole file in shadow mode, one rule of it enforced.
  writeFileSync(
    join(project, ".pi", "shepherd-rules.json"),
    JSON.stringify({ mode: "shadow", rules: [{ name: "pack-no-rm", action: "block", pattern: "\\brm\\b" }, { name: "pack-zap", mode: "enforce", action: "block", pattern: "\\bzap\\b", reason: "no zap" }] }),
  );
  writeFileSync(join(agent, "shepherd-rules.json"), JSON.stringify([{ name: "g-ask", mode: "shadow", action: "ask", pattern: "deploy" }]));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function bash(command: string): string {
  const input = JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
  const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: project, env, input, encoding: "utf8" });
  expect(res.status).toBe(0);
  return res.stdout.trim();
}

function auditLines(): { action: string; rule: string; fired: { rule: string; source: string; action: string; shadow?: boolean }[] }[] {
  const dir = join(agent, "shepherd", "audit");
  return readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), "utf8").trim().split("\n").map((l) => JSON.parse(l)));
}

describe("shadow mode (binary)", () => {
  it("should let the call go on, record what shadow rules would have done, and count it in rules list", () => {
    expect(bash("rm a.txt")).toBe("{}");
    expect(bash("rm b.txt && deploy")).toBe("{}");
    expect(bash("zap rm")).toContain("no zap");
    const lines = auditLines();
    expect(lines.map((l) => [l.action, l.rule])).toEqual([["allow", "pack-no-rm"], ["allow", "g-ask"], ["block", "pack-zap"]]);
    expect(lines[2]?.fired).toEqual([{ rule: "pack-zap", source: "project", action: "block" }, { rule: "pack-no-rm", source: "project", action: "block", shadow: true }]);

    const res = spawnSync(BINARY, ["rules", "list", "--json"], { cwd: project, env, encoding: "utf8" });
    const rules = (JSON.parse(res.stdout) as { rules: { name: string; shadow?: boolean; wouldHave?: Record<string, number> }[] }).rules;
    expect(rules.find((r) => r.name === "pack-no-rm")).toMatchObject({ shadow: true, wouldHave: { block: 3 } });
    expect(rules.find((r) => r.name === "g-ask")).toMatchObject({ shadow: true, wouldHave: { ask: 1 } });
    expect(rules.find((r) => r.name === "pack-zap")?.shadow).toBeUndefined();
    const text = spawnSync(BINARY, ["rules", "list"], { cwd: project, env, encoding: "utf8" }).stdout;
    expect(text).toMatch(/pack-no-rm .* shadow +would have: block ×3/);
    expect(text).toContain("(2 in shadow mode)");
  });

  it("should count would-have decisions per rule in the sidecar's status", async () => {
    const sc = new Sidecar(project, env);
    try {
      const ev = (command: string) => ({ hook: "tool_call", session: { id: "s1", cwd: project }, tool: { name: "bash", input: { command } } });
      expect((await sc.evaluate(ev("rm a"))).action).toBe("allow");
      expect((await sc.evaluate(ev("rm b"))).fired).toEqual([{ rule: "pack-no-rm", source: "project", action: "block", shadow: true }]);
      const status = (await sc.request("shepherd/status", {})).result as { shadow: { rule: string; source: string; action: string; count: number }[] };
      expect(status.shadow).toEqual([{ rule: "pack-no-rm", source: "project", action: "block", count: 2 }]);
    } finally {
      await sc.close();
    }
  });

  it("should report would-have counts apart in shepherd replay", () => {
    const session = join(import.meta.dir, "fixtures", "sessions", "basic-session.jsonl");
    writeFileSync(join(root, "draft.json"), JSON.stringify({ mode: "shadow", rules: [{ name: "draft-rm", action: "block", command: { program: "rm" } }] }));
    const res = spawnSync(BINARY, ["replay", session, "--rules", join(root, "draft.json"), "--json"], { cwd: project, env, encoding: "utf8" });
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout) as { counts: { rule: string; action: string; source: string; count: number; shadow?: boolean }[] };
    expect(out.counts.find((c) => c.rule === "draft-rm")).toEqual({ rule: "draft-rm", action: "block", source: "project", count: 1, shadow: true });
    const text = spawnSync(BINARY, ["replay", session, "--rules", join(root, "draft.json")], { cwd: project, env: { ...env, NO_COLOR: "1" }, encoding: "utf8" }).stdout;
    expect(text).toMatch(/draft-rm +would block +project +1/);
  });
});
