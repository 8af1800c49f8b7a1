/** @module rule file text -> validated rules, or issues that name the file, JSON path and source position. */
import * as v from "valibot";
import { type PatternFactsStore, prepareRules } from "./prepared.ts";
import type { Node, ParseError } from "jsonc-parser";
import { jsoncParser, ruleSchemas } from "../lazy-deps.ts";
import type { Rule, RuleInput } from "./schema.ts";
import { isBuiltinAction, isBuiltinCheck, type LayerName, type LoadIssue, issuePath, TOOL_HOOKS } from "./schema-core.ts";
import { normalizeToolName } from "./tools.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../json-depth.ts";

export interface LoadResult {
  /** The rules that take effect: every rule that validated, when the file parsed (see `applies`). */
  rules: Rule[];
  issues: LoadIssue[];
  /** True when the file had no error at all (the rules tool refuses to write a file otherwise). */
  ok: boolean;
  /**
   * False when the file itself failed (unreadable, not JSON, not a rule list): a caller keeps its last good
   * rules. True when it parsed: `rules` apply, and each rule that did not validate is in `broken`.
   */
  applies: boolean;
  /** The rules skipped for their own errors; each also has an error issue at its JSON path. */
  broken?: BrokenRule[];
  /** The file's `extends` value as written (the packs it names), for the caller to resolve. */
  extends?: unknown;
}

/** A rule skipped on load, as far as it can be told what it was (to report it, or keep its last good version). */
export interface BrokenRule {
  /** The name it would have had; absent when the entry gives neither a name nor an action to derive one from. */
  name?: string;
  /** Its place in the file's rule list. */
  index: number;
  jsonPath: string;
  /** Its `action`, when that is a string. */
  action?: string;
  locked: boolean;
}

type PathSegment = string | number;

/** Line and column (1-based) of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function formatPath(segments: PathSegment[]): string {
  // Joined, not concatenated: `+=` builds a rope that keeps every piece alive (each rule keeps its path).
  const parts: string[] = [];
  let empty = true;
  for (const s of segments) {
    const part = typeof s === "number" ? `[${s}]` : empty ? s : `.${s}`;
    if (part !== "") empty = false;
    parts.push(part);
  }
  return parts.join("");
}

/** Derives a stable rule name from its comment when no name is given. */
export function deriveName(comment: string | undefined, fallback: string): string {
  if (!comment) return fallback;
  const slug = comment
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || fallback;
}

function toList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : [value];
}

function regexProblem(pattern: string, flags: string | undefined): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (err) {
    // The engine's own message already starts with "Invalid regular expression:"; say it once.
    const detail = (err instanceof Error ? err.message : String(err)).replace(/^invalid regular expression:\s*/i, "");
    return `invalid regular expression: ${detail}`;
  }
}

const CHECK_HOOKS = new Set(["agent_end", "session_shutdown"]);

/** Semantic checks valibot cannot express; each returns [relative path, message]. */
function semanticProblems(input: RuleInput): [PathSegment[], string][] {
  return [...regexProblems(input), ...crossFieldProblems(input)];
}

/** Each regex on its own: meaningful whatever the rule's other fields say. */
function regexProblems(input: RuleInput): [PathSegment[], string][] {
  const out: [PathSegment[], string][] = [];
  if (input.pattern !== undefined) {
    const p = regexProblem(input.pattern, input.flags);
    if (p) out.push([["pattern"], p]);
  }
  input.conditions?.forEach((c, i) => {
    const p = regexProblem(c.pattern, c.flags);
    if (p) out.push([["conditions", i, "pattern"], p]);
  });
  if (input.command?.args !== undefined) {
    const p = regexProblem(input.command.args, undefined);
    if (p) out.push([["command", "args"], p]);
  }
  return out;
}

