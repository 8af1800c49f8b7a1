import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
let sc: Sidecar;

async function tool(args: unknown): Promise<{ text: string; isError: boolean }> {
  const res = await sc.request("tools/call", { name: "shepherd_rules", arguments: args });
  const r = res.result as { content: { type: string; text: string }[]; isError: boolean };
  return { text: r.content[0]?.text ?? "", isError: r.isError };
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
    expect((await tool({ action: "disable", scope: "project", name: "a" })).isError).toBe(false);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("// keep me");
    expect(text).toMatch(/"enabled": false/);
    expect((await tool({ action: "remove", scope: "project", name: "b" })).isError).toBe(false);
    expect(readFileSync(file, "utf8")).not.toContain('"b"');
  });

  it("should disable and re-enable a built-in rule by name through a patch", async () => {
    const firedRules = async () => ((await sc.evaluate(bashEvent("git checkout -- a.ts", tp.project))).fired as { rule: string }[]).map((f) => f.rule);
    expect(await firedRules()).toEqual(["no-checkout-discard"]);
    expect((await tool({ action: "disable", name: "no-checkout-discard" })).isError).toBe(false);
    // The safety pack's own rule still guards the same command: only the disabled one is gone.
    expect(await firedRules()).toEqual(["safety-git-checkout-discard"]);
    expect((await tool({ action: "enable", name: "no-checkout-discard" })).isError).toBe(false);
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
