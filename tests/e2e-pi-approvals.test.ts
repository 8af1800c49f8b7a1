/**
 * @module e2e with the real pi CLI (both lines) in RPC mode, where pi has a UI: a person's "yes" in the
 * confirm dialog of an `ask` rule with `remember` is kept, the same call then runs without a dialog (in a
 * later session too, for scope "project"), another call still asks, and the approval is listed.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { PiProject, SHEPHERD_BIN } from "./helpers/pi-harness.ts";
import { PiRpc } from "./helpers/pi-rpc.ts";
import { piVersions } from "./helpers/pi1-install.ts";

type Event = Record<string, unknown>;
const isConfirm = (e: Event) => e.type === "extension_ui_request" && e.method === "confirm";

describe.each(piVersions().map((pi) => [pi.version, pi] as const))("pi %s", (_version, pi) => {
  let project: PiProject;
  beforeEach(() => {
    project = new PiProject(pi.bin);
  });
  afterEach(() => {
    project.cleanup();
  });

  /** Runs one session: answers each confirm with the next answer, gives the dialogs' messages. */
  async function session(answers: boolean[]): Promise<string[]> {
    const rpc = new PiRpc(project);
    const asked: string[] = [];
    rpc.onEvent((e) => {
      if (!isConfirm(e)) return;
      asked.push(String(e.message));
      rpc.send({ type: "extension_ui_response", id: e.id, confirmed: answers[asked.length - 1] ?? false });
    });
    rpc.send({ type: "prompt", message: "go" });
    await rpc.waitFor((e) => e.type === "agent_end");
    expect(await rpc.close()).toBe(0);
    return asked;
  }

  it("should remember a yes for that exact command in the project, and still ask for another", async () => {
    project.globalRules([{ name: "ask-touch", tool: "bash", action: "ask", pattern: "^touch", reason: "may I run {{command}}?", remember: "project" }]);
    project.script([
      { toolCalls: [{ name: "bash", arguments: { command: "touch a.txt" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "rm a.txt && touch a.txt && echo again > marker.txt" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "touch a.txt" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "touch b.txt" } }] },
      { text: "done" },
    ]);
    // First "touch a.txt": asked and approved; the rm line does not start with touch; the second
    // "touch a.txt" runs without a dialog; "touch b.txt" is asked and declined.
    const asked = await session([true, false]);
    expect(asked).toEqual(["may I run touch a.txt?", "may I run touch b.txt?"]);
    expect(project.exists("marker.txt")).toBe(true);
    expect(project.exists("a.txt")).toBe(true);
    expect(project.exists("b.txt")).toBe(false);

    const list = spawnSync(SHEPHERD_BIN, ["approvals", "list", "--json"], { env: { ...process.env, PI_CODING_AGENT_DIR: project.agentDir }, encoding: "utf8" });
    const approvals = JSON.parse(list.stdout) as { rule: string; scope: string; project: string; display: string }[];
    expect(approvals.map((a) => [a.rule, a.scope, a.project, a.display])).toEqual([["ask-touch", "project", realpathSync(project.dir), "touch a.txt"]]);

    // A later session of the same project: the remembered command runs without a dialog.
    project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch a.txt" } }] }, { text: "done" }]);
    expect(await session([])).toEqual([]);
    expect(readFileSync(join(project.agentDir, "shepherd", "approvals.json"), "utf8")).toContain("touch a.txt");
  });

  it("should keep a session approval within its session only", async () => {
    project.globalRules([{ name: "ask-touch", tool: "bash", action: "ask", pattern: "^touch", reason: "may I run {{command}}?", remember: "session" }]);
    project.script([
      { toolCalls: [{ name: "bash", arguments: { command: "touch a.txt" } }] },
      { toolCalls: [{ name: "bash", arguments: { command: "touch a.txt" } }] },
      { text: "done" },
    ]);
    expect(await session([true])).toEqual(["may I run touch a.txt?"]);
    project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch a.txt" } }] }, { text: "done" }]);
    expect(await session([false])).toEqual(["may I run touch a.txt?"]);
  });
});