/** Fields that contradict the rule's hook or action. */
function crossFieldProblems(input: RuleInput): [PathSegment[], string][] {
  const out: [PathSegment[], string][] = [];
  const hook = input.hook ?? "tool_call";
  input.conditions?.forEach((c, i) => {
    if (c.field === "output" && hook !== "tool_result") out.push([["conditions", i, "field"], `field "output" only exists on tool_result, not ${hook}`]);
  });
  if (input.action === "rewrite") {
    if (!input.rewrite) out.push([["rewrite"], 'action "rewrite" needs a "rewrite": {"prefix"} or {"replace"}']);
    if (hook !== "tool_call") out.push([["hook"], `action "rewrite" only works on tool_call, not ${hook}`]);
    if (input.rewrite && "replace" in input.rewrite && input.pattern === undefined) {
      out.push([["rewrite", "replace"], '"replace" needs a "pattern" to replace']);
    }
  } else if (input.rewrite) {
    out.push([["rewrite"], `"rewrite" is only used with action "rewrite", not "${input.action}"`]);
  }
  if (input.action === "guard-secrets" && hook !== "tool_call") out.push([["hook"], `action "guard-secrets" only works on tool_call, not ${hook}`]);
  if (input.action === "redact" && hook !== "tool_result" && hook !== "message_end") out.push([["hook"], `action "redact" only works on tool_result and message_end, not ${hook}`]);
  if ((input.action === "block" || input.action === "ask") && !TOOL_HOOKS.has(hook) && hook !== "input") {
    out.push([["action"], `action "${input.action}" cannot stop anything on ${hook}: use notify or steer`]);
  }
  if (input.check !== undefined && !CHECK_HOOKS.has(hook)) out.push([["check"], `"check" is only evaluated on agent_end or session_shutdown, not ${hook}`]);
  if (input.stopReason !== undefined && hook !== "agent_end") out.push([["stopReason"], `"stopReason" only applies to agent_end, not ${hook}`]);
  // A patch (no action) may add terminate to the block rule it changes.
  if (input.terminate && ((input.action !== undefined && input.action !== "block") || hook !== "tool_call")) {
    out.push([["terminate"], `"terminate" only applies to action "block" on tool_call, not ${input.action ?? "a patch"} on ${hook}`]);
  }
  // A patch (no action) may add remember to the ask rule it changes.
  if (input.remember !== undefined && ((input.action !== undefined && input.action !== "ask") || hook !== "tool_call")) {
    out.push([["remember"], `"remember" only applies to action "ask" on tool_call, not ${input.action ?? "a patch"} on ${hook}`]);
  }
  if (input.requireSuccess && hook !== "tool_result") out.push([["requireSuccess"], `"requireSuccess" only applies to tool_result, not ${hook}`]);
  if (input.tool !== undefined && !TOOL_HOOKS.has(hook)) out.push([["tool"], `"tool" only applies to tool_call and tool_result, not ${hook}`]);
  if (input.paths !== undefined && !TOOL_HOOKS.has(hook)) out.push([["paths"], `"paths" only applies to tool_call and tool_result, not ${hook}`]);
  return out;
}

/**
 * The semantic problems of a rule that failed its schema, so one bad field does not hide another: the rule
 * is checked again without the fields the schema refused. Cross-field checks only run while its hook and
 * action are known (a guessed hook would report problems the author does not have).
 */
function problemsBeside(raw: unknown, refused: ReadonlySet<string>): [PathSegment[], string][] {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return [];
  const rest: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of refused) delete rest[key];
  const parsed = v.safeParse(ruleSchemas().RuleSchema, rest);
  if (!parsed.success) return [];
  const known = !refused.has("hook") && !refused.has("action") && parsed.output.action !== undefined;
  const found = known ? semanticProblems(parsed.output) : regexProblems(parsed.output);
  return found.filter(([path]) => !refused.has(String(path[0])));
}

/** What can be told of a rule entry that did not validate. */
function brokenRule(raw: unknown, index: number, jsonPath: string): BrokenRule {
  const entry = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const action = typeof entry.action === "string" ? entry.action : undefined;
  const comment = typeof entry.comment === "string" ? entry.comment : undefined;
  const name = typeof entry.name === "string" ? entry.name : action !== undefined ? deriveName(comment, `${action}-${index}`) : undefined;
  return { ...(name !== undefined ? { name } : {}), index, jsonPath, ...(action !== undefined ? { action } : {}), locked: entry.locked === true };
}

/**
 * The error that says a rule is skipped and what that costs: a broken block or locked rule is a guard that is
 * off, and must read as one, not as one more schema message.
 */
