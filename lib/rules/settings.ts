/** @module settings: defaults -> global `settings.json` key `shepherd` -> project `.pi/settings.json` (deep merge, JSONC). */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { ParseError } from "jsonc-parser";
import { jsoncParser } from "../lazy-deps.ts";
import { tighterBudgets } from "../engine/budgets.ts";
import { guardedParse, isPlainRecord } from "../engine/guard-kit.ts";
import { DEFAULT_SETTINGS, isSettingsInput, issuePath, type LoadIssue, type Settings, SettingsSchema } from "../engine/schema-core.ts";
import { type Env, globalSettingsFile, projectSettingsFile } from "./paths.ts";
import { MAX_SETTINGS_BYTES, readBounded } from "../fs/bounded-read.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../json-depth.ts";
import { applyManagedPolicy, loadManagedSettings, type ManagedPolicy } from "./managed.ts";
import { AuditSettingSchema } from "../audit/audit-log.ts";
import { telemetryProblems } from "../telemetry/telemetry-config.ts";
import * as v from "valibot";

export interface SettingsResult {
  settings: Settings;
  issues: LoadIssue[];
  /** Whether the global settings list this project as trusted (DESIGN section 6). */
  trusted: boolean;
  /** What the managed policy imposes (lib/rules/managed.ts), already applied to `settings`. */
  managed: ManagedPolicy;
}

export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, val] of Object.entries(over)) {
    const prev = out[k];
    out[k] = isPlainRecord(prev) && isPlainRecord(val) ? deepMerge(prev, val) : val;
  }
  return out;
}

/**
 * Reads a JSONC file; a missing file is `undefined` with no issue. One that is not a regular file, larger
 * than `maxBytes` or nested deeper than MAX_JSON_DEPTH is `undefined` with an issue, unparsed.
 */
export function readJsonc(file: string, issues: LoadIssue[], maxBytes = MAX_SETTINGS_BYTES): unknown {
  const read = readBounded(file, maxBytes);
  if (!read.ok) {
    if (read.reason !== "missing") issues.push({ file, path: "", message: read.message, severity: "error" });
    return undefined;
  }
  const text = read.text;
  const deep = jsonDepthProblem(text, MAX_JSON_DEPTH);
  if (deep) {
    issues.push({ file, path: "", message: deep.message, severity: "error", line: deep.line, column: deep.column });
    return undefined;
  }
  // Plain JSON (most settings files) parses natively; jsonc-parser is loaded for comments or errors only.
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // fall through to the JSONC parser
  }
  const { parse, printParseErrorCode } = jsoncParser();
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0];
    issues.push({ file, path: "", message: `JSON syntax error: ${first ? printParseErrorCode(first.error) : "unknown"}`, severity: "error" });
    return undefined;
  }
  return data;
}

function shepherdKey(file: string, issues: LoadIssue[]): Record<string, unknown> {
  const data = readJsonc(file, issues);
  if (!isPlainRecord(data)) return {};
  const section = data.shepherd;
  if (section === undefined) return {};
  const parsed = guardedParse(isSettingsInput, SettingsSchema, section);
  if (!parsed.success) {
    for (const issue of parsed.issues) issues.push({ file, path: issuePath(issue, "shepherd"), message: issue.message, severity: "error" });
    return {};
  }
  // Unknown keys pass the schema (a newer version's settings must not break an older binary), but never unsaid.
  // Every key with a default is the schema's (settings.test.ts): only another key builds the schema to look it up.
  const known = (key: string) => Object.hasOwn(DEFAULT_SETTINGS, key) || Object.hasOwn(SettingsSchema().entries, key);
  for (const key of Object.keys(parsed.output)) {
    if (!known(key)) issues.push({ file, path: `shepherd.${key}`, message: `unknown setting "${key}": ignored`, severity: "warning" });
  }
  return withValidTelemetry(withValidAudit(parsed.output, file, issues), file, issues);
}

