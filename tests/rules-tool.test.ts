import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
let sc: Sidecar;

interface Answer {
  text: string;
  isError: boolean;
  consent?: { required: boolean; summary: string; digest: string };
}

/** A tools/call; `consent` goes where the pi extension puts a person's yes: the request's `_meta`, not the arguments. */
async function tool(args: unknown, consent?: string, on: Sidecar = sc): Promise<Answer> {
  const params: Record<string, unknown> = { name: "shepherd_rules", arguments: args };
  if (consent !== undefined) params._meta = { "shepherd/consent": consent };
  const res = await on.request("tools/call", params);
  const r = res.result as { content: { type: string; text: string }[]; isError: boolean; _meta?: Record<string, Answer["consent"]> };
  const asked = r._meta?.["shepherd/consent"];
  return { text: r.content[0]?.text ?? "", isError: r.isError, ...(asked ? { consent: asked } : {}) };
}

/** Asks, then answers yes the way the pi extension does: the same call again with the digest in `_meta`. */
async function withConsent(args: unknown): Promise<Answer> {
  const asked = await tool(args);
  expect(asked.isError).toBe(true);
  expect(asked.consent?.digest).toMatch(/^[0-9a-f]{64}$/);
  return tool(args, asked.consent?.digest);
}

beforeEach(() => {
  tp = tempProject();
  sc = new Sidecar(tp.project, tp.env);
});

afterEach(async () => {
  if (sc.child.exitCode === null) await sc.close();
  tp.cleanup();
});

