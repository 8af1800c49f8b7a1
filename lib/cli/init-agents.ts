/**
 * @module `shepherd init claude-code|codex|gemini|copilot [--user] [--uninstall]`: merges Shepherd's hook entries into
 * the agent's settings file. Other hooks and settings stay as they are (edits go through jsonc-parser, so
 * comments and formatting survive), a second run changes nothing, and every write goes through the shared
 * safe update (locked, atomic, and safe against the user saving the same file).
 */
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../json-depth.ts";
import { existsSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { applyEdits, type ParseError, modify, parse, printParseErrorCode } from "jsonc-parser";
import { isShepherdCommand } from "../adapters/agent-timeout.ts";
import { HOOK_TOOL_NAME, hookToolInputTemplate } from "../adapters/claude-code-mcp.ts";
import { type AgentName, agentName, AGENTS } from "../adapters/index.ts";
import { COPILOT_EVENT_ENV } from "../adapters/copilot.ts";
import { AGENT_HOOKS, type HookSpec, hookSettingsFile } from "../adapters/hook-locations.ts";
import type { Env } from "../rules/paths.ts";
import { updateFileSafely } from "../rules/safe-update.ts";

export type InitScope = "project" | "user";

/** Claude Code's timeout for Shepherd's hooks, in seconds: far above Shepherd's own deadline (lib/deadline.ts). */
export const CLAUDE_HOOK_TIMEOUT_S = 30;

export interface InitAgentOptions {
  cwd: string;
  env: Env;
  scope: InitScope;
  uninstall: boolean;
  /** Claude Code only: hooks of type `mcp_tool` answered by `shepherd serve`, no process per hook. */
  mcp?: boolean;
  /** How the agent should start Shepherd: the absolute path of this binary by default. */
  binary: string;
  write?: (text: string) => void;
  writeErr?: (text: string) => void;
}

interface AgentPlan {
  file: string;
  events: readonly HookSpec[];
  /** One handler entry in the agent's format, for one event. */
  handler: (command: string, event: string) => Record<string, unknown>;
  /** Extra settings the hooks need to run at all (Gemini's `hooksConfig.enabled`). */
  extra?: { path: string[]; value: unknown; onlyIfMissing: boolean }[];
  /** Entries added to (and on uninstall removed from) `permissions.deny`. */
  deny?: string[];
  /** On uninstall, leave `"hooks": {}` rather than no key (a Copilot hook file needs one to stay valid). */
  keepEmptyHooks?: boolean;
  /** An MCP server entry the hooks need: the file Claude Code reads it from for this scope. */
  mcpServer?: { file: string; name: string; entry: Record<string, unknown> };
  notes: string[];
}

/** The MCP server name `init --mcp` registers, which its `mcp_tool` hooks name. */
export const MCP_SERVER_NAME = "shepherd";

function home(env: Env): string {
  return env.HOME || homedir();
}

function plan(agent: AgentName, opts: InitAgentOptions): AgentPlan {
  const project = resolve(opts.cwd);
  switch (agent) {
    case "claude-code":
      if (opts.mcp) return claudeMcpPlan(opts, project);
      return {
        file: hookSettingsFile(agent, opts.scope, project, opts.env),
        events: AGENT_HOOKS[agent].events,
        // Shepherd answers within its own deadline (hookDeadlineMs, 5 s by default), well inside this timeout.
        // onFailure "block" is Claude Code's own fail-closed switch, for a hook that dies or hangs regardless:
        // only where a tool call is pending, as Shepherd's own fail mode (elsewhere it would block prompts).
        handler: (command, event) => ({ type: "command", command, timeout: CLAUDE_HOOK_TIMEOUT_S, ...(event === "PreToolUse" ? { onFailure: "block" } : {}) }),
        notes: [],
      };
    case "codex":
      return {
        file: hookSettingsFile(agent, opts.scope, project, opts.env),
        events: AGENT_HOOKS[agent].events,
        handler: (command) => ({ type: "command", command, timeout: 30 }),
        notes: [
          "Codex runs new or changed hooks only once you trust them: review them with /hooks in the Codex TUI.",
          ...(opts.scope === "project" ? ["Project hooks load only in a project Codex trusts (projects.<path>.trust_level = \"trusted\" in config.toml)."] : []),
        ],
      };
    case "gemini":
      return {
        file: hookSettingsFile(agent, opts.scope, project, opts.env),
        events: AGENT_HOOKS[agent].events,
        // Gemini's timeout is in milliseconds.
        handler: (command) => ({ type: "command", name: "shepherd", command, timeout: 15000 }),
        extra: [{ path: ["hooksConfig", "enabled"], value: true, onlyIfMissing: true }],
        notes: opts.scope === "project" ? ["Gemini CLI reads project settings only in a trusted folder."] : [],
      };
    case "copilot":
      return {
        file: hookSettingsFile(agent, opts.scope, project, opts.env),
        events: AGENT_HOOKS[agent].events,
        // Copilot sends no event name (permissionRequest aside): each handler passes its own in the env.
        // Copilot 1.0.102 denies a tool call whose hook exits non-zero, but runs it when the hook times out:
        // Shepherd answers within its own deadline, far inside this timeout. It has no fail-closed switch.
        handler: (command, event) => ({ type: "command", command, env: { [COPILOT_EVENT_ENV]: event }, timeoutSec: CLAUDE_HOOK_TIMEOUT_S }),
        ...(opts.scope === "project" ? { extra: [{ path: ["version"], value: 1, onlyIfMissing: true }], keepEmptyHooks: true } : {}),
        notes:
          opts.scope === "project"
            ? ["Copilot CLI loads a repository's .github/hooks/ only in a folder it trusts; `shepherd init copilot --user` guards every folder."]
            : ["A trusted repository's .github/copilot/settings.json can set disableAllHooks and turn these hooks off: `shepherd doctor copilot` checks."],
      };
  }
}

/**
 * Claude Code with `mcp_tool` hooks: one `shepherd serve` per session answers every hook. SessionStart and
 * SessionEnd stay command hooks: Claude Code 2.1.332 calls no `mcp_tool` hook at startup (its MCP clients are
 * not connected yet), and at SessionEnd the server is already gone ("not connected", seen in its debug log).
 * Every `mcp_tool` hook has `onFailure: "block"`, without which Claude Code lets an erring one pass.
 */
function claudeMcpPlan(opts: InitAgentOptions, project: string): AgentPlan {
  const configDir = opts.env.CLAUDE_CONFIG_DIR || join(home(opts.env), ".claude");
  const user = opts.scope === "user";
  return {
    file: user ? join(configDir, "settings.json") : join(project, ".claude", "settings.json"),
    // The same events as the command hooks (hook-locations.ts); only the handler differs.
    events: AGENT_HOOKS["claude-code"].events,
    handler: (command, event) =>
      event === "SessionStart" || event === "SessionEnd"
        ? { type: "command", command, timeout: CLAUDE_HOOK_TIMEOUT_S }
        : { type: "mcp_tool", server: MCP_SERVER_NAME, tool: HOOK_TOOL_NAME, input: hookToolInputTemplate(), timeout: CLAUDE_HOOK_TIMEOUT_S, onFailure: "block" },
    // The model sees the server's tools too: it may not call the hook tool (Shepherd also denies that call).
    deny: [`mcp__${MCP_SERVER_NAME}__${HOOK_TOOL_NAME}`],
    mcpServer: {
      file: user ? join(opts.env.CLAUDE_CONFIG_DIR || home(opts.env), ".claude.json") : join(project, ".mcp.json"),
      name: MCP_SERVER_NAME,
      entry: { type: "stdio", command: opts.binary, args: ["serve", "--hook-tool"] },
    },
    notes: user ? [] : ["Claude Code asks once before it starts a project's .mcp.json server in an interactive session: approve \"shepherd\"."],
  };
}

/** Our MCP server entry: it runs a Shepherd binary's `serve`. */
function isShepherdServer(entry: unknown): boolean {
  if (!entry || typeof entry !== "object") return false;
  const e = entry as { command?: unknown; args?: unknown };
  return typeof e.command === "string" && /shepherd/i.test(e.command) && Array.isArray(e.args) && e.args[0] === "serve";
}

/** Single quotes keep a path with spaces one word for the agent's shell. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** Our entry is recognized by its command, so a moved binary is replaced, not duplicated. */
function isShepherdHandler(h: unknown, agent: AgentName): boolean {
  if (!h || typeof h !== "object") return false;
  const x = h as { command?: unknown; type?: unknown; server?: unknown; tool?: unknown };
  if (agent === "claude-code" && x.type === "mcp_tool") return x.server === MCP_SERVER_NAME && x.tool === HOOK_TOOL_NAME;
  return isShepherdCommand(x.command, agent);
}

type Group = { matcher?: string; hooks?: unknown[] } & Record<string, unknown>;

/** The event's groups without our handlers; groups left empty by that are dropped. */
function withoutShepherd(groups: unknown, agent: AgentName): unknown[] {
  if (!Array.isArray(groups)) return [];
  const out: unknown[] = [];
  for (const g of groups) {
    if (!g || typeof g !== "object" || !Array.isArray((g as Group).hooks)) {
      out.push(g);
      continue;
    }
    const group = g as Group;
    const hooks = (group.hooks ?? []).filter((h) => !isShepherdHandler(h, agent));
    if (hooks.length === (group.hooks ?? []).length) out.push(g);
    else if (hooks.length > 0) out.push({ ...group, hooks });
  }
  return out;
}

/** Parses the settings text (undefined: no file yet); throws on a file Shepherd must not overwrite. */
function parseSettings(file: string, current: string | undefined): { text: string; data: Record<string, unknown> } {
  if (current === undefined) return { text: "{}\n", data: {} };
  const text = current;
  // A repository may commit its agent settings: nesting deep enough to blow the parser's stack is refused first.
  const deep = jsonDepthProblem(text);
  if (deep) throw new Error(`${file} nests deeper than ${MAX_JSON_DEPTH} levels (at line ${deep.line}, column ${deep.column}); fix it first, nothing was changed`);
  const errors: ParseError[] = [];
  const data: unknown = parse(text.trim() === "" ? "{}" : text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const e = errors[0];
    throw new Error(`${file} is not valid JSON (${e ? `${printParseErrorCode(e.error)} at offset ${e.offset}` : "parse error"}); fix it first, nothing was changed`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error(`${file} does not hold a JSON object; nothing was changed`);
  return { text: text.trim() === "" ? "{}\n" : text, data: data as Record<string, unknown> };
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };

/** Computes the new settings text; returns the same text when nothing changes. */
export function mergeAgentSettings(text: string, data: Record<string, unknown>, agent: AgentName, p: AgentPlan, command: string, uninstall: boolean): string {
  let next = text;
  const hooks = data.hooks && typeof data.hooks === "object" && !Array.isArray(data.hooks) ? (data.hooks as Record<string, unknown>) : {};
  if (data.hooks !== undefined && hooks !== data.hooks) throw new Error(`"hooks" is not an object; nothing was changed`);
  for (const spec of p.events) {
    const kept = withoutShepherd(hooks[spec.event], agent);
    const ours = { ...(spec.matcher !== undefined ? { matcher: spec.matcher } : {}), hooks: [p.handler(command, spec.event)] };
    const current: unknown[] = Array.isArray(hooks[spec.event]) ? (hooks[spec.event] as unknown[]) : [];
    // Ours already there, once and as is: where it sits is the user's business (they may have added
    // hooks after it), so an installed event is left alone rather than moved to the end.
    const handlers = current.flatMap((g) => (g && typeof g === "object" && Array.isArray((g as Group).hooks) ? ((g as Group).hooks ?? []) : []));
    const installed = handlers.filter((h) => isShepherdHandler(h, agent)).length === 1 && current.some((g) => JSON.stringify(g) === JSON.stringify(ours));
    if (!uninstall && installed) continue;
    const groups = uninstall ? kept : [...kept, ours];
    const before = JSON.stringify(hooks[spec.event] ?? []);
    if (JSON.stringify(groups) === before) continue;
    next = applyEdits(next, modify(next, ["hooks", spec.event], groups.length > 0 ? groups : undefined, FORMAT));
  }
  next = mergeDeny(next, p.deny ?? [], uninstall);
  if (uninstall) {
    const after = parse(next) as Record<string, unknown>;
    const h = after.hooks;
    if (h && typeof h === "object" && Object.keys(h).length === 0 && !p.keepEmptyHooks) next = applyEdits(next, modify(next, ["hooks"], undefined, FORMAT));
  } else {
    for (const x of p.extra ?? []) {
      let cur: unknown = data;
      for (const k of x.path) cur = cur && typeof cur === "object" ? (cur as Record<string, unknown>)[k] : undefined;
      if (x.onlyIfMissing && cur !== undefined) continue;
      next = applyEdits(next, modify(next, x.path, x.value, FORMAT));
    }
  }
  return next.endsWith("\n") ? next : `${next}\n`;
}

/** Adds (or removes) entries of `permissions.deny`, keeping the user's own. */
function mergeDeny(text: string, entries: readonly string[], uninstall: boolean): string {
  if (entries.length === 0) return text;
  const data = parse(text) as Record<string, unknown>;
  const perms = data.permissions && typeof data.permissions === "object" && !Array.isArray(data.permissions) ? (data.permissions as Record<string, unknown>) : undefined;
  if (data.permissions !== undefined && perms === undefined) throw new Error(`"permissions" is not an object; nothing was changed`);
  const current = Array.isArray(perms?.deny) ? (perms.deny as unknown[]) : [];
  if (perms?.deny !== undefined && !Array.isArray(perms.deny)) throw new Error(`"permissions.deny" is not a list; nothing was changed`);
  const next = uninstall ? current.filter((d) => !(typeof d === "string" && entries.includes(d))) : [...current, ...entries.filter((e) => !current.includes(e))];
  if (next.length === current.length) return text;
  let out = applyEdits(text, modify(text, ["permissions", "deny"], next.length > 0 ? next : undefined, FORMAT));
  const after = parse(out) as Record<string, unknown>;
  const pa = after.permissions;
  if (uninstall && pa && typeof pa === "object" && Object.keys(pa).length === 0) out = applyEdits(out, modify(out, ["permissions"], undefined, FORMAT));
  return out;
}

/** Computes the MCP config text with (or without) our server entry; the same text when nothing changes. */
export function mergeMcpServer(text: string, data: Record<string, unknown>, server: NonNullable<AgentPlan["mcpServer"]>, uninstall: boolean): string {
  const servers = data.mcpServers;
  if (servers !== undefined && (!servers || typeof servers !== "object" || Array.isArray(servers))) throw new Error(`"mcpServers" is not an object; nothing was changed`);
  const cur = (servers as Record<string, unknown> | undefined)?.[server.name];
  let next = text;
  if (uninstall) {
    if (cur === undefined || !isShepherdServer(cur)) return text;
    next = applyEdits(next, modify(next, ["mcpServers", server.name], undefined, FORMAT));
    const after = parse(next) as Record<string, unknown>;
    const m = after.mcpServers;
    if (m && typeof m === "object" && Object.keys(m).length === 0) next = applyEdits(next, modify(next, ["mcpServers"], undefined, FORMAT));
  } else {
    if (cur !== undefined && !isShepherdServer(cur)) throw new Error(`an MCP server named "${server.name}" that is not Shepherd's is already configured; nothing was changed`);
    if (JSON.stringify(cur) === JSON.stringify(server.entry)) return text;
    next = applyEdits(next, modify(next, ["mcpServers", server.name], server.entry, FORMAT));
  }
  return next.endsWith("\n") ? next : `${next}\n`;
}

async function updateMcpConfig(server: NonNullable<AgentPlan["mcpServer"]>, uninstall: boolean): Promise<{ ok: true; changed: boolean } | { ok: false; message: string }> {
  if (uninstall && !existsSync(server.file)) return { ok: true, changed: false };
  const r = await updateFileSafely<boolean>(server.file, (current) => {
    try {
      if (current === undefined && uninstall) return { value: false };
      const { text, data } = parseSettings(server.file, current);
      const next = mergeMcpServer(text, data, server, uninstall);
      // An MCP config left empty by an uninstall stays as `{}`: the user may have made the file.
      return next.trimEnd() === text.trimEnd() ? { value: false } : { value: true, text: next };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  });
  return r.ok ? { ok: true, changed: r.value } : { ok: false, message: r.message };
}

/** Installs (or removes) the hooks; returns the exit code. */
export async function runInitAgent(agent: string, opts: InitAgentOptions): Promise<number> {
  const out = opts.write ?? ((t: string) => void writeSync(1, t));
  const err = opts.writeErr ?? ((t: string) => void process.stderr.write(t));
  const name = agentName(agent);
  if (!name) {
    err(`shepherd init: unknown agent "${agent}" (one of: pi, ${AGENTS.join(", ")}, opencode)\n`);
    return 2;
  }
  if (opts.mcp && name !== "claude-code") {
    err(`shepherd init ${name}: --mcp is for claude-code only\n`);
    return 2;
  }
  const p = plan(name, opts);
  const command = `${shellQuote(opts.binary)} hook ${name}`;
  // Without --mcp (and on uninstall) Shepherd's MCP entry and deny entry go, whichever way the hooks were installed.
  const mcpPlan = name === "claude-code" ? claudeMcpPlan(opts, resolve(opts.cwd)) : undefined;
  const server = mcpPlan?.mcpServer;
  if (mcpPlan && opts.uninstall) p.deny = mcpPlan.deny;
  if (server) {
    const m = await updateMcpConfig(server, opts.uninstall || !opts.mcp);
    if (!m.ok) {
      err(`shepherd init ${name}: ${m.message}\n`);
      return 1;
    }
    if (m.changed) out(`${server.file}: ${opts.uninstall || !opts.mcp ? "removed" : "added"} the MCP server "${server.name}" (${opts.binary} serve)\n`);
  }
  if (opts.uninstall && !existsSync(p.file)) {
    out(`${p.file}: already without Shepherd's hooks\n`);
    return 0;
  }
  const r = await updateFileSafely(p.file, (current) => {
    try {
      if (current === undefined && opts.uninstall) return { value: false };
      const { text, data } = parseSettings(p.file, current);
      const next = mergeAgentSettings(text, data, name, p, command, opts.uninstall);
      // The hooks are what counts: a missing final newline alone is no reason to write.
      return next.trimEnd() === text.trimEnd() ? { value: false } : { value: true, text: next };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  });
  if (!r.ok) {
    err(`shepherd init ${name}: ${r.message}\n`);
    return 1;
  }
  if (!r.value) {
    out(`${p.file}: already ${opts.uninstall ? "without" : "with"} Shepherd's hooks\n`);
    return 0;
  }
  out(`${p.file}: ${opts.uninstall ? "removed" : "installed"} Shepherd's ${name} hooks (${p.events.map((e) => e.event).join(", ")})\n`);
  if (!opts.uninstall) for (const n of p.notes) out(`note: ${n}\n`);
  return 0;
}
