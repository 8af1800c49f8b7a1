/**
 * @module `shepherd init claude-code|codex|gemini [--user] [--uninstall]`: merges Shepherd's hook entries into
 * the agent's settings file. Other hooks and settings stay as they are (edits go through jsonc-parser, so
 * comments and formatting survive), a second run changes nothing, and every write goes through the shared
 * safe update (locked, atomic, and safe against the user saving the same file).
 */
import { existsSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { applyEdits, type ParseError, modify, parse, printParseErrorCode } from "jsonc-parser";
import { isShepherdCommand } from "../adapters/agent-timeout.ts";
import { type AgentName, agentName, AGENTS } from "../adapters/index.ts";
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
  notes: string[];
}

function plan(agent: AgentName, opts: InitAgentOptions): AgentPlan {
  const project = resolve(opts.cwd);
  switch (agent) {
    case "claude-code":
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
  }
}

/** Single quotes keep a path with spaces one word for the agent's shell. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** Our entry is recognized by its command, so a moved binary is replaced, not duplicated. */
function isShepherdHandler(h: unknown, agent: AgentName): boolean {
  return !!h && typeof h === "object" && isShepherdCommand((h as { command?: unknown }).command, agent);
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
  if (uninstall) {
    const after = parse(next) as Record<string, unknown>;
    const h = after.hooks;
    if (h && typeof h === "object" && Object.keys(h).length === 0) next = applyEdits(next, modify(next, ["hooks"], undefined, FORMAT));
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

/** Installs (or removes) the hooks; returns the exit code. */
export async function runInitAgent(agent: string, opts: InitAgentOptions): Promise<number> {
  const out = opts.write ?? ((t: string) => void writeSync(1, t));
  const err = opts.writeErr ?? ((t: string) => void process.stderr.write(t));
  const name = agentName(agent);
  if (!name) {
    err(`shepherd init: unknown agent "${agent}" (one of: pi, ${AGENTS.join(", ")})\n`);
    return 2;
  }
  const p = plan(name, opts);
  const command = `${shellQuote(opts.binary)} hook ${name}`;
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
