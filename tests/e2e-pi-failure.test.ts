/** @module End-to-end failure semantics of the pi extension: a killed, stopped, hanging or missing sidecar. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assistantStops, PiProject, toolResults } from "./helpers/pi-harness.ts";
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

  const NO_RM = { name: "no-rm", tool: "bash", action: "block", pattern: "rm -rf", reason: "no: {{command}}" };

  /** A bash command that signals this pi's own sidecar: the child of pi ($PPID) running this test's binary. */
  function signalSidecar(signal: "KILL" | "STOP"): string {
    return `pkill -${signal} -P $PPID -f "^$SHEPHERD_BIN serve" && echo signalled-${signal}`;
  }

  function sidecarsLeft(project: PiProject): string {
    return Bun.spawnSync(["pgrep", "-f", project.shepherdBin]).stdout.toString();
  }

  describe("sidecar restart", () => {
    it("should restart a sidecar killed mid-session and keep enforcing the rules", async () => {
      project.write("victim/keep.txt", "precious\n");
      project.rules([NO_RM]);
      project.script([
        { toolCalls: [{ name: "bash", arguments: { command: signalSidecar("KILL") } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] },
        { text: "done" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [killed, blocked] = toolResults(run);
      expect(killed?.text).toContain("signalled-KILL");
      expect(blocked?.isError).toBe(true);
      expect(blocked?.text).toContain("no: rm -rf victim");
      expect(project.read("victim/keep.txt")).toBe("precious\n");
      expect(sidecarsLeft(project)).toBe("");
    });

    it("should give up on a hung (stopped) sidecar after the timeout, start a new one and keep enforcing", async () => {
      project.settings({ timeoutMs: 2000 });
      project.write("victim/keep.txt", "precious\n");
      project.rules([NO_RM]);
      project.script([
        { toolCalls: [{ name: "bash", arguments: { command: signalSidecar("STOP") } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] },
        { text: "done" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [stopped, blocked] = toolResults(run);
      expect(stopped?.text).toContain("signalled-STOP");
      expect(blocked?.text).toContain("no: rm -rf victim");
      expect(project.read("victim/keep.txt")).toBe("precious\n");
      expect(sidecarsLeft(project)).toBe("");
    });
  });

  describe("failMode", () => {
    it("should fail closed by default when the binary cannot start, telling the model Shepherd is unavailable", async () => {
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "done" }]);
      const run = await project.run({ env: { SHEPHERD_BIN: join(project.root, "missing", "shepherd") } });
      expect(run.code).toBe(0);
      expect(project.exists("made.txt")).toBe(false);
      const [result] = toolResults(run);
      expect(result?.isError).toBe(true);
      expect(result?.text).toContain("Shepherd is unavailable");
      expect(run.stderr).toContain("Shepherd is unavailable");
    });

    it("should let calls through with a warning when failMode is open", async () => {
      project.settings({ failMode: "open" });
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "done" }]);
      const run = await project.run({ env: { SHEPHERD_BIN: join(project.root, "missing", "shepherd") } });
      expect(run.code).toBe(0);
      expect(project.exists("made.txt")).toBe(true);
      expect(toolResults(run)[0]?.text).toContain('unchecked because failMode is "open"');
      expect(run.stderr).toContain('unchecked because failMode is "open"');
    });

    it("should block the call and stop the run when failMode is halt and Shepherd cannot answer", async () => {
      project.settings({ failMode: "halt" });
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "SHOULD NOT BE REACHED" }]);
      const run = await project.run({ env: { SHEPHERD_BIN: join(project.root, "missing", "shepherd") } });
      expect(project.exists("made.txt")).toBe(false);
      const [result] = toolResults(run);
      expect(result?.isError).toBe(true);
      expect(result?.text).toContain('the run stopped (failMode "halt")');
      expect(run.stderr).toContain('the run stopped (failMode "halt")');
      expect(assistantStops(run)).toEqual(pi.modern ? ["toolUse"] : ["toolUse", "aborted"]);
      expect(run.stdout).not.toContain("SHOULD NOT BE REACHED");
    });

    it("should not let an untrusted project turn failMode open", async () => {
      project.write(".pi/settings.json", JSON.stringify({ shepherd: { failMode: "open" } }));
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "done" }]);
      const run = await project.run({ env: { SHEPHERD_BIN: join(project.root, "missing", "shepherd") } });
      expect(run.code).toBe(0);
      expect(project.exists("made.txt")).toBe(false);
    });
  });

  describe("hanging sidecar", () => {
    it("should block a tool call whose evaluation times out, and pi should still exit", async () => {
      project.settings({ timeoutMs: 1000 });
      const log = join(project.root, "fake.log");
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "done {{toolResults}}" }]);
      const run = await project.run({
        env: { SHEPHERD_BIN: project.fakeSidecar(), FAKE_SIDECAR_MODE: "hang", FAKE_SIDECAR_LOG: log },
      });
      expect(run.code).toBe(0);
      expect(project.exists("made.txt")).toBe(false);
      const [result] = toolResults(run);
      expect(result?.text).toContain("Shepherd is unavailable");
      expect(result?.text).toContain("did not answer shepherd/evaluate within 1000 ms");
      expect(readFileSync(log, "utf8")).toContain('"hook":"tool_call"');
    });

    it("should end a sidecar that ignores stdin EOF with SIGTERM, so pi -p exits", async () => {
      const log = join(project.root, "fake.log");
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "echo FAKE_BLOCK" } }] }, { text: "done" }]);
      const run = await project.run({
        env: { SHEPHERD_BIN: project.fakeSidecar(), FAKE_SIDECAR_IGNORE_EOF: "1", FAKE_SIDECAR_LOG: log },
      });
      expect(run.code).toBe(0);
      expect(toolResults(run)[0]?.text).toContain("fake block: echo FAKE_BLOCK");
      expect(readFileSync(log, "utf8")).toContain("exit sigterm");
    });
  });
});
