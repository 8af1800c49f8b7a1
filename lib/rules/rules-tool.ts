/**
 * @module the `shepherd_rules` tool: list / add / remove / enable / disable, validated and atomic. The model
 * calls it, so on its own a call may only add pure restrictions and undo what the tool added; the rest
 * needs a person's consent, which arrives outside the arguments (rules-tool-consent.ts).
 */
import { lstatSync, realpathSync } from "node:fs";
import { MAX_RULE_FILE_BYTES, readBounded } from "../fs/bounded-read.ts";
import { dirname, join } from "node:path";
import { applyEdits, modify, parse as parseJsonc } from "jsonc-parser";
import * as v from "valibot";
import { deriveName, loadRuleText } from "../engine/load.ts";
import type { RuleSet } from "../engine/merge.ts";
import { issuePath, type Rule, RuleSchema } from "../engine/schema.ts";
import { globalRulesFile, projectPiDir, projectRulesFile } from "./paths.ts";
import { type ConsentRequest, consentDigest, consentMatches, consentSummary, MAX_SUMMARY_CHARS, type RuleChange } from "./rules-tool-consent.ts";
import { isRecorded, readLedger, ruleHash, updateLedger } from "./rules-tool-ledger.ts";
import { updateFileSafely, type UpdateStep } from "./safe-update.ts";
import type { Workspace } from "./workspace.ts";

export const RULES_TOOL_NAME = "shepherd_rules";

/** Strict: an unknown key (a `cwd`, a consent field) is refused, never ignored. */
export const RulesToolArgsSchema = v.strictObject({
  action: v.picklist(["list", "add", "remove", "enable", "disable"]),
  scope: v.optional(v.picklist(["global", "project"])),
  rule: v.optional(v.unknown()),
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
});

const ARG_KEYS = "action, scope, rule, name";

/** What the model reads in tools/list: what it may do on its own, and what only a person can allow. */
export const RULES_TOOL_DESCRIPTION =
  "Inspect and change Shepherd's guard rules. list: the merged rules with their sources. add/remove/enable/disable: change a rule in the global (default) rule file or, with scope project, this session's project (.pi/shepherd-rules.json). " +
  "On its own a call may only add a pure restriction (action block or ask on the tool_call or input hook, not locked, under a name no existing rule has) and remove, enable or disable rules this tool added that way. " +
  "Anything else (a steer, notify, rewrite or plugin rule; changing, replacing or disabling a built-in, global or project rule the tool did not add; locked) needs the user's confirmation in the agent's UI and is refused where there is none. Locked rules cannot be changed by any tool call.";

export const RULES_TOOL_DEFINITION = {
  name: RULES_TOOL_NAME,
  description: RULES_TOOL_DESCRIPTION,
  inputSchema: {
    type: "object",
    properties: {
      action: { type: "string", enum: ["list", "add", "remove", "enable", "disable"] },
      scope: { type: "string", enum: ["global", "project"], description: "Which file to change: global (default) or this session's project; with list, only that layer." },
      rule: { type: "object", description: "For add: a rule as in a rules file (name, hook, tool, action, pattern, reason, ...). Without the user's confirmation only action block or ask on the tool_call (default) or input hook, no locked, and a name no existing rule has." },
      name: { type: "string", description: "For remove/enable/disable: the rule's name. Without the user's confirmation only a rule this tool added." },
    },
    required: ["action"],
    additionalProperties: false,
  },
} as const;

export interface ToolResult {
  text: string;
  isError: boolean;
  /** Set when the change needs a person's consent: what to show them and the digest to send back. */
  consent?: ConsentRequest;
}

export interface RulesToolOptions {
  /** The digest a person's confirmation produced, from the request's `_meta` (never from the arguments). */
  consent?: string;
}

const fail = (text: string): ToolResult => ({ text, isError: true });

function describeRule(r: Rule): string {
  const what = r.hook === "tool_call" || r.hook === "tool_result" ? `${r.hook}:${r.tools.join("|") || "*"}` : r.hook;
  return `- ${r.name} [${r.source}${r.locked ? ", locked" : ""}] ${what} -> ${r.action}${r.comment ? `: ${r.comment}` : ""} (${r.file})`;
}

type RawFile = { text: string; list: unknown[]; key: "rules" | null };