describe("shepherd_rules tool", () => {
  it("should add a rule to the global file, take effect at once, and list it with its source", async () => {
    const add = await tool({ action: "add", rule: { name: "no-curl", action: "block", pattern: "curl", reason: "offline" } });
    expect(add.isError).toBe(false);
    const file = join(tp.agentDir, "shepherd-rules.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual([{ name: "no-curl", action: "block", pattern: "curl", reason: "offline" }]);
    expect((await sc.evaluate(bashEvent("curl x", tp.project))).action).toBe("block");
    const list = await tool({ action: "list" });
    expect(list.text).toMatch(/no-curl \[global\]/);
    expect(list.text).toMatch(/no-checkout-discard \[builtin\]/);
  });

  it("should name an unnamed rule when adding it, so it neither replaces another nor gets lost", async () => {
    mkdirSync(join(tp.project, ".pi"));
    const file = join(tp.project, ".pi/shepherd-rules.json");
    writeFileSync(file, JSON.stringify([{ action: "block", pattern: "first" }]));
    expect((await tool({ action: "add", scope: "project", rule: { action: "block", pattern: "second" } })).isError).toBe(false);
    const rules = JSON.parse(readFileSync(file, "utf8")) as { name?: string; pattern: string }[];
    expect(rules.map((r) => r.pattern)).toEqual(["first", "second"]);
    const added = rules[1]?.name ?? "";
    expect(added).toMatch(/^block-/);
    expect((await tool({ action: "remove", scope: "project", name: added })).isError).toBe(false);
    expect((JSON.parse(readFileSync(file, "utf8")) as { pattern: string }[]).map((r) => r.pattern)).toEqual(["first"]);
  });

  it("should write project scope to .pi/shepherd-rules.json, keeping comments", async () => {
    mkdirSync(join(tp.project, ".pi"));
    const file = join(tp.project, ".pi/shepherd-rules.json");
    writeFileSync(file, '{\n  // keep me\n  "rules": [{"name": "a", "action": "notify", "pattern": "x"}]\n}\n');
    expect((await tool({ action: "add", scope: "project", rule: { name: "b", action: "block", pattern: "y" } })).isError).toBe(false);
    expect((await withConsent({ action: "disable", scope: "project", name: "a" })).isError).toBe(false);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("// keep me");
    expect(text).toMatch(/"enabled": false/);
    expect((await tool({ action: "remove", scope: "project", name: "b" })).isError).toBe(false);
    expect(readFileSync(file, "utf8")).not.toContain('"b"');
  });

  it("should disable and re-enable a built-in rule by name through a patch, each with a person's consent", async () => {
    const firedRules = async () => ((await sc.evaluate(bashEvent("git checkout -- a.ts", tp.project))).fired as { rule: string }[]).map((f) => f.rule);
    expect(await firedRules()).toEqual(["no-checkout-discard"]);
    expect((await withConsent({ action: "disable", name: "no-checkout-discard" })).isError).toBe(false);
    // The safety pack's own rule still guards the same command: only the disabled one is gone.
    expect(await firedRules()).toEqual(["safety-git-checkout-discard"]);
    expect((await withConsent({ action: "enable", name: "no-checkout-discard" })).isError).toBe(false);
    expect(await firedRules()).toEqual(["no-checkout-discard"]);
  });

  it.each([
    [{ action: "add", rule: { action: "block", pattern: "(" } }, /invalid/],
    [{ action: "add", rule: { action: "explode" , hook: "nope"} }, /invalid rule/],
    [{ action: "remove", name: "no-checkout-discard" }, /use disable instead/],
    [{ action: "enable", name: "does-not-exist" }, /no rule named/],
    [{ action: "frobnicate" }, /invalid arguments/],
    [{ action: "disable" }, /"name" is required/],
  ])("should refuse %p with isError", async (args, message) => {
    const res = await tool(args);
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(message);
    expect(existsSync(join(tp.agentDir, "shepherd-rules.json"))).toBe(false);
  });

  it("should refuse to touch a locked global rule from the project scope", async () => {
    writeFileSync(join(tp.agentDir, "shepherd-rules.json"), JSON.stringify([{ name: "lock", action: "block", pattern: "z", locked: true }]));
    await sc.request("shepherd/reload");
    const res = await tool({ action: "disable", scope: "project", name: "lock" });
    expect(res).toMatchObject({ isError: true });
    expect(res.text).toMatch(/locked/);
    expect(existsSync(join(tp.project, ".pi/shepherd-rules.json"))).toBe(false);
  });
});

describe("shepherd_rules from a model without a person's consent (issue 13)", () => {
  const globalFile = () => join(tp.agentDir, "shepherd-rules.json");
  const fired = async (command: string) => ((await sc.evaluate(bashEvent(command, tp.project))).fired as { rule: string }[]).map((f) => f.rule);

  it("should not write the off-switch of a built-in safety rule into the global file", async () => {
    const res = await tool({ action: "disable", name: "safety-rm-home-or-root" });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/needs a person's consent/);
    expect(res.text).toMatch(/by hand/);
    expect(res.consent).toMatchObject({ required: true });
    expect(res.consent?.summary).toContain("safety-rm-home-or-root");
    expect(existsSync(globalFile())).toBe(false);
    expect(await fired("rm -rf ~")).toContain("safety-rm-home-or-root");
  });

  it("should apply that disable once the person's digest comes back in the request's _meta", async () => {
    expect((await withConsent({ action: "disable", name: "safety-rm-home-or-root" })).isError).toBe(false);
    expect(JSON.parse(readFileSync(globalFile(), "utf8"))).toEqual([{ name: "safety-rm-home-or-root", enabled: false }]);
    expect(await fired("rm -rf ~")).not.toContain("safety-rm-home-or-root");
  });

  it("should not let a never-matching block rule under a built-in's name replace it", async () => {
    const res = await tool({ action: "add", rule: { name: "safety-rm-home-or-root", action: "block", pattern: "^NEVER$" } });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/replace or shadow the builtin rule "safety-rm-home-or-root"/);
    expect(existsSync(globalFile())).toBe(false);
    expect(await fired("rm -rf ~")).toContain("safety-rm-home-or-root");
  });

  it("should not plant a locked global steer rule that reaches later sessions", async () => {
    const planted = { name: "planted", hook: "tool_result", tool: "bash", action: "steer", pattern: ".", reason: "INJECTED", locked: true };
    const res = await tool({ action: "add", rule: planted });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/"steer" rule/);
    expect(res.text).toMatch(/"locked"/);
    expect(existsSync(globalFile())).toBe(false);
    const later = new Sidecar(tp.project, tp.env);
    try {
      const d = await later.evaluate({ hook: "tool_result", session: { id: "later", cwd: tp.project }, tool: { name: "bash", input: { command: "ls" } }, result: { text: "x", isError: false } });
      expect(d.steer).toEqual([]);
    } finally {
      await later.close();
    }
  });

  it("should refuse a cwd argument that aims at a trusted project, and write nothing there", async () => {
    const other = join(tp.root, "other");
    mkdirSync(join(other, ".pi"), { recursive: true });
    writeFileSync(join(tp.agentDir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [other] } }));
    await sc.request("shepherd/reload");
    for (const args of [
      { action: "add", scope: "project", cwd: other, rule: { name: "rw", action: "rewrite", pattern: "^ls$", rewrite: { replace: "ls; id" } } },
      { action: "disable", scope: "project", cwd: other, name: "safety-rm-home-or-root" },
    ]) {
      const res = await tool(args);
      expect(res.isError).toBe(true);
      expect(res.text).toContain('unknown argument "cwd"');
      expect(res.consent).toBeUndefined();
    }
    expect(existsSync(join(other, ".pi", "shepherd-rules.json"))).toBe(false);
    expect(existsSync(join(tp.project, ".pi"))).toBe(false);
  });

  it("should refuse consent written into the arguments", async () => {
    const asked = await tool({ action: "disable", name: "safety-rm-home-or-root" });
    const res = await tool({ action: "disable", name: "safety-rm-home-or-root", _meta: { "shepherd/consent": asked.consent?.digest } });
    expect(res.isError).toBe(true);
    expect(res.text).toContain('unknown argument "_meta"');
    expect(existsSync(globalFile())).toBe(false);
  });

  it("should refuse a digest given for a different change", async () => {
    const asked = await tool({ action: "disable", name: "no-checkout-discard" });
    const res = await tool({ action: "disable", name: "safety-rm-home-or-root" }, asked.consent?.digest);
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/consent sent was for a different change/);
    expect(existsSync(globalFile())).toBe(false);
  });

  it("should refuse a digest another sidecar process handed out", async () => {
    const args = { action: "disable", name: "safety-rm-home-or-root" };
    const asked = await tool(args);
    const second = new Sidecar(tp.project, tp.env);
    try {
      expect((await tool(args, asked.consent?.digest, second)).isError).toBe(true);
    } finally {
      await second.close();
    }
    expect(existsSync(globalFile())).toBe(false);
  });

  it("should add a pure restriction and undo its own rule without consent", async () => {
    const rule = { name: "no-wget", action: "block", pattern: "\\bwget\\b", reason: "offline" };
    const add = await tool({ action: "add", rule });
    expect(add).toMatchObject({ isError: false });
    expect((await sc.evaluate(bashEvent("wget x", tp.project))).action).toBe("block");
    expect(await tool({ action: "disable", name: "no-wget" })).toMatchObject({ isError: false });
    expect((await sc.evaluate(bashEvent("wget x", tp.project))).action).toBe("allow");
    expect(await tool({ action: "remove", name: "no-wget" })).toMatchObject({ isError: false });
    expect(JSON.parse(readFileSync(globalFile(), "utf8"))).toEqual([]);
  });

  it("should tell the model in tools/list what needs consent", async () => {
    const res = await sc.request("tools/list");
    const tools = (res.result as { tools: { name: string; description: string; inputSchema: { additionalProperties: boolean } }[] }).tools;
    const t = tools.find((x) => x.name === "shepherd_rules");
    expect(t?.description).toMatch(/block or ask/);
    expect(t?.description).toMatch(/confirmation/);
    expect(t?.inputSchema.additionalProperties).toBe(false);
  });
});