export function skippedRuleMessage(b: BrokenRule): string {
  const what = b.name !== undefined ? `rule "${b.name}"` : "this rule";
  const kind = [b.action, b.locked ? "locked" : undefined].filter((x) => x !== undefined).join(", ");
  const guard = b.action === "block" || b.action === "ask" || b.locked;
  return `${what}${kind ? ` (${kind})` : ""} is skipped${guard ? ": the guard it gives is off until it is fixed" : ""}; the file's other rules apply`;
}

export interface LoadOptions {
  file: string;
  source: LayerName;
  /** The rules of this file's last load: a rule with the same patterns takes its prepared value (prepared.ts). */
  previous?: readonly Rule[];
  /** Pattern facts kept across processes: a pattern found there is not parsed (prepared.ts). */
  facts?: PatternFactsStore;
}

/**
 * The issue of a rule text nested deeper than MAX_JSON_DEPTH, or undefined. Checked before any parse (the
 * parsers recurse per level); a caller that would parse the text again (`rules check`) must not once this is set.
 */
export function depthIssue(text: string, file: string): LoadIssue | undefined {
  const p = jsonDepthProblem(text, MAX_JSON_DEPTH);
  if (!p) return undefined;
  // A file-level error (path ""): the file is refused whole, and callers that stop on those (the rules tool) must.
  return { file, path: "", message: p.message, severity: "error", line: p.line, column: p.column };
}

/**
 * Parses a JSONC rule file (array, or object with `rules`). Never throws: every problem comes back as an
 * issue with the file, the JSON path and a line:column.
 */
