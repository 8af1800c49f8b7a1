/** @module End-to-end: `shepherd init pi` installs an extension the real pi discovers and runs against the installing binary. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PiProject, ROOT, SHEPHERD_BIN, toolResults } from "./helpers/pi-harness.ts";
import type { PiVersion } from "./helpers/pi1-install.ts";
import { piVersions } from "./helpers/pi1-install.ts";

// Every scenario runs on each pi line the extension serves (pi 1.x is installed on first use).
describe.each(piVersions().map((pi) => [pi.version, pi] as const))("pi %s", (_version, pi) => {
  let project: PiProject;
  beforeEach(() => {
    project = new PiProject(pi.bin);
  });
  afterEach(() => {
    project.cleanup();
  });

  function shepherd(args: string[]): { code: number; stdout: string; stderr: string } {
    const res = Bun.spawnSync([SHEPHERD_BIN, ...args], { cwd: project.dir, env: { ...process.env, PI_CODING_AGENT_DIR: project.agentDir } });
    return { code: res.exitCode, stdout: res.stdout.toString(), stderr: res.stderr.toString() };
  }

  describe("shepherd init pi", () => {
    it("should install an extension pi discovers, pointing at the binary that installed it, and uninstall it", async () => {
      const dir = join(project.agentDir, "extensions", "shepherd");
      const first = shepherd(["init", "pi"]);
      expect(first.code).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, "install.json"), "utf8")).binary).toBe(SHEPHERD_BIN);
      const second = shepherd(["init", "pi"]);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain("already installed");

      project.write("victim/keep.txt", "precious\n");
      project.rules([{ name: "no-rm", tool: "bash", action: "block", pattern: "rm -rf", reason: "no: {{command}}" }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] }, { text: "done" }]);
      // No -e for the extension and no SHEPHERD_BIN: pi finds the installed extension, which finds the binary.
      const run = await project.run({ loadExtension: false, env: { SHEPHERD_BIN: undefined } });
      expect(run.code).toBe(0);
      expect(toolResults(run)[0]?.text).toContain("no: rm -rf victim");
      expect(project.read("victim/keep.txt")).toBe("precious\n");

      expect(shepherd(["init", "pi", "--uninstall"]).code).toBe(0);
      expect(existsSync(dir)).toBe(false);
    });
  });
});

// pi 1.x reads package.json `pi.extensions`: this checkout is a pi package, and its extension finds dist/shepherd beside it.
describe.each(piVersions().filter((pi: PiVersion) => pi.modern).map((pi) => [pi.version, pi] as const))("pi %s package", (_version, pi) => {
  let project: PiProject;
  beforeEach(() => {
    project = new PiProject(pi.bin);
  });
  afterEach(() => {
    project.cleanup();
  });

  function piCli(args: string[]): { code: number; out: string } {
    const res = Bun.spawnSync([pi.bin, ...args], { cwd: project.dir, env: { ...project.baseEnv(), SHEPHERD_BIN: undefined } });
    return { code: res.exitCode, out: `${res.stdout.toString()}${res.stderr.toString()}` };
  }

  it("should install with `pi install <checkout>`, guard the session with the package's own binary, keep the shepherd settings, and uninstall", async () => {
    project.settings({ timeoutMs: 4000 });
    const installed = piCli(["install", ROOT]);
    expect(installed.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(project.agentDir, "settings.json"), "utf8"));
    expect(settings.shepherd).toEqual({ timeoutMs: 4000 });
    // A local package is recorded by its path, relative to the settings file, and loaded without copying.
    const sources: unknown[] = Array.isArray(settings.packages) ? settings.packages : [];
    expect(sources.map((entry) => resolve(project.agentDir, String(typeof entry === "object" && entry !== null && "source" in entry ? entry.source : entry)))).toEqual([ROOT]);
    expect(existsSync(join(project.agentDir, "extensions", "shepherd"))).toBe(false);

    project.write("victim/keep.txt", "precious\n");
    project.rules([{ name: "no-rm", tool: "bash", action: "block", pattern: "rm -rf", reason: "no: {{command}}" }]);
    project.script([{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] }, { text: "done" }]);
    const run = await project.run({ loadExtension: false, env: { SHEPHERD_BIN: undefined } });
    expect(run.code).toBe(0);
    expect(toolResults(run)[0]?.text).toContain("no: rm -rf victim");
    expect(project.read("victim/keep.txt")).toBe("precious\n");

    expect(piCli(["remove", ROOT]).code).toBe(0);
    const after = await project.run({ loadExtension: false, env: { SHEPHERD_BIN: undefined } });
    expect(after.code).toBe(0);
    expect(project.exists("victim/keep.txt")).toBe(false);
  });
});
