import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatBytes, identityKey, openRegular, readBounded, statIdentity } from "./bounded-read.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-bounded-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const CAP = 1024;

type Case = { name: string; make: (path: string) => void; reason?: string; text?: string; message?: RegExp };

const cases: Case[] = [
  { name: "a regular file", make: (p) => writeFileSync(p, '{"a": 1}'), text: '{"a": 1}' },
  { name: "an empty file", make: (p) => writeFileSync(p, ""), text: "" },
  { name: "a file of exactly the cap", make: (p) => writeFileSync(p, "x".repeat(CAP)), text: "x".repeat(CAP) },
  { name: "a file of one byte over the cap", make: (p) => writeFileSync(p, "x".repeat(CAP + 1)), reason: "too-large", message: /larger than the 1 KiB limit/ },
  { name: "a sparse 50 MB file", make: (p) => (writeFileSync(p, ""), truncateSync(p, 50 * 1024 * 1024)), reason: "too-large" },
  { name: "a missing file", make: () => {}, reason: "missing" },
  { name: "a path under a regular file", make: () => {}, reason: "missing" },
  { name: "a directory", make: (p) => mkdirSync(p), reason: "not-regular", message: /a directory/ },
  { name: "a FIFO", make: (p) => expect(spawnSync("mkfifo", [p]).status).toBe(0), reason: "not-regular", message: /a FIFO/ },
  { name: "a link to /dev/zero", make: (p) => symlinkSync("/dev/zero", p), reason: "not-regular", message: /a character device/ },
  { name: "a link to /dev/urandom", make: (p) => symlinkSync("/dev/urandom", p), reason: "not-regular", message: /a character device/ },
  { name: "a dangling link", make: (p) => symlinkSync(join(dir, "nowhere"), p), reason: "missing" },
  { name: "a link to a regular file", make: (p) => (writeFileSync(`${p}.target`, "[1]"), symlinkSync(`${p}.target`, p)), text: "[1]" },
  { name: "a BOM and multi-byte text", make: (p) => writeFileSync(p, "\uFEFF[\"é\"]"), text: "\uFEFF[\"é\"]" },
];

describe("readBounded", () => {
  it.each(cases)("should read $name as expected", (c) => {
    const path = c.name === "a path under a regular file" ? join(dir, "f", "under") : join(dir, "f");
    if (c.name === "a path under a regular file") writeFileSync(join(dir, "f"), "");
    c.make(path);
    const started = Date.now();
    const r = readBounded(path, CAP);
    // A FIFO or a device must never be waited on.
    expect(Date.now() - started).toBeLessThan(1000);
    if (c.text !== undefined) expect(r).toMatchObject({ ok: true, text: c.text });
    else {
      expect(r).toMatchObject({ ok: false, reason: c.reason });
      if (!r.ok && c.message) expect(r.message).toMatch(c.message);
      if (!r.ok && c.reason !== "missing") expect(r.identity).toBeDefined();
    }
  });

  it("should give the identity of the file read, which changes with its content", () => {
    const path = join(dir, "f");
    writeFileSync(path, "one");
    const first = readBounded(path, CAP);
    if (!first.ok) throw new Error(first.message);
    expect(identityKey(first.identity)).toBe(identityKey(statIdentity(path) ?? first.identity));
    writeFileSync(path, "three");
    const second = readBounded(path, CAP);
    if (!second.ok) throw new Error(second.message);
    expect(identityKey(second.identity)).not.toBe(identityKey(first.identity));
  });
});

describe("openRegular", () => {
  it("should hand back an open descriptor of a regular file only", () => {
    const path = join(dir, "f");
    writeFileSync(path, "abc");
    const r = openRegular(path);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.identity.size).toBe(3);
      closeSync(r.fd);
    }
    const fifo = join(dir, "fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expect(openRegular(fifo)).toMatchObject({ ok: false, reason: "not-regular" });
  });
});

describe("formatBytes", () => {
  it.each([
    [1024 * 1024, "1 MiB"],
    [4 * 1024 * 1024, "4 MiB"],
    [2048, "2 KiB"],
    [1000, "1000 bytes"],
  ])("should write %d as %s", (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });
});
