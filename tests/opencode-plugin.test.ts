/**
 * @module contract: the OpenCode plugin fed the calls OpenCode 1.18 makes (shapes recorded from the real CLI:
 * `tool.execute.before` `{tool, sessionID, callID}` / `{args}`, `tool.execute.after` `{..., args}` /
 * `{title, output, metadata}`, bus events `{type, properties}`), against the real compiled sidecar. A dead,
 * hung or absent sidecar fails closed per Shepherd's failMode.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import shepherdOpenCode from "../opencode-plugin/index.ts";
import { shepherdBin } from "./helpers/agent-sandbox.ts";
import { processesIn } from "./helpers/opencode-sandbox.ts";

type Hook = (input: unknown, output?: unknown) => Promise<void>;
type Hooks = Record<string, Hook>;

const RULES = [
  { name: "no-marker", action: "block", pattern: "blocked\\.marker", reason: "CT-BLOCK: no marker" },
  { name: "parent-only", action: "block", pattern: "^echo parent-only$", reason: "CT-PARENT: not in the main session", subagent: false },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original$", rewrite: { replace: "echo rewritten" } },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls$", reason: "CT-REMIND: you listed" },
  { name: "first-error", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 1 }, reason: "CT-STEER: a command failed" },
  { name: "deploy-word", hook: "input", action: "steer", pattern: "deploy", reason: "CT-INPUT: deploys need a ticket" },
  { name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "CT-WRAPUP: commit your edits" },
];

let root: string;
let proj: string;
let agentDir: string;
let saved: Record<string, string | undefined>;
let plugins: Hooks[];
let sdkCalls: { path: string; arg: unknown }[];

/** A stand-in for OpenCode's SDK client: records the calls the plugin makes. */
function fakeSdk(): unknown {
  const record = (path: string) => async (arg: unknown) => {
    sdkCalls.push({ path, arg });
    return { data: {} };
  };
  return { session: { promptAsync: record("session.promptAsync"), abort: record("session.abort") }, tui: { showToast: record("tui.showToast") } };
}

async function plugin(): Promise<Hooks> {
  const hooks = (await shepherdOpenCode({ directory: proj, worktree: proj, client: fakeSdk() })) as Hooks;
  plugins.push(hooks);
  return hooks;
}

function hook(hooks: Hooks, name: string): Hook {
  const h = hooks[name];
  if (!h) throw new Error(`the plugin has no ${name} hook`);
  return h;
}

const created = (id: string, parentID?: string) => ({ event: { type: "session.created", properties: { sessionID: id, info: { id, directory: proj, ...(parentID ? { parentID } : {}) } } } });
const idle = (id: string) => ({ event: { type: "session.idle", properties: { sessionID: id } } });
const disposed = { event: { type: "server.instance.disposed", properties: { directory: "" } } };

async function before(hooks: Hooks, command: string, session = "ses_main", callID = `call_${command}`): Promise<{ args: Record<string, unknown>; error?: string }> {
  const output = { args: { command, description: "contract" } as Record<string, unknown> };
  try {
    await hook(hooks, "tool.execute.before")({ tool: "bash", sessionID: session, callID }, output);
    return { args: output.args };
  } catch (error) {
    return { args: output.args, error: error instanceof Error ? error.message : String(error) };
  }
}

async function after(hooks: Hooks, command: string, text: string, exit = 0, session = "ses_main", callID = `call_${command}`): Promise<{ output: string; metadata: Record<string, unknown> }> {
  const output = { title: command, output: text, metadata: { output: text, exit, truncated: false } as Record<string, unknown> };
  await hook(hooks, "tool.execute.after")({ tool: "bash", sessionID: session, callID, args: { command } }, output);
  return output;
}

async function systemFor(hooks: Hooks, session = "ses_main"): Promise<string[]> {
  const output = { system: ["You are opencode."] };
  await hook(hooks, "experimental.chat.system.transform")({ sessionID: session, model: {} }, output);
  return output.system.slice(1);
}