export function loadRuleText(text: string, opts: LoadOptions): LoadResult {
  const tooDeep = depthIssue(text, opts.file);
  if (tooDeep) return { rules: [], issues: [tooDeep], ok: false, applies: false };
  const issues: LoadIssue[] = [];
  const at = (segments: PathSegment[], message: string, severity: "error" | "warning" = "error", offset?: number) => {
    let pos: { line: number; column: number } | undefined;
    if (offset !== undefined) pos = positionOf(text, offset);
    else {
      const root = tree();
      // Walk up until a node exists, so a missing key points at its parent object.
      for (let n = segments.length; root && n >= 0; n--) {
        const node = jsoncParser().findNodeAtLocation(root, segments.slice(0, n));
        if (node) {
          const target = node.parent?.type === "property" && n === segments.length ? node.parent : node;
          pos = positionOf(text, target.offset);
          break;
        }
      }
    }
    issues.push({ file: opts.file, path: formatPath(segments), message, severity, ...(pos ?? {}) });
  };

  // Plain JSON (what tools and the shepherd_rules tool write) parses natively, many times faster than the
  // JSONC tree; the tree is built only for comments, syntax errors, or to place an issue.
  const errors: ParseError[] = [];
  let root: Node | undefined;
  let treeBuilt = false;
  const tree = (): Node | undefined => {
    if (!treeBuilt) {
      treeBuilt = true;
      root = jsoncParser().parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    }
    return root;
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const parsed = tree();
    if (!parsed && jsoncParser().stripComments(text).trim() === "") {
      at([], 'empty file: expected a JSON array of rules or {"rules": [...]}', "error", 0);
      return { rules: [], issues, ok: false, applies: false };
    }
    if (errors.length > 0 || !parsed) {
      for (const e of errors.slice(0, 5)) at([], `JSON syntax error: ${jsoncParser().printParseErrorCode(e.error)}`, "error", e.offset);
      if (errors.length === 0) at([], "empty file: expected a JSON array of rules or {\"rules\": [...]}", "error", 0);
      return { rules: [], issues, ok: false, applies: false };
    }
    data = nodeValue(parsed);
  }
  let list: unknown[];
  let base: PathSegment[];
  /** A file's `"mode": "shadow"` (object form): the default of each full rule in it, never of a patch. */
  let fileMode: "enforce" | "shadow" | undefined;
  let extendsRaw: unknown;
  if (Array.isArray(data)) {
    list = data;
    base = [];
  } else if (data && typeof data === "object" && (Array.isArray((data as { rules?: unknown }).rules) || ((data as { rules?: unknown }).rules === undefined && "extends" in data))) {
    // `extends` names rule packs (lib/rules/packs/): resolved by the caller, which owns files and locks.
    list = (data as { rules?: unknown[] }).rules ?? [];
    base = ["rules"];
    if ("extends" in data) extendsRaw = (data as { extends?: unknown }).extends;
    for (const key of Object.keys(data)) {
      if (key !== "rules" && key !== "$schema" && key !== "$comment" && key !== "mode" && key !== "extends") at([key], `unknown top-level key "${key}" (expected "$schema", "extends", "mode" and "rules")`, "warning");
    }
    const mode = (data as { mode?: unknown }).mode;
    if (mode === "shadow" || mode === "enforce") fileMode = mode;
    else if (mode !== undefined) at(["mode"], 'mode must be "enforce" or "shadow"');
  } else {
    at([], 'expected a JSON array of rules or an object {"rules": [...]}');
    return { rules: [], issues, ok: false, applies: false };
  }

  const rules: Rule[] = [];
  const valid: { input: RuleInput; name: string; index: number; rulePath: PathSegment[] }[] = [];
  const broken: BrokenRule[] = [];
  const seen = new Map<string, number>();
  // The rule schemas are built on first use: a hook answering from its snapshot never validates a rule.
  const { RuleSchema } = ruleSchemas();
  // Each rule stands alone: a broken one is reported in full and skipped, and its neighbours still apply.
  list.forEach((raw, index) => {
    const rulePath: PathSegment[] = [...base, index];
    const before = issues.length;
    const skip = () => {
      const b = brokenRule(raw, index, formatPath(rulePath));
      broken.push(b);
      // After the rule's own errors: a reader finds the cause first, then what it costs.
      if (issues.length > before) at(rulePath, skippedRuleMessage(b));
    };
    const parsed = v.safeParse(RuleSchema, raw);
    if (!parsed.success) {
      const refused = new Set<string>();
      for (const issue of parsed.issues) {
        const rel = (issue.path ?? []).map((p) => (typeof p.key === "number" ? p.key : String(p.key)));
        if (rel.length > 0) refused.add(String(rel[0]));
        at([...rulePath, ...rel], describeIssue(issue));
      }
      if (refused.size > 0) for (const [rel, message] of problemsBeside(raw, refused)) at([...rulePath, ...rel], message);
      skip();
      return;
    }
    const input = parsed.output;
    if (input.action === undefined && input.name === undefined) {
      at([...rulePath], 'a rule needs an "action" (or a "name" to change an earlier rule of that name)');
      skip();
      return;
    }
    const problems = input.action === undefined ? [] : semanticProblems(input);
    for (const [rel, message] of problems) at([...rulePath, ...rel], message);
    if (problems.length > 0) {
      skip();
      return;
    }
    const name = input.name ?? deriveName(input.comment, `${input.action ?? "rule"}-${index}`);
    const prev = seen.get(name);
    if (prev !== undefined) {
      at([...rulePath, "name"], `duplicate rule name "${name}" (first at ${formatPath([...base, prev])})`);
      const b: BrokenRule = { index, jsonPath: formatPath(rulePath), ...(input.action !== undefined ? { action: input.action } : {}), locked: input.locked ?? false };
      // Recorded without its name: that name belongs to the first rule, so no last good version stands in for this one.
      broken.push(b);
      at(rulePath, skippedRuleMessage({ ...b, name }));
      return;
    }
    seen.set(name, index);
    if (input.locked && opts.source === "project") at([...rulePath, "locked"], '"locked" only has effect in global rules; ignored in a project file', "warning");
    valid.push({ input, name, index, rulePath });
  });
  // Built apart from validation: the rules live on, and allocated among validation's garbage they would
  // each keep a mostly empty heap block resident (JSC does not move objects). Conditions first, in a run
  // of their own: the validated ones were allocated among that garbage.
  for (const { input } of valid) if (input.conditions) input.conditions = input.conditions.map((c) => ({ ...c }));
  for (const { input, name, index, rulePath } of valid) {
    const meta = { name, index, file: opts.file, source: opts.source, jsonPath: formatPath(rulePath) };
    const action = input.action;
    if (action !== undefined && input.mode === undefined && fileMode !== undefined) input.mode = fileMode;
    rules.push(action === undefined ? toPatch(input, meta) : toRule({ ...input, action }, meta));
  }
  // A patch is prepared once merged onto the rule it changes (merge.ts): alone it has no full text.
  prepareRules(rules.filter((r) => r.patch === undefined), opts.previous, opts.facts);
  const ok = !issues.some((i) => i.severity === "error");
  return { rules, issues, ok, applies: true, ...(broken.length > 0 ? { broken } : {}), ...(extendsRaw !== undefined ? { extends: extendsRaw } : {}) };
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  if (issue.type === "strict_object" && issue.path?.length) {
    const key = issue.path[issue.path.length - 1]?.key;
    return `unknown key "${String(key)}"`;
  }
  if (issue.type === "union" && issue.issues?.length) {
    return issue.issues.map((i) => i.message).join("; or ");
  }
  return issue.message;
}

