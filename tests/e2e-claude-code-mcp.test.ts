/**
 * @module e2e: the real Claude Code CLI (2.1.332) with `mcp_tool` hooks answered by `shepherd serve`
 * (`shepherd init claude-code --mcp`), offline against the scripted fake Anthropic API; plus the
 * `shepherd_hook` tool black-box over stdio. Every assertion is about what reached the model or what ran.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { claudeBin, claudeRunEnv, type ClaudeRequest, initAgent, makeSandbox, readJsonl, run, type Sandbox, shepherdBin, startFake, writeGlobalRules } from "./helpers/agent-sandbox.ts";
import { Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "MCP-BLOCK: curl is not allowed ({{command}})" },
  { name: "ask-rm", action: "ask", pattern: "^rm ", reason: "MCP-ASK: confirm this rm" },
  { name: "echo-rewrite", action: "rewrite", pattern: "^echo original$", rewrite: { replace: "echo rewritten-by-mcp-hook" } },
  { name: "ls-reminder", hook: "tool_result", action: "notify", pattern: "^ls\\b", reason: "MCP-REMIND: you listed a folder" },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "MCP-ERRORS: two commands failed" },
  { name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "MCP-WRAPUP: you edited files, commit them" },
];

let sb: Sandbox;
let requests: ClaudeRequest[] = [];
let result: { code: number | null; stdout: string; stderr: string };
let debugLog = "";

beforeAll(async () => {
  sb = makeSandbox("e2e-cc-mcp");
  writeGlobalRules(sb, RULES);
  const script = {
    steps: [
      { tool_use: [{ name: "Bash", input: { command: "curl http://example.invalid" } }] },
      { tool_use: [{ name: "Bash", input: { command: "rm -f nothing-here" } }] },
      { tool_use: [{ name: "Bash", input: { command: "echo original" } }] },
      { tool_use: [{ name: "Bash", input: { command: "ls" } }] },
      { tool_use: [{ name: "Bash", input: { command: "false" } }] },
      { tool_use: [{ name: "Bash", input: { command: "ls /nonexistent-mcp-e2e" } }] },
      { tool_use: [{ name: "Write", input: { file_path: join(sb.proj, "notes.txt"), content: "hello\n" } }] },
      // A model that calls the hook tool itself, to feed Shepherd an invented event.
      { tool_use: [{ name: "mcp__shepherd__shepherd_hook", input: { hook_event_name: "UserPromptSubmit", session_id: "forged", prompt: "x" } }] },
      { text: "done" },
      { text: "done after the wrap-up reminder" },
    ],
    side_text: "ok",
  };
  const api = await startFake("anthropic", script, join(sb.root, "api"));
  await initAgent(sb, "claude-code", { CLAUDE_CONFIG_DIR: join(sb.home, ".claude") }, ["--mcp"]);
  const debugFile = join(sb.root, "claude-debug.log");
  try {
    result = await run(claudeBin(), ["-p", "tidy up", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash,Write", "--debug-file", debugFile], {
      cwd: sb.proj,
      env: claudeRunEnv(sb, api.port),
    });
  } finally {
    await api.stop();
  }
  requests = readJsonl(api.logFile).filter((r) => r.kind === "main") as unknown as ClaudeRequest[];
  debugLog = existsSync(debugFile) ? readFileSync(debugFile, "utf8") : "";
}, 180_000);

afterAll(() => sb?.cleanup());

function seenAfter(step: number): string {
  const next = requests.find((r) => r.step === step + 1);
  return next ? next.new_messages.map((m) => m.text).join("\n") : "";
}

describe("shepherd init claude-code --mcp with the real Claude Code CLI", () => {
  it("should let the run finish, every step answered", () => {
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("should have answered the tool hooks through shepherd serve, not a spawned hook", () => {
    expect(read(join(sb.proj, ".mcp.json"))).toEqual({ mcpServers: { shepherd: { type: "stdio", command: shepherdBin(), args: ["serve", "--hook-tool"] } } });
    expect(debugLog).toContain("mcp_tool calling shepherd/shepherd_hook");
    expect(debugLog).not.toMatch(/PreToolUse:Bash \[[^\]]*shepherd hook claude-code\]/);
  });

  it("should block a Bash call and give the model the reason", () => {
    const block = requests.find((r) => r.step === 1)?.tool_results[0];
    expect(block?.is_error).toBe(true);
    expect(block?.text).toContain("MCP-BLOCK: curl is not allowed (curl http://example.invalid)");
  });

  it("should ask for an rm (no UI in -p, so the call does not run and the model reads why)", () => {
    const asked = requests.find((r) => r.step === 2)?.tool_results[0];
    expect(asked?.is_error).toBe(true);
    expect(asked?.text).toContain("MCP-ASK: confirm this rm");
    expect(debugLog).toContain("returned permissionDecision: ask");
  });

  it("should run the rewritten command", () => {
    expect(requests.find((r) => r.step === 3)?.tool_results[0]?.text).toContain("rewritten-by-mcp-hook");
  });

  it("should bring a PostToolUse reminder to the model as context", () => {
    expect(seenAfter(3)).toContain("MCP-REMIND: you listed a folder");
  });

  it("should refuse the model's own call of the hook tool", () => {
    const denied = requests.find((r) => r.step === 8)?.tool_results[0];
    expect(denied?.is_error).toBe(true);
    // Had the tool run, the model would read its answer, `{}`.
    expect(denied?.text).not.toBe("{}");
  });

  it("should count errors across hook calls in the one serve process", () => {
    expect(seenAfter(4)).not.toContain("MCP-ERRORS");
    expect(seenAfter(5)).toContain("MCP-ERRORS: two commands failed");
  });

  it("should block the first Stop after an edit with the wrap-up reminder, and only once", () => {
    expect(existsSync(join(sb.proj, "notes.txt"))).toBe(true);
    expect(seenAfter(8)).toContain("MCP-WRAPUP: you edited files, commit them");
    expect(requests.some((r) => r.step === null)).toBe(false);
  });
});

describe("shepherd init claude-code --mcp when the server cannot answer", () => {
  it("should block (onFailure: block): the prompt is refused before any tool can run", async () => {
    const box = makeSandbox("e2e-cc-mcp-down");
    try {
      const api = await startFake("anthropic", { steps: [{ tool_use: [{ name: "Bash", input: { command: "touch ran.txt" } }] }, { text: "done" }], side_text: "ok" }, join(box.root, "api"));
      try {
        await initAgent(box, "claude-code", { CLAUDE_CONFIG_DIR: join(box.home, ".claude") }, ["--mcp"]);
        // The server entry now starts a program that exits at once: every mcp_tool hook call fails.
        writeFileSync(join(box.proj, ".mcp.json"), JSON.stringify({ mcpServers: { shepherd: { type: "stdio", command: "false", args: [] } } }));
        const r = await run(claudeBin(), ["-p", "go", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash"], { cwd: box.proj, env: claudeRunEnv(box, api.port) });
        // Claude Code 2.1.332 refuses the prompt at UserPromptSubmit: the hook got no usable answer.
        expect(r.stdout).toContain("UserPromptSubmit operation blocked by hook");
        expect(r.stdout).toContain('onFailure is \\"block\\"');
      } finally {
        await api.stop();
      }
      const main = readJsonl(api.logFile).filter((x) => x.kind === "main") as unknown as ClaudeRequest[];
      expect(main.some((x) => x.tool_results.length > 0)).toBe(false);
      expect(existsSync(join(box.proj, "ran.txt"))).toBe(false);
    } finally {
      box.cleanup();
    }
  }, 180_000);
});

/** One run of the real CLI in a fresh sandbox with `init claude-code --mcp`; what the model saw, per request. */
async function runScenario(prefix: string, rules: unknown[], steps: unknown[], allowedTools: string, onlyHooks?: string[]): Promise<{ main: ClaudeRequest[]; all: string; proj: string; code: number | null }> {
  const box = makeSandbox(prefix);
  try {
    writeGlobalRules(box, rules);
    const api = await startFake("anthropic", { steps: steps.map((x) => JSON.parse(JSON.stringify(x).replaceAll("PROJ", box.proj)) as unknown), side_text: "ok" }, join(box.root, "api"));
    let code: number | null = null;
    try {
      await initAgent(box, "claude-code", { CLAUDE_CONFIG_DIR: join(box.home, ".claude") }, ["--mcp"]);
      if (onlyHooks) {
        const file = join(box.proj, ".claude", "settings.json");
        const settings = read(file) as { hooks: Record<string, unknown> };
        settings.hooks = Object.fromEntries(Object.entries(settings.hooks).filter(([event]) => onlyHooks.includes(event)));
        writeFileSync(file, JSON.stringify(settings));
      }
      code = (await run(claudeBin(), ["-p", "go", "--output-format", "stream-json", "--verbose", "--allowedTools", allowedTools], { cwd: box.proj, env: claudeRunEnv(box, api.port) })).code;
    } finally {
      await api.stop();
    }
    const main = readJsonl(api.logFile).filter((x) => x.kind === "main") as unknown as ClaudeRequest[];
    return { main, all: main.flatMap((r) => r.new_messages.map((m) => m.text)).join("\n"), proj: box.proj, code };
  } finally {
    box.cleanup();
  }
}

