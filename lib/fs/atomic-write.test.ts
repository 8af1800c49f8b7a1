/** @module unit tests: the one atomic writer (every byte or nothing, mode kept, no temp file left). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { removeStaleTemps, writeFileAtomic } from "./atomic-write.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-atomic-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const deadPid = async (): Promise<number> => {
  const p = Bun.spawn(["true"]);
  await p.exited;
  return p.pid;
};

describe("writeFileAtomic", () => {
  const contents: [string, string | Uint8Array][] = [
    ["an empty text", ""],
    ["multi-byte text", "ü€😀\n".repeat(1000)],
    ["a megabyte", "x".repeat(1 << 20)],
    ["bytes", new Uint8Array([0, 255, 10, 13])],
  ];
  for (const [name, data] of contents) {
    it(`should write ${name} exactly and leave no temp file`, () => {
      const file = join(dir, "f.json");
      expect(writeFileAtomic(file, data)).toEqual({ ok: true });
      expect(Buffer.from(readFileSync(file)).equals(Buffer.from(typeof data === "string" ? Buffer.from(data) : data))).toBe(true);
      expect(readdirSync(dir)).toEqual(["f.json"]);
    });
  }

  const modes: [string, number | undefined, number | undefined, number][] = [
    ["a new file the requested mode", undefined, 0o600, 0o600],
    ["an existing file its own mode", 0o640, 0o600, 0o640],
    ["an existing executable its mode", 0o755, undefined, 0o755],
  ];
  for (const [name, existing, requested, expected] of modes) {
    it(`should give ${name}`, () => {
      const file = join(dir, "f");
      if (existing !== undefined) {
        writeFileSync(file, "old");
        chmodSync(file, existing);
      }
      expect(writeFileAtomic(file, "new", requested !== undefined ? { mode: requested } : {}).ok).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(expected);
    });
  }

  it("should create missing folders", () => {
    const file = join(dir, "a", "b", "f");
    expect(writeFileAtomic(file, "x", { dirMode: 0o700 })).toEqual({ ok: true });
    expect(statSync(join(dir, "a")).mode & 0o777).toBe(0o700);
  });

  it("should report a conflict and keep the old file when beforeRename calls it off", () => {
    const file = join(dir, "f");
    writeFileSync(file, "old");
    const r = writeFileAtomic(file, "new", { beforeRename: () => false });
    expect(r).toMatchObject({ ok: false, kind: "conflict" });
    expect(readFileSync(file, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["f"]);
  });

  it("should move the replaced file to previous, dropping an older one, and rename over nothing", () => {
    const file = join(dir, "f.json");
    const previous = join(dir, ".f.json.prev");
    expect(writeFileAtomic(file, "one", { previous })).toEqual({ ok: true });
    expect(readdirSync(dir)).toEqual(["f.json"]);
    expect(writeFileAtomic(file, "two", { previous })).toEqual({ ok: true });
    expect(writeFileAtomic(file, "three", { previous })).toEqual({ ok: true });
    expect([readFileSync(file, "utf8"), readFileSync(previous, "utf8")]).toEqual(["three", "two"]);
    expect(readdirSync(dir).sort()).toEqual([".f.json.prev", "f.json"]);
  });

  it("should still replace the file when something that cannot be removed holds the previous name", () => {
    const file = join(dir, "f.json");
    const previous = join(dir, ".f.json.prev");
    writeFileSync(file, "old");
    mkdirSync(join(previous, "planted"), { recursive: true });
    expect(writeFileAtomic(file, "new", { previous })).toEqual({ ok: true });
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(readdirSync(dir).sort()).toEqual([".f.json.prev", "f.json"]);
  });

  it("should keep the old file in place when a write with previous is called off", () => {
    const file = join(dir, "f.json");
    const previous = join(dir, ".f.json.prev");
    writeFileSync(file, "old");
    expect(writeFileAtomic(file, "new", { previous, beforeRename: () => false })).toMatchObject({ ok: false, kind: "conflict" });
    expect(readdirSync(dir)).toEqual(["f.json"]);
    expect(readFileSync(file, "utf8")).toBe("old");
  });

  it("should report an error as data, not throw, when the folder cannot be made", () => {
    writeFileSync(join(dir, "plain"), "");
    const r = writeFileAtomic(join(dir, "plain", "f"), "x");
    expect(r).toMatchObject({ ok: false, kind: "error", code: "EEXIST" });
    expect(r.ok ? "" : r.reason).toContain("plain");
  });

  it("should keep the old file byte for byte and remove its temp file when the file size limit cuts the write", async () => {
    const file = join(dir, "rules.json");
    const old = JSON.stringify({ rules: Array.from({ length: 400 }, (_, i) => ({ name: `r${i}` })) });
    writeFileSync(file, old);
    const script = join(dir, "write.ts");
    writeFileSync(
      script,
      `import { writeFileAtomic } from ${JSON.stringify(resolve(import.meta.dir, "atomic-write.ts"))};\n` +
        `console.log(JSON.stringify(writeFileAtomic(${JSON.stringify(file)}, "y".repeat(200_000))));\n`,
    );
    // ulimit -f counts 1 KiB blocks: 64 KiB fits the old file, not the new one.
    const p = Bun.spawn(["bash", "-c", `ulimit -f 64; exec "$0" "$1"`, process.execPath, script], { stdout: "pipe", stderr: "pipe" });
    const out = await new Response(p.stdout).text();
    expect(await p.exited).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ ok: false, kind: "error", code: "EFBIG" });
    expect(readFileSync(file, "utf8")).toBe(old);
    expect(readdirSync(dir).sort()).toEqual(["rules.json", "write.ts"]);
  });
});

describe("removeStaleTemps", () => {
  it("should remove only temp files of this name whose writer is gone", async () => {
    const dead = await deadPid();
    const live = Bun.spawn(["sleep", "30"]);
    try {
      const names = [`.f.${dead}.a.tmp`, `.f.${live.pid}.b.tmp`, `.f.${process.pid}.c.tmp`, `.g.${dead}.d.tmp`, `.f.${dead}.e.txt`, "f"];
      for (const n of names) writeFileSync(join(dir, n), "");
      expect(removeStaleTemps(dir, "f")).toBe(1);
      expect(readdirSync(dir).sort()).toEqual(names.filter((n) => n !== `.f.${dead}.a.tmp`).sort());
    } finally {
      live.kill();
    }
  });

  it("should run on every write, so a crashed writer's temp file does not stay", async () => {
    const stale = join(dir, `.f.${await deadPid()}.x.tmp`);
    writeFileSync(stale, "half");
    expect(writeFileAtomic(join(dir, "f"), "whole").ok).toBe(true);
    expect(readdirSync(dir)).toEqual(["f"]);
  });
});
