/**
 * @module where each agent reads its hooks, which events Shepherd installs there, and which of the agent's
 * tools a guard must see: the one place `shepherd init` (writes) and `shepherd doctor` (checks) share.
 */
import { join, resolve } from "node:path";
import { systemHomedir } from "../home-dir.ts";
import type { AgentName } from "./index.ts";

type Env = Readonly<Record<string, string | undefined>>;

export type HookScope = "project" | "user";

export interface HookSpec {
  event: string;
  /** Tool events get a matcher for every tool: rules decide which tools matter. */
  matcher?: string;
}

export interface AgentHooks {
  /** The event that runs before a tool call (where a block stops it). */
  toolEvent: string;
  events: HookSpec[];
  /** Milliseconds per unit of a handler's `timeout`. */
  timeoutUnitMs: number;
  /** The handler field holding its timeout, when not `timeout` (Copilot CLI: `timeoutSec`). */
  timeoutKey?: string;
  /** Tool names, as the agent sends them, a guard must see: shell, PowerShell, edits, patches, an MCP tool. */
  mustCover: string[];
}

export const AGENT_HOOKS: Record<AgentName, AgentHooks> = {
  "claude-code": {
    toolEvent: "PreToolUse",
    events: [
      { event: "PreToolUse", matcher: "*" },
      { event: "PostToolUse", matcher: "*" },
      { event: "PostToolUseFailure", matcher: "*" },
      { event: "UserPromptSubmit" },
      { event: "Stop" },
      { event: "SubagentStart" },
      { event: "SubagentStop" },
      { event: "PermissionRequest", matcher: "*" },
      { event: "SessionStart" },
      { event: "SessionEnd" },
    ],
    timeoutUnitMs: 1_000,
    mustCover: ["Bash", "PowerShell", "Edit", "MultiEdit", "Write", "NotebookEdit", "mcp__server__tool"],
  },
  codex: {
    toolEvent: "PreToolUse",
    events: [{ event: "PreToolUse", matcher: "*" }, { event: "PostToolUse", matcher: "*" }, { event: "UserPromptSubmit" }, { event: "Stop" }, { event: "SessionStart" }],
    timeoutUnitMs: 1_000,
    mustCover: ["Bash", "shell", "exec_command", "apply_patch", "mcp__server__tool"],
  },
  gemini: {
    toolEvent: "BeforeTool",
    events: [
      { event: "BeforeTool", matcher: ".*" },
      { event: "AfterTool", matcher: ".*" },
      { event: "BeforeAgent" },
      { event: "AfterAgent" },
      { event: "SessionStart" },
      { event: "SessionEnd" },
    ],
    timeoutUnitMs: 1,
    mustCover: ["run_shell_command", "write_file", "replace", "mcp_server_tool"],
  },
  // Copilot CLI 1.0.102: a handler without a matcher sees every tool; event names are its camelCase ones.
  copilot: {
    toolEvent: "preToolUse",
    events: [
      { event: "preToolUse" },
      { event: "postToolUse" },
      { event: "postToolUseFailure" },
      { event: "userPromptSubmitted" },
      { event: "agentStop" },
      { event: "subagentStart" },
      { event: "subagentStop" },
      { event: "permissionRequest" },
      { event: "sessionStart" },
      { event: "sessionEnd" },
    ],
    timeoutUnitMs: 1_000,
    timeoutKey: "timeoutSec",
    mustCover: ["bash", "powershell", "create", "edit", "apply_patch"],
  },
};

function home(env: Env): string {
  return env.HOME || systemHomedir();
}

/** The agent's user-level config folder. */
export function agentConfigDir(agent: AgentName, env: Env): string {
  switch (agent) {
    case "claude-code":
      return env.CLAUDE_CONFIG_DIR || join(home(env), ".claude");
    case "codex":
      return env.CODEX_HOME || join(home(env), ".codex");
    case "gemini":
      return join(env.GEMINI_CLI_HOME || home(env), ".gemini");
    case "copilot":
      return env.COPILOT_HOME || join(home(env), ".copilot");
  }
}

/** The file `shepherd init <agent>` writes for a scope. */
export function hookSettingsFile(agent: AgentName, scope: HookScope, projectDir: string, env: Env): string {
  // Copilot reads user hooks inline in its settings.json, a repository's from .github/hooks/*.json (when trusted).
  if (agent === "copilot") return scope === "user" ? join(agentConfigDir(agent, env), "settings.json") : join(resolve(projectDir), ".github", "hooks", "shepherd.json");
  const name = agent === "codex" ? "hooks.json" : "settings.json";
  return scope === "user" ? join(agentConfigDir(agent, env), name) : join(resolve(projectDir), `.${agent === "claude-code" ? "claude" : agent}`, name);
}

/** Every file the agent reads hooks from, user level first. */
export function hookSettingsFiles(agent: AgentName, projectDir: string, env: Env): string[] {
  const files = [hookSettingsFile(agent, "user", projectDir, env), hookSettingsFile(agent, "project", projectDir, env)];
  if (agent === "claude-code") files.push(join(resolve(projectDir), ".claude", "settings.local.json"));
  return files;
}

/**
 * The Copilot CLI settings whose `disableAllHooks: true` turns every hook off, the user's too: the user's own,
 * and a trusted repository's `.github/copilot/settings.json` and `settings.local.json` (seen with 1.0.102).
 */
export function copilotHookSwitchFiles(projectDir: string, env: Env): string[] {
  const dir = join(resolve(projectDir), ".github", "copilot");
  return [join(agentConfigDir("copilot", env), "settings.json"), join(dir, "settings.json"), join(dir, "settings.local.json")];
}

/** Where OpenCode loads a plugin from: `global` for every project of the user, `project` for one. */
export type PluginScope = "project" | "global";

/**
 * OpenCode's user config folder (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`). OpenCode also reads
 * `OPENCODE_CONFIG_DIR` as one more folder, on top of this one, so the plugin goes here.
 */
export function opencodeConfigDir(env: Env): string {
  return join(env.XDG_CONFIG_HOME || join(home(env), ".config"), "opencode");
}

/**
 * The folder OpenCode loads every `*.ts` file of as a plugin (`plugin/` of its user config folder or of the
 * project's `.opencode/`). Sub-folders are not loaded: Shepherd's helper files live in `plugin/shepherd/`.
 */
export function opencodePluginDir(scope: PluginScope, projectDir: string, env: Env): string {
  return scope === "global" ? join(opencodeConfigDir(env), "plugin") : join(resolve(projectDir), ".opencode", "plugin");
}

/** Both plugin folders, user level first, as `doctor` checks them. */
export function opencodePluginDirs(projectDir: string, env: Env): string[] {
  return [opencodePluginDir("global", projectDir, env), opencodePluginDir("project", projectDir, env)];
}
