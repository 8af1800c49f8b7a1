/**
 * @module the `shepherd_state` path class of one project, from the process environment: symlinked folders are
 * resolved here at load, and a path that is (or sits in) a symbolic link is asked about again by its target
 * when the event is judged (the engine itself never touches the disk).
 */
import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type ProtectedPaths, protectedPaths } from "../engine/protected-paths.ts";
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

/** Longest path followed through links: past it the path is judged by its text alone. */
const MAX_FOLLOWED_PATH = 4096;

/** Links followed by hand before a path is judged by its text alone (the kernel's own limit is 40). */
const MAX_HOPS = 40;

/**
 * Where a write to `p` lands: its real path; for a file not there yet, its folder's real path and its name;
 * for a dangling link (`notes.md -> ~/.pi/agent/shepherd-rules.json` before that file exists), where the
 * link points, followed link by link, since a write through it creates the target. Undefined when that is
 * `p` itself or cannot be known.
 */
function landsAt(p: string): string | undefined {
  if (!p.startsWith("/") || p.length > MAX_FOLLOWED_PATH) return undefined;
  let cur = p;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const entry = lstatIfThere(cur);
    let real: string | undefined;
    if (entry === undefined) {
      const folder = realIfThere(dirname(cur));
      real = folder === undefined ? cur : join(folder, basename(cur));
    } else {
      real = realIfThere(cur);
      if (real === undefined && entry.isSymbolicLink()) {
        const target = readlinkIfThere(cur);
        if (target === undefined) return undefined;
        cur = resolve(dirname(cur), target);
        if (cur.length > MAX_FOLLOWED_PATH) return undefined;
        continue;
      }
    }
    return real === undefined || real === p ? undefined : real;
  }
  // A loop of links: a write through it fails (ELOOP), so the text alone is judged.
  return undefined;
}

function lstatIfThere(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readlinkIfThere(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The real path of `p`, or undefined when it cannot be resolved. A missing entry is told by lstat, which
 * answers it without an exception: a failed realpath throws, and the error's stack, captured deep in an
 * evaluation, cost each write of a new file ~5 µs. lstat reports no entry only where realpath would fail
 * too (every component of a real path exists), so the answer is realpath's.
 */
function realIfThere(p: string): string | undefined {
  try {
    if (lstatSync(p, { throwIfNoEntry: false }) === undefined) return undefined;
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The protected set that also follows links on disk, now: a repository can ship `notes.md ->
 * ~/.pi/agent/shepherd-rules.json`, and the model can make one in `/tmp` a call before it writes through it.
 * Never cached: a link made by the previous call must count at this one (a lookup costs 2-5 µs).
 */
export class LinkFollowingGuard implements PathGuard {
  readonly #inner: ProtectedPaths;

  constructor(inner: ProtectedPaths) {
    this.#inner = inner;
  }

  covers(p: string, deep: boolean): boolean {
    if (this.#inner.covers(p, deep)) return true;
    const real = landsAt(p);
    return real !== undefined && this.#inner.covers(real, deep);
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
  return new LinkFollowingGuard(protectedPaths({
    home,
    env,
    projectRoot,
    execPath: realOr(execPath),
    projectRulesPattern: settings.projectRulesPattern,
    ...(auditDir !== undefined ? { auditDir } : {}),
    aliases,
    // The default file systems of macOS and Windows ignore case; Linux's do not.
    caseInsensitive: process.platform === "darwin" || process.platform === "win32",
  }));
}
