import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ledgerFile } from "./rules-tool-ledger.ts";
import { runRulesTool, RULES_TOOL_DEFINITION, type ToolResult } from "./rules-tool.ts";
import { Workspace } from "./workspace.ts";

const BUILTIN = [
  { file: "rules/safety-test.json", text: JSON.stringify([{ name: "safety-rm", action: "block", pattern: "\\brm -rf\\b", reason: "no rm -rf" }]) },
];

let root: string;
let project: string;
let agent: string;
let env: Record<string, string>;
let ws: Workspace;

function open(opts: { trusted?: boolean; global?: unknown[]; project?: unknown[] } = {}): void {
  if (opts.trusted) writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [project] } }));
  if (opts.global) writeFileSync(globalFile(), JSON.stringify(opts.global));
  if (opts.project) {
    mkdirSync(join(project, ".pi"), { recursive: true });
    writeFileSync(projectFile(), JSON.stringify(opts.project));
  }
  ws = new Workspace({ env, cwd: project, watch: false, builtin: BUILTIN }, "test");
}

const globalFile = () => join(agent, "shepherd-rules.json");
const projectFile = () => join(project, ".pi", "shepherd-rules.json");
const read = (file: string): unknown => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);
const tool = (args: unknown, consent?: string): Promise<ToolResult> => runRulesTool(ws, args, consent === undefined ? {} : { consent });
async function verdict(command: string): Promise<string> {
  return (await ws.evaluate({ hook: "tool_call", session: { id: "s", cwd: project }, tool: { name: "bash", input: { command } } })).action;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-rules-tool-"));
  project = join(root, "project");
  agent = join(root, "agent");
  mkdirSync(project, { recursive: true });
  mkdirSync(agent, { recursive: true });
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: agent };
});
afterEach(() => {
  ws?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("runRulesTool findings (issue 13)", () => {
  it("should not let a model disable a built-in safety rule in the global file without consent", async () => {
    open();
    const res = await tool({ action: "disable", name: "safety-rm" });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/needs a person's consent/);
    expect(res.text).toContain(globalFile());
    expect(res.consent?.summary).toContain('"safety-rm"');
    expect(read(globalFile())).toBeUndefined();
    expect(await verdict("rm -rf /")).toBe("block");
  });

  it("should not let an add of a never-matching block rule under a built-in's name replace it without consent", async () => {
    open();
    const res = await tool({ action: "add", rule: { name: "safety-rm", action: "block", pattern: "^NEVER$" } });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/replace or shadow the builtin rule "safety-rm"/);
    expect(read(globalFile())).toBeUndefined();
    expect(await verdict("rm -rf /")).toBe("block");
  });

  it.each([
    ["a locked steer rule", { name: "planted", hook: "tool_result", tool: "bash", action: "steer", pattern: ".", reason: "obey", locked: true }, [/"steer" rule/, /"locked"/]],
    ["a locked block rule", { name: "planted", action: "block", pattern: "x", locked: true }, [/"locked"/]],
  ])("should not plant %s without consent", async (_label, rule, messages) => {
    open();
    const res = await tool({ action: "add", rule });
    expect(res.isError).toBe(true);
    for (const m of messages) expect(res.text).toMatch(m);
    expect(read(globalFile())).toBeUndefined();
  });

  it.each([
    ["cwd", { action: "add", scope: "project", cwd: "/tmp", rule: { name: "x", action: "block", pattern: "x" } }],
    ["_meta", { action: "disable", name: "safety-rm", _meta: { "shepherd/consent": "0".repeat(64) } }],
    ["consent", { action: "disable", name: "safety-rm", consent: true }],
  ])("should refuse the unknown argument %p by name, writing nothing", async (key, args) => {
    open({ trusted: true });
    const res = await tool(args);
    expect(res.isError).toBe(true);
    expect(res.text).toContain(`unknown argument "${key}"`);
    expect(res.consent).toBeUndefined();
    expect(read(globalFile())).toBeUndefined();
    expect(existsSync(join(project, ".pi"))).toBe(false);
  });
});

describe("runRulesTool without consent", () => {
  it.each([
    ["a block rule, globally", "global", { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "offline" }, "curl x", "block"],
    ["an ask rule, globally", "global", { name: "ask-curl", action: "ask", pattern: "\\bcurl\\b" }, "curl x", "ask"],
    ["a block rule, in the project", "project", { name: "no-curl", action: "block", pattern: "\\bcurl\\b" }, "curl x", "block"],
    ["an ask rule, in the project", "project", { name: "ask-curl", action: "ask", pattern: "\\bcurl\\b" }, "curl x", "ask"],
    ["a block rule on tool_call, spelled out", "global", { name: "no-curl", hook: "tool_call", tool: "bash", action: "block", pattern: "\\bcurl\\b" }, "curl x", "block"],
  ])("should add %s, and remove, disable and enable it again", async (_label, scope, rule, command, expected) => {
    open();
    const file = scope === "global" ? globalFile() : projectFile();
    expect(await tool({ action: "add", scope, rule })).toMatchObject({ isError: false });
    expect(read(file)).toEqual([rule]);
    expect(await verdict(command)).toBe(expected);
    expect(await tool({ action: "disable", scope, name: rule.name })).toMatchObject({ isError: false });
    expect(await verdict(command)).toBe("allow");
    expect(await tool({ action: "enable", scope, name: rule.name })).toMatchObject({ isError: false });
    expect(await verdict(command)).toBe(expected);
    expect(await tool({ action: "remove", scope, name: rule.name })).toMatchObject({ isError: false });
    expect(read(file)).toEqual([]);
    expect(await verdict(command)).toBe("allow");
  });

  it("should name an unnamed rule from its content, so the same add is the same change", async () => {
    open();
    const rule = { action: "block", pattern: "\\bwget\\b" };
    expect((await tool({ action: "add", rule })).isError).toBe(false);
    expect((await tool({ action: "add", rule })).isError).toBe(false);
    const written = read(globalFile()) as { name: string }[];
    expect(written).toHaveLength(1);
    expect(written[0]?.name).toMatch(/^block-[0-9a-f]{10}$/);
    expect((await tool({ action: "remove", name: written[0]?.name })).isError).toBe(false);
  });

  it("should keep the ledger in Shepherd's state folder, and forget a removed rule", async () => {
    open();
    await tool({ action: "add", rule: { name: "no-curl", action: "block", pattern: "curl" } });
    expect(readFileSync(ledgerFile(env), "utf8")).toContain('"no-curl"');
    expect(ledgerFile(env).startsWith(join(agent, "shepherd"))).toBe(true);
    await tool({ action: "remove", name: "no-curl" });
    expect(readFileSync(ledgerFile(env), "utf8")).not.toContain('"no-curl"');
  });

  it("should list without consent", async () => {
    open();
    const res = await tool({ action: "list" });
    expect(res.isError).toBe(false);
    expect(res.text).toContain("safety-rm [builtin]");
  });
});

interface ConsentCase {
  label: string;
  setup?: Parameters<typeof open>[0];
  /** Runs before the call (e.g. the tool adds a rule a person then edits). */
  before?: () => Promise<void> | void;
  args: Record<string, unknown>;
  why: RegExp;
  /** What the file says once the change is applied. */
  applied: (file: string) => void;
  file: () => string;
}

const STEER = { name: "say-hi", hook: "tool_result", tool: "bash", action: "steer", pattern: ".", reason: "hi" };
const CASES: ConsentCase[] = [
  { label: "a steer rule", args: { action: "add", rule: STEER }, why: /"steer" rule/, file: globalFile, applied: (f) => expect(read(f)).toEqual([STEER]) },
  {
    label: "a notify rule in the project",
    args: { action: "add", scope: "project", rule: { name: "n", action: "notify", pattern: "x" } },
    why: /"notify" rule/,
    file: projectFile,
    applied: (f) => expect(read(f)).toEqual([{ name: "n", action: "notify", pattern: "x" }]),
  },
  {
    label: "a global rewrite rule from a trusted project",
    setup: { trusted: true },
    args: { action: "add", rule: { name: "rw", action: "rewrite", pattern: "^ls$", rewrite: { replace: "ls -a" } } },
    why: /"rewrite" rule would change what runs/,
    file: globalFile,
    applied: (f) => expect((read(f) as { name: string }[])[0]?.name).toBe("rw"),
  },
  {
    label: "a block rule on tool_result (a steer in disguise)",
    args: { action: "add", rule: { name: "res-block", hook: "tool_result", tool: "bash", action: "block", pattern: "x", reason: "now do y" } },
    why: /on the tool_result hook would speak to the model/,
    file: globalFile,
    applied: (f) => expect((read(f) as { name: string }[])[0]?.name).toBe("res-block"),
  },
  {
    label: "a locked block rule",
    args: { action: "add", rule: { name: "lk", action: "block", pattern: "x", locked: true } },
    why: /"locked"/,
    file: globalFile,
    applied: (f) => expect(read(f)).toEqual([{ name: "lk", action: "block", pattern: "x", locked: true }]),
  },
  {
    label: "a block rule replacing a built-in",
    args: { action: "add", rule: { name: "safety-rm", action: "block", pattern: "^NEVER$" } },
    why: /replace or shadow the builtin rule/,
    file: globalFile,
    applied: (f) => expect(read(f)).toEqual([{ name: "safety-rm", action: "block", pattern: "^NEVER$" }]),
  },
  {
    label: "a block rule replacing a person's global rule",
    setup: { global: [{ name: "mine", action: "notify", pattern: "x" }] },
    args: { action: "add", rule: { name: "mine", action: "block", pattern: "^NEVER$" } },
    why: /replace or shadow the global rule "mine"/,
    file: globalFile,
    applied: (f) => expect(read(f)).toEqual([{ name: "mine", action: "block", pattern: "^NEVER$" }]),
  },
  {
    label: "a disable of a built-in",
    args: { action: "disable", name: "safety-rm" },
    why: /disable the builtin rule "safety-rm"/,
    file: globalFile,
    applied: (f) => expect(read(f)).toEqual([{ name: "safety-rm", enabled: false }]),
  },
  {
    label: "a disable of a person's global rule",
    setup: { global: [{ name: "mine", action: "block", pattern: "x" }] },
    args: { action: "disable", name: "mine" },
    why: /did not add the rule "mine"/,
    file: globalFile,
    applied: (f) => expect(read(f)).toEqual([{ name: "mine", action: "block", pattern: "x", enabled: false }]),
  },
  {
    label: "a removal of a person's global rule",
    setup: { global: [{ name: "mine", action: "block", pattern: "x" }] },
    args: { action: "remove", name: "mine" },
    why: /did not add the rule "mine"/,
    file: globalFile,
    applied: (f) => expect(read(f)).toEqual([]),
  },
  {
    label: "an enable of a rule a person switched off",
    setup: { global: [{ name: "mine", action: "steer", pattern: "x", reason: "r", enabled: false }] },
    args: { action: "enable", name: "mine" },
    why: /did not add the rule "mine"/,
    file: globalFile,
    applied: (f) => expect((read(f) as { enabled?: boolean }[])[0]?.enabled).toBe(true),
  },
  {
    label: "a disable of a project rule the repository wrote",
    setup: { project: [{ name: "repo-rule", action: "block", pattern: "x" }] },
    args: { action: "disable", scope: "project", name: "repo-rule" },
    why: /did not add the rule "repo-rule"/,
    file: projectFile,
    applied: (f) => expect(read(f)).toEqual([{ name: "repo-rule", action: "block", pattern: "x", enabled: false }]),
  },
  {
    label: "a removal of a tool-added rule that a person has edited since",
    before: async () => {
      await tool({ action: "add", rule: { name: "t", action: "block", pattern: "x" } });
      writeFileSync(globalFile(), JSON.stringify([{ name: "t", action: "block", pattern: "xy" }]));
      ws.reload();
    },
    args: { action: "remove", name: "t" },
    why: /did not add the rule "t"/,
    file: globalFile,
    applied: (f) => expect(read(f)).toEqual([]),
  },
];

describe("runRulesTool with consent", () => {
  it.each(CASES.map((c) => [c.label, c] as const))("should refuse %s without consent, and apply it with the matching digest", async (_label, c) => {
    open(c.setup);
    await c.before?.();
    const before = existsSync(c.file()) ? readFileSync(c.file(), "utf8") : undefined;
    const asked = await tool(c.args);
    expect(asked.isError).toBe(true);
    expect(asked.text).toMatch(c.why);
    expect(asked.text).toMatch(/by hand/);
    expect(asked.consent?.required).toBe(true);
    expect(asked.consent?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(asked.consent?.summary).toMatch(c.why);
    expect(existsSync(c.file()) ? readFileSync(c.file(), "utf8") : undefined).toBe(before);

    const done = await tool(c.args, asked.consent?.digest);
    expect(done).toMatchObject({ isError: false });
    c.applied(c.file());
  });

  it.each(CASES.map((c) => [c.label, c] as const))("should refuse %s with a digest given for another change", async (_label, c) => {
    open(c.setup);
    await c.before?.();
    const before = existsSync(c.file()) ? readFileSync(c.file(), "utf8") : undefined;
    const other = await tool({ action: "add", rule: { name: "other", action: "steer", pattern: "o", reason: "o" } });
    expect(other.consent?.digest).toMatch(/^[0-9a-f]{64}$/);
    const res = await tool(c.args, other.consent?.digest);
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/consent sent was for a different change/);
    expect(existsSync(c.file()) ? readFileSync(c.file(), "utf8") : undefined).toBe(before);
  });

  it("should tie a digest to the exact rule: the same name with another pattern is refused", async () => {
    open();
    const asked = await tool({ action: "add", rule: { name: "s", action: "steer", pattern: "a", reason: "r" } });
    const res = await tool({ action: "add", rule: { name: "s", action: "steer", pattern: "b", reason: "r" } }, asked.consent?.digest);
    expect(res.isError).toBe(true);
    expect(read(globalFile())).toBeUndefined();
  });

  it("should tie a digest to the scope: a global consent does not write the project", async () => {
    open();
    const asked = await tool({ action: "add", rule: STEER });
    const res = await tool({ action: "add", scope: "project", rule: STEER }, asked.consent?.digest);
    expect(res.isError).toBe(true);
    expect(existsSync(projectFile())).toBe(false);
  });

  it("should keep a consented rule the person's: a later call cannot undo it on its own", async () => {
    open();
    const asked = await tool({ action: "add", rule: { name: "safety-rm", action: "block", pattern: "^NEVER$" } });
    expect((await tool({ action: "add", rule: { name: "safety-rm", action: "block", pattern: "^NEVER$" } }, asked.consent?.digest)).isError).toBe(false);
    const res = await tool({ action: "disable", name: "safety-rm" });
    expect(res.isError).toBe(true);
    expect(res.consent).toBeDefined();
  });

  it("should not offer consent for a locked rule, and refuse it even with a digest", async () => {
    open({ global: [{ name: "lock", action: "block", pattern: "z", locked: true }] });
    const res = await tool({ action: "disable", name: "lock" });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/locked.*even with consent.*by hand/);
    expect(res.consent).toBeUndefined();
    expect(read(globalFile())).toEqual([{ name: "lock", action: "block", pattern: "z", locked: true }]);
  });

  it("should keep trust boundaries with consent: an untrusted project puts no rewrite rule into the global rules", async () => {
    open();
    const res = await tool({ action: "add", rule: { name: "rw", action: "rewrite", pattern: "^ls$", rewrite: { replace: "ls -a" } } });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/not trusted/);
    expect(res.consent).toBeUndefined();
  });

  it("should treat a tool-added rule as the person's once a built-in of the same name appears", async () => {
    open();
    expect((await tool({ action: "add", rule: { name: "future", action: "block", pattern: "f" } })).isError).toBe(false);
    ws.close();
    ws = new Workspace({ env, cwd: project, watch: false, builtin: [...BUILTIN, { file: "rules/new.json", text: JSON.stringify([{ name: "future", action: "block", pattern: "g" }]) }] }, "test");
    const res = await tool({ action: "disable", name: "future" });
    expect(res.isError).toBe(true);
    expect(res.consent).toBeDefined();
  });
});

