/** @module Unit tests of `shepherd init pi`: idempotent install, pointer to the binary, careful uninstall. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { piExtensionDir, runInitPi } from "./init-pi.ts";

let root: string;
let out: string[];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-init-pi-"));
  out = [];
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function init(uninstall = false): number {
  return runInitPi({
    uninstall,
    binaryPath: "/opt/shepherd/bin/shepherd",
    env: { PI_CODING_AGENT_DIR: join(root, "agent") },
    write: (t) => out.push(t),
    writeErr: (t) => out.push(t),
  });
}

describe("runInitPi", () => {
  it("should write the extension and a pointer to the running binary into pi's extensions folder", () => {
    expect(init()).toBe(0);
    const dir = piExtensionDir({ PI_CODING_AGENT_DIR: join(root, "agent") });
    expect(dir).toBe(join(root, "agent", "extensions", "shepherd"));
    // Every source file of the extension travels, or the installed extension fails on a missing import.
    const sources = readdirSync(join(import.meta.dir, "..", "..", "pi-extension")).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    expect(sources.length).toBeGreaterThan(5);
    for (const name of sources) {
      expect(readFileSync(join(dir, name), "utf8")).toBe(readFileSync(join(import.meta.dir, "..", "..", "pi-extension", name), "utf8"));
    }
    expect(JSON.parse(readFileSync(join(dir, "install.json"), "utf8"))).toMatchObject({ binary: "/opt/shepherd/bin/shepherd" });
  });

  it("should change nothing on a second run", () => {
    init();
    const file = join(root, "agent", "extensions", "shepherd", "index.ts");
    const before = statSync(file).mtimeMs;
    out = [];
    expect(init()).toBe(0);
    expect(out.join("")).toContain("already installed");
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it("should remove only its own files on uninstall", () => {
    init();
    const dir = join(root, "agent", "extensions", "shepherd");
    writeFileSync(join(dir, "my-notes.md"), "mine\n");
    expect(init(true)).toBe(0);
    expect(existsSync(join(dir, "index.ts"))).toBe(false);
    expect(readFileSync(join(dir, "my-notes.md"), "utf8")).toBe("mine\n");
    rmSync(join(dir, "my-notes.md"));
    init();
    expect(init(true)).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(init(true)).toBe(0);
  });
});
