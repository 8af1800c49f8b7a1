/** @module unit tests: hook processes answering from a snapshot of the merged rules answer as from the files, and never from a stale one. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHook } from "../hook/run.ts";
import { loadRuleText } from "../engine/load.ts";
import { EventView, matchStatic } from "../engine/match.ts";
import { candidates, defaultRegexCompiler, mergeLayers, preselectedRuleSet } from "../engine/merge.ts";
import { patternsOf } from "../engine/prepared.ts";
import { SELECT_CASES, SELECT_RULES } from "../engine/select/select.cases.ts";
import { isPowerShellTool } from "../engine/tools.ts";
import type { HookEvent } from "../engine/schema.ts";
import { fileRuleSnapshots, type RuleSnapshots } from "./hook-snapshot.ts";
import { homeDir } from "./paths.ts";

let root = "";
let proj = "";
let env: Record<string, string> = {};
let hits = 0;
let misses = 0;
/** Names of the rules the last snapshot hit handed over. */
let loaded: string[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-snapshot-"));
  proj = join(root, "proj");
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  mkdirSync(join(proj, ".pi"), { recursive: true });
  hits = 0;
  misses = 0;
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A store counting hits and misses, over the real file store. */
function counting(events: readonly HookEvent[]): RuleSnapshots {
  const inner = fileRuleSnapshots(join(root, "cache"), "test-salt", events, homeDir(env));
  return {
    load(cwd, key) {
      const rules = inner.load(cwd, key);
      if (rules) hits++;
      else misses++;
      loaded = rules?.map((r) => r.name) ?? [];
      return rules;
    },
    save: (cwd, key, set, prints) => inner.save(cwd, key, set, prints),
    prints: (cwd) => inner.prints?.(cwd),
    refreshPrints: (cwd, key, prints) => inner.refreshPrints?.(cwd, key, prints),
  };
}

/** The stored snapshot's header, edited in place (its ranges count from the end of the header line). */
function editHeader(edit: (header: { prints?: { at: number; files: Record<string, [string, string]> } }) => void): void {
  const dir = join(root, "cache");
  const name = readdirSync(dir).find((n) => n.startsWith("snapshot-"));
  if (!name) throw new Error("no snapshot stored");
  const bytes = readFileSync(join(dir, name));
  const nl = bytes.indexOf(10);
  const header = JSON.parse(bytes.subarray(0, nl).toString("utf8"));
  edit(header);
  writeFileSync(join(dir, name), Buffer.concat([Buffer.from(JSON.stringify(header)), bytes.subarray(nl)]));
}

function storedPrints(): { at: number; files: Record<string, [string, string]> } | undefined {
  let out: { at: number; files: Record<string, [string, string]> } | undefined;
  editHeader((h) => void (out = h.prints));
  return out;
}

/** Past the racy window of a file just written (lib/rules/host.ts): its identity then proves its content. */
const settle = () => Bun.sleep(120);

async function bash(command: string, withSnapshots: boolean): Promise<string> {
  let out = "";
  await runHook("claude-code", {
    env,
    cwd: proj,
    readStdin: () => JSON.stringify({ session_id: "s1", cwd: proj, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } }),
    writeOut: (t) => void (out += t),
    writeErr: () => {},
    ...(withSnapshots ? { snapshots: counting } : {}),
  });
  return out;
}

function projectRules(rules: unknown[]): void {
  writeFileSync(join(proj, ".pi", "shepherd-rules.json"), JSON.stringify(rules));
}

function trust(): void {
  writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [realpathSync(proj)] } }));
}

