/** @module black-box tests of `shepherd replay` over a real pi session recorded by the e2e harness. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./helpers/sidecar-client.ts";

const SESSION = join(import.meta.dir, "fixtures", "sessions", "basic-session.jsonl");

let root = "";

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-replay-"));
  mkdirSync(join(root, "agent"));
  mkdirSync(join(root, "project"));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function shepherd(args: string[]) {
  const env = { PATH: process.env.PATH ?? "", HOME: root, PI_CODING_AGENT_DIR: join(root, "agent") };
  const res = spawnSync(BINARY, ["replay", ...args], { cwd: join(root, "project"), env, encoding: "utf8" });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

const DRAFT = [
  { name: "todo-hack", tool: "edit", action: "notify", conditions: [{ field: "text", pattern: "TODO" }] },
  { name: "third-error", hook: "tool_result", tool: "*", action: "steer", state: { countKind: "errors", gte: 3 } },
  { name: "claims-tests", hook: "message_end", action: "steer", pattern: "tests pass", flags: "i" },
  { name: "scratch-delete", action: "ask", command: { program: "rm", flags: ["-r"] } },
  { name: "never-sudo", action: "block", pattern: "^sudo " },
];

interface ReplayJson {
  files: { session: string; events: number }[];
  events: number;
  hits: { line: number; hook: string; tool?: string; subject: string; decision: { action: string; fired: { rule: string }[] } }[];
  counts: { rule: string; action: string; count: number }[];
  neverFired: string[];
}

describe("shepherd replay", () => {
  it("should find where built-in and draft rules would have fired in a recorded pi session", () => {
    writeFileSync(join(root, "draft.json"), JSON.stringify(DRAFT));
    const res = shepherd([SESSION, "--rules", join(root, "draft.json"), "--json"]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as ReplayJson;
    expect(out.files).toHaveLength(1);
    const where = (rule: string) => out.hits.filter((h) => h.decision.fired.some((f) => f.rule === rule)).map((h) => `${h.hook} ${h.tool ?? ""} ${h.subject}`.trim());
    expect(where("no-checkout-discard")).toEqual(["tool_call bash git checkout -- a.ts"]);
    expect(where("todo-hack")).toEqual(["tool_call edit a.ts"]);
    expect(where("third-error")).toEqual(["tool_result bash ls /nonexistent-dir"]);
    expect(where("scratch-delete")).toEqual(["tool_call bash rm -rf tmp"]);
    expect(where("claims-tests")).toHaveLength(1);
    expect(where("edit-ts-run-tests")).toEqual(["tool_result edit a.ts"]);
    expect(out.counts.find((c) => c.rule === "no-checkout-discard")).toMatchObject({ action: "block", count: 1 });
    expect(out.neverFired).toEqual(["never-sudo"]);
  });

  it("should print a table of events and counts per rule", () => {
    const res = shepherd([SESSION]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/basic-session\.jsonl:\d+\s+tool_call\s+bash\s+git checkout -- a\.ts\s+no-checkout-discard \(block\)/);
    expect(res.stdout).toMatch(/RULE\s+ACTION\s+SOURCE\s+COUNT/);
    expect(res.stdout).toMatch(/1 session, \d+ events/);
  });

  it("should use only the draft rules with --only", () => {
    writeFileSync(join(root, "draft.json"), JSON.stringify([{ name: "reads", tool: "read", action: "notify", conditions: [{ field: "path", pattern: "." }] }]));
    const out = JSON.parse(shepherd([SESSION, "--rules", join(root, "draft.json"), "--only", "--json"]).stdout) as ReplayJson;
    expect(out.counts).toEqual([{ rule: "reads", action: "notify", source: "project", count: 1 } as ReplayJson["counts"][number]]);
  });

  it("should replay every session under a folder and keep counters per session", () => {
    const dir = join(root, "sessions", "--tmp-proj--");
    mkdirSync(dir, { recursive: true });
    copyFileSync(SESSION, join(dir, "a.jsonl"));
    copyFileSync(SESSION, join(dir, "b.jsonl"));
    writeFileSync(join(root, "draft.json"), JSON.stringify(DRAFT));
    const out = JSON.parse(shepherd([join(root, "sessions"), "--rules", join(root, "draft.json"), "--json"]).stdout) as ReplayJson;
    expect(out.files).toHaveLength(2);
    expect(out.counts.find((c) => c.rule === "third-error")?.count).toBe(2);
  });

  it("should skip broken lines with a warning and replay the rest", () => {
    const lines = readFileSync(SESSION, "utf8").split("\n");
    lines.splice(3, 0, "{not json", '{"no":"type"}', '{"type":"label","id":"x","parentId":null,"timestamp":"t","targetId":"y","label":"l"}');
    writeFileSync(join(root, "broken.jsonl"), lines.join("\n"));
    const res = shepherd([join(root, "broken.jsonl")]);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain("broken.jsonl:4: not JSON");
    expect(res.stderr).toContain('broken.jsonl:5: not a session entry (no "type")');
    expect(res.stdout).toContain("no-checkout-discard (block)");
  });

  it.each([
    [["missing.jsonl"], 1, "no such file"],
    [[], 2, "name at least one pi session file"],
    [["x.jsonl", "--only"], 2, "--only needs at least one --rules file"],
  ])("should fail cleanly on %j", (args, code, message) => {
    const res = shepherd(args);
    expect(res.code).toBe(code);
    expect(res.stderr).toContain(message);
  });

  it("should refuse a draft rule file with errors", () => {
    writeFileSync(join(root, "draft.json"), '[{"action": "block", "patern": "x"}]');
    const res = shepherd([SESSION, "--rules", join(root, "draft.json")]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('unknown key "patern"');
  });
});