/** A rule file's text (undefined: missing) as a list of raw rules plus the JSON path prefix of the list. */
function parseRaw(file: string, current: string | undefined): RawFile | { error: string } {
  if (current === undefined) return { text: EMPTY_FILE, list: [], key: null };
  const text = current;
  const check = loadRuleText(text, { file, source: "global" });
  if (!check.ok && check.issues.some((i) => i.path === "" && i.severity === "error")) {
    return { error: `${file} cannot be parsed (${check.issues[0]?.message ?? "error"}); fix it by hand first` };
  }
  const data: unknown = parseJsonc(text, [], { allowTrailingComma: true });
  if (Array.isArray(data)) return { text, list: data, key: null };
  if (data && typeof data === "object" && Array.isArray((data as { rules?: unknown }).rules)) return { text, list: (data as { rules: unknown[] }).rules, key: "rules" };
  return { error: `${file} is neither a rule array nor {"rules": [...]}` };
}

const EMPTY_FILE = "[]\n";
/** The target file's text (undefined: missing), read through the one bounded reader: regular files only, size-capped. */
function readTarget(file: string): { text: string | undefined } | { error: string } {
  const read = readBounded(file, MAX_RULE_FILE_BYTES);
  if (read.ok) return { text: read.text };
  if (read.reason === "missing") return { text: undefined };
  return { error: `${file}: ${read.message}; shepherd_rules will not read or replace it (edit it by hand)` };
}

/** The name the loader gives the rule at `index` of a file: its own, else derived as load.ts derives it. */
function nameOf(raw: unknown, index: number): string | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.name === "string") return r.name;
  return deriveName(typeof r.comment === "string" ? r.comment : undefined, `${typeof r.action === "string" ? r.action : "rule"}-${index}`);
}

/** Actions an untrusted project may add to the global rules, even with consent: they only restrict or remind. */
const TIGHTENING = new Set(["block", "ask", "notify", "steer"]);
/** Actions a model's call may add on its own: they can only stop or ask, never speak or act. */
const PURE_RESTRICTION = new Set(["block", "ask"]);
/**
 * Hooks where a block stops something. Elsewhere a block's reason is spoken to the model: Claude Code
 * feeds a blocked Stop or PostToolUse back as an instruction to go on, so it is a steer in disguise.
 */
const STOPPING_HOOKS = new Set(["tool_call", "input"]);

type Args = v.InferOutput<typeof RulesToolArgsSchema>;
type Project = { cwd: string; trusted: boolean };

/**
 * Why this write would cross the trust boundary (DESIGN section 6), or undefined; consent does not lift
 * these (`shepherd trust` does). From an untrusted project a rule added to the global rules may only
 * block, ask, notify or steer: a global rewrite or plugin action would hand the project what section 6
 * withholds from its own files. A project write never leaves the project's own `.pi/`.
 */
function trustBoundary(project: Project, args: Args, scope: "global" | "project", file: string): string | undefined {
  const hint = `run \`shepherd trust ${project.cwd}\` first`;
  if (scope === "global" && !project.trusted && args.action === "add") {
    const rule = (args.rule !== null && typeof args.rule === "object" ? args.rule : {}) as Record<string, unknown>;
    const action = typeof rule.action === "string" ? rule.action : "";
    if (!TIGHTENING.has(action)) {
      return `this project is not trusted, so rule "${nameOf(rule, 0)}" with action "${action}" cannot go into the global rules (only block, ask, notify or steer); ${hint}`;
    }
  }
  if (scope === "project") {
    const pi = projectPiDir(project.cwd);
    try {
      if (lstatSync(pi).isSymbolicLink() || realpathSync(pi) !== join(realpathSync(project.cwd), ".pi")) return `${pi} is a symbolic link; shepherd_rules writes only inside the project's own .pi/`;
      if (lstatSync(file).isSymbolicLink()) return `${file} is a symbolic link; shepherd_rules writes only inside the project's own .pi/`;
    } catch {
      // Missing .pi/ or rule file: the write creates them as plain entries.
    }
    if (dirname(file) !== pi) return `refusing to write ${file} outside ${pi}`;
  }
  return undefined;
}

