/** @module unit tests for the audit log writer and secret redaction. */
import { afterEach, describe, expect, it } from "bun:test";
import { execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { analyzePattern } from "../engine/regex-safety.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { AuditLog, auditConfig, auditRecord } from "./audit-log.ts";
import { REDACTED, redactText, redactValue } from "./redact.ts";

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "shepherd-audit-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const event: HookEvent = {
  hook: "tool_call",
  session: { id: "s1", cwd: "/p" },
  tool: { name: "bash", input: { command: "curl -H 'Authorization: Bearer abcdef0123456789' https://x" } },
};
const blocked: Decision = { action: "block", reason: "no curl: curl -H ...", notify: [], steer: [], fired: [{ rule: "no-curl", source: "global", action: "block" }] };

describe("auditConfig", () => {
  it("should be off by default and for false or enabled: false", () => {
    expect(auditConfig(undefined, {})).toBeUndefined();
    expect(auditConfig(false, {})).toBeUndefined();
    expect(auditConfig({ enabled: false }, {})).toBeUndefined();
  });

  it("should default the folder to the agent dir and keep 30 days", () => {
    expect(auditConfig(true, { PI_CODING_AGENT_DIR: "/a" })).toEqual({ dir: "/a/shepherd/audit", includeContent: false, retainDays: 30 });
  });

  it("should ignore an invalid setting rather than guess", () => {
    expect(auditConfig({ dir: 3 }, {})).toBeUndefined();
    expect(auditConfig("yes", {})).toBeUndefined();
  });
});

describe("auditRecord", () => {
  const shadowBlock = { rule: "s", source: "project", action: "block", shadow: true as const };
  it.each([
    ["a shadow block before the real ask", { action: "ask", notify: [], steer: [], fired: [shadowBlock, { rule: "real", source: "global", action: "ask" }] } as Decision, "real"],
    ["a shadow block beside a real notify", { action: "allow", notify: ["n"], steer: [], fired: [shadowBlock, { rule: "note", source: "global", action: "notify" }] } as Decision, "note"],
    ["only a shadow block", { action: "allow", notify: [], steer: [], fired: [shadowBlock] } as Decision, "s"],
  ])("should name the deciding rule of %s, and keep the shadow mark", (_name, decision, rule) => {
    const rec = auditRecord(event, decision, false, new Date("2030-01-02T03:04:05Z"));
    expect(rec?.rule).toBe(rule);
    expect(rec?.fired.find((f) => f.rule === "s")).toEqual(shadowBlock);
  });

  it("should carry time, session, hook, tool, rule, source and action, and no content by default", () => {
    const rec = auditRecord(event, blocked, false, new Date("2030-01-02T03:04:05Z"));
    expect(rec).toEqual({
      time: "2030-01-02T03:04:05.000Z",
      session: "s1",
      cwd: "/p",
      hook: "tool_call",
      tool: "bash",
      action: "block",
      rule: "no-curl",
      source: "global",
      fired: [{ rule: "no-curl", source: "global", action: "block" }],
    });
    expect(JSON.stringify(rec)).not.toContain("curl -H");
  });

  it("should skip decisions in which nothing fired", () => {
    expect(auditRecord(event, { action: "allow", notify: [], steer: [], fired: [] }, true, new Date())).toBeUndefined();
  });

  it("should include content only when asked, redacted", () => {
    const rec = auditRecord(event, blocked, true, new Date());
    const command = (rec?.input as { command: string }).command;
    expect(command).toStartWith("curl -H 'Authorization: ");
    expect(command).toContain(REDACTED);
    expect(command).not.toContain("abcdef0123456789");
    expect(rec?.reason).toBe("no curl: curl -H ...");
  });
});

