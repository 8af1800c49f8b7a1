/**
 * @module black-box tests of the managed policy (`$SHEPHERD_MANAGED_DIR`, default /etc/shepherd/) against
 * `dist/shepherd`: its rules are locked for every layer, its settings tighten only, a broken managed file is
 * read most restrictively and named, and the agent cannot write to the folder.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, Sidecar } from "./helpers/sidecar-client.ts";

let root = "";
let project = "";
let managed = "";
let agent = "";
let env: Record<string, string> = {};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-managed-bb-"));
  project = join(root, "p");
  managed = join(root, "managed");
  agent = join(root, "agent");
  for (const d of [join(project, ".pi"), managed, agent, join(root, "home")]) mkdirSync(d, { recursive: true });
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), PI_CODING_AGENT_DIR: agent, SHEPHERD_MANAGED_DIR: managed, SHEPHERD_LOG: "error" };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const ORG_RULE = { name: "org-no-shred", action: "block", pattern: "\\bshred\\b", reason: "org policy: no shred" };
const PROJECT_RULE = { name: "proj-word", action: "block", pattern: "projectword", reason: "project says no" };

function hook(tool: string, input: Record<string, unknown>): string {
  const stdin = JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "PreToolUse", tool_name: tool, tool_input: input });
  const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: project, env, input: stdin, encoding: "utf8" });
  expect(res.status).toBe(0);
  return res.stdout;
}
const bash = (command: string) => hook("Bash", { command });

function list(): { managed: Record<string, unknown>; rules: { name: string; source: string; status: string; locked: boolean; reason?: string }[]; issues: { file: string; message: string; severity: string }[] } {
  const res = spawnSync(BINARY, ["rules", "list", "--json"], { cwd: project, env, encoding: "utf8" });
  expect(res.status).toBe(0);
  return JSON.parse(res.stdout);
}

describe("managed policy (binary)", () => {
  it("should enforce a managed rule that no global or project rule can override or disable, and list it first", () => {
    writeFileSync(join(managed, "managed-rules.json"), JSON.stringify({ rules: [ORG_RULE] }));
    writeFileSync(join(agent, "shepherd-rules.json"), JSON.stringify([{ name: "org-no-shred", action: "notify", pattern: "never" }]));
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { unlockBuiltins: ["org-no-shred"], trustedProjects: [project] } }));
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify([{ name: "org-no-shred", enabled: false }]));
    // Twice: from the files, then from the hook's snapshot.
    for (let i = 0; i < 2; i++) expect(bash("shred -u notes.txt")).toContain("org policy: no shred");
    const listed = list();
    expect(listed.rules[0]).toMatchObject({ name: "org-no-shred", source: "managed", status: "active", locked: true });
    const others = listed.rules.filter((r) => r.name === "org-no-shred" && r.source !== "managed");
    expect(others.map((r) => [r.source, r.status])).toEqual([["global", "skipped"], ["project", "skipped"]]);
    for (const r of others) expect(r.reason).toContain("locked by managed");
  });

  it("should follow a change of the managed rules past the hook's snapshot", () => {
    writeFileSync(join(managed, "managed-rules.json"), JSON.stringify({ rules: [ORG_RULE] }));
    expect(bash("shred x")).toContain("deny");
    writeFileSync(join(managed, "managed-rules.json"), JSON.stringify({ rules: [{ ...ORG_RULE, pattern: "\\bwipe\\b", reason: "now wipe" }] }));
    expect(bash("shred x").trim()).toBe("{}");
    expect(bash("wipe x")).toContain("now wipe");
  });

  it("should load no project rule file when the managed settings say projectRules: false, and say so", () => {
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify([PROJECT_RULE]));
    expect(bash("echo projectword")).toContain("project says no");
    writeFileSync(join(managed, "managed-settings.json"), JSON.stringify({ projectRules: false }));
    expect(bash("echo projectword").trim()).toBe("{}");
    const listed = list();
    expect(listed.managed).toMatchObject({ projectRules: false });
    expect(listed.rules.some((r) => r.name === "proj-word")).toBe(false);
    expect(listed.issues.some((i) => i.file.endsWith("shepherd-rules.json") && i.message.includes("does not allow project rules"))).toBe(true);
  });

  it.each([
    ["managed-settings.json", "{ not json"],
    ["managed-rules.json", '{"rules": [{"name": "x", "action": "block"'],
    ["managed-rules.json", JSON.stringify({ rules: [{ name: "bad", action: "block", pattern: "(" }] })],
  ])("should read a broken %s most restrictively, loudly", (file, text) => {
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify([PROJECT_RULE]));
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { failMode: "open" } }));
    writeFileSync(join(managed, file), text);
    expect(bash("echo projectword").trim()).toBe("{}");
    const listed = list();
    expect(listed.managed).toMatchObject({ failMode: "closed", projectRules: false });
    expect(String(listed.managed.broken)).toContain(file);
    expect(listed.issues.some((i) => i.severity === "error" && i.message.includes("most restrictive reading applies"))).toBe(true);
    const text_ = spawnSync(BINARY, ["rules", "list"], { cwd: project, env, encoding: "utf8" }).stdout;
    expect(text_).toContain("Managed policy: UNREADABLE");
  });

  it("should name a broken managed file in the sidecar's status, and count managed rules as a layer", async () => {
    writeFileSync(join(managed, "managed-rules.json"), JSON.stringify({ rules: [ORG_RULE] }));
    writeFileSync(join(managed, "managed-settings.json"), "{ nope");
    const sc = new Sidecar(project, env);
    try {
      const status = (await sc.request("shepherd/status", {})).result as { rules: Record<string, number>; managed: Record<string, unknown>; issues: { message: string }[] };
      expect(status.rules.managed).toBe(1);
      expect(status.managed).toMatchObject({ failMode: "closed", projectRules: false });
      expect(String(status.managed.broken)).toContain("managed-settings.json");
      expect(status.issues.some((i) => i.message.includes("most restrictive reading applies"))).toBe(true);
    } finally {
      await sc.close();
    }
  });

  it("should let an administrator check a draft managed rule file with rules check --layer managed", () => {
    const draft = join(root, "draft.json");
    writeFileSync(draft, JSON.stringify({ rules: [ORG_RULE] }));
    expect(spawnSync(BINARY, ["rules", "check", draft, "--layer", "managed"], { cwd: project, env, encoding: "utf8" }).status).toBe(0);
    writeFileSync(draft, JSON.stringify({ rules: [{ ...ORG_RULE, pattern: "(" }] }));
    const bad = spawnSync(BINARY, ["rules", "check", draft, "--layer", "managed"], { cwd: project, env, encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("rules[0].pattern");
  });

  it("should pick up a managed rule file written while the sidecar runs", async () => {
    const sc = new Sidecar(project, env);
    try {
      const ev = { hook: "tool_call", session: { id: "s1", cwd: project }, tool: { name: "bash", input: { command: "shred x" } } };
      expect((await sc.evaluate(ev)).action).toBe("allow");
      writeFileSync(join(managed, "managed-rules.json"), JSON.stringify({ rules: [ORG_RULE] }));
      let action: unknown = "";
      for (let i = 0; i < 100 && action !== "block"; i++) {
        await Bun.sleep(50);
        action = (await sc.evaluate(ev)).action;
      }
      expect(action).toBe("block");
    } finally {
      await sc.close();
    }
  });

  it("should close the fail mode a global setting opened: a plugin that runs past its budget is then a block", () => {
    const plugins = join(agent, "shepherd", "plugins");
    mkdirSync(plugins, { recursive: true });
    writeFileSync(join(plugins, "hang.ts"), 'import { definePlugin } from "shepherd:plugin";\nexport default definePlugin({ name: "hang", actions: { hang_forever: () => { for (;;) {} } } });\n');
    writeFileSync(join(agent, "shepherd-rules.json"), JSON.stringify([{ name: "hangs", action: "hang_forever", pattern: "." }]));
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { failMode: "open", pluginTimeoutMs: 300 } }));
    // The user's open fail mode lets the call through...
    expect(bash("ls").trim()).toBe("{}");
    // ...until the managed policy closes it.
    writeFileSync(join(managed, "managed-settings.json"), JSON.stringify({ failMode: "closed" }));
    expect(bash("ls")).toContain('because failMode is \\"closed\\"');
    expect(list().managed).toMatchObject({ failMode: "closed" });
  });

  it.each([
    ["Write", (dir: string) => ({ file_path: join(dir, "managed-rules.json"), content: "{}" })],
    ["Bash", (dir: string) => ({ command: `echo '{}' > ${join(dir, "managed-settings.json")}` })],
    ["Bash", () => ({ command: "rm -rf /etc/shepherd" })],
  ])("should block the agent's %s to the managed folder", (tool, input) => {
    expect(hook(tool, input(managed))).toContain('"permissionDecision":"deny"');
  });
});
