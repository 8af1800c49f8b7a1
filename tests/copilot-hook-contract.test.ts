/**
 * @module black-box contract tests of `dist/shepherd hook copilot`, `init copilot` and `doctor copilot`: the
 * hook inputs Copilot CLI 1.0.102 sent (tests/fixtures/copilot-hooks-1.0.102.json, recorded from the real
 * CLI), fed to the compiled binary one process per call as Copilot runs it, and the answers it must give.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./helpers/sidecar-client.ts";

const FIXTURE = JSON.parse(readFileSync(join(import.meta.dir, "fixtures", "copilot-hooks-1.0.102.json"), "utf8")) as { events: Record<string, Record<string, unknown>> };

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "CONTRACT-BLOCK: no curl" },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original$", rewrite: { replace: "echo rewritten-by-shepherd" } },
  { name: "ask-push", action: "ask", pattern: "^git push", reason: "CONTRACT-ASK: pushing" },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls$", reason: "CONTRACT-REMIND: you listed a folder" },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "CONTRACT-ERRORS: two commands failed" },
  { name: "no-secrets-prompt", hook: "input", action: "block", pattern: "BLOCKME", reason: "CONTRACT-PROMPT: not this prompt" },
  { name: "wrap-up", hook: "agent_end", action: "notify", reason: "CONTRACT-WRAPUP: say what you did" },
];

let root = "";
let proj = "";
let env: Record<string, string> = {};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-copilot-contract-"));
  proj = join(root, "proj");
  const agent = join(root, "agent");
  for (const d of [proj, agent, join(root, "home")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(agent, "shepherd-rules.json"), JSON.stringify(RULES));
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(root, "home"), PI_CODING_AGENT_DIR: agent, SHEPHERD_LOG: "error" };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

interface Answer {
  code: number | null;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

/** One hook call as Copilot makes it: the recorded input (with changes), the event in the handler's env. */
function hook(recorded: string, event: string, change: Record<string, unknown> = {}, extraEnv: Record<string, string> = {}): Answer {
  const base = FIXTURE.events[recorded];
  if (!base) throw new Error(`no recorded ${recorded}`);
  const input = JSON.stringify({ ...base, cwd: proj, ...change });
  const r = spawnSync(BINARY, ["hook", "copilot"], { cwd: proj, env: { ...env, SHEPHERD_COPILOT_EVENT: event, ...extraEnv }, input, encoding: "utf8", timeout: 30_000 });
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    json = {};
  }
  return { code: r.status, json, stdout: r.stdout, stderr: r.stderr };
}

const bash = (command: string) => ({ toolArgs: { command, description: "c" } });

