/**
 * @module the environment a hook process trusts. Claude Code (and Gemini CLI) pass the `env` of a project's
 * own settings file to every hook, so a cloned repository can set `PI_CODING_AGENT_DIR` or `HOME` for
 * Shepherd's hook and make a folder it ships stand for the user's global rules, settings and trust list.
 * A variable that would place Shepherd's global state inside the project is dropped (the real home, from
 * the password database, stands in for HOME), and so is any variable that places Shepherd's state or the
 * agents' hook settings, or aims or switches off decision telemetry, when the repository's own files set it
 * (`PI_CODING_AGENT_DIR=/tmp/x` in a `.env` would make a folder the model can write stand for the user's
 * global rules and trust list; an endpoint would send every decision's metadata where the repository says);
 * each drop is reported.
 */
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { MAX_SETTINGS_BYTES, readBounded } from "../fs/bounded-read.ts";

type Env = Record<string, string | undefined>;

/** Where Shepherd's global state is found: never inside the project the hook runs for. */
const STATE_VARS = ["PI_CODING_AGENT_DIR", "HOME", "SHEPHERD_MANAGED_DIR"] as const;
/** Where the agents say the project is; the process's own cwd is always one. */
const PROJECT_VARS = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"] as const;

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The user's home from the password database: Bun's `os.userInfo().homedir` is `$HOME` itself. Read from
 * /etc/passwd (bounded); undefined where there is none (the caller then picks a home that holds nothing).
 */
function realHome(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const passwd = readBounded("/etc/passwd", 1024 * 1024);
  if (!passwd.ok) return undefined;
  for (const line of passwd.text.split("\n")) {
    const f = line.split(":");
    if (f.length >= 7 && f[2] === String(uid) && f[5]) return f[5];
  }
  return undefined;
}

/**
 * Where decision telemetry goes and whether it runs (telemetry-config.ts reads these). A repository may not
 * aim or silence them: a trusted project names its endpoint with the `telemetry` setting, where trust is checked.
 */
const TELEMETRY_VARS = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER"] as const;

/** Where the agents' hook settings and plugins are (the protected set, lib/engine/protected-paths.ts, follows them). */
const AGENT_HOME_VARS = ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "XDG_CONFIG_HOME", "OPENCODE_CONFIG_DIR"] as const;

/** Every variable a repository's files may not set for Shepherd's hook, wherever it points. */
const REPOSITORY_MAY_NOT_SET: readonly string[] = [...STATE_VARS, ...AGENT_HOME_VARS, ...TELEMETRY_VARS];

/**
 * The files through which a repository sets a hook's environment: Claude Code's project settings (`env`),
 * and the `.env` files Gemini CLI loads from the folder it runs in and the ones above it.
 */
const ENV_JSON_FILES = [".claude/settings.json", ".claude/settings.local.json"] as const;
const DOTENV_FILES = [".gemini/.env", ".env"] as const;
/** Folders above the project searched for such files, at most. */
const MAX_ENV_DEPTH = 32;

/** Which of `keys` a file of the repository sets, by its kind; none when it is not there or not readable. */
function keysSetIn(file: string, keys: readonly string[], dotenv: boolean): string[] {
  const read = readBounded(file, MAX_SETTINGS_BYTES);
  if (!read.ok) return [];
  if (dotenv) return keys.filter((k) => new RegExp(`^[ \\t]*(?:export[ \\t]+)?${k}[ \\t]*=`, "m").test(read.text));
  try {
    const data: unknown = JSON.parse(read.text);
    const env = typeof data === "object" && data !== null ? (data as { env?: unknown }).env : undefined;
    return typeof env === "object" && env !== null ? keys.filter((k) => Object.hasOwn(env, k)) : [];
  } catch {
    return [];
  }
}

/**
 * The variables of `REPOSITORY_MAY_NOT_SET` set in the environment that a repository file in or above a project
 * folder sets too. A HOME that is the real one is not asked about (so an ordinary hook reads no file).
 */
function repositorySet(env: Env, projects: readonly string[], home: () => string | undefined): string[] {
  const set = REPOSITORY_MAY_NOT_SET.filter((k) => (env[k] ?? "").trim() !== "" && (k !== "HOME" || resolve(env[k] ?? "") !== resolve(home() ?? "/")));
  if (set.length === 0) return [];
  const found = new Set<string>();
  const seen = new Set<string>();
  for (const project of projects) {
    let dir = project;
    for (let depth = 0; depth < MAX_ENV_DEPTH && isRepositoryCandidate(dir, home) && !seen.has(dir); depth++) {
      seen.add(dir);
      for (const f of ENV_JSON_FILES) for (const k of keysSetIn(join(dir, f), set, false)) found.add(k);
      for (const f of DOTENV_FILES) for (const k of keysSetIn(join(dir, f), set, true)) found.add(k);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return set.filter((k) => found.has(k));
}

/** A home with no Shepherd state in it: no global rules, no trust list (stricter, never looser). */
const NO_HOME = "/nonexistent";

/**
 * A folder a cloned repository can be: not the root, and not the user's home or one of its ancestors (an
 * agent started in `/`, `/home` or `~` runs its hooks there, and no clone holds the home folder).
 */
function isRepositoryCandidate(p: string, home: () => string | undefined): boolean {
  if (p === "/") return false;
  const real = home();
  return real === undefined || !inside(resolve(real), p);
}

export interface HookEnv {
  env: Env;
  /** What was dropped and why, for stderr. */
  dropped: string[];
}

export function hookEnv(env: Env, cwd: string, readHome: () => string | undefined = realHome): HookEnv {
  // Read once: every variable and every folder level asks it.
  let known: { home: string | undefined } | undefined;
  const home = (): string | undefined => (known ??= { home: readHome() }).home;
  const projects = [cwd, ...PROJECT_VARS.map((k) => env[k]).filter((p): p is string => typeof p === "string" && p !== "")].map((p) => resolve(p));
  const dropped: string[] = [];
  let out: Env | undefined;
  for (const key of STATE_VARS) {
    const value = env[key];
    if (value === undefined || value === "") continue;
    const at = resolve(cwd, value);
    const project = projects.find((p) => inside(at, p) && isRepositoryCandidate(p, home));
    if (project === undefined) continue;
    out ??= { ...env };
    if (key === "HOME") {
      const real = home();
      // A home inside the project (a real user whose home is the project's root) is left alone.
      if (real !== undefined && inside(resolve(real), project)) continue;
      out.HOME = real ?? NO_HOME;
    } else delete out[key];
    dropped.push(`${key}=${value} points inside the project ${project}: ignored (a repository's settings may set it for hooks)`);
  }
  for (const key of repositorySet(out ?? env, projects, home)) {
    out ??= { ...env };
    if (key === "HOME") out.HOME = home() ?? NO_HOME;
    else delete out[key];
    const why = (TELEMETRY_VARS as readonly string[]).includes(key) ? `a trusted project names an endpoint with the "telemetry" setting` : "it would move where Shepherd finds its global state or the agents' hook settings";
    dropped.push(`${key} is set by a file of the repository (its agent settings or a .env): ignored (${why})`);
  }
  return { env: out ?? env, dropped };
}
