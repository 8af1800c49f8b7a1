/** @module a throwaway project for one bench: rules in `<dir>/.pi/`, an isolated agent folder and HOME. */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syntheticRules } from "./synthetic-rules.ts";

export interface BenchProject {
  root: string;
  /** The project folder (the session's cwd). */
  cwd: string;
  rulesFile: string;
  /** Environment for every process of this bench: HOME and PI_CODING_AGENT_DIR point inside `root`. */
  env: Record<string, string>;
  /** Atomically replaces the project rule file (temp file + rename), as editors save. */
  replaceRules(rules: unknown[]): void;
  dispose(): void;
}

/**
 * `trusted` lists the project in the global settings, as `shepherd trust` does: a thousand rules are the
 * user's own. Untrusted project patterns run on a linear-time regex engine instead (DESIGN section 6).
 */
export function createProject(ruleCount: number, label = "bench", opts: { trusted?: boolean } = {}): BenchProject {
  const root = mkdtempSync(join(tmpdir(), `shepherd-${label}-`));
  const cwd = join(root, "project");
  const agent = join(root, "agent");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  mkdirSync(agent, { recursive: true });
  const rulesFile = join(cwd, ".pi", "shepherd-rules.json");
  let tmpCount = 0;
  const replaceRules = (rules: unknown[]) => {
    const tmp = join(cwd, ".pi", `.shepherd-rules.json.${process.pid}.${tmpCount++}.tmp`);
    writeFileSync(tmp, JSON.stringify({ rules }, null, 1));
    renameSync(tmp, rulesFile);
  };
  replaceRules(syntheticRules(ruleCount));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    PI_CODING_AGENT_DIR: agent,
    CLAUDE_PROJECT_DIR: cwd,
    SHEPHERD_LOG: "error",
  };
  mkdirSync(env.HOME as string, { recursive: true });
  if (opts.trusted !== false) writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [realpathSync(cwd)] } }));
  return { root, cwd, rulesFile, env, replaceRules, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