describe("hook snapshots", () => {
  it("should answer from a snapshot exactly as from the rule files", async () => {
    trust();
    const rules: unknown[] = [];
    for (let i = 0; i < 60; i++) rules.push({ name: `r${i}`, action: i % 3 === 0 ? "block" : "notify", pattern: `\\bprog${i}\\b.*--flag${i}`, reason: `rule ${i}` });
    rules.push({ name: "no-literal", action: "notify", pattern: "^\\S+$", reason: "one word" });
    rules.push({ name: "edits", tool: "edit", action: "block", conditions: [{ field: "path", pattern: "secret\\.txt$" }], reason: "no secrets" });
    projectRules(rules);
    const commands = ["prog3 run --flag3", "prog4 --flag4", "ls", "git status --short", "prog30 x --flag30 && prog31 --flag31", "rm -rf /"];
    const fromFiles = await Promise.all(commands.map((c) => bash(c, false)));
    await bash("ls -la", true);
    expect(misses).toBe(1);
    const fromSnapshot: string[] = [];
    for (const c of commands) fromSnapshot.push(await bash(c, true));
    expect(hits).toBe(commands.length);
    expect(fromSnapshot).toEqual(fromFiles);
    expect(fromSnapshot[0]).toContain('"deny"');
  });

  it("should hand over a gated rule only when one of its literals occurs in the event's text", async () => {
    trust();
    const rules: unknown[] = [];
    for (let i = 0; i < 40; i++) rules.push({ name: `r${i}`, action: "block", pattern: `\\bprog${i}x\\b|\\bother${i}y\\b`, flags: "i", reason: `rule ${i}` });
    rules.push({ name: "short", action: "notify", pattern: "\\bzq\\b", reason: "a literal shorter than an n-gram: filed under its 2-gram" });
    rules.push({ name: "by-path", tool: "edit", action: "block", conditions: [{ field: "path", pattern: "Secret\\.txt$", flags: "i" }], reason: "no secrets" });
    projectRules(rules);
    await bash("true", true);
    const project = () => loaded.filter((n) => /^r\d|^short$|^by-path$/.test(n));
    expect(await bash("PROG7X run", true)).toContain('"deny"');
    expect(project()).toEqual(["r7"]);
    expect(await bash("echo other12y && prog30x", true)).toContain('"deny"');
    expect(project()).toEqual(["r12", "r30"]);
    expect(await bash("ls", true)).not.toContain('"deny"');
    expect(project()).toEqual([]);
    expect(await bash("echo ZQ", true)).not.toContain('"deny"');
    expect(project()).toEqual(["short"]);
    expect(await bash(`${"x".repeat(5000)} prog39x`, true)).toContain('"deny"');
    expect(project()).toEqual(["r39"]);
  });

  it("should hand over a `command` rule only when its program runs in the line, answering as from the files", async () => {
    trust();
    projectRules([
      { name: "no-shred", action: "block", command: { program: "shred" }, reason: "no shred" },
      { name: "no-dd-of", action: "block", command: { program: ["dd", "ddrescue"], args: "\\bof=" }, reason: "no dd" },
      { name: "no-py-rm", action: "block", command: { program: "python*", args: "rmtree" }, reason: "globs are tested too" },
    ]);
    const cases: [string, string[]][] = [
      ["ls -la", []],
      ["cd /tmp && shred -u a", ["no-shred"]],
      ["echo shred python3", []],
      ["sudo ddrescue if=/dev/sda of=x", ["no-dd-of"]],
      ["env python3.12 -c 'import shutil; shutil.rmtree(\"/x\")'", ["no-py-rm"]],
    ];
    const fromFiles = await Promise.all(cases.map(([c]) => bash(c, false)));
    await bash("true", true);
    for (const [i, [command, names]] of cases.entries()) {
      expect(await bash(command, true)).toEqual(fromFiles[i] as string);
      expect(loaded.filter((n) => n.startsWith("no-"))).toEqual(names);
    }
    expect(hits).toBe(cases.length);
    expect(fromFiles[1]).toContain('"deny"');
    expect(fromFiles[2]).not.toContain('"deny"');
  });

  it("should not serve a snapshot once a rule file changed, even at the same size", async () => {
    trust();
    projectRules([{ name: "guard", action: "block", pattern: "\\bshred\\b", reason: "no shred" }]);
    expect(await bash("shred a", true)).toContain('"deny"');
    expect(await bash("shred a", true)).toContain('"deny"');
    expect(hits).toBe(1);
    // Same length, other program: a stale snapshot would still block shred and allow wipe.
    projectRules([{ name: "guard", action: "block", pattern: "\\bwiped\\b", reason: "no shred" }]);
    expect(await bash("shred a", true)).not.toContain('"deny"');
    expect(await bash("wiped a", true)).toContain('"deny"');
  });

  it("should take a settled rule file's fingerprint from the snapshot's prints, not from reading it", async () => {
    trust();
    projectRules([{ name: "guard", action: "block", pattern: "\\bshred\\b", reason: "no shred" }]);
    await settle();
    expect(await bash("shred a", true)).toContain('"deny"');
    const file = realpathSync(join(proj, ".pi", "shepherd-rules.json"));
    const prints = storedPrints();
    expect(Object.keys(prints?.files ?? {}).map((f) => realpathSync(f))).toContain(file);
    expect(await bash("shred a", true)).toContain('"deny"');
    expect(hits).toBe(1);
    // A print that no longer matches the key: the file was not read, so the key made from the print misses;
    // the file is read then, and the key made from its text finds the snapshot.
    editHeader((h) => {
      for (const v of Object.values(h.prints?.files ?? {})) v[1] = "0:forged:print";
    });
    expect(await bash("shred a", true)).toContain('"deny"');
    expect(misses).toBe(2);
    expect(hits).toBe(2);
  });

  it("should read a rule file whose identity had not settled when the prints were taken, and then settle them", async () => {
    trust();
    projectRules([{ name: "guard", action: "block", pattern: "\\bshred\\b", reason: "no shred" }]);
    await settle();
    expect(await bash("shred a", true)).toContain('"deny"');
    // Taken at the file's own last change (racily clean): the forged print must not be believed.
    editHeader((h) => {
      if (!h.prints) throw new Error("no prints stored");
      h.prints.at = 0;
      for (const v of Object.values(h.prints.files)) v[1] = "0:forged:print";
    });
    expect(await bash("shred a", true)).toContain('"deny"');
    expect(hits).toBe(1);
    // The file was read and had settled by then: the prints are taken again, so the next hooks need not read it.
    const again = storedPrints();
    expect(again?.at).toBeGreaterThan(0);
    expect(Object.values(again?.files ?? {}).map((v) => v[1])).not.toContain("0:forged:print");
    expect(await bash("shred a", true)).toContain('"deny"');
    expect(hits).toBe(2);
  });

  it("should read a rule file again once its stat identity changed, and answer from its new rules", async () => {
    trust();
    projectRules([{ name: "guard", action: "block", pattern: "\\bshred\\b", reason: "no shred" }]);
    await settle();
    expect(await bash("shred a", true)).toContain('"deny"');
    projectRules([{ name: "guard", action: "block", pattern: "\\bwiped\\b", reason: "no shred" }]);
    await settle();
    expect(await bash("shred a", true)).not.toContain('"deny"');
    expect(await bash("wiped a", true)).toContain('"deny"');
    expect(misses).toBe(2);
  });

  it("should not serve a snapshot across a change of trust", async () => {
    writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify([{ name: "no-rm", action: "block", pattern: "\\brm\\b", reason: "no rm" }]));
    projectRules([{ name: "no-rm", enabled: false }]);
    // Untrusted: the project may not switch off the user's rule.
    expect(await bash("rm x", true)).toContain('"deny"');
    expect(await bash("rm x", true)).toContain('"deny"');
    trust();
    expect(await bash("rm x", true)).not.toContain('"deny"');
  });

  it("should keep rules a rewrite can reach, whatever the original command", async () => {
    trust();
    projectRules([
      { name: "ci", action: "rewrite", pattern: "^npm test$", rewrite: { replace: "npm test --forbidden" }, reason: "in CI mode" },
      { name: "forbidden", action: "block", pattern: "--forbidden", reason: "no forbidden flag" },
    ]);
    const fromFiles = await bash("npm test", false);
    await bash("npm test", true);
    const fromSnapshot = await bash("npm test", true);
    expect(hits).toBe(1);
    expect(fromSnapshot).toEqual(fromFiles);
    expect(fromSnapshot).toContain('"deny"');
  });

  it("should never store rules that need plugins", async () => {
    trust();
    projectRules([{ name: "ext", action: "page-someone", pattern: "deploy", reason: "x" }]);
    await bash("deploy now", true);
    await bash("deploy now", true);
    expect(hits).toBe(0);
  });
});

