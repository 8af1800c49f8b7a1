/**
 * @module unit tests: every read site of a file a repository or the home folder controls refuses a FIFO,
 * a device, an oversized or a too-deep file at once, as data (an issue, an error, a fresh state), never a hang.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStateFile } from "../hook/session-state.ts";
import { eventFromFile } from "../cli/rules-explain.ts";
import { parseSession } from "../cli/replay.ts";
import type { LoadIssue } from "../engine/schema.ts";
import { fileRuleSnapshots } from "../rules/hook-snapshot.ts";
import { readJsonc } from "../rules/settings.ts";
import { textHash } from "../hash.ts";
import { isTrusted, listTrusted } from "../rules/trust.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-read-sites-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

type Hostile = [name: string, make: (path: string) => void, message: RegExp];
const HOSTILE: Hostile[] = [
  ["a FIFO", (p) => expect(spawnSync("mkfifo", [p]).status).toBe(0), /FIFO/],
  ["a link to /dev/urandom", (p) => symlinkSync("/dev/urandom", p), /character device/],
  ["a 50 MB file", (p) => (writeFileSync(p, "{}"), truncateSync(p, 50 * 1024 * 1024)), /larger than the \d+ MiB limit/],
  ["200,000 nested arrays", (p) => writeFileSync(p, `{"shepherd": ${nested(200_000)}}`), /nested more than 64 levels/],
];

/** Each call must come back at once: a blocking read of a FIFO would never return. */
function quick<T>(fn: () => T): T {
  const started = Date.now();
  const out = fn();
  expect(Date.now() - started).toBeLessThan(2000);
  return out;
}

describe("readJsonc (settings.json)", () => {
  it.each(HOSTILE)("should refuse %s with an issue naming the file", (_name, make, message) => {
    const file = join(dir, "settings.json");
    make(file);
    const issues: LoadIssue[] = [];
    expect(quick(() => readJsonc(file, issues))).toBeUndefined();
    expect(issues).toHaveLength(1);
    expect(issues[0]?.file).toBe(file);
    expect(issues[0]?.message).toMatch(message);
  });

  it("should place a too-deep settings file at its line, column and JSON path", () => {
    const file = join(dir, "settings.json");
    writeFileSync(file, `{\n  "shepherd": {"x": ${nested(100)}}\n}`);
    const issues: LoadIssue[] = [];
    readJsonc(file, issues);
    expect(issues[0]).toMatchObject({ path: "", line: 2, message: `nested more than 64 levels deep at shepherd.x${"[0]".repeat(62)}: refused before parsing` });
  });

  it("should say nothing of a missing file", () => {
    const issues: LoadIssue[] = [];
    expect(readJsonc(join(dir, "none.json"), issues)).toBeUndefined();
    expect(issues).toEqual([]);
  });
});

describe("listTrusted (the global settings.json)", () => {
  it.each(HOSTILE)("should refuse %s as an error and trust nothing", (_name, make, message) => {
    const env = { PI_CODING_AGENT_DIR: dir };
    make(join(dir, "settings.json"));
    const r = quick(() => listTrusted(env));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
    expect(isTrusted(dir, env)).toBe(false);
  });
});

describe("readStateFile (session state)", () => {
  it.each(HOSTILE)("should start from a fresh state on %s", (_name, make) => {
    const file = join(dir, "state.json");
    make(file);
    expect(quick(() => readStateFile(file, 1234)).calls).toBe(0);
  });
});

describe("fileRuleSnapshots (hook snapshot)", () => {
  it.each(HOSTILE)("should miss on %s in the snapshot's place", (_name, make) => {
    const snaps = fileRuleSnapshots(dir, "salt", [], dir);
    make(join(dir, `snapshot-${textHash("/p")}.bin`));
    expect(quick(() => snaps.load("/p", "k"))).toBeUndefined();
  });
});

describe("eventFromFile (rules explain --event)", () => {
  it.each(HOSTILE)("should refuse %s with an error naming the file", (_name, make, message) => {
    const file = join(dir, "event.json");
    make(file);
    const r = quick(() => eventFromFile(file, dir));
    expect(r.event).toBeUndefined();
    expect(r.error).toContain(file);
    expect(r.error).toMatch(message);
  });
});

describe("parseSession (replay)", () => {
  it("should skip a too-deep entry as a problem and read the lines around it", () => {
    const lines = [
      JSON.stringify({ type: "session", id: "s1", cwd: "/w" }),
      `{"type":"message","x":${nested(100_000)}}`,
      JSON.stringify({ type: "message", message: { role: "user", content: "hello" } }),
    ];
    const parsed = quick(() => parseSession(lines.join("\n"), "f", "/w"));
    expect(parsed.problems).toEqual([{ line: 2, message: `entry nested deeper than 64 levels at x${"[0]".repeat(63)}: skipped` }]);
    expect(parsed.steps.some((s) => s.event.hook === "input")).toBe(true);
  });
});
