/** @module the `shepherd_state` path class of one project, from the process environment (symlinked folders resolved here, at load). */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { protectedPaths } from "../engine/protected-paths.ts";
import type { Settings } from "../engine/schema-core.ts";
import type { PathGuard } from "../shell/paths.ts";
import { agentDir, type Env, homeDir } from "./paths.ts";

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Built once per rule reload, never per event, and only when a path is first asked about: most tool calls
 * (a hook's `git status`) ask none, and the seven realpath calls cost a hook process ~0.2 ms. The folders that
 * hold protected files are resolved through symlinks then, so a write through the real path is caught as well
 * (the engine itself never touches the disk).
 */
export function protectedPathsFor(env: Env, projectRoot: string, settings: Pick<Settings, "projectRulesPattern" | "audit">, execPath: string): PathGuard {
  let built: PathGuard | undefined;
  return { covers: (p, deep) => (built ??= buildProtectedPaths(env, projectRoot, settings, execPath)).covers(p, deep) };
}

function buildProtectedPaths(env: Env, projectRoot: string, settings: Pick<Settings, "projectRulesPattern" | "audit">, execPath: string): PathGuard {
  const home = homeDir(env);
  const audit = settings.audit;
  const auditDir = audit !== null && typeof audit === "object" && typeof (audit as { dir?: unknown }).dir === "string" ? (audit as { dir: string }).dir : undefined;
  const folders = [home, agentDir(env), env.CLAUDE_CONFIG_DIR || join(home, ".claude"), env.CODEX_HOME || join(home, ".codex"), join(env.GEMINI_CLI_HOME || home, ".gemini"), env.COPILOT_HOME || join(home, ".copilot"), projectRoot];
  const aliases = folders.map((f) => [f, realOr(f)] as const).filter(([a, b]) => a !== b);
  return protectedPaths({
    home,
    env,
    projectRoot,
    execPath: realOr(execPath),
    projectRulesPattern: settings.projectRulesPattern,
    ...(auditDir !== undefined ? { auditDir } : {}),
    aliases,
    // The default file systems of macOS and Windows ignore case; Linux's do not.
    caseInsensitive: process.platform === "darwin" || process.platform === "win32",
  });
}
