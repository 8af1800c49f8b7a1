/** @module unit tests: the shared locked, compare-and-swap, verified file update. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { updateFileSafely } from "./safe-update.ts";

let root = "";
let file = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-safe-update-"));
  file = join(root, "list.txt");
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const append = (line: string) => (current: string | undefined) => {
  const lines = (current ?? "").split("\n").filter(Boolean);
  return lines.includes(line) ? { value: false } : { value: true, text: `${[...lines, line].join("\n")}\n` };
};

describe("updateFileSafely", () => {
  it("should create a missing file and report the write", async () => {
    expect(await updateFileSafely(file, append("a"), { settleMs: 1 })).toEqual({ ok: true, value: true, written: true });
    expect(readFileSync(file, "utf8")).toBe("a\n");
  });

  it("should not write when the update asks for nothing", async () => {
    writeFileSync(file, "a\n");
    expect(await updateFileSafely(file, append("a"), { settleMs: 1 })).toEqual({ ok: true, value: false, written: false });
  });

  it("should leave the file alone when the update refuses it", async () => {
    writeFileSync(file, "{ broken");
    expect(await updateFileSafely(file, () => ({ error: "cannot parse" }))).toEqual({ ok: false, message: "cannot parse" });
    expect(readFileSync(file, "utf8")).toBe("{ broken");
  });

  it("should start over when someone saves while the change is prepared, keeping both", async () => {
    writeFileSync(file, "a\n");
    let calls = 0;
    const r = await updateFileSafely(
      file,
      (current) => {
        // An editor saving between Shepherd's read and its rename.
        if (calls++ === 0) writeFileSync(file, "a\nuser\n");
        return append("b")(current);
      },
      { settleMs: 1 },
    );
    expect(r.ok).toBe(true);
    expect(calls).toBeGreaterThan(1);
    expect(readFileSync(file, "utf8")).toBe("a\nuser\nb\n");
  });

  it("should write again when a save right after the rename undid the change", async () => {
    let verified = 0;
    const r = await updateFileSafely(file, append("b"), {
      settleMs: 1,
      verify: (current) => {
        // The first look finds a save that overwrote the change.
        if (verified++ === 0) {
          writeFileSync(file, "user\n");
          return false;
        }
        return (current ?? "").includes("b");
      },
    });
    expect(r).toEqual({ ok: true, value: true, written: true });
    expect(readFileSync(file, "utf8")).toBe("user\nb\n");
  });

  it("should give up with a message when the change keeps being undone", async () => {
    let writes = 0;
    const r = await updateFileSafely(file, () => ({ value: writes++, text: "b\n" }), { settleMs: 1, attempts: 3, verify: () => false });
    expect(writes).toBe(3);
    expect(r).toEqual({ ok: false, message: `${file} kept changing under this write; try again` });
  });

  it("should leave no temp or lock file behind", async () => {
    await updateFileSafely(file, append("a"), { settleMs: 1 });
    expect(readdirSync(root)).toEqual(["list.txt"]);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
