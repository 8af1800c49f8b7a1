import { describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderBuiltinModule } from "../scripts/gen-embedded.ts";
import { BINARY } from "./helpers/sidecar-client.ts";

describe("shepherd binary", () => {
  it.each([["--version"], ["--help"]])("should answer %s from any directory", (flag) => {
    const res = spawnSync(BINARY, [flag], { cwd: "/", encoding: "utf8" });
    expect(res.status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(import.meta.dir, "../package.json"), "utf8")) as { version: string };
    if (flag === "--version") expect(res.stdout.trim()).toBe(pkg.version);
    else expect(res.stdout).toContain("shepherd serve");
  });

  it("should exit 2 with help on an unknown command", () => {
    const res = spawnSync(BINARY, ["frobnicate"], { encoding: "utf8" });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('unknown command "frobnicate"');
  });

  it("should embed the built-in rules generated from rules/*.json", () => {
    const current = readFileSync(join(import.meta.dir, "../lib/rules/builtin-rules.gen.ts"), "utf8");
    expect(current).toBe(renderBuiltinModule(join(import.meta.dir, "..")));
  });
});
