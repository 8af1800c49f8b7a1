/**
 * @module black-box tests of rule packs against `dist/shepherd`: an npm pack from a temp project's node_modules,
 * a git pack from a local bare repository at a pinned commit (file://, no network), the lock file, offline loads
 * from the pack cache, a tampered pack refused with its verified copy used, an untrusted project's pack that
 * cannot loosen, the managed allow-list, and `pack verify`'s exit codes.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, bashEvent, Sidecar } from "./helpers/sidecar-client.ts";

let root = "";
let project = "";
let agent = "";
let managed = "";
let env: Record<string, string> = {};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-packs-bb-"));
  project = join(root, "p");
  agent = join(root, "agent");
  managed = join(root, "managed");
  for (const d of [join(project, ".pi"), agent, managed, join(root, "home")]) mkdirSync(d, { recursive: true });
  env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    PI_CODING_AGENT_DIR: agent,
    SHEPHERD_MANAGED_DIR: managed,
    SHEPHERD_LOG: "error",
    GIT_CONFIG_NOSYSTEM: "1",
  };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const PACK_RULE = { name: "acme-no-shred", action: "block", pattern: "\\bshred\\b", reason: "acme: no shred" };

function run(args: string[], cwd = project): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(BINARY, args, { cwd, env, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function hook(command: string): { stdout: string; stderr: string } {
  const input = JSON.stringify({ session_id: `s-${Math.random()}`, cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
  const r = spawnSync(BINARY, ["hook", "claude-code"], { cwd: project, env, input, encoding: "utf8" });
  expect(r.status).toBe(0);
  return { stdout: r.stdout, stderr: r.stderr };
}

interface Listed {
  rules: { name: string; source: string; file: string; status: string; reason?: string; shadow?: boolean }[];
  issues: { file: string; path: string; message: string; severity: string }[];
}

function list(): Listed {
  const r = run(["rules", "list", "--json"]);
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Listed;
}

/** An npm pack installed in the project's node_modules. */
function npmPack(name: string, rules: unknown[], extra: Record<string, string> = {}): string {
  const dir = join(project, "node_modules", ...name.split("/"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", shepherd: { rules: ["rules.json"] } }));
  writeFileSync(join(dir, "rules.json"), JSON.stringify(rules));
  for (const [f, text] of Object.entries(extra)) writeFileSync(join(dir, f), text);
  return dir;
}

function git(args: string[], cwd: string): string {
  const r = spawnSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], { cwd, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A bare repository holding one commit of a pack; returns its file:// spec pinned at that commit. */
function gitPack(rules: unknown[]): { spec: string; bare: string; commit: string } {
  const src = join(root, "pack-src");
  mkdirSync(src, { recursive: true });
  git(["init", "-q"], src);
  writeFileSync(join(src, "shepherd-rules.json"), JSON.stringify(rules));
  writeFileSync(join(src, "README.md"), "a pack\n");
  git(["add", "."], src);
  git(["commit", "-q", "-m", "pack"], src);
  const commit = git(["rev-parse", "HEAD"], src);
  const bare = join(root, "pack.git");
  git(["clone", "-q", "--bare", src, bare], root);
  return { spec: `git+file://${bare}#${commit}`, bare, commit };
}

const lockOf = (dir = join(project, ".pi")) => JSON.parse(readFileSync(join(dir, "shepherd-rules.lock"), "utf8")) as { packs: Record<string, { kind: string; files: Record<string, string>; version?: string; commit?: string; integrity: string }> };

describe("rule packs (binary)", () => {
  it("should lock an npm pack from node_modules, add it to extends, and enforce its rules from the files and the snapshot", () => {
    npmPack("@acme/guard", [PACK_RULE]);
    const added = run(["pack", "add", "@acme/guard"]);
    expect(added.status).toBe(0);
    const rules = JSON.parse(readFileSync(join(project, ".pi", "shepherd-rules.json"), "utf8"));
    expect(rules.extends).toEqual(["@acme/guard"]);
    const entry = lockOf().packs["@acme/guard"];
    expect(entry).toMatchObject({ kind: "npm", version: "1.0.0" });
    expect(Object.keys(entry?.files ?? {}).sort()).toEqual(["package.json", "rules.json"]);
    for (const sha of Object.values(entry?.files ?? {})) expect(sha).toMatch(/^[0-9a-f]{64}$/);
    for (let i = 0; i < 2; i++) expect(hook("shred notes.txt").stdout).toContain("acme: no shred");
    expect(hook("ls").stdout).not.toContain("deny");
    const listed = list().rules.find((r) => r.name === "acme-no-shred");
    expect(listed).toMatchObject({ source: "project", status: "active" });
    expect(listed?.file).toContain(join("node_modules", "@acme", "guard", "rules.json"));
  });

  it("should fetch a git pack at its pinned commit, and keep loading it from the cache once the repository is gone", () => {
    const { spec, bare, commit } = gitPack([PACK_RULE]);
    expect(run(["pack", "add", spec]).status).toBe(0);
    expect(lockOf().packs[spec]).toMatchObject({ kind: "git", commit });
    expect(Object.keys(lockOf().packs[spec]?.files ?? {}).sort()).toEqual(["README.md", "shepherd-rules.json"]);
    rmSync(bare, { recursive: true, force: true });
    rmSync(join(root, "pack-src"), { recursive: true, force: true });
    expect(hook("shred x").stdout).toContain("acme: no shred");
    const l = list();
    expect(l.rules.find((r) => r.name === "acme-no-shred")?.file).toContain(join(agent, "shepherd", "packs"));
    expect(l.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(run(["pack", "verify"]).status).toBe(0);
  });

  it("should take a pack into a running sidecar when pack add writes the rules and lock files, and report a refused one", async () => {
    const dir = npmPack("acme-pack", [PACK_RULE]);
    const sc = new Sidecar(project, env);
    try {
      expect((await sc.evaluate(bashEvent("shred x", project, "a"))).action).toBe("allow");
      expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
      const until = async (test: (d: Record<string, unknown>) => boolean) => {
        for (let i = 0; i < 300; i++) {
          const d = await sc.evaluate(bashEvent("shred x", project, `poll-${i}`));
          if (test(d)) return d;
          await Bun.sleep(10);
        }
        throw new Error("the sidecar never reloaded the pack");
      };
      expect((await until((d) => d.action === "block")).reason).toBe("acme: no shred");
      // A tampered pack is seen at the next reload (here: the lock file saved again), refused, its verified copy kept.
      writeFileSync(join(dir, "rules.json"), "[]");
      writeFileSync(join(project, ".pi", "shepherd-rules.lock"), readFileSync(join(project, ".pi", "shepherd-rules.lock"), "utf8"));
      await sc.waitFor((m) => JSON.stringify(m).includes('pack \\"acme-pack\\" does not match'));
      expect((await sc.evaluate(bashEvent("shred x", project, "b"))).action).toBe("block");
    } finally {
      await sc.close();
    }
  });

  it("should refuse a git spec that does not pin a full commit", () => {
    const r = run(["pack", "add", "git+file:///nowhere/pack.git#main"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("40-hex commit");
  });

  it("should load an npm pack offline from its verified copy once node_modules is gone", () => {
    const dir = npmPack("acme-pack", [PACK_RULE]);
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    rmSync(dir, { recursive: true, force: true });
    expect(hook("shred x").stdout).toContain("acme: no shred");
    expect(list().issues.filter((i) => i.severity === "error")).toEqual([]);
  });

  it("should refuse a tampered pack loudly, naming pack and file, and use its last verified copy", () => {
    const dir = npmPack("acme-pack", [PACK_RULE]);
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    expect(hook("shred x").stdout).toContain("acme: no shred");
    writeFileSync(join(dir, "rules.json"), JSON.stringify([{ ...PACK_RULE, pattern: "\\bnever-matches\\b", reason: "tampered" }]));
    const h = hook("shred x");
    expect(h.stdout).toContain("acme: no shred");
    expect(h.stderr).toContain('pack "acme-pack" does not match');
    expect(h.stderr).toContain("rules.json");
    const l = list();
    const issue = l.issues.find((i) => i.message.includes('pack "acme-pack"'));
    expect(issue).toMatchObject({ severity: "error", path: "extends[0]" });
    expect(issue?.message).toContain("last verified copy");
    expect(l.rules.find((r) => r.name === "acme-no-shred")?.file).toContain(join(agent, "shepherd", "packs"));
    const check = run(["rules", "check"]);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('pack "acme-pack" does not match');
    expect(run(["doctor", "--json"]).stdout).toContain('pack \\"acme-pack\\" does not match');
  });

  it("should not load a tampered pack that has no verified copy left", () => {
    const dir = npmPack("acme-pack", [PACK_RULE]);
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    rmSync(join(agent, "shepherd", "packs"), { recursive: true, force: true });
    writeFileSync(join(dir, "rules.json"), JSON.stringify([{ ...PACK_RULE, reason: "tampered" }]));
    expect(hook("shred x").stdout).not.toContain("tampered");
    const l = list();
    expect(l.rules.some((r) => r.name === "acme-no-shred")).toBe(false);
    expect(l.issues.find((i) => i.message.includes('pack "acme-pack"'))?.message).toContain("no verified copy is left");
  });

  it("should let an untrusted project's pack add restrictions but not disable or replace built-in and global rules", () => {
    writeFileSync(join(agent, "shepherd-rules.json"), JSON.stringify([{ name: "global-no-wipe", action: "block", pattern: "\\bwipe\\b", reason: "global: no wipe" }]));
    npmPack("loose-pack", [
      { name: "no-checkout-discard", enabled: false },
      { name: "global-no-wipe", action: "notify", pattern: "never", reason: "replaced" },
      { name: "pack-rewrite", action: "rewrite", pattern: "^ls\\b", rewrite: { prefix: "echo" } },
      PACK_RULE,
    ]);
    expect(run(["pack", "add", "loose-pack"]).status).toBe(0);
    expect(hook("git checkout -- a.ts").stdout).toContain("may not be yours");
    expect(hook("wipe disk").stdout).toContain("global: no wipe");
    expect(hook("shred x").stdout).toContain("acme: no shred");
    expect(hook("ls -la").stdout).not.toContain("updatedInput");
    const byName = (l: Listed, name: string) => l.rules.filter((r) => r.name === name && r.source === "project");
    const l = list();
    for (const name of ["no-checkout-discard", "global-no-wipe", "pack-rewrite"]) {
      expect(byName(l, name).map((r) => r.status)).toEqual(["skipped"]);
      expect(byName(l, name)[0]?.reason).toContain("untrusted project");
    }
    // Trusted, the same pack may: the refusal above was the trust check, not a broken pack.
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [project] } }));
    expect(hook("wipe disk").stdout).not.toContain("deny");
    expect(hook("ls -la").stdout).toContain("updatedInput");
    expect(hook("git checkout -- a.ts").stdout).not.toContain("may not be yours");
  });

  it("should load a managed file's pack locked for everyone, whatever the allow-list says", () => {
    npmPack("@corp/policy", [PACK_RULE]);
    expect(run(["pack", "add", "--managed", "@corp/policy"]).status).toBe(0);
    expect(existsSync(join(managed, "shepherd-rules.lock"))).toBe(true);
    writeFileSync(join(managed, "managed-settings.json"), JSON.stringify({ allowedPacks: [] }));
    writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [project] } }));
    writeFileSync(join(project, ".pi", "shepherd-rules-off.json"), JSON.stringify([{ name: "acme-no-shred", enabled: false }]));
    expect(hook("shred x").stdout).toContain("acme: no shred");
    const l = list();
    expect(l.rules[0]).toMatchObject({ name: "acme-no-shred", source: "managed", status: "active" });
    expect(l.rules.find((r) => r.name === "acme-no-shred" && r.source === "project")?.reason).toContain("locked by managed");
  });

  it("should let a global file's pack do what global rules may: turn a built-in rule off", () => {
    npmPack("my-defaults", [{ name: "no-checkout-discard", enabled: false }]);
    expect(hook("git checkout -- a.ts").stdout).toContain("may not be yours");
    expect(run(["pack", "add", "--global", "my-defaults"]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(agent, "shepherd-rules.json"), "utf8")).extends).toEqual(["my-defaults"]);
    expect(lockOf(agent).packs["my-defaults"]).toMatchObject({ kind: "npm" });
    expect(hook("git checkout -- a.ts").stdout).not.toContain("may not be yours");
  });

  it("should put a whole pack in shadow mode when extends says so", () => {
    npmPack("acme-pack", [PACK_RULE]);
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify({ extends: [{ pack: "acme-pack", mode: "shadow" }], rules: [] }));
    expect(hook("shred x").stdout).not.toContain("deny");
    expect(list().rules.find((r) => r.name === "acme-no-shred")).toMatchObject({ status: "active", shadow: true });
  });

  it("should refuse a pack the managed allow-list does not name, in loads and in pack add", () => {
    npmPack("acme-pack", [PACK_RULE]);
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    writeFileSync(join(managed, "managed-settings.json"), JSON.stringify({ allowedPacks: ["@corp/*"] }));
    expect(hook("shred x").stdout).not.toContain("deny");
    const l = list();
    expect(l.rules.some((r) => r.name === "acme-no-shred")).toBe(false);
    expect(l.issues.find((i) => i.message.includes('pack "acme-pack" is refused'))?.message).toContain("allowedPacks");
    npmPack("other-pack", [PACK_RULE]);
    const add = run(["pack", "add", "other-pack"]);
    expect(add.status).toBe(1);
    expect(add.stderr).toContain("allowedPacks");
    expect(run(["pack", "verify"]).status).toBe(1);
    writeFileSync(join(managed, "managed-settings.json"), JSON.stringify({ allowedPacks: ["acme-*"] }));
    expect(hook("shred x").stdout).toContain("acme: no shred");
  });

  it("should load no global pack while the managed settings do not parse (the most restrictive reading)", () => {
    npmPack("acme-pack", [PACK_RULE]);
    expect(run(["pack", "add", "--global", "acme-pack"]).status).toBe(0);
    expect(hook("shred x").stdout).toContain("acme: no shred");
    writeFileSync(join(managed, "managed-settings.json"), "{not json");
    expect(hook("shred x").stdout).not.toContain("acme: no shred");
    const l = list();
    expect(l.issues.some((i) => i.message.includes('pack "acme-pack" is refused') && i.message.includes("allowedPacks"))).toBe(true);
    expect(l.issues.some((i) => i.message.includes("no packs but the managed file's own"))).toBe(true);
  });

  it("should round-trip the lock: update rewrites it byte for byte when nothing changed, and only the changed file otherwise", () => {
    const dir = npmPack("acme-pack", [PACK_RULE], { "NOTES.md": "notes\n" });
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    const lockFile = join(project, ".pi", "shepherd-rules.lock");
    const first = readFileSync(lockFile, "utf8");
    expect(run(["pack", "update"]).status).toBe(0);
    expect(readFileSync(lockFile, "utf8")).toBe(first);
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    expect(readFileSync(lockFile, "utf8")).toBe(first);
    expect(JSON.parse(readFileSync(join(project, ".pi", "shepherd-rules.json"), "utf8")).extends).toEqual(["acme-pack"]);
    const before = lockOf().packs["acme-pack"];
    writeFileSync(join(dir, "rules.json"), JSON.stringify([{ ...PACK_RULE, reason: "acme v2" }]));
    const up = run(["pack", "update", "acme-pack"]);
    expect(up.status).toBe(0);
    expect(up.stdout).toContain("changed: rules.json");
    const after = lockOf().packs["acme-pack"];
    expect(after?.files["rules.json"]).not.toBe(before?.files["rules.json"]);
    expect(after?.files["NOTES.md"]).toBe(before?.files["NOTES.md"] as string);
    expect(hook("shred x").stdout).toContain("acme v2");
    expect(list().issues.filter((i) => i.severity === "error")).toEqual([]);
    // Taken out of extends, a full update drops it from the lock.
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify({ rules: [] }));
    const pruned = run(["pack", "update"]);
    expect(pruned.status).toBe(0);
    expect(pruned.stdout).toContain("(no longer extended): acme-pack");
    expect(lockOf().packs).toEqual({});
  });

  it("should exit 0 from pack verify when every pack matches, 1 when one does not or is not locked, 2 on bad usage", () => {
    const dir = npmPack("acme-pack", [PACK_RULE]);
    expect(run(["pack", "add", "acme-pack"]).status).toBe(0);
    expect(run(["pack", "verify"]).status).toBe(0);
    const json = JSON.parse(run(["pack", "verify", "--json"]).stdout);
    expect(json).toMatchObject({ ok: true, packs: [{ pack: "acme-pack", layer: "project", ok: true }] });
    writeFileSync(join(dir, "rules.json"), "[]");
    const bad = run(["pack", "verify"]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("rules.json");
    writeFileSync(join(dir, "rules.json"), JSON.stringify([PACK_RULE]));
    expect(run(["pack", "verify"]).status).toBe(0);
    writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify({ extends: ["acme-pack", "unlocked-pack"], rules: [] }));
    const unlocked = run(["pack", "verify"]);
    expect(unlocked.status).toBe(1);
    expect(unlocked.stdout).toContain("unlocked-pack");
    expect(run(["pack", "frobnicate"]).status).toBe(2);
    expect(run(["pack", "verify", "extra"]).status).toBe(2);
  });

  it("should fetch a locked git pack missing from the cache in pack verify, and refuse a pack with a symbolic link out of it", () => {
    const { spec } = gitPack([PACK_RULE]);
    expect(run(["pack", "add", spec]).status).toBe(0);
    rmSync(join(agent, "shepherd", "packs"), { recursive: true, force: true });
    expect(list().issues.find((i) => i.message.includes("not found"))?.message).toContain("shepherd pack verify");
    const v = run(["pack", "verify"]);
    expect(v.status).toBe(0);
    expect(v.stdout).toContain("fetched");
    expect(hook("shred x").stdout).toContain("acme: no shred");

    const dir = npmPack("link-pack", [PACK_RULE]);
    writeFileSync(join(root, "outside.txt"), "secret");
    spawnSync("ln", ["-s", join(root, "outside.txt"), join(dir, "escape.txt")]);
    expect(existsSync(join(dir, "escape.txt"))).toBe(true);
    const add = run(["pack", "add", "link-pack"]);
    expect(add.status).toBe(1);
    expect(add.stderr).toContain("symbolic link out of the pack");
  });
});
