/**
 * @module the managed policy: a system-wide folder (`/etc/shepherd/`, or `$SHEPHERD_MANAGED_DIR`) whose
 * `managed-rules.json` is locked for everyone and whose `managed-settings.json` no user, project or tool
 * call can loosen. A managed file that cannot be read or parsed is read in the most restrictive way.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isPlainRecord } from "../engine/guard-kit.ts";
import type { FailMode, LoadIssue, Settings } from "../engine/schema-core.ts";
import type { Env } from "./paths.ts";
import { readJsonc } from "./settings.ts";
import { telemetryProblems } from "../telemetry/telemetry-config.ts";

export const DEFAULT_MANAGED_DIR = "/etc/shepherd";

/**
 * The managed folder: `$SHEPHERD_MANAGED_DIR` only while the default folder holds no managed file. An agent
 * passes its settings' environment to its hooks (Claude Code's `env`, which a repository's
 * `.claude/settings.json` may set), so the variable must never be able to move a policy that is there away.
 */
export function managedDir(env: Env, defaultDir = DEFAULT_MANAGED_DIR): string {
  if (!env.SHEPHERD_MANAGED_DIR) return defaultDir;
  if (existsSync(join(defaultDir, "managed-rules.json")) || existsSync(join(defaultDir, "managed-settings.json"))) return defaultDir;
  return resolve(env.SHEPHERD_MANAGED_DIR);
}

export function managedRulesFile(env: Env): string {
  return join(managedDir(env), "managed-rules.json");
}

export function managedSettingsFile(env: Env): string {
  return join(managedDir(env), "managed-settings.json");
}

/** What the managed settings impose; an empty policy imposes nothing. */
export interface ManagedPolicy {
  /** `closed`: no lower layer may choose `open`. `open` is the floor only: a user may still close it. */
  failMode?: FailMode;
  /** An audit setting that turns auditing on: it replaces any lower one (no one may turn it off or move it). */
  audit?: unknown;
  /**
   * A telemetry setting: it replaces any lower one, whatever it says. `false` forbids telemetry (the
   * environment's OTLP endpoint included); an endpoint forces it on, and no one may turn it off, redirect
   * it or switch content on.
   */
  telemetry?: unknown;
  /** False: no project rule file is loaded, trusted or not. */
  projectRules: boolean;
  /**
   * `allowedPacks`: globs (`*` = any run of characters) of the packs a global or project rules file may extend
   * (npm names, `git+https://...` URLs); undefined = any. The managed rules file's own packs are always allowed.
   */
  allowedPacks?: string[];
  /** Set when a managed file could not be read or parsed: the policy is then the most restrictive reading. */
  broken?: string;
}

export const OPEN_POLICY: ManagedPolicy = { projectRules: true };

/** The keys `managed-settings.json` understands; any other is reported, so a typo never passes for a policy. */
const KNOWN_KEYS = new Set(["$schema", "failMode", "audit", "projectRules", "allowedPacks", "telemetry"]);

/**
 * The most restrictive reading of a policy that could not be read: closed, no project rules, no pack outside
 * the managed file's own (the allow-list it may hold is not known), audit as given.
 */
export function restrictive(policy: ManagedPolicy, why: string): ManagedPolicy {
  return { ...policy, failMode: "closed", projectRules: false, allowedPacks: [], broken: why };
}

function brokenIssue(file: string, why: string): LoadIssue {
  return {
    file,
    path: "",
    message: `managed policy unreadable (${why}): the most restrictive reading applies (failMode "closed", no project rules, no packs but the managed file's own) until it is fixed`,
    severity: "error",
  };
}

/**
 * Reads `managed-settings.json` through the bounded reader and the depth check (readJsonc). A missing file
 * is no policy; one that is unreadable, unparsable or of the wrong shape is the most restrictive one.
 */