describe("hook snapshot selection", () => {
  const file = "/p/.pi/shepherd-rules.json";
  const loadedRules = loadRuleText(JSON.stringify(SELECT_RULES), { file, source: "project" });
  const set = mergeLayers([{ source: "project", files: [{ file, rules: loadedRules.rules }] }]);

  // The table every Selector answers (lib/engine/select/select.cases.ts), here through the file a hook reads.
  for (const c of SELECT_CASES) {
    it(`should pick as the table says: ${c.name}`, () => {
      const dir = join(root, "cache");
      fileRuleSnapshots(dir, "salt", [], "/home/u").save("/p", "key", set);
      const picked = fileRuleSnapshots(dir, "salt", [c.event], "/home/u").load("/p", "key");
      expect(picked).toBeDefined();
      const fromSnapshot = preselectedRuleSet(picked ?? [], [], defaultRegexCompiler);
      expect(fromSnapshot.preselected).toBe(true);
      const view = new EventView(c.event);
      const names = candidates(fromSnapshot, c.event.hook, view.tool).map((cr) => cr.rule.name);
      for (const n of c.picks) expect(names).toContain(n);
      for (const n of c.skips) expect(names).not.toContain(n);
      // Never drops a rule the sidecar's list would match, and keeps its order.
      const shell = { cwd: "/p", projectRoot: "/p", home: "/home/u", ...(c.event.tool && isPowerShellTool(c.event.tool.name) ? { dialect: "powershell" as const } : {}) };
      const full = candidates(set, c.event.hook, view.tool);
      const matching = full.filter((cr) => matchStatic(cr, view, shell, false) === undefined).map((cr) => cr.rule.name);
      for (const n of matching) expect(names).toContain(n);
      const order = names.map((n) => full.findIndex((cr) => cr.rule.name === n));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    });
  }
});

describe("hook snapshot prepared rules", () => {
  it("should hand over every rule with its keys and the analysis of each pattern it compiles, so a hook parses no regex", () => {
    const file = "/p/.pi/shepherd-rules.json";
    const loadedRules = loadRuleText(JSON.stringify(SELECT_RULES), { file, source: "project" });
    const set = mergeLayers([{ source: "project", files: [{ file, rules: loadedRules.rules }] }]);
    const dir = join(root, "cache");
    fileRuleSnapshots(dir, "salt", [], "/home/u").save("/p", "key", set);
    const events = SELECT_CASES.map((c) => c.event);
    const picked = fileRuleSnapshots(dir, "salt", events, "/home/u").load("/p", "key") ?? [];
    expect(picked.length).toBeGreaterThan(10);
    for (const rule of picked) {
      const prepared = rule.prepared;
      expect(prepared).toBeDefined();
      expect(Array.isArray(prepared?.keys)).toBe(true);
      const analyses = prepared?.analyses ?? [];
      expect(analyses.length).toBe(patternsOf(rule).length);
      for (const a of analyses) expect(a).not.toBeNull();
    }
  });
});
