import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
let sc: Sidecar;

function atomicWrite(file: string, data: unknown): void {
  const tmp = `${file}.tmp-${Math.random()}`;
  writeFileSync(tmp, typeof data === "string" ? data : JSON.stringify(data));
  renameSync(tmp, file);
}

/** Polls until the decision for `command` has `action` (the sidecar reloads on its own; no command is sent). */
async function until(command: string, action: string, cwd = tp.project): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) {
    last = await sc.evaluate(bashEvent(command, cwd, `poll-${i}`));
    if (last.action === action) return last;
    await Bun.sleep(10);
  }
  throw new Error(`never became ${action}: ${JSON.stringify(last)}`);
}

const blockFoo = [{ name: "no-foo", action: "block", pattern: "foo", reason: "no foo" }];

beforeEach(() => {
  tp = tempProject();
});

afterEach(async () => {
  if (sc && sc.child.exitCode === null) await sc.close();
  tp.cleanup();
});

describe("hot reload", () => {
  it("should pick up a .pi folder and rule file created after start", async () => {
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("foo", tp.project))).action).toBe("allow");
    mkdirSync(join(tp.project, ".pi"));
    atomicWrite(join(tp.project, ".pi/shepherd-rules.json"), blockFoo);
    expect((await until("foo", "block")).reason).toBe("no foo");
  });

  it("should follow atomic replaces, extra pattern files and deletion", async () => {
    mkdirSync(join(tp.project, ".pi"));
    const file = join(tp.project, ".pi/shepherd-rules.json");
    atomicWrite(file, blockFoo);
    sc = new Sidecar(tp.project, tp.env);
    await until("foo", "block");
    atomicWrite(file, [{ name: "no-bar", action: "block", pattern: "bar" }]);
    await until("foo", "allow");
    await until("bar", "block");
    atomicWrite(join(tp.project, ".pi/shepherd-rules-extra.json"), [{ name: "no-baz", action: "block", pattern: "baz" }]);
    await until("baz", "block");
    rmSync(file);
    await until("bar", "allow");
    expect((await sc.evaluate(bashEvent("baz", tp.project))).action).toBe("block");
  });

  it("should keep the last good rules when a file breaks, and report file and path", async () => {
    mkdirSync(join(tp.project, ".pi"));
    const file = join(tp.project, ".pi/shepherd-rules.json");
    atomicWrite(file, blockFoo);
    sc = new Sidecar(tp.project, tp.env);
    await until("foo", "block");
    atomicWrite(file, '[{"name": "no-foo", "action": "block", "pattern": "("}]');
    const note = await sc.waitFor((m) => m.method === "notifications/message" && JSON.stringify(m.params).includes("[0].pattern"));
    expect(JSON.stringify(note.params)).toContain(file);
    expect(sc.stderr).toContain("invalid regular expression");
    expect((await sc.evaluate(bashEvent("foo", tp.project))).action).toBe("block");
    const status = (await sc.request("shepherd/status")).result as { issues: { file: string; path: string }[] };
    expect(status.issues.some((i) => i.file === file && i.path === "[0].pattern")).toBe(true);
    atomicWrite(file, [{ name: "no-qux", action: "block", pattern: "qux" }]);
    await until("qux", "block");
    expect((await sc.evaluate(bashEvent("foo", tp.project))).action).toBe("allow");
  });

  it("should reload the global rules file and let the project override it", async () => {
    sc = new Sidecar(tp.project, tp.env);
    atomicWrite(join(tp.agentDir, "shepherd-rules.json"), blockFoo);
    await until("foo", "block");
    mkdirSync(join(tp.project, ".pi"));
    atomicWrite(join(tp.project, ".pi/shepherd-rules.json"), [{ name: "no-foo", action: "notify", pattern: "foo", reason: "just a note" }]);
    // Untrusted project: the override is skipped, the global block stays.
    await Bun.sleep(200);
    expect((await sc.evaluate(bashEvent("foo", tp.project))).action).toBe("block");
    const status = (await sc.request("shepherd/status")).result as { skipped: { rule: string; reason: string }[] };
    expect(status.skipped.find((s) => s.rule === "no-foo")?.reason).toMatch(/untrusted project.*shepherd trust/);
    atomicWrite(join(tp.agentDir, "settings.json"), { shepherd: { trustedProjects: [tp.project] } });
    const d = await until("foo", "allow");
    expect(d.notify).toEqual(["just a note"]);
  });
  it("should report a failing inline test when rules load, without enforcing it", async () => {
    mkdirSync(join(tp.project, ".pi"));
    const rules = [{ name: "no-foo", action: "block", pattern: "foo", tests: [{ command: "echo bar", expect: "block" }, { command: "foo", expect: "block" }] }];
    atomicWrite(join(tp.project, ".pi/shepherd-rules.json"), rules);
    sc = new Sidecar(tp.project, tp.env);
    const note = await sc.waitFor((m) => m.method === "notifications/message" && JSON.stringify(m.params).includes("inline test"));
    const text = JSON.stringify(note.params);
    expect(text).toContain("[0].tests[0]");
    expect(text).not.toContain("[0].tests[1]");
    expect((await sc.evaluate(bashEvent("foo", tp.project))).action).toBe("block");
  });
});