describe("redactText", () => {
  it.each([
    ["export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_"],
    ["OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234", "sk-proj"],
    ["aws AKIAABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOP"],
    ["git clone https://bob:hunter2@github.com/x/y", "hunter2"],
    ["mysql --password=hunter2 db", "hunter2"],
    ["login --token 'abc def'", "abc def"],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "MIIEow"],
    ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_abc", "eyJzdWIi"],
    ['{"db_password": "s3cret!"}', "s3cret"],
    ["xoxb-1234567890-abcdefghij", "xoxb-1234567890"],
  ])("should mask %s", (text, secret) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it("should leave ordinary commands alone", () => {
    for (const s of ["git push origin main", "npm test -- --token-count 3", "rm -rf build", "echo $PATH"]) expect(redactText(s)).toBe(s);
  });

  it("should cut long text", () => {
    const out = redactText("x".repeat(100_000));
    expect(out.length).toBeLessThan(2_100);
    expect(out).toEndWith("[100000 chars]");
  });

  it("should use no exponential pattern and stay fast on hostile input", () => {
    const source = readFileSync(join(import.meta.dir, "redact.ts"), "utf8");
    for (const m of source.matchAll(/re: \/(.+?)\/([gimsuy]*),/g)) expect(analyzePattern(m[1] ?? "", m[2]).risk?.kind).not.toBe("exponential");
    const start = performance.now();
    for (const hostile of ["a".repeat(9000), "PASSWORD".repeat(1200), "-----BEGIN RSA PRIVATE KEY-----".repeat(300), "x://a:".repeat(2000), "Bearer ".repeat(1500)]) {
      redactText(hostile);
    }
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe("redactValue", () => {
  it("should mask values under secret-looking keys and keep __proto__ a plain key", () => {
    const input = JSON.parse('{"headers": {"Authorization": "x", "apiKey": "y", "ok": "z"}, "__proto__": {"polluted": 1}}') as unknown;
    const out = redactValue(input) as Record<string, Record<string, unknown>>;
    expect(out.headers).toEqual({ Authorization: REDACTED, apiKey: REDACTED, ok: "z" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it("should bound depth", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 1000; i++) deep = { a: deep };
    expect(JSON.stringify(redactValue(deep)).length).toBeLessThan(200);
  });
});

describe("AuditLog", () => {
  it("should append one line per fired decision to a file per UTC day, 0600", () => {
    const dir = tempDir();
    let now = new Date("2030-01-01T23:59:59Z");
    const audit = new AuditLog({ settingFor: () => ({ dir }), env: {}, now: () => now });
    audit.record(event, blocked);
    audit.record(event, { action: "allow", notify: [], steer: [], fired: [] });
    now = new Date("2030-01-02T00:00:01Z");
    audit.record(event, blocked);
    audit.close();
    expect(readdirSync(dir).sort()).toEqual(["audit-2030-01-01.jsonl", "audit-2030-01-02.jsonl"]);
    const lines = readFileSync(join(dir, "audit-2030-01-01.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ rule: "no-curl", action: "block", session: "s1" });
    expect(statSync(join(dir, "audit-2030-01-02.jsonl")).mode & 0o777).toBe(0o600);
  });

  describe("deferred (the sidecar: lines after the answer)", () => {
    it("should write nothing during the task, then every line in order once it ends", async () => {
      const dir = tempDir();
      const audit = new AuditLog({ settingFor: () => ({ dir }), env: {}, now: () => new Date("2030-01-01T12:00:00Z"), deferred: true });
      for (const rule of ["a", "b", "c"]) audit.record(event, { ...blocked, fired: [{ rule, source: "global", action: "block" }] });
      expect(readdirSync(dir)).toEqual([]);
      await Promise.resolve();
      const lines = readFileSync(join(dir, "audit-2030-01-01.jsonl"), "utf8").trim().split("\n");
      expect(lines.map((l) => (JSON.parse(l) as { rule: string }).rule)).toEqual(["a", "b", "c"]);
      audit.close();
    });

    it("should keep the decision's time and day, and split one batch across a new day's file", async () => {
      const dir = tempDir();
      let now = new Date("2030-01-01T23:59:59Z");
      const audit = new AuditLog({ settingFor: () => ({ dir }), env: {}, now: () => now, deferred: true });
      audit.record(event, blocked);
      now = new Date("2030-01-02T00:00:01Z");
      audit.record(event, blocked);
      await Promise.resolve();
      const read = (day: string) => readFileSync(join(dir, `audit-${day}.jsonl`), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { time: string }).time);
      expect(read("2030-01-01")).toEqual(["2030-01-01T23:59:59.000Z"]);
      expect(read("2030-01-02")).toEqual(["2030-01-02T00:00:01.000Z"]);
      audit.close();
    });

    it("should lose no line when closed before the task ends (exit, SIGTERM)", () => {
      const dir = tempDir();
      const audit = new AuditLog({ settingFor: () => ({ dir }), env: {}, now: () => new Date("2030-01-01T12:00:00Z"), deferred: true });
      for (let i = 0; i < 700; i++) audit.record(event, blocked);
      audit.close();
      expect(readFileSync(join(dir, "audit-2030-01-01.jsonl"), "utf8").trim().split("\n")).toHaveLength(700);
    });
  });

  it("should drop daily files past the retention when a new day starts", () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "audit-2029-01-01.jsonl"), "{}\n");
    writeFileSync(join(dir, "notes.txt"), "keep");
    const audit = new AuditLog({ settingFor: () => ({ dir, retainDays: 7 }), env: {}, now: () => new Date("2030-01-10T00:00:00Z") });
    audit.record(event, blocked);
    audit.close();
    expect(existsSync(join(dir, "audit-2029-01-01.jsonl"))).toBe(false);
    expect(existsSync(join(dir, "notes.txt"))).toBe(true);
  });

  it("should write nothing when the setting is off", () => {
    const dir = tempDir();
    const audit = new AuditLog({ settingFor: () => undefined, env: { PI_CODING_AGENT_DIR: dir }, now: () => new Date() });
    audit.record(event, blocked);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ["a FIFO with no reader", (f: string) => execFileSync("mkfifo", [f])],
    ["a symlink to another file", (f: string) => symlinkSync(join(dirname(f), "elsewhere.txt"), f)],
  ])("should refuse, not wait on or follow, %s planted as the day's file", (_what, plant) => {
    const dir = tempDir();
    const file = join(dir, "audit-2030-01-01.jsonl");
    writeFileSync(join(dir, "elsewhere.txt"), "untouched\n");
    plant(file);
    const errors: string[] = [];
    const log = { debug: () => {}, info: () => {}, warning: () => {}, error: (m: string) => errors.push(m) };
    const audit = new AuditLog({ settingFor: () => ({ dir }), env: {}, log, now: () => new Date("2030-01-01T12:00:00Z") });
    audit.record(event, blocked);
    audit.close();
    expect(errors).toHaveLength(1);
    expect(readFileSync(join(dir, "elsewhere.txt"), "utf8")).toBe("untouched\n");
  });

  it("should refuse a FIFO with a reader waiting, naming what it is", () => {
    const dir = tempDir();
    const file = join(dir, "audit-2030-01-01.jsonl");
    execFileSync("mkfifo", [file]);
    // A reader holds the FIFO open, so a non-blocking open succeeds: fstat must refuse it.
    const reader = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const errors: string[] = [];
      const log = { debug: () => {}, info: () => {}, warning: () => {}, error: (m: string) => errors.push(m) };
      const audit = new AuditLog({ settingFor: () => ({ dir }), env: {}, log, now: () => new Date("2030-01-01T12:00:00Z") });
      audit.record(event, blocked);
      audit.close();
      expect(errors.join("")).toContain("FIFO");
    } finally {
      closeSync(reader);
    }
  });

  it("should log, not throw, when the folder cannot be written", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "file"), "");
    const errors: string[] = [];
    const log = { debug: () => {}, info: () => {}, warning: () => {}, error: (m: string) => errors.push(m) };
    const audit = new AuditLog({ settingFor: () => ({ dir: join(dir, "file", "sub") }), env: {}, log });
    audit.record(event, blocked);
    audit.record(event, blocked);
    expect(errors).toHaveLength(1);
  });
});
