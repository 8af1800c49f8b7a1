/**
 * @module fail modes end to end that tests/e2e-pi-failure.test.ts does not already cover (there: a
 * sidecar killed or stopped mid-session is restarted, a hanging one times out and the call fails
 * closed, failMode open): a sidecar emitting garbage mid-session (through pi), a rule file deleted
 * mid-evaluation, the `.pi/` folder deleted and recreated, a hanging plugin (through the protocol).
 */
import { afterEach, describe, expect, it } from "bun:test";
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PiProject, toolResults } from "./helpers/pi-harness.ts";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject | undefined;
let sc: Sidecar | undefined;
let pi: PiProject | undefined;
afterEach(async () => {
  if (sc && sc.child.exitCode === null) {
    sc.child.kill("SIGKILL");
    await sc.exited;
  }
  tp?.cleanup();
  pi?.cleanup();
  tp = undefined;
  sc = undefined;
  pi = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await sleep(25);
  }
}

describe("a sidecar emitting garbage mid-session", () => {
  it("should fail the tool call closed with a clear reason, and pi should still exit", async () => {
    pi = new PiProject();
    pi.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "done {{toolResults}}" }]);
    const run = await pi.run({ env: { SHEPHERD_BIN: pi.fakeSidecar(), FAKE_SIDECAR_MODE: "bad-decision" } });
    expect(run.code).toBe(0);
    expect(pi.exists("made.txt")).toBe(false);
    const [result] = toolResults(run);
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(/Shepherd/);
  }, 60_000);
});

describe("a rule file deleted mid-evaluation", () => {
  it("should answer every request in flight, then drop the deleted file's rules, and take them back when it returns", async () => {
    const p = tempProject("shepherd-fail-");
    tp = p;
    const pi = join(p.project, ".pi");
    mkdirSync(pi);
    const file = join(pi, "shepherd-rules.json");
    const rules = JSON.stringify([{ name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "offline" }]);
    writeFileSync(file, rules);
    sc = new Sidecar(p.project, p.env);
    const s = sc;
    expect((await s.evaluate(bashEvent("curl x", p.project))).action).toBe("block");

    const inFlight = Array.from({ length: 500 }, (_, i) => s.evaluate(bashEvent(`curl ${i}`, p.project, `s${i % 5}`)));
    unlinkSync(file);
    const answers = await Promise.all(inFlight);
    // Each is answered with one of the two consistent rule sets: before or after the deletion.
    for (const a of answers) expect(["block", "allow"]).toContain(a.action as string);

    // Deleting a rule file is a user's intent: its rules go, without any error.
    await until(async () => (await s.evaluate(bashEvent("curl x", p.project))).action === "allow");
    writeFileSync(file, rules);
    await until(async () => (await s.evaluate(bashEvent("curl x", p.project))).action === "block");
    expect((await s.request("ping")).result).toEqual({});
  });

  it("should cope with the whole .pi folder deleted and created again", async () => {
    const p = tempProject("shepherd-fail-");
    tp = p;
    const pi = join(p.project, ".pi");
    mkdirSync(pi);
    writeFileSync(join(pi, "shepherd-rules.json"), JSON.stringify([{ name: "no-curl", action: "block", pattern: "curl" }]));
    sc = new Sidecar(p.project, p.env);
    const s = sc;
    expect((await s.evaluate(bashEvent("curl x", p.project))).action).toBe("block");
    rmSync(pi, { recursive: true });
    await until(async () => (await s.evaluate(bashEvent("curl x", p.project))).action === "allow");
    mkdirSync(pi);
    writeFileSync(join(pi, "shepherd-rules.json"), JSON.stringify([{ name: "no-wget", action: "block", pattern: "wget" }]));
    await until(async () => (await s.evaluate(bashEvent("wget x", p.project))).action === "block");
  });

  it("should keep the last good rules when the file is truncated mid-write", async () => {
    const p = tempProject("shepherd-fail-");
    tp = p;
    const pi = join(p.project, ".pi");
    mkdirSync(pi);
    const file = join(pi, "shepherd-rules.json");
    const text = JSON.stringify([{ name: "no-curl", action: "block", pattern: "curl" }]);
    writeFileSync(file, text);
    sc = new Sidecar(p.project, p.env);
    expect((await sc.evaluate(bashEvent("curl x", p.project))).action).toBe("block");
    // A non-atomic writer caught halfway: the half file fails to parse, the old rules stay.
    writeFileSync(file, text.slice(0, text.length / 2));
    await sc.waitFor((m) => m.method === "notifications/message" && JSON.stringify(m.params).includes("last good rules"));
    expect((await sc.evaluate(bashEvent("curl x", p.project))).action).toBe("block");
  });
});

describe("a hanging plugin", () => {
  it("should not hang the evaluation: the event gets an answer within the plugin budget", async () => {
    const p = tempProject("shepherd-fail-");
    tp = p;
    const plugins = join(p.agentDir, "shepherd", "plugins");
    mkdirSync(plugins, { recursive: true });
    writeFileSync(
      join(plugins, "hang.ts"),
      `import { definePlugin } from "shepherd:plugin";
export default definePlugin({ name: "hang", actions: { hang_forever: () => { for (;;) {} } } });
`,
    );
    writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { pluginTimeoutMs: 300 } }));
    writeFileSync(join(p.agentDir, "shepherd-rules.json"), JSON.stringify([{ name: "hangs", action: "hang_forever", pattern: "." }]));
    sc = new Sidecar(p.project, p.env);
    const status = (await sc.request("shepherd/status", {})).result as { rules: Record<string, number>; skipped: { rule: string; reason: string }[] };
    // The plugin must be loaded and its rule in force: a plugin-loading regression fails here, it does not
    // pass by leaving the rule skipped (as an early return once let it).
    expect(status.skipped.filter((k) => k.rule === "hangs")).toEqual([]);
    expect(status.rules.global).toBe(1);
    const started = Date.now();
    const d = await sc.evaluate(bashEvent("ls", p.project));
    expect(Date.now() - started).toBeLessThan(10_000);
    // failMode closed (the default): a tool call whose plugin hung is blocked, with the reason.
    expect(d.action).toBe("block");
    // And the sidecar keeps serving later events.
    expect((await sc.request("ping")).result).toEqual({});
  }, 30_000);
});
