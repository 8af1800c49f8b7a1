/** @module the `shepherd_rules` tool: list / add / remove / enable / disable, validated and atomic. */
import { lstatSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { applyEdits, modify, parse as parseJsonc } from "jsonc-parser";
import * as v from "valibot";
import { deriveName, loadRuleText } from "../engine/load.ts";
import { issuePath, type Rule, RuleSchema } from "../engine/schema.ts";
import { globalRulesFile, projectPiDir, projectRulesFile } from "./paths.ts";
import { updateFileSafely, type UpdateStep } from "./safe-update.ts";
import { canonicalDir } from "./settings.ts";
import type { Workspace } from "./workspace.ts";

export const RULES_TOOL_NAME = "shepherd_rules";

export const RulesToolArgsSchema = v.strictObject({
  action: v.picklist(["list", "add", "remove", "enable", "disable"]),
  scope: v.optional(v.picklist(["global", "project"])),
  rule: v.optional(v.unknown()),
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  cwd: v.optional(v.string()),
});

export const RULES_TOOL_DEFINITION = {
  name: RULES_TOOL_NAME,
  description:
    "Inspect and change Shepherd's guard rules. list: the merged rules with their sources. add/remove/enable/disable: change a rule in the global (default) or project rule file. Locked rules cannot be changed.",
  inputSchema: {
    type: "object",
    properties: {
      action: { type: "string", enum: ["list", "add", "remove", "enable", "disable"] },
      scope: { type: "string", enum: ["global", "project"], description: "Which file to change (default global); with list, only that layer." },
      rule: { type: "object", description: "For add: a rule as in a rules file (name, hook, tool, action, pattern, reason, ...)." },
      name: { type: "string", description: "For remove/enable/disable: the rule's name." },
    },
    required: ["action"],
    additionalProperties: false,
  },
} as const;

export interface ToolResult {
  text: string;
  isError: boolean;
}

const fail = (text: string): ToolResult => ({ text, isError: true });

function describeRule(r: Rule): string {
  const what = r.hook === "tool_call" || r.hook === "tool_result" ? `${r.hook}:${r.tools.join("|") || "*"}` : r.hook;
  return `- ${r.name} [${r.source}${r.locked ? ", locked" : ""}] ${what} -> ${r.action}${r.comment ? `: ${r.comment}` : ""} (${r.file})`;
}

/** A rule file's text (undefined: missing) as a list of raw rules plus the JSON path prefix of the list. */
function parseRaw(file: string, current: string | undefined): { text: string; list: unknown[]; key: "rules" | null } | { error: string } {
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

/** The name the loader gives the rule at `index` of a file: its own, else derived as load.ts derives it. */
function nameOf(raw: unknown, index: number): string | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.name === "string") return r.name;
  return deriveName(typeof r.comment === "string" ? r.comment : undefined, `${typeof r.action === "string" ? r.action : "rule"}-${index}`);
}

/** Actions an untrusted project may add to the global rules: they only restrict or remind. */
const TIGHTENING = new Set(["block", "ask", "notify", "steer"]);

/**
 * Why this write would cross the trust boundary (DESIGN section 6), or undefined. The tool's arguments
 * come from the model, which a cloned repository can steer, so from an untrusted project:
 * - a rule added to the global rules may only block, ask, notify or steer: a global rewrite or plugin
 *   action would hand the project what section 6 withholds from its own files (locked rules are
 *   refused further down, for every project);
 * - `cwd` cannot aim a write at another project unless that one is trusted;
 * - a project write never leaves the project's own `.pi/` (a symlinked `.pi` or rule file is refused).
 */
function trustBoundary(workspace: Workspace, project: { cwd: string; trusted: boolean; ruleSet: { byName: Map<string, Rule> } }, args: v.InferOutput<typeof RulesToolArgsSchema>, scope: "global" | "project", file: string): string | undefined {
  const hint = `run \`shepherd trust ${project.cwd}\` first`;
  if (args.cwd !== undefined && canonicalDir(project.cwd) !== canonicalDir(workspace.defaultCwd) && !project.trusted) {
    return `cwd "${args.cwd}" is not this session's project and is not trusted; shepherd_rules only changes the project it runs in`;
  }
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

export async function runRulesTool(workspace: Workspace, rawArgs: unknown, cwd?: string): Promise<ToolResult> {
  const parsed = v.safeParse(RulesToolArgsSchema, rawArgs ?? {});
  if (!parsed.success) {
    const first = parsed.issues[0];
    return fail(`invalid arguments: ${first ? `${issuePath(first) || "(args)"}: ${first.message}` : "unknown"}`);
  }
  const args = parsed.output;
  const project = workspace.host(args.cwd ?? cwd ?? workspace.defaultCwd);
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
  const lockedOwner = (name: string) => {
    const r = merged.byName.get(name) ?? merged.skipped.find((s) => s.rule.name === name && s.rule.locked)?.rule;
    // No tool call may change a locked rule, not even in its own global file (DESIGN sections 3 and 5):
    // the model is steerable by whatever repository it reads; the user edits the file by hand.
    return r?.locked ? r : undefined;
  };

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
    // A derived name depends on the rule's position in the file; written out, it stays the rule's name
    // wherever the rule lands, so a later remove/disable finds it and an add never replaces a stranger.
    name = typeof given.name === "string" ? given.name : deriveName(checked.output.comment, `${checked.output.action}-${Date.now().toString(36)}`);
    newRule = typeof given.name === "string" ? given : { name, ...given };
  }
  if (!name) return fail(`"name" is required for ${args.action}`);
  const ruleName = name;
  const locked = lockedOwner(name);
  if (locked) return fail(`rule "${name}" is locked by ${locked.source} (${locked.file}); it cannot be changed from here`);
  if (scope === "project" && args.action !== "remove") {
    const existing = merged.byName.get(name);
    if (existing && existing.source !== "project" && !project.trusted) {
      return fail(`this project is not trusted, so it cannot change the ${existing.source} rule "${name}"; run \`shepherd trust ${project.cwd}\` first`);
    }
  }

  const boundary = trustBoundary(workspace, project, args, scope, file);
  if (boundary) return fail(boundary);
  // Shepherd writers serialize on the lock; a user's editor does not (safe-update.ts).
  const result = await updateFileSafely(file, applyChange, { verify: stillApplied });
  if (!result.ok) return fail(result.message);
  workspace.reload(project.cwd);
  return { text: result.value, isError: false };

  function stillApplied(current: string | undefined): boolean {
    const raw = parseRaw(file, current);
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
  function applyChange(current: string | undefined, attempt: number): UpdateStep<string> {
    const retry = attempt > 0;
    const raw = parseRaw(file, current);
    if ("error" in raw) return raw;
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
