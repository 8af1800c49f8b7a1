/** @module black-box: `shepherd trust [dir] | --list | --revoke` against the compiled binary. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
let project = "";
beforeEach(() => {
  tp = tempProject("shepherd-trust-");
  project = realpathSync(tp.project);
});
afterEach(() => {
  tp.cleanup();
});

const run = (args: string[], cwd = tp.project) => spawnSync(BINARY, ["trust", ...args], { cwd, env: tp.env, encoding: "utf8" });
const settingsFile = () => join(tp.agentDir, "settings.json");

describe("shepherd trust", () => {
  it("should trust the current folder, list it, and revoke it", () => {
    const trust = run([]);
    expect(trust.status).toBe(0);
    expect(trust.stdout).toContain(`trusted: ${project}`);
    expect(JSON.parse(readFileSync(settingsFile(), "utf8"))).toEqual({ shepherd: { trustedProjects: [project] } });
    expect(run(["--list"]).stdout).toBe(`${project}\n`);
    expect(JSON.parse(run(["--list", "--json"]).stdout)).toEqual([{ dir: project, exists: true }]);
    expect(run([]).stdout).toContain("already trusted");
    const revoke = run(["--revoke"]);
    expect(revoke.status).toBe(0);
    expect(revoke.stdout).toContain("no longer trusted");
    expect(run(["--list"]).stdout).toBe("");
  });

  it("should trust a folder given as an argument, relative to the current folder", () => {
    mkdirSync(join(tp.root, "other"));
    expect(run(["../other"]).status).toBe(0);
    expect(run(["--list"]).stdout).toBe(`${realpathSync(join(tp.root, "other"))}\n`);
  });

  it("should keep the other settings of pi and of shepherd", () => {
    writeFileSync(settingsFile(), JSON.stringify({ defaultProvider: "anthropic", shepherd: { maxWarnings: 1 } }, null, 2));
    run([]);
    expect(JSON.parse(readFileSync(settingsFile(), "utf8"))).toEqual({ defaultProvider: "anthropic", shepherd: { maxWarnings: 1, trustedProjects: [project] } });
  });

  it("should exit 1 without touching a settings file it cannot parse", () => {
    writeFileSync(settingsFile(), "{ broken");
    const res = run([]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("not valid JSON");
    expect(readFileSync(settingsFile(), "utf8")).toBe("{ broken");
  });

  it("should exit 1 on a folder that does not exist", () => {
    const res = run(["missing"]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("is not a folder");
  });

  it("should exit 2 on an unknown flag", () => {
    const res = run(["--frobnicate"]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("shepherd trust --help");
  });

  it("should honour PI_CODING_AGENT_DIR", () => {
    run([]);
    expect(readFileSync(join(tp.agentDir, "settings.json"), "utf8")).toContain(project);
  });
});