/** Every loaded rule named `name`, in any layer: active, skipped, overridden, and what patches changed. */
function rulesNamed(set: RuleSet, name: string): Rule[] {
  const out: Rule[] = [];
  const seen = new Set<Rule>();
  const add = (r: Rule | undefined) => {
    for (let cur = r; cur && !seen.has(cur); cur = cur.patched) {
      seen.add(cur);
      if (cur.name === name) out.push(cur);
    }
  };
  add(set.byName.get(name));
  for (const s of set.skipped) if (s.rule.name === name) add(s.rule);
  for (const o of set.overrides) if (o.rule.name === name) (add(o.rule), add(o.by));
  return out;
}

function invalidArgs(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  if (!first) return "invalid arguments";
  const path = issuePath(first);
  if (first.type === "strict_object" && path !== "" && !path.includes(".")) {
    return `invalid arguments: unknown argument "${path}"; shepherd_rules takes only ${ARG_KEYS}, and always works on this session's own project (another folder's rules are a person's to edit)`;
  }
  return `invalid arguments: ${path || "(args)"}: ${first.message}`;
}

/** How a person makes a refused change themselves. */
function byHand(args: Args, file: string, name: string): string {
  switch (args.action) {
    case "add":
      return `a person can add the rule to ${file} by hand, or confirm it when the agent runs with a UI`;
    case "remove":
      return `a person can delete the rule "${name}" from ${file} by hand, or confirm it when the agent runs with a UI`;
    default:
      return `a person can put ${JSON.stringify({ name, enabled: args.action === "enable" })} into ${file} by hand (or edit the rule there), or confirm it when the agent runs with a UI`;
  }
}

