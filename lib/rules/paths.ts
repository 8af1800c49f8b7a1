/** @module where rule and settings files live: honours PI_CODING_AGENT_DIR and HOME. */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { formatBytes } from "../fs/bounded-read.ts";
import { globToRegExp } from "../glob.ts";
import { systemHomedir } from "../home-dir.ts";

export type Env = Record<string, string | undefined>;

export function homeDir(env: Env): string {
  return env.HOME || systemHomedir();
}

/** pi's agent folder: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function agentDir(env: Env): string {
  return env.PI_CODING_AGENT_DIR ? resolve(env.PI_CODING_AGENT_DIR) : join(homeDir(env), ".pi", "agent");
}

export function globalRulesFile(env: Env): string {
  return join(agentDir(env), "shepherd-rules.json");
}

export function globalSettingsFile(env: Env): string {
  return join(agentDir(env), "settings.json");
}

export function projectPiDir(cwd: string): string {
  return join(resolve(cwd), ".pi");
}

export function projectRulesFile(cwd: string): string {
  return join(projectPiDir(cwd), "shepherd-rules.json");
}

export function projectSettingsFile(cwd: string): string {
  return join(projectPiDir(cwd), "settings.json");
}

export { globToRegExp };

/**
 * A project loads at most this many rule files: each may be MAX_RULE_FILE_BYTES (lib/fs/bounded-read.ts),
 * and a repository must not make every hook read an unbounded number of them.
 */
export const MAX_PROJECT_RULE_FILES = 32;

export interface ProjectRuleFileList {
  /** The files to load, in load order, at most MAX_PROJECT_RULE_FILES. */
  files: string[];
  /** Matching files past the cap, not loaded: the caller reports each one. */
  skipped: string[];
}

/** Project rule files in load order: `shepherd-rules.json` first, then the pattern's matches sorted by name. */
export function projectRuleFiles(cwd: string, pattern: string): string[] {
  return projectRuleFileList(cwd, pattern).files;
}

/**
 * The bytes of rule text a project's files may add up to. Untrusted, a repository chooses them: 256 KiB
 * is 1,250 ordinary rules or 7,000 minimal ones, which the sidecar loads (compiled for the linear-time
 * engine, the slow part) in about half a second and a cold hook in a fifth, once (the load cache and
 * snapshot keep it). Trusted, they are the user's own: as much as one rule file may hold (the 10,000-rule
 * bench file is 2 MB).
 */
export const MAX_UNTRUSTED_PROJECT_RULE_BYTES = 256 * 1024;
export const MAX_TRUSTED_PROJECT_RULE_BYTES = 4 * 1024 * 1024;

export function projectRuleBudget(trusted: boolean): number {
  return trusted ? MAX_TRUSTED_PROJECT_RULE_BYTES : MAX_UNTRUSTED_PROJECT_RULE_BYTES;
}

/** The issue of a project rule file left out because the files before it used up the budget. */
export function overBudgetMessage(trusted: boolean): string {
  return `not loaded: the project's rule files add up to more than ${formatBytes(projectRuleBudget(trusted))}${trusted ? "" : " (an untrusted project's budget; `shepherd trust` raises it)"}`;
}

/** The issue of a project rule file left out by the cap. */
export function skippedRuleFileMessage(): string {
  return `not loaded: a project loads at most ${MAX_PROJECT_RULE_FILES} rule files (shepherd-rules.json first, then by name)`;
}

/** projectRuleFiles with the files past the cap. */
export function projectRuleFileList(cwd: string, pattern: string): ProjectRuleFileList {
  const all = matchingRuleFiles(cwd, pattern);
  return { files: all.slice(0, MAX_PROJECT_RULE_FILES), skipped: all.slice(MAX_PROJECT_RULE_FILES) };
}

function matchingRuleFiles(cwd: string, pattern: string): string[] {
  const dir = projectPiDir(cwd);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const re = globToRegExp(pattern);
  const out: string[] = [];
  if (names.includes("shepherd-rules.json")) out.push(join(dir, "shepherd-rules.json"));
  for (const name of names.sort()) {
    if (name !== "shepherd-rules.json" && re.test(name) && !name.startsWith(".")) out.push(join(dir, name));
  }
  return out;
}
