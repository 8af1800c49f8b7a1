import { describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRuleText } from "../lib/engine/load.ts";
import { BINARY } from "./helpers/sidecar-client.ts";

describe("shepherd binary", () => {
  it.each([["--version"], ["--help"]])("should answer %s from any directory", (flag) => {
    const res = spawnSync(BINARY, [flag], { cwd: "/", encoding: "utf8" });
    expect(res.status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(import.meta.dir, "../package.json"), "utf8")) as { version: string };
    if (flag === "--version") expect(res.stdout.trim()).toBe(pkg.version);
    else expect(res.stdout).toContain("shepherd serve");
  });

  it.each(["serve", "http", "hook", "init", "trust", "rules list", "rules check", "rules explain", "rules test", "schema", "replay"])(
    "should print usage with an example for shepherd %s --help",
    (command) => {
      const res = spawnSync(BINARY, [...command.split(" "), "--help"], { cwd: "/", encoding: "utf8", input: "" });
      expect(res.status).toBe(0);
      expect(res.stdout).toContain(`Usage: shepherd ${command.split(" ")[0]}`);
      expect(res.stdout).toMatch(/Example/);
    },
  );

  it("should exit 2 with help on an unknown command", () => {
    const res = spawnSync(BINARY, ["frobnicate"], { encoding: "utf8" });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('unknown command "frobnicate"');
  });

  it("should carry every rule of rules/*.json inside the binary, run from a folder with no rules", () => {
    const dir = join(import.meta.dir, "../rules");
    const expected = readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .flatMap((f) => loadRuleText(readFileSync(join(dir, f), "utf8"), { file: `rules/${f}`, source: "builtin" }).rules.map((r) => r.name))
      .sort();
    const home = mkdtempSync(join(tmpdir(), "shepherd-embed-"));
    try {
      const res = spawnSync(BINARY, ["rules", "list", "--json"], { cwd: home, encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") } });
      expect(res.status).toBe(0);
      const listed = (JSON.parse(res.stdout) as { rules: { name: string; source: string }[] }).rules.filter((r) => r.source === "builtin").map((r) => r.name);
      expect(expected.length).toBeGreaterThan(20);
      expect(listed.sort()).toEqual(expected);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