/** The plain value of a parsed JSONC tree (comments and trailing commas gone). */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [k, val] = prop.children ?? [];
        if (k && val) out[String(k.value)] = nodeValue(val);
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/**
 * Lists every rule carries, shared: thousands of rules have no tests or conditions, and the same one or two
 * tools. A sidecar keeps its rules for good, so one array per rule is memory held for nothing. Frozen,
 * so code that would change one rule's list throws instead of changing them all.
 */
const NONE = Object.freeze([]) as never[];
const sharedLists = new Map<string, string[]>();

function sharedList(list: string[]): string[] {
  if (list.length === 0) return NONE;
  const key = list.join("\0");
  let shared = sharedLists.get(key);
  if (!shared) {
    // Tool lists are few (a handful of tool names); bounded all the same.
    if (sharedLists.size >= 256) sharedLists.clear();
    shared = Object.freeze(list) as string[];
    sharedLists.set(key, shared);
  }
  return shared;
}

export function toRule(
  input: RuleInput & { action: string },
  meta: { name: string; index: number; file: string; source: LayerName; jsonPath: string },
): Rule {
  const hook = input.hook ?? "tool_call";
  const isToolHook = TOOL_HOOKS.has(hook);
  const toolList = toList(input.tool) ?? (isToolHook ? ["bash"] : []);
  const tools = toolList.includes("*") ? NONE : sharedList([...new Set(toolList.map(normalizeToolName))]);
  return {
    name: meta.name,
    ...(input.comment !== undefined ? { comment: input.comment } : {}),
    hook,
    tools,
    action: input.action,
    ...(input.pattern !== undefined ? { pattern: input.pattern } : {}),
    ...(input.flags !== undefined ? { flags: input.flags } : {}),
    ...(input.command !== undefined ? { command: input.command } : {}),
    ...(input.paths !== undefined ? { paths: input.paths } : {}),
    conditions: input.conditions ?? NONE,
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    ...(input.state !== undefined ? { state: input.state } : {}),
    ...(input.check !== undefined ? { check: input.check } : {}),
    ...(input.stopReason !== undefined ? { stopReason: toList(input.stopReason) } : {}),
    subagent: input.subagent ?? true,
    requireSuccess: input.requireSuccess ?? false,
    ...(input.terminate !== undefined ? { terminate: input.terminate } : {}),
    ...(input.remember !== undefined ? { remember: input.remember } : {}),
    ...(input.requiresTools !== undefined ? { requiresTools: toList(input.requiresTools)?.map(normalizeToolName) } : {}),
    ...(input.rewrite !== undefined ? { rewrite: input.rewrite } : {}),
    enabled: input.enabled ?? true,
    ...(input.mode === "shadow" ? { shadow: true } : {}),
    locked: meta.source === "project" ? false : (input.locked ?? false),
    tests: input.tests ?? NONE,
    ...(input.options !== undefined ? { options: input.options } : {}),
    source: meta.source,
    file: meta.file,
    index: meta.index,
    jsonPath: meta.jsonPath,
  };
}

/** A rule written with only a name and some fields: keeps just the fields it gives (tool -> tools). */
function toPatch(input: RuleInput, meta: { name: string; index: number; file: string; source: LayerName; jsonPath: string }): Rule {
  const full = toRule({ ...input, action: "patch" }, meta);
  const patch: Partial<Rule> = {};
  const target = patch as Record<string, unknown>;
  const source = full as unknown as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (key === "name" || key === "$comment") continue;
    const ruleKey = key === "tool" ? "tools" : key === "mode" ? "shadow" : key;
    target[ruleKey] = source[ruleKey];
  }
  if (meta.source === "project") delete patch.locked;
  return { ...full, action: "", patch };
}

export { isBuiltinAction, isBuiltinCheck, issuePath };
