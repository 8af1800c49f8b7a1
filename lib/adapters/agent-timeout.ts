/**
 * @module the agent's own timeout for Shepherd's hook, read from the agent's hook settings, so the hook
 * answers before the agent stops waiting (an agent that times a hook out runs the tool call). Only
 * regular files of modest size are read, without blocking on a FIFO a repository may have put there.
 */
import { MAX_SETTINGS_BYTES as MAX_SETTINGS_FILE_BYTES, readBounded } from "../fs/bounded-read.ts";
import { systemHomedir } from "../home-dir.ts";
import { join } from "node:path";
import type { AgentName } from "./index.ts";

const MAX_SETTINGS_BYTES = MAX_SETTINGS_FILE_BYTES;

type Env = Readonly<Record<string, string | undefined>>;

/** Our handler is recognized by its command: `<path to a shepherd binary> hook <agent>`. */
export function isShepherdCommand(command: unknown, agent: AgentName): boolean {
  return typeof command === "string" && command.trimEnd().endsWith(` hook ${agent}`) && /shepherd/i.test(command);
}

interface TimeoutSource {
  files: string[];
  /** Milliseconds per unit of the `timeout` field. */
  unitMs: number;
}

function sources(agent: AgentName, projectDir: string, env: Env): TimeoutSource {
  const home = env.HOME || systemHomedir();
  switch (agent) {
    case "claude-code": {
      const user = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
      return { files: [join(user, "settings.json"), join(projectDir, ".claude", "settings.json"), join(projectDir, ".claude", "settings.local.json")], unitMs: 1_000 };
    }
    case "codex":
      return { files: [join(env.CODEX_HOME || join(home, ".codex"), "hooks.json"), join(projectDir, ".codex", "hooks.json")], unitMs: 1_000 };
    case "gemini":
      return { files: [join(env.GEMINI_CLI_HOME || home, ".gemini", "settings.json"), join(projectDir, ".gemini", "settings.json")], unitMs: 1 };
    case "copilot":
      return { files: [join(env.COPILOT_HOME || join(home, ".copilot"), "settings.json"), join(projectDir, ".github", "hooks", "shepherd.json")], unitMs: 1_000 };
  }
}

/** A regular file's text, or undefined (missing, too large, a FIFO or device, unreadable): the one bounded reader. */
function readSmallRegularFile(file: string): string | undefined {
  const read = readBounded(file, MAX_SETTINGS_BYTES);
  return read.ok ? read.text : undefined;
}

/** The shortest `timeout` on our handlers for `event` in one parsed settings object, in the file's unit. */
export function shortestTimeout(settings: unknown, agent: AgentName, event: string): number | undefined {
  const hooks = settings && typeof settings === "object" ? (settings as { hooks?: unknown }).hooks : undefined;
  const groups = hooks && typeof hooks === "object" ? (hooks as Record<string, unknown>)[event] : undefined;
  if (!Array.isArray(groups)) return undefined;
  let best: number | undefined;
  for (const g of groups) {
    const handlers = g && typeof g === "object" ? (g as { hooks?: unknown }).hooks : undefined;
    if (!Array.isArray(handlers)) continue;
    for (const h of handlers) {
      if (!h || typeof h !== "object") continue;
      // Copilot CLI names the field timeoutSec (seconds, like Claude Code's timeout).
      const { command, timeout: t, timeoutSec } = h as { command?: unknown; timeout?: unknown; timeoutSec?: unknown };
      const timeout = agent === "copilot" ? timeoutSec : t;
      if (!isShepherdCommand(command, agent) || typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) continue;
      best = best === undefined ? timeout : Math.min(best, timeout);
    }
  }
  return best;
}

/**
 * The agent's timeout for our hook on `event`, in ms, when a settings file sets one (the shortest if
 * several do); undefined when none does, and the agent's default (minutes) is far off.
 */
export function agentHookTimeoutMs(agent: AgentName, event: string, projectDir: string, env: Env): number | undefined {
  const src = sources(agent, projectDir, env);
  let best: number | undefined;
  for (const file of src.files) {
    const text = readSmallRegularFile(file);
    if (text === undefined) continue;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      continue;
    }
    const t = shortestTimeout(data, agent, event);
    if (t !== undefined) best = best === undefined ? t * src.unitMs : Math.min(best, t * src.unitMs);
  }
  return best;
}
