/** @module End-to-end: sub-agents, the shepherd_rules tool, /shepherd and ask-with-UI, with the real pi CLI. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextText, PiProject, toolResults } from "./helpers/pi-harness.ts";
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

  function shellQuote(s: string): string {
    return `'${s.replace(/'/g, "'\\''")}'`;
  }

  describe("sub-agent marker", () => {
    it("should keep subagent:false rules quiet inside a pi started by pi, and enforce them in the parent", async () => {
      project.rules([{ name: "parent-only", tool: "bash", action: "block", pattern: "SUBAGENT_PROBE", reason: "not in the parent", subagent: false }]);
      const innerScript = join(project.root, "inner.json");
      writeFileSync(
        innerScript,
        JSON.stringify([{ toolCalls: [{ name: "bash", arguments: { command: "echo SUBAGENT_PROBE > inner.txt; echo marker=$SHEPHERD_SUBAGENT" } }] }, { text: "inner done" }]),
      );
      const inner = [project.piBin, ...project.piArgs({ mode: "text", prompt: "inner task" })].map(shellQuote).join(" ");
      project.script([
        { toolCalls: [{ name: "bash", arguments: { command: "echo SUBAGENT_PROBE > outer.txt" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: `PI_FAUX_SCRIPT=${shellQuote(innerScript)} PI_FAUX_CONTEXT_LOG= ${inner}` } }] },
        { text: "done" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [outer, nested] = toolResults(run);
      expect(outer?.text).toContain("not in the parent");
      expect(project.exists("outer.txt")).toBe(false);
      expect(nested?.isError).toBe(false);
      expect(nested?.text).toContain("inner done");
      expect(project.read("inner.txt")).toBe("SUBAGENT_PROBE\n");
    });

    it("should treat a pi started with SHEPHERD_SUBAGENT=1 as a sub-agent", async () => {
      project.rules([{ name: "parent-only", tool: "bash", action: "block", pattern: "SUBAGENT_PROBE", reason: "not in the parent", subagent: false }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "echo SUBAGENT_PROBE > probe.txt" } }] }, { text: "done" }]);
      const run = await project.run({ env: { SHEPHERD_SUBAGENT: "1" } });
      expect(run.code).toBe(0);
      expect(project.read("probe.txt")).toBe("SUBAGENT_PROBE\n");
    });
  });

  describe("shepherd_rules tool", () => {
    it("should add a project rule that takes effect on the next call, and list it", async () => {
      project.script([
        {
          toolCalls: [
            {
              name: "shepherd_rules",
              arguments: {
                action: "add",
                scope: "project",
                rule: { name: "added-by-tool", tool: "bash", action: "block", pattern: "ADDED_BLOCK", reason: "added by the tool" },
              },
            },
          ],
        },
        { toolCalls: [{ name: "bash", arguments: { command: "echo ADDED_BLOCK > added.txt" } }] },
        { toolCalls: [{ name: "shepherd_rules", arguments: { action: "list" } }] },
        { text: "done" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [added, blocked, listed] = toolResults(run);
      expect(added?.isError).toBe(false);
      expect(blocked?.text).toContain("added by the tool");
      expect(project.exists("added.txt")).toBe(false);
      expect(listed?.text).toContain("added-by-tool");
      expect(project.read(".pi/shepherd-rules.json")).toContain("added-by-tool");
    });

    it("should report a rejected change as a tool error", async () => {
      project.script([{ toolCalls: [{ name: "shepherd_rules", arguments: { action: "remove", name: "no-such-rule" } }] }, { text: "done {{toolResults}}" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(toolResults(run)[0]?.isError).toBe(true);
      expect(contextText(run, 1)).toContain("no-such-rule");
    });
  });

  describe("/shepherd command", () => {
    it("should show the binary, version, rules per source and counters, and reload on request", async () => {
      project.rules([{ name: "no-rm", tool: "bash", action: "block", pattern: "rm -rf", reason: "no" }]);
      const pi = new PiRpc(project);
      pi.send({ type: "prompt", message: "/shepherd" });
      const status = await pi.waitFor((e) => e.type === "extension_ui_request" && e.method === "notify" && String(e.message).includes("status"));
      const text = String(status.message);
      expect(text).toContain(project.shepherdBin);
      expect(text).toContain("version: 0.1.0");
      expect(text).toMatch(/builtin: \d+/);
      expect(text).toContain("project: 1");
      expect(text).toContain("extension counters:");
      pi.send({ type: "prompt", message: "/shepherd reload" });
      const reloaded = await pi.waitFor((e) => e.type === "extension_ui_request" && e.method === "notify" && String(e.message).includes("reloaded"));
      expect(String(reloaded.message)).toContain("project: 1");
      expect(await pi.close()).toBe(0);
    });
  });

  describe("/shepherd trust", () => {
    it.each([
      ["pi trusts the project and Shepherd does not", "always", false],
      ["neither trusts the project", "never", false],
      ["both trust the project", "always", true],
    ] as const)("should show both verdicts when %s, and how to trust it in Shepherd", async (_what, piTrust, shepherdTrust) => {
      project.piSettings({ defaultProjectTrust: piTrust, ...(shepherdTrust ? { shepherd: { trustedProjects: [project.dir] } } : {}) });
      // A project settings file is what makes pi 1.x decide on trust at all (a bare .pi does not).
      project.write(".pi/settings.json", "{}\n");
      const rpc = new PiRpc(project);
      rpc.send({ type: "prompt", message: "/shepherd" });
      const status = await rpc.waitFor((e) => e.type === "extension_ui_request" && e.method === "notify" && String(e.message).includes("status"));
      const line = String(status.message).split("\n").find((l) => l.startsWith("trust: "));
      const piSays = !pi.modern ? "not reported by this pi" : piTrust === "always" ? "trusted" : "not trusted";
      const hint = pi.modern && piTrust === "always" && !shepherdTrust ? ` (to trust it in Shepherd too: shepherd trust ${project.dir})` : "";
      expect(line).toBe(`trust: shepherd ${shepherdTrust ? "trusted" : "not trusted"}, pi ${piSays}${hint}`);
      expect(await rpc.close()).toBe(0);
    });
  });

  describe("ask with a UI", () => {
    it("should run the call when the user confirms, and block it when the user declines", async () => {
      project.rules([{ name: "ask-touch", tool: "bash", action: "ask", pattern: "^touch", reason: "may I touch?" }]);
      project.script([
        { toolCalls: [{ name: "bash", arguments: { command: "touch yes.txt" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "touch no.txt" } }] },
        { text: "done" },
      ]);
      const pi = new PiRpc(project);
      pi.send({ type: "prompt", message: "go" });
      const first = await pi.waitFor((e) => e.type === "extension_ui_request" && e.method === "confirm");
      expect(String(first.message)).toContain("may I touch?");
      pi.send({ type: "extension_ui_response", id: first.id, confirmed: true });
      const second = await pi.waitFor((e) => e.type === "extension_ui_request" && e.method === "confirm" && e.id !== first.id);
      pi.send({ type: "extension_ui_response", id: second.id, confirmed: false });
      await pi.waitFor((e) => e.type === "agent_end");
      expect(await pi.close()).toBe(0);
      expect(project.exists("yes.txt")).toBe(true);
      expect(project.exists("no.txt")).toBe(false);
      expect(contextText({ code: 0, stdout: "", stderr: "", events: [], contexts: project.contexts() }, 2)).toContain("the user declined it");
    });
  });
});
