/** @module compiled rules and the per-event view they match against (patterns compiled once, fields read lazily). */
import { compileCommandCondition, type CommandMatcher, lineFacts, ruledOutBy, type ShellContext } from "../shell/index.ts";
import { pathInClass, resolvePath } from "../shell/paths.ts";
import type { HookEvent, Rule } from "./schema.ts";
import { commandOf, getDotted, normalizeToolName, pathOf, targetPathsOf, textOf } from "./tools.ts";

/** Compiles a regex for testing: `g`/`y` make `test` stateful, so they are dropped here. */
export type RegexCompiler = (pattern: string, flags: string | undefined, rule: Rule) => RegExp;

export const defaultRegexCompiler: RegexCompiler = (pattern, flags) => new RegExp(pattern, (flags ?? "").replace(/[gy]/g, ""));

export interface CompiledCondition {
  field: string;
  re: RegExp;
  negate: boolean;
}

export interface CompiledRule {
  rule: Rule;
  pattern?: RegExp;
  conditions: CompiledCondition[];
  command?: CommandMatcher;
  stopReasons?: Set<string>;
}

/** Shared by every rule without conditions (most of them): one array fewer per rule. */
const NO_CONDITIONS = Object.freeze([]) as never[];

/** What compiling a rule produces, before the compiled rule itself is built (see `assembleRule`). */
export interface RulePatterns {
  pattern: RegExp | undefined;
  /** One per condition, in order. */
  conditions: RegExp[];
  command: CommandMatcher | undefined;
}

/** Compiles a rule's patterns (pattern, conditions, command, in that order); throws when one cannot be. */
export function compilePatterns(rule: Rule, compile: RegexCompiler = defaultRegexCompiler): RulePatterns {
  const pattern = rule.pattern !== undefined ? compile(rule.pattern, rule.flags, rule) : undefined;
  const conditions = rule.conditions.map((c) => compile(c.pattern, c.flags, rule));
  const command = rule.command !== undefined ? compileCommandCondition(rule.command, (p) => compile(p, undefined, rule)) : undefined;
  return { pattern, conditions, command };
}

/**
 * The compiled rule around compiled patterns. Allocates nothing else: a sidecar keeps these objects for
 * good, and built in a run of their own (merge.ts) they share heap blocks instead of each pinning one
 * among the compilers' garbage (JSC does not move objects).
 */
export function assembleRule(rule: Rule, p: RulePatterns): CompiledRule {
  const conditions: CompiledCondition[] = rule.conditions.length === 0 ? NO_CONDITIONS : [];
  rule.conditions.forEach((c, i) => conditions.push({ field: c.field, re: p.conditions[i] as RegExp, negate: c.negate ?? false }));
  const cr: CompiledRule = { rule, conditions };
  if (p.pattern !== undefined) cr.pattern = p.pattern;
  if (p.command !== undefined) cr.command = p.command;
  if (rule.stopReason !== undefined) cr.stopReasons = new Set(rule.stopReason);
  return cr;
}

export function compileRule(rule: Rule, compile: RegexCompiler = defaultRegexCompiler): CompiledRule {
  return assembleRule(rule, compilePatterns(rule, compile));
}

/** Never matches: what a lazily compiled rule becomes when its patterns do not compile. */
const NEVER = /(?!)/;

/** How rules compiled on first use compile: shared by every rule of one merge. */
interface DeferredCompile {
  compile: RegexCompiler;
  onError: ((rule: Rule, err: unknown) => void) | undefined;
}

/**
 * A rule compiled on first use. Getters on the prototype, so an uncompiled rule is one small object: a
 * sidecar at 10,000 rules tests a few hundred of them (the prefilter skips the rest), and holding every
 * compiled pattern cost ~2 MB of live heap, which JSC then multiplies in the heap it keeps.
 */
class DeferredRule implements CompiledRule {
  readonly rule: Rule;
  #how: DeferredCompile;
  #done: CompiledRule | undefined;

  constructor(rule: Rule, how: DeferredCompile) {
    this.rule = rule;
    this.#how = how;
  }

