/**
 * @module static analysis of rule files beyond validation: "did you mean" for misspelt names, unknown tools,
 * rules that can never fire (unreachable) or never win (shadowed by an earlier block), and names
 * defined twice in one layer. Pure: takes loaded rules (and optionally their text) and returns issues.
 */
import { findNodeAtLocation, type Node, parseTree } from "jsonc-parser";
import { CommandConditionSchema } from "../shell/command-condition-schema.ts";
import { isBuiltinAction, isBuiltinCheck, positionOf } from "./load.ts";
import { TOOL_HOOKS } from "./schema-core.ts";
import {
  BUILTIN_ACTIONS,
  BUILTIN_CHECKS,
  ConditionSchema,
  EXPECTATIONS,
  HOOK_NAMES,
  type LayerName,
  type LoadIssue,
  type Rule,
  RuleSchema,
  RuleTestSchema,
  StateSchema,
} from "./schema.ts";
import { isToolGlob, KNOWN_TOOLS, normalizeToolName } from "./tools.ts";

/** Edit distance (insert, delete, substitute, swap of neighbours), for typo suggestions. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The closest candidate, if it is close enough to be a plausible typo: at most a third of the word's
 * length in edits (minimum 1, maximum 3), or a case-insensitive / separator-insensitive match.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");
  const w = squash(word);
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    if (c === word) return undefined;
    if (squash(c) === w) return c;
    const score = editDistance(w, squash(c));
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return bestScore <= limit ? best : undefined;
}

export function suggestion(word: string, candidates: readonly string[]): string {
  const hit = didYouMean(word, candidates);
  return hit === undefined ? "" : `; did you mean "${hit}"?`;
}

type Segment = string | number;

/** `rules[2].conditions[0].pattern` -> ["rules", 2, "conditions", 0, "pattern"]. */
export function parsePath(path: string): Segment[] {
  const out: Segment[] = [];
  const re = /\[(\d+)\]|\.?([^.[\]]+)/g;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else if (m[2] !== undefined) out.push(m[2]);
  }
  return out;
}

/** A parsed rule file kept for position lookups; undefined tree when the text is not JSON at all. */
export interface SourceText {
  text: string;
  root: Node | undefined;
}

export function sourceText(text: string): SourceText {
  return { text, root: parseTree(text, [], { allowTrailingComma: true, disallowComments: false }) };
}

/**
 * Line and column of a JSON path in a file: the key of a property when the path names one (so the
 * cursor lands on `"pattern":`), else the nearest existing ancestor.
 */
export function locatePath(src: SourceText, path: string): { line: number; column: number } | undefined {
  if (!src.root) return undefined;
  const segs = parsePath(path);
  for (let n = segs.length; n >= 0; n--) {
    const node = findNodeAtLocation(src.root, segs.slice(0, n));
    if (!node) continue;
    const target = node.parent?.type === "property" && n === segs.length ? node.parent : node;
    return positionOf(src.text, target.offset);
  }
  return undefined;
}

/** The raw JSON value at a path, to quote it back in a message. */
export function valueAt(src: SourceText, path: string): unknown {
  if (!src.root) return undefined;
  const node = findNodeAtLocation(src.root, parsePath(path));
  return node?.type === "string" || node?.type === "number" || node?.type === "boolean" ? node.value : undefined;
}

const RULE_KEYS = Object.keys(RuleSchema.entries);
const CONDITION_KEYS = Object.keys(ConditionSchema.entries);
const STATE_KEYS = Object.keys(StateSchema.entries);
const TEST_KEYS = Object.keys(RuleTestSchema.entries);
const COMMAND_KEYS = Object.keys(CommandConditionSchema.entries);
const REWRITE_KEYS = ["prefix", "replace"];
/** Stop reasons pi's AssistantMessage can carry. */
export const STOP_REASONS = ["stop", "length", "toolUse", "error", "aborted"] as const;

/** Keys allowed where an unknown key was found, judged by the path of its parent. */
function keysFor(parent: Segment[]): readonly string[] {
  const last = parent[parent.length - 1];
  const beforeLast = parent[parent.length - 2];
  if (typeof last === "number" && beforeLast === "conditions") return CONDITION_KEYS;
  if (typeof last === "number" && beforeLast === "tests") return TEST_KEYS;
  if (last === "state") return STATE_KEYS;
  if (last === "command") return COMMAND_KEYS;
  if (last === "rewrite") return REWRITE_KEYS;
  return RULE_KEYS;
}

/** Allowed values of an enumerated field, judged by its path. */
function valuesFor(segs: Segment[]): readonly string[] | undefined {
  const last = segs[segs.length - 1];
  const parent = segs[segs.length - 3];
  if (last === "hook") return HOOK_NAMES;
  if (last === "expect") return EXPECTATIONS;
  if (last === "countKind") return ["errors", "calls", "repeats", "failing_repeats"];
  if (last === "paths" && segs[segs.length - 2] === "command") return ["outside_project", "inside_project", "home_or_root", "project_root", "unknown", "any"];
  if (last === "action" && parent === undefined) return BUILTIN_ACTIONS;
  return undefined;
}