function settings(shepherd: Record<string, unknown>): void {
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ shepherd }));
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "shepherd-opencode-plugin-")));
  proj = join(root, "proj");
  agentDir = join(root, "agent");
  mkdirSync(proj, { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "shepherd-rules.json"), JSON.stringify(RULES));
  saved = { SHEPHERD_BIN: process.env.SHEPHERD_BIN, PI_CODING_AGENT_DIR: process.env.PI_CODING_AGENT_DIR, SHEPHERD_SUBAGENT: process.env.SHEPHERD_SUBAGENT };
  process.env.SHEPHERD_BIN = shepherdBin();
  process.env.PI_CODING_AGENT_DIR = agentDir;
  plugins = [];
  sdkCalls = [];
});

afterEach(async () => {
  for (const hooks of plugins) await hook(hooks, "event")(disposed);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

describe("the OpenCode plugin against the real sidecar", () => {
  it("should start nothing in the factory and one sidecar at the first session", async () => {
    const hooks = await plugin();
    expect(processesIn(proj, "shepherd")).toEqual([]);
    await hook(hooks, "event")(created("ses_main"));
    expect(processesIn(proj, "shepherd").length).toBe(1);
  });

  it("should block a call by throwing the rule's reason, leaving the arguments as they were", async () => {
    const hooks = await plugin();
    const r = await before(hooks, "touch blocked.marker");
    expect(r.error).toContain("CT-BLOCK: no marker");
    expect(r.args.command).toBe("touch blocked.marker");
  });

  it("should rewrite by changing the very args object OpenCode runs, and allow an unmatched call", async () => {
    const hooks = await plugin();
    const output = { args: { command: "echo original", description: "d" } as Record<string, unknown> };
    const same = output.args;
    await hook(hooks, "tool.execute.before")({ tool: "bash", sessionID: "ses_main", callID: "c1" }, output);
    expect(output.args).toBe(same);
    expect(output.args.command).toBe("echo rewritten");
    const allowed = await before(hooks, "echo fine");
    expect(allowed.error).toBeUndefined();
    expect(allowed.args).toEqual({ command: "echo fine", description: "contract" });
  });

  it("should append a tool_result reminder to the output the model reads", async () => {
    const hooks = await plugin();
    const out = await after(hooks, "ls", "a.txt\nb.txt");
    expect(out.output).toBe("a.txt\nb.txt\n[Shepherd] CT-REMIND: you listed");
  });

  it("should redact a secret from the output and from bash's copy of it in metadata", async () => {
    const hooks = await plugin();
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const out = await after(hooks, "cat deploy.log", `DEPLOY_TOKEN=${token}\n`);
    expect(out.output).not.toContain(token);
    expect(String(out.metadata.output)).not.toContain(token);
  });

  it("should steer the next model call through the system prompt, once", async () => {
    const hooks = await plugin();
    await after(hooks, "false", "", 1);
    expect((await systemFor(hooks)).join("\n")).toContain("CT-STEER: a command failed");
    expect((await systemFor(hooks)).join("\n")).not.toContain("CT-STEER");
  });

  it("should carry a steer of the user's prompt into the next model call", async () => {
    const hooks = await plugin();
    await hook(hooks, "chat.message")({ sessionID: "ses_main" }, { message: {}, parts: [{ type: "text", text: "please deploy" }] });
    expect((await systemFor(hooks)).join("\n")).toContain("CT-INPUT: deploys need a ticket");
  });

  it("should treat a child session (the task tool's) as a sub-agent", async () => {
    const hooks = await plugin();
    await hook(hooks, "event")(created("ses_main"));
    await hook(hooks, "event")(created("ses_child", "ses_main"));
    expect((await before(hooks, "echo parent-only", "ses_main")).error).toContain("CT-PARENT");
    expect((await before(hooks, "echo parent-only", "ses_child")).error).toBeUndefined();
  });

  it("should send the wrap-up as one follow-up prompt when the session goes idle, and not again for its own idle", async () => {
    const hooks = await plugin();
    await hook(hooks, "event")(created("ses_main"));
    const edit = { args: { filePath: join(proj, "a.txt"), content: "x" } };
    await hook(hooks, "tool.execute.before")({ tool: "write", sessionID: "ses_main", callID: "w1" }, edit);
    await hook(hooks, "tool.execute.after")({ tool: "write", sessionID: "ses_main", callID: "w1", args: edit.args }, { title: "a.txt", output: "Wrote file successfully.", metadata: {} });
    await hook(hooks, "event")(idle("ses_main"));
    await Bun.sleep(10);
    const prompts = sdkCalls.filter((c) => c.path === "session.promptAsync");
    expect(prompts.length).toBe(1);
    expect(JSON.stringify(prompts[0]?.arg)).toContain("CT-WRAPUP: commit your edits");
    await hook(hooks, "event")(idle("ses_main"));
    await Bun.sleep(10);
    expect(sdkCalls.filter((c) => c.path === "session.promptAsync").length).toBe(1);
  });

  it("should end its sidecar when OpenCode disposes the instance", async () => {
    const hooks = await plugin();
    await hook(hooks, "event")(created("ses_main"));
    expect(processesIn(proj, "shepherd").length).toBe(1);
    await hook(hooks, "event")(disposed);
    expect(processesIn(proj, "shepherd")).toEqual([]);
  });
});

describe("the OpenCode plugin without a working sidecar", () => {
  const dead = () => join(root, "no-such-shepherd");

  /** A "sidecar" that reads its stdin and never answers. */
  function hung(): string {
    const file = join(root, "hung-shepherd");
    writeFileSync(file, "#!/bin/sh\nexec cat > /dev/null\n");
    chmodSync(file, 0o755);
    return file;
  }

  it.each([
    ["absent", dead],
    ["hung", hung],
  ])("should block a call when the sidecar is %s (failMode closed, the default)", async (_what, binary) => {
    process.env.SHEPHERD_BIN = binary();
    settings({ timeoutMs: 300 });
    const hooks = await plugin();
    const r = await before(hooks, "echo fine");
    expect(r.error).toContain('failMode "closed"');
  });

  it("should withhold a result it could not check for secrets", async () => {
    process.env.SHEPHERD_BIN = dead();
    const hooks = await plugin();
    const out = await after(hooks, "cat deploy.log", "DEPLOY_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789");
    expect(out.output).toContain("withheld");
    expect(out.output).not.toContain("ghp_");
    expect(String(out.metadata.output)).not.toContain("ghp_");
  });

  it("should block and abort the session with failMode halt", async () => {
    process.env.SHEPHERD_BIN = dead();
    settings({ failMode: "halt" });
    const hooks = await plugin();
    const r = await before(hooks, "echo fine");
    expect(r.error).toContain('failMode "halt"');
    await Bun.sleep(20);
    expect(sdkCalls.filter((c) => c.path === "session.abort")).toEqual([{ path: "session.abort", arg: { path: { id: "ses_main" } } }]);
  });

  it("should let a call through with a note only when the global settings say failMode open", async () => {
    process.env.SHEPHERD_BIN = dead();
    settings({ failMode: "open" });
    const hooks = await plugin();
    const r = await before(hooks, "echo fine", "ses_main", "c9");
    expect(r.error).toBeUndefined();
    const out = await after(hooks, "echo fine", "fine", 0, "ses_main", "c9");
    expect(out.output).toContain('let through unchecked because failMode is "open"');
  });

  it("should not let an untrusted project's settings open the guard", async () => {
    process.env.SHEPHERD_BIN = dead();
    mkdirSync(join(proj, ".pi"), { recursive: true });
    writeFileSync(join(proj, ".pi", "settings.json"), JSON.stringify({ shepherd: { failMode: "open" } }));
    const hooks = await plugin();
    expect((await before(hooks, "echo fine")).error).toContain('failMode "closed"');
  });
});
