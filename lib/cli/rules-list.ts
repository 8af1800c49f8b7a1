/** @module `shepherd rules list [--json]`: the merged rule set with layers, files, overrides and skipped rules. */
import { locatePath, sourceText, type SourceText } from "../engine/analyze.ts";
import type { Rule } from "../engine/schema.ts";
import { clip, type CliIO, displayPath, parseArgv, plural, type Style, styleFor, table, usageError, writeJson } from "./format.ts";
import type { PluginDescription } from "../rules/workspace.ts";
import { piTrustFor, trustSideBySide } from "../rules/pi-trust.ts";
import { canonicalDir } from "../rules/settings.ts";
import { type CliDeps, loadProject, type ProjectRules } from "./rule-files.ts";
import { formatIssue } from "./rules-check.ts";
import { telemetryLine, telemetrySummary } from "../telemetry/telemetry-status.ts";
import { auditConfig } from "../audit/audit-log.ts";
import { auditShadowCounts } from "../audit/audit-shadow.ts";

export const RULES_LIST_HELP = `Usage: shepherd rules list [--json] [--all]

Shows the merged rule set of the current project: every rule with its hook, tools,
action, the layer and file:line it comes from, and its status:
  active       in force
  shadow       in force in shadow mode ("mode": "shadow"): evaluated, what it would have
               done recorded (fired with shadow: true, counted from the audit log), nothing done
  overridden   replaced by a rule of the same name in a later layer (named)
  skipped      not in force, with the reason (disabled, untrusted project, locked,
               unknown plugin action, ...)
The managed policy (\$SHEPHERD_MANAGED_DIR, default /etc/shepherd/) is the first layer:
its rules are locked for everyone; its settings are named after the table.
Problems in rule files are listed after the table (run \`shepherd rules check\` for all).

Options:
  --json      machine-readable output: {cwd, trusted, managed, rules, issues}
  --all       add a column with each rule's comment
  -h, --help  this help

Example:
  shepherd rules list
  NAME                 HOOK       TOOL   ACTION  SOURCE                        STATUS  NOTE
  no-checkout-discard  tool_call  bash   block   builtin rules/defaults.json:5 active
`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  all: { type: "boolean" },
} as const;

export type ListStatus = "active" | "overridden" | "skipped";

export interface ListedRule {
  name: string;
  hook: string;
  tools: string[];
  action: string;
  source: string;
  file: string;
  line?: number;
  jsonPath: string;
  enabled: boolean;
  locked: boolean;
  /** `"mode": "shadow"`: evaluated, what it would do recorded, nothing done. */
  shadow?: true;
  /** Shadow rules, with the audit log on: how often each would have acted, by action. */
  wouldHave?: Record<string, number>;
  status: ListStatus;
  comment?: string;
  /** Active rules that replaced an earlier one: that rule's layer and file. */
  overrides?: { source: string; file: string };
  /** Overridden rules: the rule that replaced them. */
  overriddenBy?: { source: string; file: string };
  /** Skipped rules: why. */
  reason?: string;
  /** A patch (rule without action) applied on top of an earlier rule of the same name. */
  patches?: { source: string; file: string };
  check?: string;
  /** The plugin file providing this rule's action or check. */
  actionFrom?: string;
  checkFrom?: string;
}

/** The managed policy (/etc/shepherd/managed-rules.json) is the first layer: locked, evaluated and listed before all others. */
const LAYER_RANK: Record<string, number> = { managed: 0, builtin: 1, global: 2, project: 3 };

