/** @module Unit tests of `shepherd init opencode`: where it writes, idempotence, the binary pointer, careful uninstall. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { opencodePluginDir } from "../adapters/hook-locations.ts";
import { ENTRY_FILE, INSTALL_FILE, pluginFiles, runInitOpenCode } from "./init-opencode.ts";

const REPO = join(import.meta.dir, "..", "..");
let root: string;
let out: string[];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-init-opencode-"));
  out = [];
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const env = () => ({ HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg") });

function init(opts: { uninstall?: boolean; scope?: "project" | "global" } = {}): number {
  return runInitOpenCode({
    uninstall: opts.uninstall ?? false,
    scope: opts.scope ?? "global",
    cwd: join(root, "proj"),
    binaryPath: "/opt/shepherd/bin/shepherd",
    env: env(),
    write: (t) => out.push(t),
    writeErr: (t) => out.push(t),
  });
}

describe("opencodePluginDir", () => {
  it.each([
    ["global", { HOME: "/h", XDG_CONFIG_HOME: "/x" }, "/x/opencode/plugin"],
    ["global", { HOME: "/h" }, "/h/.config/opencode/plugin"],
    ["project", { HOME: "/h" }, "/p/.opencode/plugin"],
  ] as const)("should put the %s plugin where OpenCode loads it (%j)", (scope, e, expected) => {
    expect(opencodePluginDir(scope, "/p", e)).toBe(expected);
  });
});

describe("pluginFiles", () => {
  it("should hold every file an embedded file imports, or OpenCode drops the plugin and guards nothing", () => {
    const files = pluginFiles("/opt/shepherd");
    const missing: string[] = [];
    for (const [name, text] of files) {
      if (!name.endsWith(".ts")) continue;
      for (const m of text.matchAll(/\bfrom\s+["'](\.{1,2}\/[^"']+)["']/g)) {
        const target = join(dirname(name), m[1] ?? "");
        if (!files.has(target)) missing.push(`${name} -> ${target}`);
      }
    }
    expect(files.size).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});

describe("runInitOpenCode", () => {
  it("should write the entry, the plugin's sources as they are in the repository, and a pointer to the binary", () => {
    expect(init()).toBe(0);
    const dir = opencodePluginDir("global", join(root, "proj"), env());
    for (const name of ["opencode-plugin/index.ts", "opencode-plugin/translate.ts", "pi-extension/settings.ts", "pi-extension/sidecar-client.ts", "pi-extension/subagent.ts", "pi-extension/wire.ts"]) {
      expect(readFileSync(join(dir, "shepherd", name), "utf8")).toBe(readFileSync(join(REPO, name), "utf8"));
    }
    // OpenCode calls every export of a plugin file: the entry has exactly one.
    expect(readFileSync(join(dir, ENTRY_FILE), "utf8")).toMatch(/^(\/\/.*\n)*export \{ default \} from "\.\/shepherd\/opencode-plugin\/index\.ts";\n$/);
    expect(JSON.parse(readFileSync(join(dir, INSTALL_FILE), "utf8"))).toMatchObject({ binary: "/opt/shepherd/bin/shepherd" });
    // Only the entry sits where OpenCode loads plugins; the helpers are one folder down.
    expect(readdirSync(dir).sort()).toEqual(["shepherd", "shepherd.ts"]);
  });

  it("should change nothing on a second run, and repair an edited file on the next", () => {
    init();
    out = [];
    expect(init()).toBe(0);
    expect(out.join("")).toContain("already installed and up to date");
    const dir = opencodePluginDir("global", join(root, "proj"), env());
    writeFileSync(join(dir, "shepherd", "opencode-plugin", "index.ts"), "export default async () => ({});\n");
    out = [];
    init();
    expect(out.join("")).toContain("shepherd/opencode-plugin/index.ts");
    expect(readFileSync(join(dir, "shepherd", "opencode-plugin", "index.ts"), "utf8")).toBe(readFileSync(join(REPO, "opencode-plugin", "index.ts"), "utf8"));
  });

  it("should install into the project's .opencode/plugin with --project", () => {
    expect(init({ scope: "project" })).toBe(0);
    expect(existsSync(join(root, "proj", ".opencode", "plugin", ENTRY_FILE))).toBe(true);
    expect(existsSync(opencodePluginDir("global", join(root, "proj"), env()))).toBe(false);
  });

  it("should remove only its own files on uninstall, keeping a person's plugin and files", () => {
    init();
    const dir = opencodePluginDir("global", join(root, "proj"), env());
    writeFileSync(join(dir, "mine.ts"), "export default async () => ({});\n");
    mkdirSync(join(dir, "shepherd", "notes"), { recursive: true });
    writeFileSync(join(dir, "shepherd", "notes", "todo.md"), "keep\n");
    expect(init({ uninstall: true })).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["mine.ts", "shepherd"]);
    expect(readdirSync(join(dir, "shepherd"))).toEqual(["notes"]);
    rmSync(join(dir, "shepherd", "notes"), { recursive: true });
    init();
    expect(init({ uninstall: true })).toBe(0);
    expect(readdirSync(dir)).toEqual(["mine.ts"]);
    out = [];
    expect(init({ uninstall: true })).toBe(0);
    expect(out.join("")).toContain("nothing to do");
  });
});