export async function runRulesTool(workspace: Workspace, rawArgs: unknown, opts: RulesToolOptions = {}): Promise<ToolResult> {
  const parsed = v.safeParse(RulesToolArgsSchema, rawArgs ?? {});
  if (!parsed.success) return fail(invalidArgs(parsed.issues));
  const args = parsed.output;
  // Always the session's own project: the sidecar runs in it (the pi extension starts it in ctx.cwd).
  const project = workspace.host(workspace.defaultCwd);
  const merged = project.ruleSet;

  if (args.action === "list") {
    const rules = args.scope ? merged.rules.filter((r) => r.source === args.scope) : merged.rules;
    const lines = rules.map(describeRule);
    const skipped = merged.skipped.filter((s) => !args.scope || s.rule.source === args.scope).map((s) => `- ${s.rule.name} [${s.rule.source}] skipped: ${s.reason}`);
    const errors = project.issues.filter((i) => i.severity === "error").map((i) => `- ${i.file} ${i.path}: ${i.message}`);
    const text = [
      `${rules.length} active rule(s):`,
      ...lines,
      ...(skipped.length ? ["", `${skipped.length} skipped:`, ...skipped] : []),
      ...(errors.length ? ["", "load errors (last good rules in force):", ...errors] : []),
    ].join("\n");
    return { text, isError: false };
  }

  const scope = args.scope ?? "global";
  const file = scope === "global" ? globalRulesFile(workspace.env) : projectRulesFile(project.cwd);
  const lockedOwner = (name: string) => rulesNamed(merged, name).find((r) => r.locked);

  let newRule: Record<string, unknown> | undefined;
  let name = args.name;
  if (args.action === "add") {
    const checked = v.safeParse(RuleSchema, args.rule);
    if (!checked.success) {
      const first = checked.issues[0];
      return fail(`invalid rule: ${first ? `${issuePath(first) || "(rule)"}: ${first.message}` : "unknown"}`);
    }
    if (checked.output.action === undefined) return fail('invalid rule: "action" is required when adding a rule');
    const given = args.rule as Record<string, unknown>;
    // A derived name is written out, so the rule keeps it wherever it lands; it comes from the rule's
    // content, so the same add asked again (after a person's consent) is the same change.
    name = typeof given.name === "string" ? given.name : deriveName(checked.output.comment, `${checked.output.action}-${ruleHash(given).slice(0, 10)}`);
    newRule = typeof given.name === "string" ? given : { name, ...given };
  }
  if (!name) return fail(`"name" is required for ${args.action}`);
  const ruleName = name;
  const locked = lockedOwner(name);
  // No tool call may change a locked rule, not even with consent (DESIGN section 3): unlocking is a
  // person's edit of the file, never a click the model can ask for.
  if (locked) return fail(`rule "${name}" is locked by ${locked.source} (${locked.file}); no tool call can change it, even with consent: a person can edit ${locked.file} by hand`);
  if (scope === "project" && args.action !== "remove") {
    const existing = merged.byName.get(name);
    if (existing && existing.source !== "project" && !project.trusted) {
      return fail(`this project is not trusted, so it cannot change the ${existing.source} rule "${name}"; run \`shepherd trust ${project.cwd}\` first`);
    }
  }
  const boundary = trustBoundary(project, args, scope, file);
  if (boundary) return fail(boundary);

  const current = readTarget(file);
  if ("error" in current) return fail(current.error);
  const raw = parseRaw(file, current.text);
  if ("error" in raw) return fail(raw.error);
  const ledger = readLedger(workspace.env);
  const change: RuleChange = { action: args.action, scope, file, name: ruleName, ...(newRule ? { rule: newRule } : {}) };
  const why = consentNeeded(raw);
  const consented = why.length > 0 && consentMatches(change, opts.consent);
  if (why.length > 0 && !consented) {
    const target = describeTarget();
    const summary = consentSummary(change, target, why);
    const head = `${args.action} ${target} needs a person's consent: ${why.join("; ")}.`;
    const stale = opts.consent !== undefined ? " The consent sent was for a different change." : "";
    if (summary.length > MAX_SUMMARY_CHARS) return fail(`${head}${stale} It is too large to show for confirmation: ${byHand(args, file, ruleName)}.`);
    return { ...fail(`${head}${stale} Nothing was written. Without the user's confirmation in the agent's UI ${byHand(args, file, ruleName)}.`), consent: { required: true, summary, digest: consentDigest(change) } };
  }

  // Shepherd writers serialize on the lock; a user's editor does not (safe-update.ts).
  const result = await updateFileSafely(file, applyChange, { verify: stillApplied });
  if (!result.ok) return fail(result.message);
  // Only what a call may do on its own becomes the tool's rule; a consented rule stays the person's.
  const own = args.action === "add" && !consented ? ruleHash(newRule) : args.action === "remove" || args.action === "add" ? undefined : null;
  if (own !== null) {
    const noted = await updateLedger(workspace.env, file, ruleName, own);
    if (!noted.ok) workspace.notify("warning", `shepherd_rules: ${args.action} "${ruleName}" was written, but the tool's ledger was not updated (${noted.message})`);
  }
  workspace.reload(project.cwd);
  return { text: result.value, isError: false };

  /** Whether the entry at `idx` of the target file is the tool's own: recorded, unchanged, and the only rule of its name. */
  function ownedAt(list: unknown[], idx: number): boolean {
    if (idx < 0 || !isRecorded(ledger, file, ruleName, list[idx])) return false;
    return rulesNamed(merged, ruleName).every((r) => r.source === scope && r.file === file);
  }

  function describeTarget(): string {
    if (args.action === "add") return `rule "${ruleName}"`;
    const r = rulesNamed(merged, ruleName)[0];
    return r ? `the ${r.source} rule "${ruleName}" (${r.file})` : `rule "${ruleName}"`;
  }

  /** Why this change, made by a model's call, needs a person's consent (empty: it may go ahead). */
  function consentNeeded(file0: RawFile): string[] {
    const why: string[] = [];
    const idx = file0.list.findIndex((r, i) => nameOf(r, i) === ruleName);
    const owned = ownedAt(file0.list, idx);
    if (args.action === "add" && newRule) {
      const action = String(newRule.action);
      if (!PURE_RESTRICTION.has(action)) {
        const effect = action === "rewrite" ? "would change what runs" : action === "notify" || action === "steer" ? "would speak to the model in every later session" : "would run a plugin action";
        why.push(`a "${action}" rule ${effect} (only block and ask rules may be added without it)`);
      }
      const hook = typeof newRule.hook === "string" ? newRule.hook : "tool_call";
      if (PURE_RESTRICTION.has(action) && !STOPPING_HOOKS.has(hook)) {
        why.push(`a "${action}" rule on the ${hook} hook would speak to the model (agents hand its reason back as an instruction); only tool_call and input rules may be added without it`);
      }
      if (newRule.locked === true) why.push(`"locked" would put the rule out of reach of every later tool call`);
      if (newRule.remember !== undefined) why.push(`"remember" would let one yes of the person allow that same call from then on without asking (on Claude Code without its own prompt either)`);
      if (!owned) {
        for (const r of rulesNamed(merged, ruleName)) why.push(`it would replace or shadow the ${r.source} rule "${ruleName}" (${r.file})`);
        if (idx >= 0 && !why.some((w) => w.includes(`(${file})`))) why.push(`it would replace the rule "${ruleName}" already in ${file}`);
      }
      return [...new Set(why)];
    }
    if (owned) return why;
    if (idx >= 0) why.push(`the tool did not add the rule "${ruleName}" in ${file}`);
    else if (args.action !== "remove") {
      const r = rulesNamed(merged, ruleName)[0];
      if (r) why.push(`it would ${args.action} the ${r.source} rule "${ruleName}" (${r.file}), which the tool did not add`);
    }
    return why;
  }

  function stillApplied(text: string | undefined): boolean {
    const raw = parseRaw(file, text);
    if ("error" in raw) return false;
    const entry = raw.list.find((r, i) => nameOf(r, i) === ruleName) as Record<string, unknown> | undefined;
    switch (args.action) {
      case "add":
        return entry !== undefined && JSON.stringify(entry) === JSON.stringify(newRule);
      case "remove":
        return entry === undefined;
      case "disable":
        return entry?.enabled === false;
      default:
        return entry?.enabled !== false;
    }
  }

  /** The edited text, validated; the result's value is the tool's answer. */
  function applyChange(text0: string | undefined, attempt: number): UpdateStep<string> {
    const retry = attempt > 0;
    const raw = parseRaw(file, text0);
    if ("error" in raw) return raw;
    // The file may have changed since the check above: a change made without consent is checked again.
    if (!consented && consentNeeded(raw).length > 0 && !(retry && stillApplied(text0))) {
      return { error: `${file} changed while this was prepared, and the change now needs a person's consent; nothing was written` };
    }
    const idx = raw.list.findIndex((r, i) => nameOf(r, i) === ruleName);
    const listPath: (string | number)[] = raw.key ? ["rules"] : [];
    let text = raw.text;
    const edit = (path: (string | number)[], value: unknown, opts: { isArrayInsertion?: boolean } = {}) => {
      text = applyEdits(text, modify(text, path, value, { formattingOptions: { insertSpaces: true, tabSize: 2 }, ...opts }));
    };
    switch (args.action) {
      case "add":
        if (idx >= 0) edit([...listPath, idx], newRule);
        else edit([...listPath, raw.list.length], newRule, { isArrayInsertion: true });
        break;
      case "remove":
        // A retry after a concurrent save: the rule being gone already is the outcome asked for.
        if (idx < 0 && retry) return { value: `remove "${ruleName}" in ${scope} rules (${file})` };
        if (idx < 0) {
          const elsewhere = merged.byName.get(ruleName);
          return { error: elsewhere ? `rule "${ruleName}" is not in ${file} (it comes from ${elsewhere.file}); use disable instead` : `no rule named "${ruleName}" in ${file}` };
        }
        edit([...listPath, idx], undefined);
        break;
      case "enable":
      case "disable": {
        const enabled = args.action === "enable";
        const entry = idx >= 0 ? raw.list[idx] : undefined;
        const barePatch = entry !== null && typeof entry === "object" && Object.keys(entry).every((k) => k === "name" || k === "enabled");
        // Re-enabling a rule that was only switched off here: drop the patch, so the rule is exactly as before.
        if (idx >= 0 && enabled && barePatch) edit([...listPath, idx], undefined);
        else if (idx >= 0) edit([...listPath, idx, "enabled"], enabled);
        else if (merged.byName.has(ruleName) || merged.skipped.some((s) => s.rule.name === ruleName)) {
          // Not defined in this file: record a patch that changes the earlier layer's rule by name.
          edit([...listPath, raw.list.length], { name: ruleName, enabled }, { isArrayInsertion: true });
        } else return { error: `no rule named "${ruleName}"` };
        break;
      }
    }
    const check = loadRuleText(text, { file, source: scope });
    if (!check.ok) {
      const first = check.issues.find((i) => i.severity === "error");
      return { error: `the change would make ${file} invalid: ${first ? `${first.path}: ${first.message}` : "unknown"}; nothing was written` };
    }
    return { value: `${args.action} "${ruleName}" in ${scope} rules (${file})`, text: text.endsWith("\n") ? text : `${text}\n` };
  }
}