/** Every rule the project's files define, active or not, in layer/file/position order. */
export function listRules(project: ProjectRules): ListedRule[] {
  const set = project.set;
  const sources = new Map<string, SourceText>();
  for (const f of project.files) if (f.text !== undefined) sources.set(f.file, sourceText(f.text));
  const fileRank = new Map(project.files.map((f, i) => [f.file, i]));
  const lineOf = (r: Rule) => {
    const src = sources.get(r.file);
    return src ? locatePath(src, r.jsonPath)?.line : undefined;
  };
  const base = (r: Rule, status: ListStatus): ListedRule => {
    const line = lineOf(r);
    return {
      name: r.name,
      hook: r.hook,
      tools: r.tools,
      action: r.action || (r.patched?.action ?? "(patch)"),
      source: r.source,
      file: r.file,
      ...(line !== undefined ? { line } : {}),
      jsonPath: r.jsonPath,
      enabled: r.enabled,
      locked: r.locked,
      ...(r.shadow ? { shadow: true as const } : {}),
      status,
      ...(r.comment !== undefined ? { comment: r.comment } : {}),
      ...(r.check !== undefined ? { check: r.check } : {}),
      ...(r.patched ? { patches: { source: r.patched.source, file: r.patched.file } } : {}),
    };
  };
  const out: { rule: Rule; listed: ListedRule }[] = [];
  for (const r of set.rules) {
    const listed = base(r, "active");
    const ov = set.overrides.find((o) => o.by === r);
    if (ov && !r.patched) listed.overrides = { source: ov.rule.source, file: ov.rule.file };
    out.push({ rule: r, listed });
  }
  for (const o of set.overrides) {
    // A patch "overrides" its base too; the base is then shown as overridden by the patching file.
    const listed = base(o.rule, "overridden");
    listed.overriddenBy = { source: o.by.source, file: o.by.file };
    out.push({ rule: o.rule, listed });
  }
  for (const s of set.skipped) {
    const listed = base(s.rule, "skipped");
    listed.reason = s.reason;
    out.push({ rule: s.rule, listed });
  }
  // A rule both overridden and later skipped (e.g. a patch that disabled it) is shown once: skipped wins.
  const seen = new Set<string>();
  const unique = out.filter(({ rule, listed }) => {
    const key = `${rule.file}\0${rule.jsonPath}\0${listed.status}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort(
    (a, b) =>
      (LAYER_RANK[a.rule.source] ?? 0) - (LAYER_RANK[b.rule.source] ?? 0) ||
      (fileRank.get(a.rule.file) ?? 0) - (fileRank.get(b.rule.file) ?? 0) ||
      a.rule.index - b.rule.index,
  );
  return unique.map((u) => u.listed);
}

function statusCell(r: ListedRule, style: Style): string {
  if (r.status === "active" && r.shadow) return style.cyan(r.locked ? "shadow 🔒" : "shadow");
  if (r.status === "active") return style.green(r.locked ? "active 🔒" : "active");
  if (r.status === "overridden") return style.dim("overridden");
  return style.yellow(r.reason?.startsWith("disabled") ? "disabled" : "skipped");
}

/** Names the plugin file behind a rule's plugin action or check. */
function withProvider(r: ListedRule, plugins: PluginDescription[]): ListedRule {
  const byAction = plugins.find((p) => p.status === "loaded" && p.actions.includes(r.action));
  const byCheck = r.check === undefined ? undefined : plugins.find((p) => p.status === "loaded" && p.checks.includes(r.check ?? ""));
  if (!byAction && !byCheck) return r;
  return { ...r, ...(byAction ? { actionFrom: byAction.file } : {}), ...(byCheck ? { checkFrom: byCheck.file } : {}) };
}

function noteCell(r: ListedRule, cwd: string): string {
  const from = [r.actionFrom ? `action from ${displayPath(r.actionFrom, cwd)}` : "", r.checkFrom ? `check from ${displayPath(r.checkFrom, cwd)}` : ""].filter(Boolean).join("; ");
  const base = baseNote(r, cwd);
  const would = r.wouldHave ? `would have: ${Object.entries(r.wouldHave).map(([a, n]) => `${a} ×${n}`).join(", ")}` : "";
  return [would, base, from].filter(Boolean).join("; ");
}

function baseNote(r: ListedRule, cwd: string): string {
  if (r.status === "skipped") return r.reason?.startsWith("disabled") ? (r.patches ? `disabled by a patch of ${r.patches.source} ${displayPath(r.patches.file, cwd)}` : "") : (r.reason ?? "");
  if (r.overriddenBy) return `by ${r.overriddenBy.source} ${displayPath(r.overriddenBy.file, cwd)}`;
  if (r.patches) return `patches ${r.patches.source} ${displayPath(r.patches.file, cwd)}`;
  if (r.overrides) return `overrides ${r.overrides.source} ${displayPath(r.overrides.file, cwd)}`;
  return "";
}

export async function runRulesList(argv: string[], io: CliIO, deps: CliDeps = {}): Promise<number> {
  const parsed = parseArgv(argv, OPTIONS, false);
  if (!parsed.ok) return usageError(io, "rules list", parsed.message);
  if (parsed.values.help) {
    io.stdout(RULES_LIST_HELP);
    return 0;
  }
  const project = loadProject(io.cwd, io.env, deps);
  const plugins = deps.plugins?.describe?.(project.cwd) ?? [];
  const listed = withWouldHave(listRules(project).map((r) => withProvider(r, plugins)), project, io.env);
  if (parsed.values.json) {
    writeJson(io, { cwd: project.cwd, trusted: project.trusted, piTrusted: piTrustFor(project.cwd, io.env)?.trusted ?? null, managed: project.managed, telemetry: telemetrySummary(project.settings.telemetry, io.env), rules: listed, plugins, issues: project.issues });
    return 0;
  }
  const style = styleFor(io);
  const header = ["NAME", "HOOK", "TOOL", "ACTION", "SOURCE", "STATUS", "NOTE"];
  if (parsed.values.all) header.push("COMMENT");
  const rows = listed.map((r) => {
    const row = [
      r.status === "active" ? style.bold(r.name) : r.name,
      r.hook,
      r.tools.length === 0 ? (r.hook === "tool_call" || r.hook === "tool_result" ? "*" : "-") : r.tools.join(","),
      r.action,
      `${r.source} ${displayPath(r.file, project.cwd)}${r.line !== undefined ? `:${r.line}` : ""}`,
      statusCell(r, style),
      noteCell(r, project.cwd),
    ];
    if (parsed.values.all) row.push(clip(r.comment ?? "", 60));
    return row;
  });
  if (rows.length > 0) io.stdout(table(header, rows, style));
  const counts = { active: 0, overridden: 0, skipped: 0 };
  for (const r of listed) counts[r.status]++;
  const shadowCount = listed.filter((r) => r.status === "active" && r.shadow).length;
  io.stdout(
    `\n${plural(counts.active, "active rule")}${shadowCount > 0 ? ` (${shadowCount} in shadow mode)` : ""}, ${counts.overridden} overridden, ${counts.skipped} skipped; project ${project.trusted ? style.green("trusted") : style.yellow("not trusted")}${project.trusted ? "" : style.dim(` (run \`shepherd trust\` to let its rules rewrite or override)`)}\n`,
  );
  io.stdout(`${piTrustLine(project.cwd, project.trusted, io.env)}\n`);
  const policy = managedSummary(project.managed);
  if (policy) io.stdout(`\n${style.bold("Managed policy")}: ${project.managed.broken ? style.red(policy) : policy}\n`);
  const telemetry = telemetrySummary(project.settings.telemetry, io.env);
  io.stdout(`${style.bold("Telemetry")}: ${telemetry.lastProblem ? style.red(telemetryLine(telemetry)) : telemetryLine(telemetry)}\n`);
  if (plugins.length > 0) {
    io.stdout(`\n${style.bold("Plugins")}:\n`);
    for (const p of plugins) {
      const provides = [...p.actions.map((a) => `action ${a}`), ...p.checks.map((c) => `check ${c}`)].join(", ") || "nothing";
      const state = p.status === "loaded" ? style.green(p.status) : style.yellow(p.status);
      io.stdout(`  ${p.source} ${displayPath(p.file, project.cwd)}  ${state}  ${provides}${p.reason ? style.dim(`  (${p.reason})`) : ""}\n`);
    }
  }
  for (const i of project.issues) if (i.severity === "warning" && i.path.endsWith(".remember")) io.stdout(`\n${style.yellow("warning")}: ${formatIssue(i, style, project.cwd)}\n`);
  const errors = project.issues.filter((i) => i.severity === "error");
  if (errors.length > 0) {
    io.stdout(`\n${style.red(style.bold(`${plural(errors.length, "problem")} in rule files`))} (a file with errors contributes no rules):\n`);
    for (const i of errors) io.stdout(`  ${formatIssue(i, style, project.cwd)}\n`);
  }
  return 0;
}

/** pi 1.x's own trust decision beside Shepherd's: separate, and pi's never counts for Shepherd. */
function piTrustLine(cwd: string, shepherdTrusts: boolean, env: CliIO["env"]): string {
  const both = trustSideBySide(cwd, shepherdTrusts, env);
  if (!both.pi) return "pi: no saved project trust decision";
  const where = both.pi.folder === canonicalDir(cwd) ? "" : ` (saved for ${both.pi.folder})`;
  const hint = both.advice ? `; Shepherd trusts it separately: ${both.advice}` : "";
  return `pi: ${both.pi.trusted ? "trusted" : "not trusted"}${where}${hint}`;
}

/** One line for the managed settings in force, or undefined when there are none. */
function managedSummary(m: ProjectRules["managed"]): string | undefined {
  const parts: string[] = [];
  if (m.broken) parts.push(`UNREADABLE, most restrictive reading applies (${m.broken})`);
  if (m.failMode) parts.push(`failMode ${m.failMode}${m.failMode === "closed" ? " (locked)" : ""}`);
  if (m.audit !== undefined) parts.push("audit set by policy");
  if (!m.projectRules) parts.push("project rules off");
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** Adds, to each active shadow rule, the audit log's "would have" counts (none without an audit log). */
function withWouldHave(listed: ListedRule[], project: ProjectRules, env: CliIO["env"]): ListedRule[] {
  if (!listed.some((r) => r.shadow)) return listed;
  const config = auditConfig(project.settings.audit, env);
  if (!config) return listed;
  const byRule = new Map<string, Record<string, number>>();
  for (const c of auditShadowCounts(config).counts) {
    const entry = byRule.get(c.rule) ?? {};
    entry[c.action] = (entry[c.action] ?? 0) + c.count;
    byRule.set(c.rule, entry);
  }
  return listed.map((r) => (r.shadow && r.status === "active" ? { ...r, wouldHave: byRule.get(r.name) ?? {} } : r));
}
