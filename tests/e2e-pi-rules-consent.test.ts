/**
 * @module End-to-end with the real pi CLI: a scripted (think: prompt-injected) model calls shepherd_rules to
 * switch off a built-in safety rule. Without a UI it is refused; with one, the person's answer decides.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PiProject, type PiRun, toolResults } from "./helpers/pi-harness.ts";
import { PiRpc } from "./helpers/pi-rpc.ts";
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

  const DISABLE = { name: "shepherd_rules", arguments: { action: "disable", name: "safety-rm-home-or-root" } };
  const globalFile = () => join(project.agentDir, "shepherd-rules.json");

  /** The RPC session's events as a run, for the json-mode helpers. */
  function asRun(pi: PiRpc): PiRun {
    return { code: 0, stdout: "", stderr: pi.stderr, events: pi.events, contexts: project.contexts() };
  }

  describe("shepherd_rules disable of a built-in safety rule", () => {
    it("should be refused in -p mode (no UI), leaving the global rules file as it was", async () => {
      project.script([{ toolCalls: [DISABLE] }, { text: "done" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [refused] = toolResults(run);
      expect(refused?.toolName).toBe("shepherd_rules");
      expect(refused?.isError).toBe(true);
      expect(refused?.text).toMatch(/needs a person's consent/);
      expect(refused?.text).toMatch(/by hand/);
      expect(existsSync(globalFile())).toBe(false);
    });

    it.each([
      ["no", false],
      ["yes", true],
    ])("should ask the person in RPC mode and, answered %s, apply it only on yes", async (_answer, confirmed) => {
      project.script([{ toolCalls: [DISABLE] }, { text: "done" }]);
      const pi = new PiRpc(project);
      pi.send({ type: "prompt", message: "go" });
      const ask = await pi.waitFor((e) => e.type === "extension_ui_request" && e.method === "confirm");
      expect(String(ask.message)).toContain("safety-rm-home-or-root");
      expect(String(ask.message)).toContain(globalFile());
      // Nothing is written while the question is open.
      expect(existsSync(globalFile())).toBe(false);
      pi.send({ type: "extension_ui_response", id: ask.id, confirmed });
      await pi.waitFor((e) => e.type === "agent_end");
      expect(await pi.close()).toBe(0);
      const [result] = toolResults(asRun(pi));
      expect(result?.isError).toBe(!confirmed);
      if (confirmed) {
        expect(JSON.parse(readFileSync(globalFile(), "utf8"))).toEqual([{ name: "safety-rm-home-or-root", enabled: false }]);
      } else {
        expect(result?.text).toMatch(/declined/);
        expect(existsSync(globalFile())).toBe(false);
      }
    });
  });

  describe("shepherd_rules add of a block rule", () => {
    it("should work without consent in -p mode, and block the next call", async () => {
      project.script([
        { toolCalls: [{ name: "shepherd_rules", arguments: { action: "add", rule: { name: "no-probe", tool: "bash", action: "block", pattern: "CONSENT_PROBE", reason: "added by the model" } } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "echo CONSENT_PROBE > probe.txt" } }] },
        { text: "done" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [added, blocked] = toolResults(run);
      expect(added?.isError).toBe(false);
      expect(blocked?.text).toContain("added by the model");
      expect(project.exists("probe.txt")).toBe(false);
      expect(JSON.parse(readFileSync(globalFile(), "utf8"))).toEqual([{ name: "no-probe", tool: "bash", action: "block", pattern: "CONSENT_PROBE", reason: "added by the model" }]);
    });
  });
});
