/** @module unit tests: the registry loads plugin folders into a worker, resolves clashes, contains failures. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginCallArgs } from "../engine/evaluate.ts";
import type { LoadIssue, Rule } from "../engine/schema.ts";
import { emptyState } from "../engine/state.ts";
import { pluginFiles, PluginRegistry } from "./registry.ts";

let root = "";
let registry: PluginRegistry | undefined;
let reported: LoadIssue[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-registry-"));
  reported = [];
});
afterEach(() => {
  registry?.close();
  registry = undefined;
  rmSync(root, { recursive: true, force: true });
});

function plugin(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `import { definePlugin } from "shepherd:plugin";\nexport default definePlugin(${body});\n`);
  return file;
}

function args(hook: "tool_call" | "agent_end" = "tool_call"): PluginCallArgs {
  return { event: { hook, session: { id: "s", cwd: root }, tool: { name: "bash", input: { command: "ls" } } }, rule: { name: "r" } as Rule, options: {}, session: emptyState() };
}

function make(opts: { timeoutMs?: number; failMode?: "open" | "closed" } = {}): PluginRegistry {
  registry = new PluginRegistry({ ...opts, onIssue: (i) => reported.push(i) });
  return registry;
}

describe("pluginFiles", () => {
  it("should list plugin files sorted, without tests, declarations, dotfiles or sub-folders", () => {
    for (const f of ["b.ts", "a.mjs", "a.test.ts", "x.d.ts", ".hidden.ts", "notes.md"]) writeFileSync(join(root, f), "");
    mkdirSync(join(root, "lib"));
    expect(pluginFiles(root)).toEqual([join(root, "a.mjs"), join(root, "b.ts")]);
  });
});

describe("PluginRegistry", () => {
  it("should load the built-in plugins and a folder, and say which file provides what", async () => {
    const file = plugin(join(root, "g"), "mine.ts", `{ name: "mine", actions: { mine: () => ({ notify: ["hi"] }) } }`);
    const r = await make().load([{ dir: "plugins", source: "builtin" }, { dir: join(root, "g"), source: "global" }], { trusted: false });
    expect([...r.actions].sort()).toEqual(["debug_leftovers", "line_guard", "mine"]);
    expect([...r.checks].sort()).toEqual(["tests_missing", "tests_ran"]);
    expect(registry?.describe().find((p) => p.actions.includes("mine"))).toMatchObject({ file, source: "global", name: "mine", status: "loaded" });
    expect(await registry?.host().runAction?.("mine", args())).toEqual({ notify: ["hi"] });
  });

  it("should skip project plugins of an untrusted project, with the command to trust", async () => {
    plugin(join(root, "p"), "proj.ts", `{ actions: { proj: () => undefined } }`);
    const r = await make().load([{ dir: join(root, "p"), source: "project" }], { trusted: false, projectDir: root });
    expect(r.actions.size).toBe(0);
    expect(r.issues[0]?.message).toContain(`shepherd trust ${root}`);
    expect(registry?.describe()[0]?.status).toBe("skipped");
    const trusted = await registry?.reload({ trusted: true, projectDir: root });
    expect([...(trusted?.actions ?? [])]).toEqual(["proj"]);
  });

  it("should report a name clash naming both files and keep the first", async () => {
    const first = plugin(join(root, "g"), "a.ts", `{ actions: { same: () => ({ notify: ["a"] }) } }`);
    const second = plugin(join(root, "g"), "b.ts", `{ actions: { same: () => ({ notify: ["b"] }), other: () => undefined } }`);
    const r = await make().load([{ dir: join(root, "g"), source: "global" }], { trusted: true });
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({ file: second, severity: "error" });
    expect(r.issues[0]?.message).toContain(first);
    expect(await registry?.host().runAction?.("same", args())).toEqual({ notify: ["a"] });
  });

  it.each([
    ["no default export", `import "shepherd:plugin";\nexport const x = 1;\n`, "no default export"],
    ["a syntax error", "export default {", "failed to load"],
    ["a throwing top level", `throw new Error("nope");\n`, "nope"],
    ["a non-function action", `export default { actions: { a: 1 } };\n`, "must be a function"],
    ["a built-in name", `export default { actions: { block: () => undefined } };\n`, "built into Shepherd"],
  ])("should report a plugin with %s as a load error naming the file", async (_what, text, message) => {
    mkdirSync(join(root, "g"));
    writeFileSync(join(root, "g", "bad.ts"), text);
    const r = await make().load([{ dir: join(root, "g"), source: "global" }], { trusted: true });
    expect(r.issues[0]?.file).toBe(join(root, "g", "bad.ts"));
    expect(r.issues[0]?.message).toContain(message);
  });

  it("should contain a throw, garbage, a hang and an endless loop, and keep serving", async () => {
    plugin(
      join(root, "g"),
      "bad.ts",
      `{ actions: {
        ok: () => ({ action: "block", reason: "fine" }),
        throws: () => { throw new Error("kaboom"); },
        garbage: () => ({ action: "explode" }),
        hangs: () => new Promise(() => {}),
        spins: () => { for (;;) {} },
      }, checks: { notBool: () => "yes" } }`,
    );
    const reg = make({ timeoutMs: 200 });
    await reg.load([{ dir: join(root, "g"), source: "global" }], { trusted: true });
    const host = reg.host();
    const throws = await host.runAction?.("throws", args());
    expect(throws?.action).toBe("block");
    expect(throws?.reason).toContain("kaboom");
    expect(throws?.reason).toContain("bad.ts");
    expect((await host.runAction?.("garbage", args()))?.reason).toContain("malformed");
    expect((await host.runAction?.("hangs", args()))?.reason).toContain("time budget");
    expect((await host.runAction?.("spins", args()))?.reason).toContain("time budget");
    expect(await host.runAction?.("ok", args())).toEqual({ action: "block", reason: "fine" });
    expect(await host.runCheck?.("notBool", args("agent_end"))).toBe(false);
    expect(reported.map((i) => i.path)).toEqual(["actions.throws", "actions.garbage", "actions.hangs", "actions.spins", "checks.notBool"]);
    expect(reg.describe()[0]?.failures).toBe(5);
  });

  it("should have no opinion on a failed action when failing open", async () => {
    plugin(join(root, "g"), "bad.ts", `{ actions: { throws: () => { throw new Error("x"); } } }`);
    const reg = make({ failMode: "open" });
    await reg.load([{ dir: join(root, "g"), source: "global" }], { trusted: true });
    expect(await reg.host().runAction?.("throws", args())).toBeUndefined();
    expect(reported).toHaveLength(1);
  });
});
