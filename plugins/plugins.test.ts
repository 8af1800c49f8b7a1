/** @module unit tests: the bundled plugins, called directly with hand-made events and sessions. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyState, recordCommand, recordEdit } from "../lib/engine/state.ts";
import { BUILTIN_PLUGINS } from "../lib/plugins/builtin.ts";
import type { HookEvent, PluginCallArgs, Rule, SessionState } from "../lib/plugins/api.ts";
import debugLeftovers from "./debug-leftovers.ts";
import lineGuard from "./line-guard.ts";
import testsRan from "./tests-ran.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-plugins-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const rule = { name: "r" } as Rule;

function call(tool: string, input: Record<string, unknown>, options: Record<string, unknown> = {}, session: SessionState = emptyState()): PluginCallArgs {
  const event: HookEvent = { hook: "tool_call", session: { id: "s", cwd: dir }, tool: { name: tool, input } };
  return { event, rule, options, session };
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n") + "\n";

describe("BUILTIN_PLUGINS", () => {
  it("should list every plugin file in plugins/", () => {
    const files = readdirSync(import.meta.dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).map((f) => `plugins/${f}`);
    expect(BUILTIN_PLUGINS.map((p) => p.file).sort()).toEqual(files.sort());
  });
});

describe("line_guard", () => {
  const guard = lineGuard.actions.line_guard;

  it("should block a write longer than maxLines", () => {
    const r = guard(call("write", { path: "a.ts", content: lines(11) }, { maxLines: 10 }));
    expect(r).toMatchObject({ action: "block" });
    expect(r && "reason" in r ? r.reason : "").toContain("11 lines");
  });

  it("should allow a write within the limit", () => {
    expect(guard(call("write", { path: "a.ts", content: lines(10) }, { maxLines: 10 }))).toBeUndefined();
  });

  it("should count the file after a Claude Code edit", () => {
    writeFileSync(join(dir, "a.ts"), lines(9));
    const grow = call("Edit", { file_path: join(dir, "a.ts"), old_string: "line 0\n", new_string: "line 0\nx\ny\n" }, { maxLines: 10 });
    expect(guard(grow)).toMatchObject({ action: "block" });
  });

  it("should let an edit shrink a file that is already too long", () => {
    writeFileSync(join(dir, "a.ts"), lines(20));
    const shrink = call("edit", { path: "a.ts", edits: [{ oldText: "line 1\n", newText: "" }] }, { maxLines: 10 });
    expect(guard(shrink)).toBeUndefined();
  });

  it("should skip excluded paths", () => {
    expect(guard(call("write", { path: "a.lock", content: lines(50) }, { maxLines: 10, exclude: "\\.lock$" }))).toBeUndefined();
  });
});

describe("tests_ran / tests_missing", () => {
  const { tests_ran: ran, tests_missing: missing } = testsRan.checks;

  it("should be missing after an edit with no test command since", () => {
    const s = emptyState();
    recordCommand(s, "npm test", true);
    recordEdit(s);
    recordCommand(s, "git status", true);
    expect(ran(call("bash", {}, {}, s))).toBe(false);
    expect(missing(call("bash", {}, {}, s))).toBe(true);
  });

  it("should be satisfied by a test command after the last edit", () => {
    const s = emptyState();
    recordEdit(s);
    recordCommand(s, "bun test lib/", false);
    expect(ran(call("bash", {}, {}, s))).toBe(true);
    expect(missing(call("bash", {}, {}, s))).toBe(false);
  });

  it("should not count a failing run with requirePass", () => {
    const s = emptyState();
    recordEdit(s);
    recordCommand(s, "pytest -q", false);
    expect(missing(call("bash", {}, { requirePass: true }, s))).toBe(true);
  });

  it("should use a custom pattern", () => {
    const s = emptyState();
    recordEdit(s);
    recordCommand(s, "./check.sh", true);
    expect(ran(call("bash", {}, { pattern: "check\\.sh" }, s))).toBe(true);
  });

  it("should not ask for tests when nothing was edited in this run", () => {
    expect(missing(call("bash", {}, {}, emptyState()))).toBe(false);
  });
});

describe("debug_leftovers", () => {
  const detect = debugLeftovers.actions.debug_leftovers;

  it("should steer on a console.log an edit adds", () => {
    const r = detect(call("edit", { path: "src/a.ts", oldText: "a()", newText: "a()\nconsole.log(x)" }));
    expect(r?.steer?.[0]).toContain("console.log(x)");
  });

  it("should ignore a console.log the edit only keeps", () => {
    expect(detect(call("edit", { path: "src/a.ts", oldText: "console.log(x)\na()", newText: "console.log(x)\nb()" }))).toBeUndefined();
  });

  it("should compare a write with the file on disk", () => {
    writeFileSync(join(dir, "a.py"), "breakpoint()\n");
    expect(detect(call("write", { path: "a.py", content: "breakpoint()\nx = 1\n" }))).toBeUndefined();
    expect(detect(call("write", { path: "a.py", content: "breakpoint()\nbreakpoint()\n" }))).toBeDefined();
  });

  it("should block in block mode and skip test files", () => {
    expect(detect(call("write", { path: "a.ts", content: "debugger;" }, { mode: "block" }))).toMatchObject({ action: "block" });
    expect(detect(call("write", { path: "a.test.ts", content: "debugger;" }))).toBeUndefined();
  });
});

describe("reading the file a tool call names", () => {
  it.each([
    ["a FIFO", (p: string) => expect(spawnSync("mkfifo", [p]).status).toBe(0)],
    ["a link to /dev/zero", (p: string) => symlinkSync("/dev/zero", p)],
  ])("should not wait on or fill memory from %s", async (_name, make) => {
    const path = join(dir, "target.ts");
    make(path);
    const started = Date.now();
    const guarded = await lineGuard.actions.line_guard(call("edit", { path, oldText: "a", newText: "b" }, { maxLines: 1 }));
    const leftovers = await debugLeftovers.actions.debug_leftovers(call("write", { path, content: "const x = 1;\n" }));
    expect(Date.now() - started).toBeLessThan(2000);
    // An edit of a file that cannot be read has no known line count: no decision.
    expect(guarded).toBeUndefined();
    expect(leftovers).toBeUndefined();
  });
});
