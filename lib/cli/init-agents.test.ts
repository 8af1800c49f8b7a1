/** @module unit tests: merging Shepherd's hooks into Claude Code, Codex and Gemini settings files. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InitAgentOptions, runInitAgent, shellQuote } from "./init-agents.ts";

let root = "";
let messages = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-init-"));
  messages = "";
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const opts = (over: Partial<InitAgentOptions> = {}): InitAgentOptions => ({
  cwd: join(root, "proj"),
  env: { HOME: join(root, "home") },
  scope: "project",
  uninstall: false,
  binary: "/opt/bin/shepherd",
  write: (t) => void (messages += t),
  writeErr: (t) => void (messages += t),
  ...over,
});
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, "utf8"));

describe("runInitAgent", () => {
  const files: [string, InitAgentOptions["scope"], string][] = [
    ["claude-code", "project", "proj/.claude/settings.json"],
    ["claude-code", "user", "home/.claude/settings.json"],
    ["codex", "project", "proj/.codex/hooks.json"],
    ["codex", "user", "home/.codex/hooks.json"],
    ["gemini", "project", "proj/.gemini/settings.json"],
    ["gemini", "user", "home/.gemini/settings.json"],
  ];
  for (const [agent, scope, rel] of files) {
    it(`should write ${agent} ${scope} hooks to ${rel}`, async () => {
      expect(await runInitAgent(agent, opts({ scope }))).toBe(0);
      const hooks = read(join(root, rel)).hooks as Record<string, { hooks: { command: string }[] }[]>;
      for (const groups of Object.values(hooks)) expect(groups[0]?.hooks[0]?.command).toBe(`/opt/bin/shepherd hook ${agent}`);
    });
  }

  it("should refuse settings nested past the depth cap, naming the place, and change nothing", async () => {
    const file = join(root, "proj/.claude/settings.json");
    mkdirSync(join(root, "proj/.claude"), { recursive: true });
    const deep = `{"x": ${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    writeFileSync(file, deep);
    expect(await runInitAgent("claude-code", opts())).not.toBe(0);
    expect(messages).toContain("nests deeper than 64 levels");
    expect(readFileSync(file, "utf8")).toBe(deep);
  });

  it("should keep other hooks, other settings and comments", async () => {
    const file = join(root, "proj/.claude/settings.json");
    mkdirSync(join(root, "proj/.claude"), { recursive: true });
    const mine = { matcher: "Bash", hooks: [{ type: "command", command: "my-guard" }] };
    writeFileSync(file, `{\n  // mine\n  "model": "opus",\n  "hooks": {"PreToolUse": [${JSON.stringify(mine)}]}\n}\n`);
    expect(await runInitAgent("claude-code", opts())).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("// mine");
    const data = JSON.parse(text.replace("// mine", "")) as { model: string; hooks: Record<string, unknown[]> };
    expect(data.model).toBe("opus");
    expect(data.hooks.PreToolUse).toEqual([mine, { matcher: "*", hooks: [{ type: "command", command: "/opt/bin/shepherd hook claude-code", timeout: 30, onFailure: "block" }] }]);
    expect(data.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "/opt/bin/shepherd hook claude-code", timeout: 30 }] }]);
  });

  it("should give Claude Code's PreToolUse hook its fail-closed switch, and every hook a timeout above Shepherd's deadline", async () => {
    await runInitAgent("claude-code", opts());
    const hooks = read(join(root, "proj/.claude/settings.json")).hooks as Record<string, { hooks: Record<string, unknown>[] }[]>;
    for (const [event, groups] of Object.entries(hooks)) {
      // Only a pending tool call fails closed: elsewhere the switch would block prompts or results.
      expect({ event, onFailure: groups[0]?.hooks[0]?.onFailure }).toEqual({ event, onFailure: event === "PreToolUse" ? "block" : undefined });
      expect((groups[0]?.hooks[0]?.timeout as number) * 1000).toBeGreaterThan(5_000);
    }
  });

  it("should upgrade an entry installed without the fail-closed switch, and take it away again on --uninstall", async () => {
    const file = join(root, "proj/.claude/settings.json");
    mkdirSync(join(root, "proj/.claude"), { recursive: true });
    const theirs = { type: "command", command: "their-guard", onFailure: "block" };
    const old = { matcher: "*", hooks: [theirs, { type: "command", command: "/opt/bin/shepherd hook claude-code", timeout: 30 }] };
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [old] } }));
    await runInitAgent("claude-code", opts());
    const after = read(file) as { hooks: { PreToolUse: unknown[] } };
    expect(after.hooks.PreToolUse).toEqual([
      { matcher: "*", hooks: [theirs] },
      { matcher: "*", hooks: [{ type: "command", command: "/opt/bin/shepherd hook claude-code", timeout: 30, onFailure: "block" }] },
    ]);
    await runInitAgent("claude-code", opts({ uninstall: true }));
    expect(read(file)).toEqual({ hooks: { PreToolUse: [{ matcher: "*", hooks: [theirs] }] } });
  });

  it("should change nothing on a second run", async () => {
    await runInitAgent("gemini", opts());
    const first = readFileSync(join(root, "proj/.gemini/settings.json"), "utf8");
    await runInitAgent("gemini", opts());
    expect(readFileSync(join(root, "proj/.gemini/settings.json"), "utf8")).toBe(first);
    expect(messages).toContain("already with");
  });

  it("should change nothing when the user added hooks after Shepherd's", async () => {
    const file = join(root, "proj/.claude/settings.json");
    await runInitAgent("claude-code", opts());
    const data = read(file) as { hooks: Record<string, unknown[]> };
    data.hooks.PreToolUse?.push({ matcher: "Edit", hooks: [{ type: "command", command: "my-formatter" }] });
    writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
    const before = readFileSync(file, "utf8");
    expect(await runInitAgent("claude-code", opts())).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(messages).toContain("already with");
  });

  it("should replace an entry that points to a moved binary", async () => {
    await runInitAgent("codex", opts({ binary: "/old/shepherd" }));
    await runInitAgent("codex", opts());
    const hooks = read(join(root, "proj/.codex/hooks.json")).hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toHaveLength(1);
    expect(JSON.stringify(hooks)).not.toContain("/old/");
  });

  it("should enable Gemini hooks only when the user has not decided", async () => {
    await runInitAgent("gemini", opts());
    expect(read(join(root, "proj/.gemini/settings.json")).hooksConfig).toEqual({ enabled: true });
  });

  it("should remove only Shepherd's entries on --uninstall", async () => {
    const file = join(root, "proj/.claude/settings.json");
    mkdirSync(join(root, "proj/.claude"), { recursive: true });
    const mine = { hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] }, model: "opus" };
    writeFileSync(file, JSON.stringify(mine, null, 2));
    await runInitAgent("claude-code", opts());
    expect(await runInitAgent("claude-code", opts({ uninstall: true }))).toBe(0);
    expect(read(file)).toEqual(mine);
  });

  it("should drop an emptied hooks object on --uninstall", async () => {
    await runInitAgent("claude-code", opts());
    await runInitAgent("claude-code", opts({ uninstall: true }));
    expect(read(join(root, "proj/.claude/settings.json"))).toEqual({});
  });

  it("should refuse to touch a file that is not valid JSON", async () => {
    mkdirSync(join(root, "proj/.claude"), { recursive: true });
    writeFileSync(join(root, "proj/.claude/settings.json"), "{ broken");
    expect(await runInitAgent("claude-code", opts())).toBe(1);
    expect(readFileSync(join(root, "proj/.claude/settings.json"), "utf8")).toBe("{ broken");
  });

  it("should reject an unknown agent", async () => {
    expect(await runInitAgent("cursor", opts())).toBe(2);
    expect(existsSync(join(root, "proj"))).toBe(false);
  });
});

describe("shellQuote", () => {
  const cases: [string, string][] = [
    ["/usr/bin/shepherd", "/usr/bin/shepherd"],
    ["/my apps/shepherd", "'/my apps/shepherd'"],
    ["/it's/shepherd", "'/it'\\''s/shepherd'"],
  ];
  for (const [input, want] of cases) it(`should quote ${input}`, () => expect(shellQuote(input)).toBe(want));
});

describe("runInitAgent claude-code --mcp", () => {
  const settingsFile = () => join(root, "proj/.claude/settings.json");
  const mcpFile = () => join(root, "proj/.mcp.json");
  type Handler = Record<string, unknown>;
  const handlers = (): Record<string, Handler[]> => {
    const hooks = read(settingsFile()).hooks as Record<string, { hooks: Handler[] }[]>;
    return Object.fromEntries(Object.entries(hooks).map(([e, g]) => [e, g.flatMap((x) => x.hooks)]));
  };

  it("should write the MCP server to .mcp.json and mcp_tool hooks that fail closed", async () => {
    expect(await runInitAgent("claude-code", opts({ mcp: true }))).toBe(0);
    expect(read(mcpFile())).toEqual({ mcpServers: { shepherd: { type: "stdio", command: "/opt/bin/shepherd", args: ["serve", "--hook-tool"] } } });
    const h = handlers();
    for (const event of ["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop"]) {
      expect(h[event]).toHaveLength(1);
      expect(h[event]?.[0]).toMatchObject({ type: "mcp_tool", server: "shepherd", tool: "shepherd_hook", onFailure: "block", timeout: 30 });
      expect((h[event]?.[0]?.input as Record<string, string>).tool_input).toBe("${tool_input}");
    }
    // Claude Code calls no mcp_tool hook at startup, and its server is gone by SessionEnd.
    expect(h.SessionStart?.[0]).toEqual({ type: "command", command: "/opt/bin/shepherd hook claude-code", timeout: 30 });
    expect(h.SessionEnd?.[0]?.type).toBe("command");
    expect((read(settingsFile()).permissions as { deny: string[] }).deny).toEqual(["mcp__shepherd__shepherd_hook"]);
  });

  it("should write the user scope's server to ~/.claude.json (CLAUDE_CONFIG_DIR honoured)", async () => {
    const cfg = join(root, "cfg");
    expect(await runInitAgent("claude-code", opts({ mcp: true, scope: "user", env: { HOME: join(root, "home"), CLAUDE_CONFIG_DIR: cfg } }))).toBe(0);
    expect((read(join(cfg, ".claude.json")).mcpServers as Record<string, unknown>).shepherd).toBeDefined();
    expect(existsSync(join(cfg, "settings.json"))).toBe(true);
  });

  it("should change nothing on a second run, and switch cleanly between command and mcp_tool hooks", async () => {
    await runInitAgent("claude-code", opts({ mcp: true }));
    const once = readFileSync(settingsFile(), "utf8");
    messages = "";
    await runInitAgent("claude-code", opts({ mcp: true }));
    expect(readFileSync(settingsFile(), "utf8")).toBe(once);
    expect(messages).toContain("already with");
    await runInitAgent("claude-code", opts());
    const h = handlers();
    expect(h.PreToolUse).toEqual([{ type: "command", command: "/opt/bin/shepherd hook claude-code", timeout: 30, onFailure: "block" }]);
    expect(read(mcpFile())).toEqual({});
  });

  it("should keep the user's servers, hooks and deny rules, and remove only Shepherd's on --uninstall", async () => {
    mkdirSync(join(root, "proj/.claude"), { recursive: true });
    writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { mine: { command: "my-server" } } }));
    writeFileSync(settingsFile(), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] }, hooks: { Stop: [{ hooks: [{ type: "command", command: "my-stop" }] }] } }));
    await runInitAgent("claude-code", opts({ mcp: true }));
    expect(Object.keys(read(mcpFile()).mcpServers as object)).toEqual(["mine", "shepherd"]);
    expect(await runInitAgent("claude-code", opts({ uninstall: true }))).toBe(0);
    expect(read(mcpFile())).toEqual({ mcpServers: { mine: { command: "my-server" } } });
    expect(read(settingsFile())).toEqual({ permissions: { deny: ["Bash(rm:*)"] }, hooks: { Stop: [{ hooks: [{ type: "command", command: "my-stop" }] }] } });
  });

  it("should refuse to replace an MCP server named shepherd that is not Shepherd's, and --mcp for other agents", async () => {
    mkdirSync(join(root, "proj"), { recursive: true });
    writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { shepherd: { command: "other" } } }));
    expect(await runInitAgent("claude-code", opts({ mcp: true }))).toBe(1);
    expect(messages).toContain("not Shepherd's");
    expect(existsSync(settingsFile())).toBe(false);
    expect(await runInitAgent("codex", opts({ mcp: true }))).toBe(2);
  });
});