/** As withValidAudit: a `telemetry` value that cannot be read is reported and dropped, never guessed at. */
function withValidTelemetry(section: Record<string, unknown>, file: string, issues: LoadIssue[]): Record<string, unknown> {
  const problems = telemetryProblems(section.telemetry);
  if (problems.length === 0) return section;
  for (const p of problems) issues.push({ file, path: p.path ? `shepherd.telemetry.${p.path}` : "shepherd.telemetry", message: `${p.message}; this telemetry setting is ignored`, severity: "error" });
  const { telemetry: _dropped, ...rest } = section;
  return rest;
}

/**
 * An `audit` value the audit log cannot read is reported and dropped, so the layer below decides (the
 * global value, else off): a typo must neither turn auditing off in silence nor override a good global value.
 */
function withValidAudit(section: Record<string, unknown>, file: string, issues: LoadIssue[]): Record<string, unknown> {
  if (section.audit === undefined || section.audit === null) return section;
  const schema = AuditSettingSchema();
  // An object is checked against the object form alone, so the message names the bad key, not the union.
  const audit = isPlainRecord(section.audit) ? v.safeParse(schema.options[1], section.audit) : v.safeParse(schema, section.audit);
  if (audit.success) return section;
  for (const issue of audit.issues) {
    const key = issue.path?.at(-1)?.key;
    const what = issue.type === "strict_object" && key !== undefined ? `unknown key "${String(key)}"` : issue.message;
    issues.push({ file, path: issuePath(issue, "shepherd.audit"), message: `${what}; this audit setting is ignored`, severity: "error" });
  }
  const { audit: _dropped, ...rest } = section;
  return rest;
}

/**
 * Settings a project may only set once trusted: they loosen the guard or choose what runs; `telemetry`
 * chooses where the session's decisions (and, with includeContent, its content) are sent.
 */
const LOOSENING_KEYS = ["failMode", "binary", "audit", "hookDeadlineMs", "telemetry"] as const;

/**
 * Trust decisions are read from the global file only: a project must never be able to trust itself,
 * so `trustedProjects` in a project's settings is dropped, and an untrusted project cannot loosen the guard.
 */
export function loadSettings(cwd: string, env: Env): SettingsResult {
  const issues: LoadIssue[] = [];
  const global = shepherdKey(globalSettingsFile(env), issues);
  const project = { ...shepherdKey(projectSettingsFile(cwd), issues) };
  delete project.trustedProjects;
  // Unlocking a built-in safety rule is the user's act, by hand, in the global file: never a project's.
  if (project.unlockBuiltins !== undefined) {
    issues.push({ file: projectSettingsFile(cwd), path: "shepherd.unlockBuiltins", message: "unlockBuiltins is honoured only in the global settings; ignored in a project's settings", severity: "error" });
    delete project.unlockBuiltins;
  }
  const trusted = trustedIn(global.trustedProjects, cwd);
  if (!trusted) for (const key of LOOSENING_KEYS) delete project[key];
  const merged = deepMerge(deepMerge({ ...DEFAULT_SETTINGS }, global), project);
  if (isPlainRecord(global.budgets) && isPlainRecord(project.budgets)) merged.budgets = tighterBudgets(global.budgets, project.budgets);
  // Last, over every layer: the managed policy only tightens what the user and the project chose.
  const managed = loadManagedSettings(env, issues);
  return { settings: applyManagedPolicy(merged as Settings, managed), issues, trusted, managed };
}

function trustedIn(list: unknown, cwd: string): boolean {
  if (!Array.isArray(list)) return false;
  const dir = canonicalDir(cwd);
  return list.some((entry) => typeof entry === "string" && canonicalDir(entry) === dir);
}

/** Absolute, symlinks resolved when possible, so `trust .` and a session's cwd compare equal. */
export function canonicalDir(dir: string): string {
  const abs = resolve(dir);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}
