/**
 * @module the plugin API: what a plugin file gets from `import { definePlugin } from "shepherd:plugin"`.
 *
 * In the compiled binary this module is served to plugin files as the virtual module `shepherd:plugin`
 * (see plugin-worker.ts), so a plugin needs no node_modules; in the repo, tsconfig maps the same
 * specifier here so editors type-check plugins. Keep it free of I/O: it runs inside the plugin worker.
 */
import type { PartialDecision, PluginCallArgs } from "../engine/evaluate.ts";
import type { HookEvent, HookName, Rule } from "../engine/schema.ts";
import type { CommandRecord, SessionState } from "../engine/state.ts";
import { commandOf, normalizeToolName, pathOf, textOf } from "../engine/tools.ts";

export type { CommandRecord, HookEvent, HookName, PartialDecision, PluginCallArgs, Rule, SessionState };

/**
 * A named action a rule selects with `"action": "<name>"`. Returns a partial decision, or nothing for
 * "no opinion". The arguments are copies: changing them changes nothing in Shepherd.
 */
export type PluginAction = (args: PluginCallArgs) => PartialDecision | undefined | void | Promise<PartialDecision | undefined | void>;

/** A named check a rule selects with `"check": "<name>"` (agent_end, session_shutdown): the rule fires when it returns true. */
export type PluginCheck = (args: PluginCallArgs) => boolean | Promise<boolean>;

export interface PluginDefinition {
  /** Shown by `shepherd rules list`; defaults to the file name. */
  name?: string;
  actions?: Record<string, PluginAction>;
  checks?: Record<string, PluginCheck>;
}

/** Identity at run time; exists so a plugin file gets types and completion without importing any type. */
export function definePlugin<T extends PluginDefinition>(definition: T): T {
  return definition;
}

/** The tool of a tool event in pi's vocabulary (`Bash` -> `bash`, `write_file` -> `write`), or "" for other hooks. */
export function toolOf(event: HookEvent): string {
  return event.tool ? normalizeToolName(event.tool.name) : "";
}

/** The shell command of a tool event, whichever agent sent it (`command`, `cmd`). */
export function commandOfEvent(event: HookEvent): string | undefined {
  return event.tool ? commandOf(event.tool.input) : undefined;
}

/** The file path of a tool event (`path`, `file_path`, ...). */
export function pathOfEvent(event: HookEvent): string | undefined {
  return event.tool ? pathOf(event.tool.input) : undefined;
}

/** The text a write or edit puts in the file (`content`, `newText`, `new_string`, multi-edit texts joined). */
export function textOfEvent(event: HookEvent): string | undefined {
  return event.tool ? textOf(event.tool.input) : undefined;
}

/** One replacement of an edit tool call, in agent-neutral form. */
export interface EditPair {
  oldText: string;
  newText: string;
  replaceAll: boolean;
}

function pairOf(x: unknown): EditPair | undefined {
  if (x === null || typeof x !== "object") return undefined;
  const o = x as Record<string, unknown>;
  const oldText = o.oldText ?? o.old_string ?? o.old_str;
  const newText = o.newText ?? o.new_string ?? o.new_str;
  if (typeof oldText !== "string" || typeof newText !== "string") return undefined;
  return { oldText, newText, replaceAll: o.replace_all === true || o.replaceAll === true };
}

/**
 * The replacements of an edit call: pi's `{oldText, newText}` or `edits: [...]`, Claude Code's
 * `old_string`/`new_string` and MultiEdit `edits`. Empty when the input has another shape (e.g. a patch).
 */
export function editsOfEvent(event: HookEvent): EditPair[] {
  const input = event.tool?.input;
  if (!input) return [];
  const single = pairOf(input);
  if (single) return [single];
  const list = input.edits;
  if (!Array.isArray(list)) return [];
  const out: EditPair[] = [];
  for (const e of list) {
    const p = pairOf(e);
    if (p) out.push(p);
  }
  return out;
}

/** Applies edit pairs to a file's text the way the agents do (first occurrence unless replaceAll); a pair that does not match is skipped. */
export function applyEdits(text: string, edits: readonly EditPair[]): string {
  let out = text;
  for (const e of edits) {
    if (e.oldText === "") continue;
    out = e.replaceAll ? out.split(e.oldText).join(e.newText) : out.replace(e.oldText, () => e.newText);
  }
  return out;
}

/** Counts lines as an editor shows them: a trailing newline does not start another line. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith("\n") ? n - 1 : n;
}