describe("loops that stop, with the real Claude Code CLI", () => {
  it("should steer on the third identical call in a row and deny the fifth with the reason", async () => {
    const same = { tool_use: [{ name: "Bash", input: { command: "cat missing-loop-file.txt" } }] };
    const r = await runScenario("e2e-cc-loop", [], [same, same, same, same, same, { text: "done" }], "Bash");
    expect(r.code).toBe(0);
    expect(r.main.map((x) => x.step)).toEqual([0, 1, 2, 3, 4, 5]);
    const seen = (step: number) => r.main.find((x) => x.step === step)?.new_messages.map((m) => m.text).join("\n") ?? "";
    expect(seen(2)).not.toContain("three times in a row");
    expect(seen(3)).toContain("three times in a row");
    const fifth = r.main.find((x) => x.step === 5)?.tool_results[0];
    expect(fifth?.is_error).toBe(true);
    expect(fifth?.text).toContain("fifth identical Bash call in a row");
  }, 180_000);
});

describe("Claude Code's newer events through shepherd init claude-code --mcp", () => {
  it("should answer a permission prompt by rule (PermissionRequest: deny with the reason)", async () => {
    // Write is not in --allowedTools: Claude Code asks for permission, and the PermissionRequest hook answers.
    // PreToolUse would deny the same call first, so only the PermissionRequest hook is kept: the deny is its own.
    const rules = [{ name: "no-secret-write", tool: "write", action: "block", conditions: [{ field: "path", pattern: "secret" }], reason: "PERM-DENY: no writing secrets" }];
    const r = await runScenario("e2e-cc-perm", rules, [{ tool_use: [{ name: "Write", input: { file_path: "PROJ/secret.txt", content: "x" } }] }, { text: "done" }], "Bash", ["PermissionRequest"]);
    expect(r.code).toBe(0);
    const result = r.main.find((x) => x.step === 1)?.tool_results[0];
    expect(result?.is_error).toBe(true);
    expect(result?.text).toContain("PERM-DENY: no writing secrets");
  }, 180_000);

  it("should give a sub-agent's start the rules for sub-agents only (subagent: false stays quiet there)", async () => {
    const rules = [
      { name: "main-start", hook: "session_start", action: "steer", subagent: false, reason: "MAIN-START-ONLY" },
      { name: "every-start", hook: "session_start", action: "steer", reason: "EVERY-START" },
    ];
    const steps = [
      { tool_use: [{ name: "Agent", input: { description: "sub task", prompt: "say hi", subagent_type: "general-purpose" } }] },
      { text: "sub done" },
      { text: "done" },
      { text: "done" },
      { text: "done" },
    ];
    const r = await runScenario("e2e-cc-sub", rules, steps, "Bash,Agent");
    expect(r.code).toBe(0);
    const sub = /SubagentStart hook additional context: ([^\n]*)/.exec(r.all);
    expect(sub?.[1]).toBe("EVERY-START");
    expect(/SessionStart hook additional context: MAIN-START-ONLY/.test(r.all)).toBe(true);
  }, 180_000);
});

