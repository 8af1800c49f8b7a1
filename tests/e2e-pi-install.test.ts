/** @module End-to-end: `shepherd init pi` installs an extension the real pi discovers and runs against the installing binary. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PiProject, SHEPHERD_BIN, toolResults } from "./helpers/pi-harness.ts";
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