/**
 * Adds "did you mean" to loader issues about unknown keys and out-of-set values, reading the
 * offending word back from the file text. Issues it cannot improve are returned unchanged.
 */
export function withSuggestions(issues: LoadIssue[], src: SourceText): LoadIssue[] {
  return issues.map((issue) => {
    const unknownKey = /^unknown key "(.+)"$/.exec(issue.message);
    const segs = parsePath(issue.path);
    if (unknownKey?.[1] !== undefined) {
      const hint = suggestion(unknownKey[1], keysFor(segs.slice(0, -1)));
      return hint ? { ...issue, message: issue.message + hint } : issue;
    }
    const allowed = valuesFor(segs);
    const raw = valueAt(src, issue.path);
    if (allowed && typeof raw === "string" && !allowed.includes(raw)) {
      const hint = suggestion(raw, allowed);
      return hint ? { ...issue, message: `${issue.message}${hint}` } : issue;
    }
    return issue;
  });
}

/** One file's loaded rules, as analysis needs them. `text` enables line:column positions. */
export interface AnalyzedFile {
  file: string;
  source: LayerName;
  rules: Rule[];
  text?: string;
}

export interface AnalyzeOptions {
  pluginActions?: ReadonlySet<string>;
  pluginChecks?: ReadonlySet<string>;
  /** Extra tool names considered known (MCP or extension tools of the agent). */
  extraTools?: readonly string[];
}

/** Hooks whose rule subject is always empty: a `pattern` there only fires if it matches "". */
const EMPTY_SUBJECT_HOOKS = new Set(["session_start", "session_shutdown", "before_provider_request"]);
/** Fields a tool's input never carries, per normalized tool (what tools.ts can extract). */
const FIELD_TOOLS: Record<string, ReadonlySet<string>> = {
  command: new Set(["bash"]),
  path: new Set(["edit", "write", "read", "grep", "find", "ls"]),
  text: new Set(["edit", "write"]),
};

/**
 * Static problems of loaded rules: unknown tools/actions/checks/stop reasons (with "did you mean"),
 * unreachable rules, rules shadowed by an earlier unconditional-enough block, and names defined in
 * two files of one layer (the later silently replaces the earlier). All are warnings: the rule set
 * still loads; `rules check` reports them and exits 0 unless there are errors.
 */
