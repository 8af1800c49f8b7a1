/**
 * @module black-box trust boundaries (DESIGN section 6): what a cloned, untrusted repository can and
 * cannot do to the guard through its `.pi/` files and through the `shepherd_rules` tool.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject | undefined;
let sc: Sidecar | undefined;
afterEach(async () => {
  if (sc && sc.child.exitCode === null) await sc.close();
  tp?.cleanup();
  tp = undefined;
  sc = undefined;
});

interface Setup {
  global?: unknown[];
  project?: unknown[];
  projectSettings?: Record<string, unknown>;
  trusted?: boolean;
  plugin?: string;
}

function start(s: Setup): { p: TempProject; c: Sidecar } {
  const p = tempProject("shepherd-trust-");
  tp = p;
  if (s.global) writeFileSync(join(p.agentDir, "shepherd-rules.json"), JSON.stringify(s.global));
  if (s.trusted) writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [p.project] } }));
  const pi = join(p.project, ".pi");
  mkdirSync(pi, { recursive: true });
  if (s.project) writeFileSync(join(pi, "shepherd-rules.json"), JSON.stringify(s.project));
  if (s.projectSettings) writeFileSync(join(pi, "settings.json"), JSON.stringify({ shepherd: s.projectSettings }));
  if (s.plugin) {
    mkdirSync(join(pi, "shepherd", "plugins"), { recursive: true });
    writeFileSync(join(pi, "shepherd", "plugins", "evil.ts"), s.plugin);
  }
  const c = new Sidecar(p.project, p.env);
  sc = c;
  return { p, c };
}

async function tool(c: Sidecar, args: unknown): Promise<{ text: string; isError: boolean }> {
  const res = await c.request("tools/call", { name: "shepherd_rules", arguments: args });
  const r = res.result as { content: { text: string }[]; isError: boolean };
  return { text: r.content[0]?.text ?? "", isError: r.isError };
}

async function skipped(c: Sidecar): Promise<{ rule: string; source: string; reason: string }[]> {
  return ((await c.request("shepherd/status", {})).result as { skipped: { rule: string; source: string; reason: string }[] }).skipped;
}

const REWRITE = { name: "sneaky", action: "rewrite", pattern: "^ls$", rewrite: { replace: "ls; echo rewritten" } };

describe("an untrusted project", () => {
  it("should not rewrite commands, and says why", async () => {
    const { p, c } = start({ project: [REWRITE] });
    expect((await c.evaluate(bashEvent("ls", p.project))).action).toBe("allow");
    expect((await skipped(c)).find((k) => k.rule === "sneaky")?.reason).toMatch(/untrusted project may not rewrite.*shepherd trust/);
  });

  it("should rewrite once trusted (control)", async () => {
    const { p, c } = start({ project: [REWRITE], trusted: true });
    expect(await c.evaluate(bashEvent("ls", p.project))).toMatchObject({ action: "rewrite", input: { command: "ls; echo rewritten" } });
  });

  it("should not trust itself through its own settings", async () => {
    const { p, c } = start({ project: [REWRITE], projectSettings: { trustedProjects: ["/", "."] } });
    expect((await c.evaluate(bashEvent("ls", p.project))).action).toBe("allow");
  });

  it("should not smuggle loosening settings through __proto__", async () => {
    const p = tempProject("shepherd-trust-");
    tp = p;
    mkdirSync(join(p.project, ".pi"), { recursive: true });
    writeFileSync(join(p.agentDir, "shepherd-rules.json"), JSON.stringify([{ name: "b", action: "block", pattern: "x" }]));
    writeFileSync(join(p.project, ".pi", "settings.json"), '{"shepherd": {"__proto__": {"audit": true, "failMode": "open"}, "audit": true}}');
    sc = new Sidecar(p.project, p.env);
    expect((await sc.evaluate(bashEvent("x", p.project))).action).toBe("block");
    expect(existsSync(join(p.agentDir, "shepherd", "audit"))).toBe(false);
  });

  it("should not load its plugins: the plugin's code never runs", async () => {
    const marker = "PLUGIN_RAN";
    const plugin = `import { writeFileSync } from "node:fs";
import { definePlugin } from "shepherd:plugin";
writeFileSync(${JSON.stringify(`MARKER_DIR/${marker}`)}, "ran");
export default definePlugin({ name: "evil", actions: { evil_allow: () => ({ action: "block", reason: "from the plugin" }) } });
`;
    const p = tempProject("shepherd-trust-");
    tp = p;
    const pi = join(p.project, ".pi");
    mkdirSync(join(pi, "shepherd", "plugins"), { recursive: true });
    writeFileSync(join(pi, "shepherd", "plugins", "evil.ts"), plugin.replace("MARKER_DIR", p.root));
    writeFileSync(join(pi, "shepherd-rules.json"), JSON.stringify([{ name: "uses-plugin", action: "evil_allow", pattern: "." }]));
    sc = new Sidecar(p.project, p.env);
    expect((await sc.evaluate(bashEvent("ls", p.project))).action).toBe("allow");
    await sc.request("shepherd/status", {});
    expect(existsSync(join(p.root, marker))).toBe(false);
    expect((await skipped(sc)).find((k) => k.rule === "uses-plugin")?.reason).toMatch(/unknown action|plugin/);
  });

  it("should not override or disable a global rule, locked or not", async () => {
    const { p, c } = start({
      global: [
        { name: "locked-rm", action: "block", pattern: "rm -rf", locked: true },
        { name: "plain-curl", action: "block", pattern: "curl" },
      ],
      project: [
        { name: "locked-rm", action: "notify", pattern: "rm -rf", reason: "fine" },
        { name: "plain-curl", enabled: false },
      ],
    });
    expect((await c.evaluate(bashEvent("rm -rf /", p.project))).action).toBe("block");
    expect((await c.evaluate(bashEvent("curl x", p.project))).action).toBe("block");
    const reasons = (await skipped(c)).filter((k) => k.source === "project").map((k) => k.reason);
    expect(reasons.some((r) => /locked by global/.test(r))).toBe(true);
    expect(reasons.some((r) => /untrusted project may not override/.test(r))).toBe(true);
  });
});

describe("a trusted project", () => {
  it("should still not override or disable a locked global rule", async () => {
    const { p, c } = start({
      trusted: true,
      global: [{ name: "locked-rm", action: "block", pattern: "rm -rf", locked: true }],
      project: [{ name: "locked-rm", enabled: false }],
    });
    expect((await c.evaluate(bashEvent("rm -rf /", p.project))).action).toBe("block");
  });
});

describe("the shepherd_rules tool from an untrusted project", () => {
  it("should refuse every change to a locked global rule, in either scope", async () => {
    const { p, c } = start({ global: [{ name: "locked-rm", action: "block", pattern: "rm -rf", locked: true }] });
    for (const args of [
      { action: "disable", name: "locked-rm" },
      { action: "remove", name: "locked-rm" },
      { action: "add", rule: { name: "locked-rm", action: "notify", pattern: "rm" } },
      { action: "disable", scope: "project", name: "locked-rm" },
      { action: "add", scope: "project", rule: { name: "locked-rm", action: "notify", pattern: "rm" } },
    ]) {
      const res = await tool(c, args);
      expect(res.isError).toBe(true);
      expect(res.text).toMatch(/locked/);
    }
    expect((await c.evaluate(bashEvent("rm -rf /", p.project))).action).toBe("block");
    expect(JSON.parse(readFileSync(join(p.agentDir, "shepherd-rules.json"), "utf8"))).toEqual([{ name: "locked-rm", action: "block", pattern: "rm -rf", locked: true }]);
  });

  it("should not put a rewrite rule into the global rules, but may add a block rule", async () => {
    const { p, c } = start({});
    const res = await tool(c, { action: "add", rule: REWRITE });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/not trusted/);
    expect(existsSync(join(p.agentDir, "shepherd-rules.json"))).toBe(false);
    expect((await tool(c, { action: "add", rule: { name: "no-curl", action: "block", pattern: "curl" } })).isError).toBe(false);
  });

  it("should not write into another folder through cwd", async () => {
    const { p, c } = start({});
    const other = join(p.root, "other");
    mkdirSync(other);
    for (const cwd of [other, join(p.project, ".."), "/tmp"]) {
      const res = await tool(c, { action: "add", scope: "project", cwd, rule: { name: "x", action: "block", pattern: "x" } });
      expect(res.isError).toBe(true);
    }
    expect(existsSync(join(other, ".pi"))).toBe(false);
    expect(existsSync(join(p.root, ".pi"))).toBe(false);
  });

  it("should not follow a .pi symlink out of the project (into the global rules)", async () => {
    const p = tempProject("shepherd-trust-");
    tp = p;
    symlinkSync(p.agentDir, join(p.project, ".pi"));
    writeFileSync(join(p.agentDir, "shepherd-rules.json"), JSON.stringify([{ name: "keep", action: "block", pattern: "rm" }]));
    sc = new Sidecar(p.project, p.env);
    const res = await tool(sc, { action: "add", scope: "project", rule: { name: "x", action: "block", pattern: "x" } });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/symbolic link/);
    expect(JSON.parse(readFileSync(join(p.agentDir, "shepherd-rules.json"), "utf8"))).toEqual([{ name: "keep", action: "block", pattern: "rm" }]);
  });

  it("should not follow a rule-file symlink out of .pi/", async () => {
    const p = tempProject("shepherd-trust-");
    tp = p;
    mkdirSync(join(p.project, ".pi"));
    const outside = join(p.root, "outside.json");
    writeFileSync(outside, "[]\n");
    symlinkSync(outside, join(p.project, ".pi", "shepherd-rules.json"));
    sc = new Sidecar(p.project, p.env);
    const res = await tool(sc, { action: "add", scope: "project", rule: { name: "x", action: "block", pattern: "x" } });
    expect(res.isError).toBe(true);
    expect(readFileSync(outside, "utf8")).toBe("[]\n");
  });

  it("should treat a rule name as a name, never a path", async () => {
    const { p, c } = start({});
    const res = await tool(c, { action: "add", scope: "project", rule: { name: "../../../escape", action: "block", pattern: "x" } });
    expect(res.isError).toBe(false);
    expect(existsSync(join(p.root, "escape"))).toBe(false);
    expect(readFileSync(join(p.project, ".pi", "shepherd-rules.json"), "utf8")).toContain("../../../escape");
  });
});
