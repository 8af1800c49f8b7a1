/**
 * @module black-box tests of per-rule isolation in `dist/shepherd`: a broken rule is skipped and reported
 * while its valid neighbours apply (serve, hook, `rules check`), a rule that breaks on hot reload keeps its
 * last good version, and `replay` lists every rule that would fire on an event, not only the first block.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
let sc: Sidecar | undefined;
let rulesFile = "";

const good = { name: "no-foo", action: "block", pattern: "\\bfoo\\b", reason: "no foo" };
/** A typo'd key: on its own the rule is invalid, and before isolation it took `good` down with it. */
const typo = { name: "no-bar", action: "block", patern: "bar", reason: "no bar" };

function write(data: unknown): void {
  const tmp = `${rulesFile}.tmp-${Math.random()}`;
  writeFileSync(tmp, typeof data === "string" ? data : JSON.stringify(data));
  renameSync(tmp, rulesFile);
}

function run(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(BINARY, args, { cwd: tp.project, env: tp.env, encoding: "utf8", ...(input !== undefined ? { input } : {}) });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

beforeEach(() => {
  tp = tempProject("shepherd-isolation-");
  mkdirSync(join(tp.project, ".pi"));
  rulesFile = join(tp.project, ".pi", "shepherd-rules.json");
});

afterEach(async () => {
  if (sc && sc.child.exitCode === null) await sc.close();
  sc = undefined;
  tp.cleanup();
});

describe("per-rule isolation (serve)", () => {
  it("should apply a good block rule beside a broken one on the first load, and report the broken one by file, path and name", async () => {
    write([good, typo]);
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("foo", tp.project))).action).toBe("block");
    const note = await sc.waitFor((m) => m.method === "notifications/message" && JSON.stringify(m.params).includes("is skipped"));
    const text = JSON.stringify(note.params);
    expect(text).toContain(rulesFile);
    expect(text).toContain("[1]");
    expect(text).toContain('rule \\"no-bar\\" (block) is skipped: the guard it gives is off until it is fixed');
    const status = (await sc.request("shepherd/status")).result as { issues: { file: string; path: string; message: string }[] };
    expect(status.issues.some((i) => i.file === rulesFile && i.path === "[1].patern" && i.message.includes('unknown key "patern"'))).toBe(true);
  });

  it("should keep the last good version of a block rule that breaks on hot reload, and apply its fixed neighbours", async () => {
    write([good]);
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("foo", tp.project))).action).toBe("block");
    // The block rule gets a typo; a new rule is added beside it in the same save.
    write([{ ...good, pattern: "(" }, { name: "no-qux", action: "block", pattern: "qux" }]);
    const note = await sc.waitFor((m) => m.method === "notifications/message" && JSON.stringify(m.params).includes("last good version"));
    expect(JSON.stringify(note.params)).toContain('rule \\"no-foo\\" is broken: its last good version stays in force until it is fixed');
    expect((await sc.evaluate(bashEvent("qux", tp.project, "t2"))).action).toBe("block");
    expect((await sc.evaluate(bashEvent("foo", tp.project, "t3"))).action).toBe("block");
  });
});

describe("per-rule isolation (hook)", () => {
  const input = (command: string) => JSON.stringify({ session_id: "s", cwd: tp.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });

  it("should block with the good rule of a file that holds a broken one, and say on stderr at every call that the broken one is off", () => {
    write([typo, good]);
    for (let i = 0; i < 3; i++) {
      const r = run(["hook", "claude-code"], input("foo"));
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('"permissionDecision":"deny"');
      expect(r.stdout).toContain('"permissionDecisionReason":"no foo"');
      expect(r.stderr).toContain(`shepherd: ${rulesFile}:1:`);
      expect(r.stderr).toContain('[0]: rule "no-bar" (block) is skipped: the guard it gives is off until it is fixed');
    }
  });

  it("should say nothing on stderr once the broken rule is fixed, and apply it", () => {
    write([typo, good]);
    expect(run(["hook", "claude-code"], input("bar")).stderr).toContain("is skipped");
    write([{ ...typo, patern: undefined, pattern: "bar" }, good]);
    for (let i = 0; i < 2; i++) {
      const r = run(["hook", "claude-code"], input("bar"));
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain('"permissionDecisionReason":"no bar"');
    }
  });
});

describe("rules check (every problem of a rule at once)", () => {
  it("should report a bad hook and a bad regex of one rule together, and the rule as skipped", () => {
    write('[\n  {"name": "two-faults", "action": "block", "hook": "tool_cal", "pattern": "("}\n]\n');
    const r = run(["rules", "check", "--json", "--no-tests"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { issues: { file: string; path: string; severity: string; message: string }[] };
    const mine = out.issues.filter((i) => i.file === rulesFile && i.severity === "error");
    expect(mine.map((i) => i.path).sort()).toEqual(["[0]", "[0].hook", "[0].pattern"]);
    expect(mine.find((i) => i.path === "[0].pattern")?.message).toContain("invalid regular expression");
    expect(mine.find((i) => i.path === "[0]")?.message).toContain('rule "two-faults" (block) is skipped');
  });
});

describe("replay (every rule that would fire)", () => {
  it("should list every rule that matches an event, the blocking one first, not only the first block", () => {
    write([
      { name: "say-deploy", action: "notify", pattern: "\\bdeploy\\b", reason: "deploy" },
      { name: "no-now", action: "block", pattern: "\\bnow\\b", reason: "not now" },
      { name: "no-force", action: "block", pattern: "--force", reason: "no force" },
      { name: "hint", action: "steer", pattern: "\\bdeploy\\b", reason: "hint" },
      { name: "unrelated", action: "block", pattern: "shred" },
    ]);
    const session = [
      { type: "session", version: 3, id: "s1", cwd: tp.project },
      { type: "message", id: "a", message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "deploy now --force" } }], stopReason: "toolUse" } },
    ];
    const file = join(tp.root, "session.jsonl");
    writeFileSync(file, `${session.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const r = run(["replay", "--json", file]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { hits: { hook: string; decision: { action: string; fired: { rule: string; action: string }[] } }[]; counts: { rule: string; count: number }[] };
    const call = out.hits.find((h) => h.hook === "tool_call");
    expect(call?.decision.action).toBe("block");
    expect(call?.decision.fired.map((f) => `${f.rule}:${f.action}`)).toEqual(["no-now:block", "say-deploy:notify", "no-force:block", "hint:steer"]);
    expect(out.counts.map((c) => c.rule).sort()).toEqual(["hint", "no-force", "no-now", "say-deploy"]);
  });
});
