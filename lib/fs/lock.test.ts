/** @module unit tests: the one lock file (pid inside, stale by a dead owner, released on every path). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireLock, withFileLock } from "./lock.ts";

let dir = "";
let file = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-lock-"));
  file = join(dir, "rules.json");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const deadPid = async (): Promise<number> => {
  const p = Bun.spawn(["true"]);
  await p.exited;
  return p.pid;
};
const age = (path: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  utimesSync(path, t, t);
};

describe("acquireLock", () => {
  it("should write its own pid into the lock and remove it on release", async () => {
    const lock = await acquireLock(file);
    expect(lock.ok).toBe(true);
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(String(process.pid));
    if (lock.ok) lock.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  // What is in the lock, how old it is, whether it is broken at once.
  const stale: [string, () => Promise<string>, number][] = [
    ["an empty lock older than the grace", async () => "", 5_000],
    ["an unparsable lock older than the grace", async () => "garbage\n", 5_000],
    ["a fresh lock whose owner is gone", async () => String(await deadPid()), 0],
    ["an old lock whose owner is gone", async () => String(await deadPid()), 60_000],
    ["a lock older than the maximum age, owner alive", async () => "1", 60_000],
  ];
  for (const [name, content, ageMs] of stale) {
    it(`should break ${name} at once`, async () => {
      writeFileSync(`${file}.lock`, await content());
      age(`${file}.lock`, ageMs);
      const start = Date.now();
      const lock = await acquireLock(file, { waitMs: 3_000 });
      expect(lock.ok).toBe(true);
      // Well under the wait: the lock was judged stale, not waited out.
      expect(Date.now() - start).toBeLessThan(1_000);
      expect(readFileSync(`${file}.lock`, "utf8")).toBe(String(process.pid));
      if (lock.ok) lock.release();
      expect(readdirSync(dir)).toEqual([]);
    });
  }

  const planted: [string, (lock: string) => void][] = [
    ["a symlink to a FIFO", (lock) => {
      Bun.spawnSync(["mkfifo", join(dir, "fifo")]);
      symlinkSync(join(dir, "fifo"), lock);
    }],
    ["a folder", (lock) => mkdirSync(lock)],
  ];
  for (const [name, plant] of planted) {
    it(`should never open ${name} planted as the lock, and break it after the grace`, async () => {
      plant(`${file}.lock`);
      const lock = await acquireLock(file, { waitMs: 3_000, emptyGraceMs: 100 });
      expect(lock.ok).toBe(true);
      if (lock.ok) lock.release();
      expect(existsSync(`${file}.lock`)).toBe(false);
    });
  }

  const held: [string, () => string][] = [
    ["a live owner", () => "1"],
    ["an owner still writing its pid (empty, fresh)", () => ""],
  ];
  for (const [name, content] of held) {
    it(`should wait for ${name} and report the timeout`, async () => {
      writeFileSync(`${file}.lock`, content());
      const lock = await acquireLock(file, { waitMs: 150 });
      expect(lock).toMatchObject({ ok: false, timedOut: true });
      expect(readFileSync(`${file}.lock`, "utf8")).toBe(content());
    });
  }

  it("should take the lock once a live owner releases it", async () => {
    const first = await acquireLock(file);
    if (!first.ok) throw new Error(first.reason);
    setTimeout(() => first.release(), 50);
    const second = await acquireLock(file, { waitMs: 2_000 });
    expect(second.ok).toBe(true);
    if (second.ok) second.release();
  });

  it("should not remove a lock another owner took after breaking this one", async () => {
    const mine = await acquireLock(file);
    if (!mine.ok) throw new Error(mine.reason);
    rmSync(`${file}.lock`);
    writeFileSync(`${file}.lock`, "1");
    mine.release();
    expect(readFileSync(`${file}.lock`, "utf8")).toBe("1");
  });

  it("should report a folder it cannot create as an error, not a timeout", async () => {
    writeFileSync(join(dir, "plain"), "");
    const lock = await acquireLock(join(dir, "plain", "f"));
    expect(lock).toMatchObject({ ok: false, timedOut: false });
  });
});

describe("withFileLock", () => {
  it("should serialize concurrent read-modify-writes", async () => {
    writeFileSync(file, "0");
    const bump = () =>
      withFileLock(file, async () => {
        const n = Number(readFileSync(file, "utf8"));
        await new Promise((r) => setTimeout(r, 1));
        writeFileSync(file, String(n + 1));
      });
    const results = await Promise.all(Array.from({ length: 20 }, bump));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("20");
  });

  it("should release the lock when the work throws", async () => {
    await expect(
      withFileLock(file, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("should return the work's value", async () => {
    expect(await withFileLock(file, () => 42)).toEqual({ ok: true, value: 42 });
  });
});