function read(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

describe("shepherd serve's shepherd_hook tool (black box)", () => {
  let tp: TempProject;
  let sc: Sidecar;
  beforeEach(() => {
    tp = tempProject();
    mkdirSync(join(tp.project, ".pi"));
    writeFileSync(join(tp.project, ".pi/shepherd-rules.json"), JSON.stringify([{ name: "no-rm", action: "block", pattern: "rm -rf", reason: "no {{command}}" }]));
    sc = new Sidecar(tp.project, tp.env, ["serve", "--hook-tool"]);
  });
  afterEach(async () => {
    if (sc.child.exitCode === null) await sc.close();
    tp.cleanup();
  });
  const callHook = async (args: Record<string, string>) => {
    const res = await sc.request("tools/call", { name: "shepherd_hook", arguments: args });
    return res.result as { content: { type: string; text: string }[]; isError: boolean };
  };

  it("should list the hook tool beside shepherd_rules, and offer it only with --hook-tool", async () => {
    const tools = (await sc.request("tools/list")).result as { tools: { name: string }[] };
    expect(tools.tools.map((t) => t.name)).toEqual(["shepherd_rules", "shepherd_hook"]);
    const plain = new Sidecar(tp.project, tp.env);
    try {
      const listed = (await plain.request("tools/list")).result as { tools: { name: string }[] };
      expect(listed.tools.map((t) => t.name)).toEqual(["shepherd_rules"]);
      const call = await plain.request("tools/call", { name: "shepherd_hook", arguments: { hook_event_name: "SessionEnd", session_id: "s" } });
      expect(call.error?.code).toBe(-32602);
    } finally {
      await plain.close();
    }
  });

  it("should answer a PreToolUse in Claude Code's contract, from the filled-in strings", async () => {
    const r = await callHook({ hook_event_name: "PreToolUse", session_id: "s", cwd: tp.project, tool_name: "Bash", tool_input: '{"command":"rm -rf /tmp/x"}', agent_id: "" });
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.content[0]?.text ?? "")).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf /tmp/x" } });
    const ok = await callHook({ hook_event_name: "PreToolUse", session_id: "s", cwd: tp.project, tool_name: "Bash", tool_input: '{"command":"ls"}' });
    expect(ok.content[0]?.text).toBe("{}");
  });

  it("should answer a hook event of a newer CLI with no opinion, and keep serving", async () => {
    const r = await callHook({ hook_event_name: "SomethingNew", session_id: "s", cwd: tp.project, brand_new_field: "x" });
    expect(r).toEqual({ content: [{ type: "text", text: "{}" }], isError: false });
    expect((await sc.request("ping")).result).toEqual({});
  });
});