export function analyzeRules(files: AnalyzedFile[], opts: AnalyzeOptions = {}): LoadIssue[] {
  const issues: LoadIssue[] = [];
  const sources = new Map<string, SourceText>();
  for (const f of files) if (f.text !== undefined) sources.set(f.file, sourceText(f.text));
  const warn = (rule: Pick<Rule, "file" | "jsonPath">, rel: string, message: string) => {
    const path = rel === "" ? rule.jsonPath : `${rule.jsonPath}.${rel}`.replace(/\.\[/g, "[");
    const src = sources.get(rule.file);
    const pos = src ? locatePath(src, path) : undefined;
    issues.push({ file: rule.file, path, message, severity: "warning", ...(pos ?? {}) });
  };

  const knownTools = [...KNOWN_TOOLS, ...(opts.extraTools ?? []).map(normalizeToolName)];
  const actions = [...BUILTIN_ACTIONS, ...(opts.pluginActions ?? [])];
  const checks = [...BUILTIN_CHECKS, ...(opts.pluginChecks ?? [])];

  for (const f of files) {
    for (const rule of f.rules) {
      if (rule.patch) continue;
      rule.tools.forEach((tool, i) => {
        if (knownTools.includes(tool) || isToolGlob(tool)) return;
        const hint = didYouMean(tool, knownTools);
        const rel = rule.tools.length > 1 || rawIsList(sources.get(rule.file), rule) ? `tool[${i}]` : "tool";
        warn(rule, rel, hint ? `unknown tool "${tool}"; did you mean "${hint}"?` : `unknown tool "${tool}": fine if an extension or MCP server provides it, else this rule never fires`);
      });
      if (!isBuiltinAction(rule.action) && !opts.pluginActions?.has(rule.action)) {
        warn(rule, "action", `unknown action "${rule.action}" (no loaded plugin provides it)${suggestion(rule.action, actions)}`);
      }
      if (rule.check !== undefined && !isBuiltinCheck(rule.check) && !opts.pluginChecks?.has(rule.check)) {
        warn(rule, "check", `unknown check "${rule.check}" (no loaded plugin provides it)${suggestion(rule.check, checks)}`);
      }
      rule.stopReason?.forEach((reason, i) => {
        if ((STOP_REASONS as readonly string[]).includes(reason)) return;
        const rel = rule.stopReason && rule.stopReason.length > 1 ? `stopReason[${i}]` : "stopReason";
        warn(rule, rel, `stop reason "${reason}" is not one pi reports (${STOP_REASONS.join(", ")})${suggestion(reason, STOP_REASONS)}`);
      });
      for (const [rel, why] of unreachable(rule)) warn(rule, rel, `never fires: ${why}`);
    }
  }

  for (const [rule, by] of shadowed(files.flatMap((f) => f.rules))) {
    warn(rule, "", `shadowed: rule "${by.name}" (${by.file === rule.file ? by.jsonPath : `${by.file} ${by.jsonPath}`}) blocks every event this rule matches, and a block stops evaluation`);
  }

  const firstByLayer = new Map<string, Rule>();
  for (const f of files) {
    for (const rule of f.rules) {
      const key = `${f.source}\0${rule.name}`;
      const first = firstByLayer.get(key);
      if (first === undefined) firstByLayer.set(key, rule);
      else if (first.file !== rule.file) {
        warn(rule, rule.patch ? "" : "name", `duplicate rule name "${rule.name}": also defined in ${first.file} (${first.jsonPath}), same ${f.source} layer; this one silently replaces it`);
      }
    }
  }
  return issues;
}

function rawIsList(src: SourceText | undefined, rule: Rule): boolean {
  if (!src?.root) return false;
  const node = findNodeAtLocation(src.root, [...parsePath(rule.jsonPath), "tool"]);
  return node?.type === "array";
}

/** Reasons a rule can never fire whatever the event, with the JSON path (relative to the rule) to blame. */
export function unreachable(rule: Rule): [string, string][] {
  const out: [string, string][] = [];
  if (rule.pattern !== undefined && EMPTY_SUBJECT_HOOKS.has(rule.hook) && !safeTest(rule.pattern, rule.flags, "")) {
    out.push(["pattern", `on ${rule.hook} the pattern is tested against an empty string, which /${rule.pattern}/ does not match`]);
  }
  if (TOOL_HOOKS.has(rule.hook) && rule.tools.length > 0) {
    rule.conditions.forEach((c, i) => {
      const carriers = FIELD_TOOLS[c.field];
      if (!carriers || c.negate) return;
      if (rule.tools.every((t) => KNOWN_TOOLS.includes(t as (typeof KNOWN_TOOLS)[number]) && !carriers.has(t))) {
        out.push([`conditions[${i}].field`, `tool ${rule.tools.join("/")} has no "${c.field}" (only ${[...carriers].join("/")} do)`]);
      }
    });
    if (rule.command !== undefined && !rule.tools.includes("bash")) {
      out.push(["command", `a "command" condition needs a bash tool, but the rule is for ${rule.tools.join("/")}`]);
    }
  }
  return out;
}

function safeTest(pattern: string, flags: string | undefined, subject: string): boolean {
  try {
    return new RegExp(pattern, (flags ?? "").replace(/[gy]/g, "")).test(subject);
  } catch {
    return true;
  }
}

/**
 * True when `a` provably matches every event `b` matches (conservative: false when unsure). Holds if
 * `a` asks for no more than `b`: same hook, a tool filter covering b's, no counter or check, and its
 * pattern, conditions and command condition all repeated verbatim in `b`.
 */
export function covers(a: Rule, b: Rule): boolean {
  if (a.hook !== b.hook) return false;
  if (a.tools.length > 0 && (b.tools.length === 0 || !b.tools.every((t) => a.tools.includes(t)))) return false;
  if (a.state || a.check !== undefined || a.requiresTools) return false;
  if (!a.subagent && b.subagent) return false;
  if (a.requireSuccess && !b.requireSuccess) return false;
  if (a.stopReason && (!b.stopReason || !b.stopReason.every((r) => a.stopReason?.includes(r)))) return false;
  if (a.pattern !== undefined && (a.pattern !== b.pattern || (a.flags ?? "") !== (b.flags ?? ""))) return false;
  const bConds = b.conditions.map((c) => JSON.stringify([c.field, c.pattern, c.flags ?? "", c.negate ?? false]));
  if (!a.conditions.every((c) => bConds.includes(JSON.stringify([c.field, c.pattern, c.flags ?? "", c.negate ?? false])))) return false;
  return a.command === undefined || JSON.stringify(a.command) === JSON.stringify(b.command);
}

/**
 * Rules that can never take effect because an earlier enabled `block` rule catches every event they
 * match: a block wins and stops evaluation (DESIGN section 3). Pairs of [shadowed, by].
 * Order is the merge order: the list must already be sorted (layer, file, position).
 */
export function shadowed(rules: Rule[]): [Rule, Rule][] {
  const out: [Rule, Rule][] = [];
  const active = rules.filter((r) => !r.patch && r.enabled);
  active.forEach((b, i) => {
    for (let j = 0; j < i; j++) {
      const a = active[j] as Rule;
      if (a.action !== "block" || a.name === b.name) continue;
      if (covers(a, b)) {
        out.push([b, a]);
        return;
      }
    }
  });
  return out;
}
