/** @module unit tests: the lock file round-trips byte for byte, and an unusable one is a problem, never an empty lock. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PackLock, readLock, serializeLock, updateLock } from "./lock-file.ts";

const SHA = "a".repeat(64);
let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const LOCK: PackLock = {
  lockfileVersion: 1,
  packs: {
    "z-pack": { kind: "npm", name: "z-pack", version: "1.0.0", integrity: SHA, files: { "b.json": SHA, "a.json": SHA } },
    [`git+file:///r.git#${"1".repeat(40)}`]: { kind: "git", name: "r", url: "file:///r.git", commit: "1".repeat(40), integrity: SHA, files: { "x.json": SHA } },
  },
};

describe("lock file", () => {
  it("should write sorted, stable text that reads back to the same lock", async () => {
    const file = join(dir, "shepherd-rules.lock");
    const r = await updateLock(file, () => LOCK);
    expect(r.ok).toBe(true);
    const text = readFileSync(file, "utf8");
    expect(text).toBe(serializeLock(LOCK));
    expect(text.indexOf('"a.json"')).toBeLessThan(text.indexOf('"b.json"'));
    const back = readLock(file);
    expect(back.ok && back.lock).toEqual(LOCK);
    if (back.ok) expect(serializeLock(back.lock)).toBe(text);
  });

  it.each([
    ["a FIFO", (p: string) => spawnSync("mkfifo", [p]), /FIFO/],
    ["a link to /dev/urandom", (p: string) => symlinkSync("/dev/urandom", p), /character device/],
    ["a 50 MB file", (p: string) => (writeFileSync(p, "{}"), truncateSync(p, 50 * 1024 * 1024)), /larger than/],
  ])("should refuse %s unread, at once", (_why, make, message) => {
    const file = join(dir, "shepherd-rules.lock");
    make(file);
    const started = Date.now();
    const r = readLock(file);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it("should read a missing lock as empty", () => {
    expect(readLock(join(dir, "none.lock"))).toMatchObject({ ok: true, lock: { packs: {} } });
  });

  it.each([
    ["not JSON", "{", "not JSON"],
    ["a short hash", JSON.stringify({ lockfileVersion: 1, packs: { p: { kind: "npm", name: "p", version: "1", integrity: "abc", files: {} } } }), "invalid lock file"],
    ["an unknown version", JSON.stringify({ lockfileVersion: 2, packs: {} }), "invalid lock file"],
    ["too deep", `${"[".repeat(100)}${"]".repeat(100)}`, "deep"],
  ])("should refuse a lock that is %s, and not overwrite it", async (_why, text, message) => {
    const file = join(dir, "shepherd-rules.lock");
    writeFileSync(file, text);
    const r = readLock(file);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
    expect((await updateLock(file, () => LOCK)).ok).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});
