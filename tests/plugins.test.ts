/** @module black-box: plugins in the compiled binary: bundled plugins, global and project folders, hot reload, containment, trust. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
let sc: Sidecar | undefined;

beforeEach(() => {
  tp = tempProject("shepherd-plugins-");
});
afterEach(async () => {
  if (sc && sc.child.exitCode === null) await sc.close();
  sc = undefined;
  tp.cleanup();
});

function atomicWrite(file: string, text: string): void {
  mkdirSync(join(file, ".."), { recursive: true });
  const tmp = `${file}.tmp-${Math.random()}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function plugin(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  atomicWrite(file, `import { definePlugin, commandOfEvent } from "shepherd:plugin";\nexport default definePlugin(${body});\n`);
  return file;
}

const globalPlugins = () => join(tp.agentDir, "shepherd", "plugins");
const projectPlugins = () => join(tp.project, ".pi", "shepherd", "plugins");
const globalRules = (rules: unknown[]) => atomicWrite(join(tp.agentDir, "shepherd-rules.json"), JSON.stringify(rules));
const projectRules = (rules: unknown[]) => atomicWrite(join(tp.project, ".pi", "shepherd-rules.json"), JSON.stringify(rules));
const settings = (shepherd: Record<string, unknown>) => atomicWrite(join(tp.agentDir, "settings.json"), JSON.stringify({ shepherd }));

function toolEvent(tool: string, input: Record<string, unknown>, session = "s1", hook = "tool_call") {
  return { hook, session: { id: session, cwd: tp.project }, tool: { name: tool, input } };
}

/** Polls until the decision for `command` has `action` (the sidecar reloads by itself; nothing is sent to trigger it). */
async function until(command: string, action: string): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  for (let i = 0; i < 300; i++) {
    last = (await sc?.evaluate(bashEvent(command, tp.project, `poll-${i}`))) ?? {};
    if (last.action === action) return last;
    await Bun.sleep(10);
  }
  throw new Error(`never became ${action}: ${JSON.stringify(last)}`);
}

const RM_PLUGIN = `{ actions: { no_rm: ({ event, rule }) => commandOfEvent(event)?.startsWith("rm ") ? { action: "block", reason: "no rm: " + rule.name } : undefined } }`;

describe("bundled plugins", () => {
  it("should block a write over the line limit with line_guard", async () => {
    globalRules([{ name: "short-files", tool: ["write", "edit"], action: "line_guard", options: { maxLines: 3 } }]);
    sc = new Sidecar(tp.project, tp.env);
    const long = await sc.evaluate(toolEvent("write", { path: "a.ts", content: "1\n2\n3\n4\n" }));
    expect(long.action).toBe("block");
    expect(String(long.reason)).toContain("4 lines");
    expect((await sc.evaluate(toolEvent("Write", { file_path: "b.ts", content: "1\n2\n" }))).action).toBe("allow");
  });

  it("should remind at agent_end when files were edited and no tests ran since (tests_missing)", async () => {
    globalRules([{ name: "run-tests", hook: "agent_end", check: "tests_missing", action: "steer", reason: "run the tests" }]);
    sc = new Sidecar(tp.project, tp.env);
    await sc.evaluate({ ...toolEvent("edit", { path: "a.ts", oldText: "a", newText: "b" }, "s1", "tool_result"), result: { text: "ok", isError: false } });
    expect((await sc.evaluate({ hook: "agent_end", session: { id: "s1", cwd: tp.project }, stopReason: "stop" })).steer).toEqual(["run the tests"]);

    await sc.evaluate({ ...toolEvent("edit", { path: "a.ts", oldText: "a", newText: "b" }, "s2", "tool_result"), result: { text: "ok", isError: false } });
    await sc.evaluate({ ...toolEvent("bash", { command: "npm test" }, "s2", "tool_result"), result: { text: "1 passed", isError: false } });
    expect((await sc.evaluate({ hook: "agent_end", session: { id: "s2", cwd: tp.project }, stopReason: "stop" })).steer).toEqual([]);
  });

  it("should steer on debugging code a write adds (debug_leftovers)", async () => {
    globalRules([{ name: "no-debug", tool: ["write", "edit"], action: "debug_leftovers" }]);
    sc = new Sidecar(tp.project, tp.env);
    const d = await sc.evaluate(toolEvent("write", { path: "src/a.ts", content: "x()\nconsole.log(x)\n" }));
    expect(d.action).toBe("allow");
    expect(String((d.steer as string[])[0])).toContain("console.log(x)");
  });
});

