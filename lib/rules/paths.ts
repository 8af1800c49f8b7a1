/** @module where rule and settings files live: honours PI_CODING_AGENT_DIR and HOME. */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export type Env = Record<string, string | undefined>;

export function homeDir(env: Env): string {
  return env.HOME || homedir();
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

/** `shepherd-rules-*.json` -> a RegExp matching file names (only `*` is special). */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return new RegExp(`^${body}$`);
}

/** Project rule files in load order: `shepherd-rules.json` first, then the pattern's matches sorted by name. */
export function projectRuleFiles(cwd: string, pattern: string): string[] {
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