  #get(): CompiledRule {
    if (!this.#done) {
      try {
        this.#done = compileRule(this.rule, this.#how.compile);
      } catch (err) {
        this.#how.onError?.(this.rule, err);
        this.#done = { rule: this.rule, pattern: NEVER, conditions: [] };
      }
    }
    return this.#done;
  }

  get pattern(): RegExp | undefined {
    return this.#get().pattern;
  }

  get conditions(): CompiledCondition[] {
    return this.#get().conditions;
  }

  get command(): CommandMatcher | undefined {
    return this.#get().command;
  }

  get stopReasons(): Set<string> | undefined {
    return this.#get().stopReasons;
  }
}

/**
 * Rules compiled on first use rather than now, all with the same compiler. A one-shot hook evaluates one
 * event: compiling (and safety-analysing) the patterns of a thousand rules it never tests would cost it
 * most of its budget. A rule that fails to compile then never matches: eagerly it would have been skipped,
 * the same decision.
 */
export function deferredCompiler(compile: RegexCompiler = defaultRegexCompiler, onError?: (rule: Rule, err: unknown) => void): (rule: Rule) => CompiledRule {
  const how: DeferredCompile = { compile, onError };
  return (rule) => new DeferredRule(rule, how);
}

/**
 * One event as rules see it. Fields are computed on first use, so a rule set that never asks for the
 * path never pays for it. `input` can be replaced while rewrites chain.
 */
export class EventView {
  readonly event: HookEvent;
  readonly tool: string;
  #input: Record<string, unknown>;
  #command: string | undefined | null = null;
  #path: string | undefined | null = null;
  #text: string | undefined | null = null;

  constructor(event: HookEvent) {
    this.event = event;
    this.tool = event.tool ? normalizeToolName(event.tool.name) : "";
    this.#input = event.tool?.input ?? {};
  }

  get input(): Record<string, unknown> {
    return this.#input;
  }

  set input(next: Record<string, unknown>) {
    this.#input = next;
    this.#command = null;
    this.#path = null;
    this.#text = null;
  }

