/** @module unit tests: a pack folder is hashed whole, and any file that cannot be part of a pack refuses it. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareToLock, integrityOf, MAX_PACK_FILES, readPackTree } from "./pack-tree.ts";
import { sha256 } from "../../hash.ts";

let root = "";
let pack = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-pack-tree-"));
  pack = join(root, "pack");
  mkdirSync(join(pack, "sub"), { recursive: true });
  writeFileSync(join(pack, "rules.json"), "[]");
  writeFileSync(join(pack, "sub", "more.json"), "{}");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("readPackTree", () => {
  it("should hash every file in path order, leaving out node_modules and .git", () => {
    mkdirSync(join(pack, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(pack, "node_modules", "dep", "x.js"), "x");
    mkdirSync(join(pack, ".git"));
    writeFileSync(join(pack, ".git", "HEAD"), "ref");
    const t = readPackTree(pack);
    if (!t.ok) throw new Error(t.message);
    expect(t.files.map((f) => [f.path, f.sha256])).toEqual([
      ["rules.json", sha256("[]")],
      ["sub/more.json", sha256("{}")],
    ]);
  });

  it("should follow a symbolic link to a file inside the pack", () => {
    symlinkSync(join(pack, "rules.json"), join(pack, "alias.json"));
    const t = readPackTree(pack);
    expect(t.ok && t.files.find((f) => f.path === "alias.json")?.sha256).toBe(sha256("[]"));
  });

  it.each([
    ["a link out of the pack", () => (writeFileSync(join(root, "secret"), "s"), symlinkSync(join(root, "secret"), join(pack, "leak"))), "symbolic link out of the pack"],
    ["a link to a folder", () => symlinkSync(join(pack, "sub"), join(pack, "loop")), "a folder"],
    ["a dangling link", () => symlinkSync(join(root, "nothing"), join(pack, "gone")), "to nothing"],
    ["a FIFO", () => spawnSync("mkfifo", [join(pack, "pipe")]), "FIFO"],
    ["a link to a device", () => symlinkSync("/dev/urandom", join(pack, "rand")), "out of the pack"],
    ["a file over 4 MiB", () => (writeFileSync(join(pack, "big.json"), "[]"), truncateSync(join(pack, "big.json"), 5 * 1024 * 1024)), "larger than 4 MiB"],
    ["folders nested too deep", () => mkdirSync(join(pack, ...Array.from({ length: 20 }, (_, i) => `d${i}`)), { recursive: true }), "nest deeper"],
    ["too many files", () => { for (let i = 0; i <= MAX_PACK_FILES; i++) writeFileSync(join(pack, `f${i}`), ""); }, `more than ${MAX_PACK_FILES} files`],
  ])("should refuse the whole pack for %s", (_why, setup, message) => {
    setup();
    const t = readPackTree(pack);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.message).toContain(message);
  });

  it("should call a missing folder missing", () => {
    const t = readPackTree(join(root, "none"));
    expect(!t.ok && t.message).toEndWith("is missing");
  });
});

describe("compareToLock", () => {
  it("should name each changed, added and missing file", () => {
    const t = readPackTree(pack);
    if (!t.ok) throw new Error(t.message);
    const locked = { "rules.json": sha256("[1]"), "gone.json": sha256("") };
    expect(compareToLock(t.files, locked).map((d) => d.split(":")[0])).toEqual(["rules.json", "sub/more.json", "gone.json"]);
    expect(compareToLock(t.files, { "rules.json": sha256("[]"), "sub/more.json": sha256("{}") })).toEqual([]);
  });

  it("should give one integrity for the same files in any order", () => {
    expect(integrityOf({ a: sha256("1"), b: sha256("2") })).toBe(integrityOf({ b: sha256("2"), a: sha256("1") }));
    expect(integrityOf({ a: sha256("1") })).not.toBe(integrityOf({ a: sha256("2") }));
  });
});