export function loadManagedSettings(env: Env, issues: LoadIssue[]): ManagedPolicy {
  const file = managedSettingsFile(env);
  const own: LoadIssue[] = [];
  const data = readJsonc(file, own);
  if (own.length > 0) {
    issues.push(...own, brokenIssue(file, own[0]?.message ?? "unreadable"));
    return restrictive(OPEN_POLICY, `${file}: ${own[0]?.message ?? "unreadable"}`);
  }
  if (data === undefined) return OPEN_POLICY;
  if (!isPlainRecord(data)) {
    issues.push(brokenIssue(file, "not a JSON object"));
    return restrictive(OPEN_POLICY, `${file}: not a JSON object`);
  }
  const policy: ManagedPolicy = { projectRules: true };
  const bad: string[] = [];
  for (const key of Object.keys(data)) if (!KNOWN_KEYS.has(key)) issues.push({ file, path: key, message: `unknown managed setting "${key}" (known: failMode, audit, projectRules, allowedPacks, telemetry); ignored`, severity: "warning" });
  if (data.failMode !== undefined) {
    if (data.failMode === "open" || data.failMode === "closed" || data.failMode === "halt") policy.failMode = data.failMode;
    else bad.push("failMode");
  }
  if (data.projectRules !== undefined) {
    if (typeof data.projectRules === "boolean") policy.projectRules = data.projectRules;
    else bad.push("projectRules");
  }
  if (data.audit !== undefined) policy.audit = data.audit;
  if (data.allowedPacks !== undefined) {
    const list = data.allowedPacks;
    if (Array.isArray(list) && list.length <= 256 && list.every((g) => typeof g === "string" && g.length > 0 && g.length <= 2048)) policy.allowedPacks = list as string[];
    else {
      // Unreadable, it allows nothing: a pack list the organisation meant to narrow is never read as "any".
      policy.allowedPacks = [];
      bad.push("allowedPacks");
    }
  }
  if (data.telemetry !== undefined) {
    const problems = telemetryProblems(data.telemetry);
    // Unreadable, it is read most restrictively: no telemetry at all (no lower layer may send where it likes).
    if (problems.length > 0) {
      for (const p of problems) issues.push({ file, path: p.path ? `telemetry.${p.path}` : "telemetry", message: p.message, severity: "error" });
      policy.telemetry = false;
      bad.push("telemetry");
    } else policy.telemetry = data.telemetry;
  }
  if (bad.length > 0) {
    for (const key of bad) issues.push({ file, path: key, message: `invalid managed setting "${key}"`, severity: "error" });
    issues.push(brokenIssue(file, `invalid ${bad.join(", ")}`));
    return restrictive(policy, `${file}: invalid ${bad.join(", ")}`);
  }
  return policy;
}

/** Whether an audit value asks for auditing (its shape is checked where it is used, lib/audit/audit-log.ts). */
function auditOn(raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === false) return false;
  return !(isPlainRecord(raw) && raw.enabled === false);
}

const FAIL_RANK: Record<FailMode, number> = { open: 0, closed: 1, halt: 2 };

/** The settings with the policy imposed: it only ever tightens. */
export function applyManagedPolicy(settings: Settings, policy: ManagedPolicy): Settings {
  const out: Settings = { ...settings };
  // The stricter of the two: a managed "closed" never turns a user's "halt" back into "closed"; "open" imposes nothing.
  if (policy.failMode !== undefined && FAIL_RANK[policy.failMode] > FAIL_RANK[out.failMode]) out.failMode = policy.failMode;
  if (auditOn(policy.audit)) out.audit = policy.audit;
  if (policy.telemetry !== undefined) out.telemetry = policy.telemetry;
  return out;
}

/** The issue standing while project rule files exist but the managed policy keeps them out. */
export function projectRulesOffIssue(env: Env, files: readonly string[], policy: ManagedPolicy): LoadIssue[] {
  return files.map((file) => ({
    file,
    path: "",
    message: `not loaded: the managed policy (${policy.broken ? "unreadable, read most restrictively" : managedSettingsFile(env)}) does not allow project rules`,
    severity: "warning",
  }));
}