describe("shepherd hook copilot (binary)", () => {
  it("should deny a tool call a rule blocks, with the rule's reason", () => {
    const a = hook("preToolUse", "preToolUse", bash("curl http://example.invalid"));
    expect(a.code).toBe(0);
    expect(a.json).toEqual({ permissionDecision: "deny", permissionDecisionReason: "CONTRACT-BLOCK: no curl" });
  });

  it("should block a command typed into a running shell", () => {
    expect(hook("preToolUse", "preToolUse", { toolName: "write_bash", toolArgs: { shellId: "0", input: "curl http://example.invalid\n" } }).json).toEqual({
      permissionDecision: "deny",
      permissionDecisionReason: "CONTRACT-BLOCK: no curl",
    });
  });

  it("should take the agent as --agent too", () => {
    const input = JSON.stringify({ ...FIXTURE.events.preToolUse, cwd: proj, toolArgs: { command: "curl x" } });
    const r = spawnSync(BINARY, ["hook", "--agent", "copilot"], { cwd: proj, env: { ...env, SHEPHERD_COPILOT_EVENT: "preToolUse" }, input, encoding: "utf8", timeout: 30_000 });
    expect(JSON.parse(r.stdout)).toEqual({ permissionDecision: "deny", permissionDecisionReason: "CONTRACT-BLOCK: no curl" });
  });

  it("should block a tool call over 8 MiB with a non-zero exit, unread", () => {
    const input = JSON.stringify({ ...FIXTURE.events.preToolUse, cwd: proj, toolName: "create", toolArgs: { path: "a.txt", file_text: "x".repeat(9 * 1024 * 1024) } });
    const r = spawnSync(BINARY, ["hook", "copilot"], { cwd: proj, env: { ...env, SHEPHERD_COPILOT_EVENT: "preToolUse" }, input, encoding: "utf8", timeout: 30_000, maxBuffer: 1 << 20 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("exceeds the 8388608-byte limit");
  });

  it("should give no opinion (exit 0) on an unreadable input of an event with nothing pending", () => {
    const r = spawnSync(BINARY, ["hook", "copilot"], { cwd: proj, env: { ...env, SHEPHERD_COPILOT_EVENT: "postToolUse" }, input: "{not json", encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("postToolUse: no opinion");
  });

  it("should allow a tool call no rule minds, with no opinion", () => {
    const a = hook("preToolUse", "preToolUse");
    expect(a.code).toBe(0);
    expect(a.json).toEqual({});
  });

  it("should send the whole rewritten arguments", () => {
    expect(hook("preToolUse", "preToolUse", bash("echo original")).json).toEqual({ modifiedArgs: { command: "echo rewritten-by-shepherd", description: "c" } });
  });

  it("should ask for an ask rule", () => {
    expect(hook("preToolUse", "preToolUse", bash("git push origin main")).json).toEqual({ permissionDecision: "ask", permissionDecisionReason: "CONTRACT-ASK: pushing" });
  });

  it("should block the built-in self-protection canary", () => {
    const a = hook("preToolUse", "preToolUse", bash(`rm -f ${env.PI_CODING_AGENT_DIR}/shepherd-rules.json`));
    expect(a.json.permissionDecision).toBe("deny");
    expect(String(a.json.permissionDecisionReason)).toContain("self-protection");
  });

  const selfProtected: [string, string, () => Record<string, unknown>][] = [
    ["create a repository setting that turns every hook off", "create", () => ({ path: join(proj, ".github", "copilot", "settings.json"), file_text: '{"disableAllHooks":true}' })],
    ["overwrite the local repository settings from the shell", "bash", () => ({ command: "echo {} > .github/copilot/settings.local.json" })],
    ["edit Shepherd's repository hook file", "edit", () => ({ path: join(proj, ".github", "hooks", "shepherd.json"), old_str: "a", new_str: "b" })],
    ["remove the repository hooks folder", "bash", () => ({ command: "rm -rf .github/hooks" })],
    ["replace the user's Copilot settings", "create", () => ({ path: join(env.HOME ?? "", ".copilot", "settings.json"), file_text: "{}" })],
  ];
  for (const [name, toolName, args] of selfProtected) {
    it(`should not let the model ${name}`, () => {
      const a = hook("preToolUse", "preToolUse", { toolName, toolArgs: args() });
      expect(a.json.permissionDecision).toBe("deny");
      expect(String(a.json.permissionDecisionReason)).toContain("self-protection");
    });
  }

  it("should let the model write a source file in a folder named hooks", () => {
    expect(hook("preToolUse", "preToolUse", { toolName: "create", toolArgs: { path: join(proj, "src", "hooks", "use-thing.json"), file_text: "{}" } }).json).toEqual({});
  });

  it("should deny a permission prompt for a blocked call (the event named in the input)", () => {
    const a = hook("permissionRequest", "not-the-event", { toolInput: { command: "curl x" } });
    expect(a.json).toEqual({ behavior: "deny", message: "CONTRACT-BLOCK: no curl" });
  });

  it("should remind the model after a tool call", () => {
    expect(hook("postToolUse", "postToolUse", { ...bash("ls"), toolResult: { resultType: "success", textResultForLlm: "a\n<shellId: 0 completed with exit code 0>" } }).json).toEqual({
      additionalContext: "CONTRACT-REMIND: you listed a folder",
    });
  });

  it("should count failed shell commands across hook processes of one session", () => {
    const failed = (n: number) => hook("postToolUseFailedShell", "postToolUse", { sessionId: "count-session", toolArgs: { command: `false ${n}` } });
    expect(failed(1).json).toEqual({});
    expect(failed(2).json).toEqual({ additionalContext: "CONTRACT-ERRORS: two commands failed" });
  });

  it("should count a tool failure as an error too", () => {
    const failure = (n: number) => ({ sessionId: "fail-session", toolName: "bash", toolArgs: { command: `sleep 999${n}` }, error: "timed out" });
    expect(hook("postToolUseFailure", "postToolUseFailure", failure(1)).json).toEqual({});
    expect(hook("postToolUseFailure", "postToolUseFailure", failure(2)).json).toEqual({ additionalContext: "CONTRACT-ERRORS: two commands failed" });
  });

  it("should block a prompt a rule refuses", () => {
    expect(hook("userPromptSubmitted", "userPromptSubmitted", { prompt: "please BLOCKME now" }).json).toEqual({ decision: "block", reason: "CONTRACT-PROMPT: not this prompt" });
    expect(hook("userPromptSubmitted", "userPromptSubmitted").json).toEqual({});
  });

  it("should continue the turn once with the wrap-up, and not again", () => {
    expect(hook("agentStop", "agentStop").json).toEqual({ decision: "block", reason: "CONTRACT-WRAPUP: say what you did" });
    expect(hook("agentStopAgain", "agentStop").json).toEqual({});
  });

  it("should answer session start and end", () => {
    for (const [recorded, event] of [["sessionStart", "sessionStart"], ["subagentStart", "subagentStart"], ["sessionEnd", "sessionEnd"]] as const) {
      const a = hook(recorded, event);
      expect(a.code).toBe(0);
      expect(a.json).toEqual({});
    }
  });

  it("should answer an event it does not know with no opinion, and say so once", () => {
    const a = hook("sessionStart", "sessionStart", { hookName: "someFutureEvent", brandNewField: [1, 2, 3] });
    expect(a.code).toBe(0);
    expect(a.json).toEqual({});
    expect(a.stderr.match(/unknown to Shepherd/g)).toEqual(["unknown to Shepherd"]);
  });

  it("should evaluate a newer CLI's tool call on what it knows", () => {
    expect(hook("preToolUse", "preToolUse", { ...bash("curl x"), toolCallId: "t-9", sandbox: { mode: "strict" } }).json.permissionDecision).toBe("deny");
  });

  const unreadable: [string, string, Record<string, string>][] = [
    ["not JSON", "{not json", {}],
    ["a tool call without an event name", JSON.stringify({ ...FIXTURE.events.preToolUse, cwd: "/" }), { SHEPHERD_COPILOT_EVENT: "" }],
    ["a tool call whose arguments are not an object", JSON.stringify({ ...FIXTURE.events.preToolUse, toolArgs: 42 }), {}],
  ];
  for (const [name, input, extra] of unreadable) {
    it(`should block ${name} with a non-zero exit (Copilot denies the call)`, () => {
      const r = spawnSync(BINARY, ["hook", "copilot"], { cwd: proj, env: { ...env, SHEPHERD_COPILOT_EVENT: "preToolUse", ...extra }, input, encoding: "utf8", timeout: 30_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("Shepherd blocked");
    });
  }
});

function shepherd(args: string[], extraEnv: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(BINARY, args, { cwd: proj, env: { ...env, ...extraEnv }, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("shepherd init copilot (binary)", () => {
  const userFile = () => join(env.HOME ?? "", ".copilot", "settings.json");
  const projectFile = () => join(proj, ".github", "hooks", "shepherd.json");

  it("should merge its hooks into the user's settings, keeping theirs, and change nothing on a second run", () => {
    mkdirSync(join(env.HOME ?? "", ".copilot"), { recursive: true });
    const mine = '{\n  // my settings\n  "model": "gpt-5",\n  "hooks": { "sessionStart": [{ "type": "command", "bash": "echo mine" }] }\n}\n';
    writeFileSync(userFile(), mine);
    expect(shepherd(["init", "copilot", "--global"]).code).toBe(0);
    const text = readFileSync(userFile(), "utf8");
    expect(text).toContain("// my settings");
    expect(text).toContain('"bash": "echo mine"');
    const hooks = (JSON.parse(text.replace(/^\s*\/\/.*$/m, "")) as { hooks: Record<string, { hooks?: { command: string; env: Record<string, string>; timeoutSec: number }[] }[]> }).hooks;
    for (const event of ["preToolUse", "postToolUse", "postToolUseFailure", "userPromptSubmitted", "agentStop", "subagentStart", "subagentStop", "permissionRequest", "sessionStart", "sessionEnd"]) {
      const ours = hooks[event]?.flatMap((g) => g.hooks ?? []).find((h) => h.command.endsWith(" hook copilot"));
      expect(ours?.env).toEqual({ SHEPHERD_COPILOT_EVENT: event });
      expect(ours?.timeoutSec).toBe(30);
    }
    const again = shepherd(["init", "copilot", "--user"]);
    expect(again.stdout).toContain("already with Shepherd's hooks");
    expect(readFileSync(userFile(), "utf8")).toBe(text);
    expect(shepherd(["init", "copilot", "--user", "--uninstall"]).code).toBe(0);
    const left = readFileSync(userFile(), "utf8");
    expect(left).toContain("// my settings");
    expect(JSON.parse(left.replace(/^\s*\/\/.*$/m, ""))).toEqual({ model: "gpt-5", hooks: { sessionStart: [{ type: "command", bash: "echo mine" }] } });
  });

  it("should write a repository hook file Copilot accepts, and leave it valid and empty on uninstall", () => {
    const r = shepherd(["init", "copilot"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("trusts");
    const data = JSON.parse(readFileSync(projectFile(), "utf8")) as { version: number; hooks: Record<string, unknown[]> };
    expect(data.version).toBe(1);
    expect(Object.keys(data.hooks)).toContain("preToolUse");
    expect(shepherd(["init", "copilot", "--uninstall"]).code).toBe(0);
    expect(JSON.parse(readFileSync(projectFile(), "utf8"))).toEqual({ version: 1, hooks: {} });
  });

  it("should refuse a hook file that is not JSON, changing nothing", () => {
    mkdirSync(join(proj, ".github", "hooks"), { recursive: true });
    writeFileSync(projectFile(), "{ broken");
    expect(shepherd(["init", "copilot"]).code).toBe(1);
    expect(readFileSync(projectFile(), "utf8")).toBe("{ broken");
  });
});

describe("shepherd doctor copilot (binary)", () => {
  it("should pass hooks installed by init, canary included", () => {
    expect(shepherd(["init", "copilot", "--user"]).code).toBe(0);
    const r = shepherd(["doctor", "copilot", "--json"]);
    const json = JSON.parse(r.stdout) as { ok: boolean; agents: { checks: { name: string; ok: boolean; detail: string }[] }[] };
    expect(json.agents[0]?.checks.filter((c) => !c.ok)).toEqual([]);
    expect(json.agents[0]?.checks.find((c) => c.name === "canary")?.detail).toContain("was blocked by the built-in rule");
    expect(r.code).toBe(0);
  });

  it("should fail when a trusted repository's settings turn every hook off", () => {
    expect(shepherd(["init", "copilot", "--user"]).code).toBe(0);
    mkdirSync(join(proj, ".github", "copilot"), { recursive: true });
    writeFileSync(join(proj, ".github", "copilot", "settings.json"), JSON.stringify({ disableAllHooks: true }));
    const r = shepherd(["doctor", "copilot", "--json"]);
    const json = JSON.parse(r.stdout) as { agents: { checks: { name: string; ok: boolean; detail: string }[] }[] };
    const off = json.agents[0]?.checks.find((c) => c.name === "hooks-enabled");
    expect(off?.ok).toBe(false);
    expect(off?.detail).toContain(join(".github", "copilot", "settings.json"));
    expect(r.code).toBe(1);
  });

  it("should fail when the hook's timeout is not longer than Shepherd's deadline", () => {
    expect(shepherd(["init", "copilot", "--user"]).code).toBe(0);
    const file = join(env.HOME ?? "", ".copilot", "settings.json");
    writeFileSync(file, readFileSync(file, "utf8").replace(/"timeoutSec": 30/g, '"timeoutSec": 1'));
    const json = JSON.parse(shepherd(["doctor", "copilot", "--json"]).stdout) as { agents: { checks: { name: string; ok: boolean }[] }[] };
    expect(json.agents[0]?.checks.find((c) => c.name === "timeout")?.ok).toBe(false);
    expect(existsSync(file)).toBe(true);
  });
});