describe("user plugins", () => {
  it("should load a global plugin that imports shepherd:plugin, with no node_modules", async () => {
    plugin(globalPlugins(), "rm.ts", RM_PLUGIN);
    globalRules([{ name: "g-rm", action: "no_rm" }]);
    sc = new Sidecar(tp.project, tp.env);
    expect(await sc.evaluate(bashEvent("rm -rf x", tp.project))).toMatchObject({ action: "block", reason: "no rm: g-rm" });
    expect((await sc.evaluate(bashEvent("ls", tp.project))).action).toBe("allow");
  });

  it("should resolve a package installed next to the plugin", async () => {
    const pkg = join(globalPlugins(), "node_modules", "shout");
    atomicWrite(join(pkg, "package.json"), JSON.stringify({ name: "shout", version: "1.0.0", main: "index.js" }));
    atomicWrite(join(pkg, "index.js"), "module.exports = (s) => s.toUpperCase();\n");
    atomicWrite(join(globalPlugins(), "loud.ts"), `import { definePlugin } from "shepherd:plugin";\nimport shout from "shout";\nexport default definePlugin({ actions: { loud: () => ({ notify: [shout("quiet")] }) } });\n`);
    globalRules([{ name: "loud", action: "loud" }]);
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("ls", tp.project))).notify).toEqual(["QUIET"]);
  });

  it("should reload a plugin when its file changes, and pick up a folder created after start", async () => {
    projectRules([{ name: "p-rm", action: "no_rm" }]);
    settings({ trustedProjects: [tp.project] });
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("rm -rf x", tp.project))).action).toBe("allow");
    const file = plugin(projectPlugins(), "rm.ts", RM_PLUGIN);
    expect((await until("rm -rf x", "block")).reason).toBe("no rm: p-rm");
    atomicWrite(file, `import { definePlugin } from "shepherd:plugin";\nexport default definePlugin({ actions: { no_rm: () => ({ action: "block", reason: "version 2" }) } });\n`);
    let reason = "";
    for (let i = 0; i < 300 && reason !== "version 2"; i++) {
      reason = String((await sc.evaluate(bashEvent("rm -rf x", tp.project, `v2-${i}`))).reason);
      await Bun.sleep(10);
    }
    expect(reason).toBe("version 2");
  });
});

describe("containment", () => {
  const BAD = `{ actions: {
    throws: () => { throw new Error("kaboom"); },
    garbage: () => ({ action: "explode", reason: 42 }),
    spins: () => { for (;;) {} },
  } }`;

  beforeEach(() => {
    plugin(globalPlugins(), "bad.ts", BAD);
    plugin(globalPlugins(), "rm.ts", RM_PLUGIN);
  });

  it.each([
    ["throws", "throws", "kaboom"],
    ["returns garbage", "garbage", "malformed"],
    ["spins past its time budget", "spins", "time budget of 300 ms"],
  ])("should answer when a plugin action %s, name the file, and keep serving", async (_what, action, message) => {
    settings({ pluginTimeoutMs: 300 });
    globalRules([{ name: "bad", action, pattern: "^trigger" }, { name: "g-rm", action: "no_rm" }]);
    sc = new Sidecar(tp.project, tp.env);
    const d = await sc.evaluate(bashEvent("trigger", tp.project));
    expect(d.action).toBe("block");
    expect(String(d.reason)).toContain(message);
    expect(String(d.reason)).toContain("bad.ts");
    expect(sc.stderr).toContain("bad.ts");
    expect(await sc.evaluate(bashEvent("rm -rf x", tp.project))).toMatchObject({ action: "block", reason: "no rm: g-rm" });
  });

  it("should let the call through when failMode is open", async () => {
    settings({ pluginTimeoutMs: 300, failMode: "open" });
    globalRules([{ name: "bad", action: "throws" }]);
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("ls", tp.project))).action).toBe("allow");
  });

  it("should report a broken plugin file and still load the others", async () => {
    atomicWrite(join(globalPlugins(), "broken.ts"), "export default {");
    globalRules([{ name: "g-rm", action: "no_rm" }]);
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("rm -rf x", tp.project))).action).toBe("block");
    expect(sc.stderr).toContain("broken.ts");
  });
});

describe("trust", () => {
  it("should not run project plugins of an untrusted project, and run them once trusted", async () => {
    plugin(projectPlugins(), "rm.ts", RM_PLUGIN);
    projectRules([{ name: "p-rm", action: "no_rm" }]);
    sc = new Sidecar(tp.project, tp.env);
    expect((await sc.evaluate(bashEvent("rm -rf x", tp.project))).action).toBe("allow");
    expect(sc.stderr).toContain("shepherd trust");

    const res = spawnSync(BINARY, ["trust"], { cwd: tp.project, env: tp.env, encoding: "utf8" });
    expect(res.status).toBe(0);
    expect((await until("rm -rf x", "block")).reason).toBe("no rm: p-rm");

    expect(spawnSync(BINARY, ["trust", "--revoke"], { cwd: tp.project, env: tp.env, encoding: "utf8" }).status).toBe(0);
    await until("rm -rf x", "allow");
  });
});

describe("shepherd rules list", () => {
  it("should say which plugin file provides a rule's action and check", () => {
    mkdirSync(join(tp.project, ".pi"), { recursive: true });
    writeFileSync(
      join(tp.project, ".pi/shepherd-rules.json"),
      JSON.stringify([
        { name: "max-len", tool: ["write", "edit"], action: "line_guard", options: { maxLines: 3 } },
        { name: "wrap", hook: "agent_end", check: "tests_missing", action: "steer", reason: "run tests" },
      ]),
    );
    const res = spawnSync(BINARY, ["rules", "list", "--json"], { cwd: tp.project, env: tp.env, encoding: "utf8" });
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout) as { rules: { name: string; actionFrom?: string; checkFrom?: string }[]; plugins: { file: string; actions: string[] }[] };
    expect(out.rules.find((r) => r.name === "max-len")?.actionFrom).toBe("plugins/line-guard.ts");
    expect(out.rules.find((r) => r.name === "wrap")?.checkFrom).toBe("plugins/tests-ran.ts");
    expect(out.plugins.find((p) => p.file === "plugins/line-guard.ts")?.actions).toEqual(["line_guard"]);
    const table = spawnSync(BINARY, ["rules", "list"], { cwd: tp.project, env: { ...tp.env, NO_COLOR: "1" }, encoding: "utf8" });
    expect(table.stdout).toMatch(/max-len .*action from plugins\/line-guard\.ts/);
  });
});