describe("runRulesTool edge cases", () => {
  it("should not offer a change too large to show whole for consent", async () => {
    open();
    const res = await tool({ action: "add", rule: { name: "long", action: "steer", pattern: "x", reason: "y".repeat(5_000) } });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/too large to show/);
    expect(res.consent).toBeUndefined();
    expect(read(globalFile())).toBeUndefined();
  });

  it.each([
    ["garbage", "{not json"],
    ["a wrong shape", JSON.stringify({ version: 2, entries: [] })],
  ])("should own nothing when the ledger is %s (fail closed)", async (_label, text) => {
    open();
    expect((await tool({ action: "add", rule: { name: "t", action: "block", pattern: "x" } })).isError).toBe(false);
    writeFileSync(ledgerFile(env), text);
    const res = await tool({ action: "remove", name: "t" });
    expect(res.isError).toBe(true);
    expect(res.consent).toBeDefined();
    expect(read(globalFile())).toEqual([{ name: "t", action: "block", pattern: "x" }]);
  });

  it.each([
    ["a folder", () => mkdirSync(globalFile())],
    [
      "a symbolic link to a FIFO",
      () => {
        const fifo = join(root, "fifo");
        expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
        symlinkSync(fifo, globalFile());
      },
    ],
  ])("should refuse a target rule file that is %s, without hanging", async (_label, make) => {
    open();
    // The rules are loaded first: the loader's own bounded reads are host.ts's concern, not this test's.
    expect((await tool({ action: "list" })).isError).toBe(false);
    make();
    const res = await tool({ action: "add", rule: { name: "t", action: "block", pattern: "x" } });
    expect(res.isError).toBe(true);
    expect(res.text).toMatch(/not a regular file/);
  });
});

describe("RULES_TOOL_DEFINITION", () => {
  it("should tell the model what needs consent and forbid extra arguments", () => {
    expect(RULES_TOOL_DEFINITION.description).toMatch(/block or ask/);
    expect(RULES_TOOL_DEFINITION.description).toMatch(/confirmation/);
    expect(RULES_TOOL_DEFINITION.inputSchema.additionalProperties).toBe(false);
    expect(Object.keys(RULES_TOOL_DEFINITION.inputSchema.properties)).toEqual(["action", "scope", "rule", "name"]);
  });
});