  get command(): string | undefined {
    if (this.#command === null) this.#command = commandOf(this.#input);
    return this.#command;
  }

  get path(): string | undefined {
    if (this.#path === null) this.#path = pathOf(this.#input);
    return this.#path;
  }

  /** Text written by a tool, the assistant's message, or the user's prompt, by hook. */
  get text(): string | undefined {
    if (this.#text === null) {
      const h = this.event.hook;
      if (h === "message_end" || h === "agent_end") this.#text = this.event.message?.text;
      else if (h === "input") this.#text = this.event.prompt;
      else this.#text = textOf(this.#input);
    }
    return this.#text;
  }

  /** What a rule's top-level `pattern` is tested against. */
  get subject(): string {
    switch (this.event.hook) {
      case "tool_call":
      case "tool_result":
        return this.command ?? this.path ?? this.text ?? JSON.stringify(this.#input);
      case "message_end":
      case "agent_end":
        return this.event.message?.text ?? "";
      case "input":
        return this.event.prompt ?? "";
      default:
        return "";
    }
  }

  field(name: string): string | undefined {
    switch (name) {
      case "command":
        return this.command;
      case "path":
        return this.path;
      case "text":
        return this.text;
      case "output":
        return this.event.result?.text;
      case "prompt":
        return this.event.prompt;
      case "message":
        return this.event.message?.text;
      case "tool":
        return this.tool;
      // Set only on a call another tool made: `{"field": "parentCallId", "pattern": "."}` means "nested".
      case "parentCallId":
        return this.event.tool?.parentCallId;
      // The tool author's hints (`annotations.destructiveHint` = "true"), so a rule can guard tools it has never heard of.
      case "annotations.readOnlyHint":
      case "annotations.destructiveHint":
      case "annotations.idempotentHint":
      case "annotations.openWorldHint": {
        const hint = this.event.tool?.annotations?.[name.slice("annotations.".length) as "readOnlyHint"];
        return hint === undefined ? undefined : String(hint);
      }
      default: {
        const value = getDotted(this.#input, name);
        if (value === undefined || value === null) return undefined;
        return typeof value === "string" ? value : JSON.stringify(value);
      }
    }
  }
}

/** What a failed match returns when the caller did not ask why (the hot path builds no message). */
export const NO_MATCH = "no match";

/**
 * The matching part of a rule that depends only on the event (not on session state or checks).
 * Returns undefined when everything holds, else the first condition that failed, for `rules explain`.
 * With `explain` false a failure returns NO_MATCH: building the message costs more than the regex test.
 */
export function matchStatic(cr: CompiledRule, view: EventView, shell: ShellContext, explain = true): string | undefined {
  const rule = cr.rule;
  const ev = view.event;
  if (!rule.subagent && ev.session.subagent) return explain ? "rule is off inside sub-agents (subagent: false)" : NO_MATCH;
  if (rule.requireSuccess && ev.result?.isError !== false) return explain ? "requireSuccess: the tool did not succeed" : NO_MATCH;
  if (rule.requiresTools && ev.availableTools) {
    const available = new Set(ev.availableTools.map(normalizeToolName));
    const missing = rule.requiresTools.find((t) => !available.has(t));
    if (missing !== undefined) return explain ? `requiresTools: tool "${missing}" is not available` : NO_MATCH;
  }
  // Before the first compiled property (which compiles the rule): a command condition the line rules out.
  if (!explain && rule.command !== undefined && (view.command === undefined || ruledOutBy(rule.command, lineFacts(view.command, shell)))) return NO_MATCH;
  if (cr.stopReasons && !cr.stopReasons.has(ev.stopReason ?? "")) {
    return explain ? `stopReason "${ev.stopReason ?? ""}" is not one of ${[...cr.stopReasons].join(", ")}` : NO_MATCH;
  }
  if (cr.pattern && !cr.pattern.test(view.subject)) return explain ? `pattern /${rule.pattern}/ does not match ${JSON.stringify(clip(view.subject))}` : NO_MATCH;
  for (const c of cr.conditions) {
    const value = view.field(c.field);
    const hit = value !== undefined && c.re.test(value);
    if (hit === c.negate) {
      if (!explain) return NO_MATCH;
      return value === undefined
        ? `condition ${c.field}: the event has no "${c.field}"`
        : `condition ${c.field} ${c.negate ? "matches (negated)" : "does not match"} /${c.re.source}/: ${JSON.stringify(clip(value))}`;
    }
  }
  if (rule.paths !== undefined) {
    const cls = rule.paths;
    const targets = targetPathsOf(view.input);
    // A tool writes the file it names: only folders that hold protected files count when removed or moved.
    const hit = targets.some((t) => pathInClass(resolvePath(t, ev.session.cwd, shell.home), cls, shell.projectRoot, shell.home, shell.guard, false));
    if (!hit) return explain ? (targets.length === 0 ? `paths: the event has no path` : `paths: ${targets.join(", ")} is not ${cls.replace("_", " ")}`) : NO_MATCH;
  }
  if (cr.command) {
    const command = view.command;
    if (command === undefined) return explain ? "command condition: the event has no command" : NO_MATCH;
    const why = cr.command(command, shell, explain);
    if (why !== undefined) return explain ? `command condition: ${why}` : NO_MATCH;
  }
  return undefined;
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

const PLACEHOLDER = /\{\{\s*(command|path|tool|text)\s*\}\}/g;
/** Templates cut at their placeholders: text, key, text, key, ..., text. Bounded: started over when full. */
const templateParts = new Map<string, readonly string[]>();
const TEMPLATE_CACHE_MAX = 1024;

/** A template cut where the placeholder regex matches it (the matches `replace` would fill, found once per template). */
function partsOf(template: string): readonly string[] {
  let parts = templateParts.get(template);
  if (parts === undefined) {
    const cut: string[] = [];
    let at = 0;
    for (const m of template.matchAll(PLACEHOLDER)) {
      cut.push(template.slice(at, m.index), m[1] as string);
      at = m.index + m[0].length;
    }
    cut.push(template.slice(at));
    parts = cut;
    if (templateParts.size >= TEMPLATE_CACHE_MAX) templateParts.clear();
    templateParts.set(template, parts);
  }
  return parts;
}

/** Fills `{{command}}`, `{{path}}`, `{{tool}}` in a reason. */
export function fillTemplate(template: string, view: EventView): string {
  if (!template.includes("{{")) return template;
  // A block's reason is filled on every block: the template is cut once, not matched again each time.
  const parts = partsOf(template);
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i] as string;
    out += (key === "tool" ? (view.event.tool?.name ?? view.tool) : (view.field(key) ?? "")) + (parts[i + 1] as string);
  }
  return out;
}
