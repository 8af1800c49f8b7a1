/**
 * @module The extension's own settings (pi settings key `shepherd`) and where the binary is.
 *
 * Mirrors the binary's rule for project settings: a project may set `binary` or `failMode`
 * only once it is trusted, since both choose what runs or loosen the guard.
 */
import { accessSync, constants, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isRecord } from "./wire.ts";

export type Env = Record<string, string | undefined>;

export interface ExtensionSettings {
  binary: string;
  /** Where `binary` came from, for `/shepherd` and error messages. */
  binarySource: "setting" | "SHEPHERD_BIN" | "install" | "package" | "PATH" | "default";
  timeoutMs: number;
  /** When Shepherd cannot answer a tool call: let it pass, block it, or block it and stop the run. */
  failMode: FailMode;
  trusted: boolean;
  issues: string[];
}

export type FailMode = "closed" | "open" | "halt";

export const DEFAULT_TIMEOUT_MS = 3000;
/** Written by `shepherd init pi` beside the installed extension: the binary that installed it. */
export const INSTALL_FILE = "install.json";

export function agentDir(env: Env): string {
  const fromEnv = env.PI_CODING_AGENT_DIR;
  if (fromEnv) return resolve(fromEnv);
  return join(env.HOME || homedir(), ".pi", "agent");
}

export function loadSettings(cwd: string, env: Env, extensionDir: string = here()): ExtensionSettings {
  const issues: string[] = [];
  const global = shepherdKey(join(agentDir(env), "settings.json"), issues);
  const project = shepherdKey(join(resolve(cwd), ".pi", "settings.json"), issues);
  const trusted = isTrusted(global.trustedProjects, cwd);
  const pick = (key: string, loosening: boolean): unknown => {
    if (project[key] !== undefined && (!loosening || trusted)) return project[key];
    return global[key];
  };

  let timeoutMs = DEFAULT_TIMEOUT_MS;
  const rawTimeout = pick("timeoutMs", false);
  if (typeof rawTimeout === "number" && Number.isFinite(rawTimeout) && rawTimeout > 0) timeoutMs = rawTimeout;
  else if (rawTimeout !== undefined) issues.push(`shepherd.timeoutMs must be a positive number, got ${JSON.stringify(rawTimeout)}`);

  let failMode: FailMode = "closed";
  // "halt" only tightens the guard, so even an untrusted project may ask for it.
  const rawFail = project.failMode === "halt" ? "halt" : pick("failMode", true);
  if (rawFail === "open" || rawFail === "closed" || rawFail === "halt") failMode = rawFail;
  else if (rawFail !== undefined) issues.push(`shepherd.failMode must be "open", "closed" or "halt", got ${JSON.stringify(rawFail)}`);

  const rawBinary = pick("binary", true);
  let binary: string | undefined;
  let binarySource: ExtensionSettings["binarySource"] = "default";
  if (typeof rawBinary === "string" && rawBinary !== "") {
    binary = isAbsolute(rawBinary) ? rawBinary : resolve(cwd, rawBinary);
    binarySource = "setting";
  } else if (env.SHEPHERD_BIN) {
    binary = resolve(env.SHEPHERD_BIN);
    binarySource = "SHEPHERD_BIN";
  } else {
    const installed = installedBinary(extensionDir);
    const packaged = installed ? undefined : packageBinary(extensionDir);
    if (installed) {
      binary = installed;
      binarySource = "install";
    } else if (packaged) {
      binary = packaged;
      binarySource = "package";
    } else {
      const onPath = findOnPath("shepherd", env.PATH ?? "");
      if (onPath) {
        binary = onPath;
        binarySource = "PATH";
      }
    }
  }
  return { binary: binary ?? "shepherd", binarySource, timeoutMs, failMode, trusted, issues };
}

function here(): string {
  return dirname(fileURLToPath(import.meta.url));
}

function installedBinary(extensionDir: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(extensionDir, INSTALL_FILE), "utf8"));
    if (isRecord(parsed) && typeof parsed.binary === "string" && isExecutable(parsed.binary)) return parsed.binary;
  } catch {
    // Not installed by `shepherd init pi` (e.g. loaded with `pi -e`): fall through to PATH.
  }
  return undefined;
}

/**
 * Installed as a pi package (`pi install <checkout>`, pi 1.x), the extension runs from the package's
 * own `pi-extension/`, beside the binary that package builds.
 */
function packageBinary(extensionDir: string): string | undefined {
  const candidate = join(extensionDir, "..", "dist", process.platform === "win32" ? "shepherd.exe" : "shepherd");
  return isExecutable(candidate) ? resolve(candidate) : undefined;
}

function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function shepherdKey(file: string, issues: string[]): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(stripJsonComments(text));
    if (!isRecord(parsed)) return {};
    const value = parsed.shepherd;
    if (value === undefined) return {};
    if (!isRecord(value)) {
      issues.push(`${file}: "shepherd" must be an object`);
      return {};
    }
    return value;
  } catch (error) {
    issues.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
}

function isTrusted(list: unknown, cwd: string): boolean {
  if (!Array.isArray(list)) return false;
  const dir = canonical(cwd);
  return list.some((entry) => typeof entry === "string" && canonical(entry) === dir);
}

function canonical(dir: string): string {
  const abs = resolve(dir);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/** Drops `//` and `/* *\/` comments outside strings, so hand-edited settings still load. */
export function stripJsonComments(text: string): string {
  let out = "";
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const ch = text[i];
    const next = text[i + 1];
    if (inString) {
      out += ch;
      if (ch === "\\") {
        out += next ?? "";
        i += 2;
        continue;
      }
      if (ch === '"') inString = false;
      i += 1;
    } else if (ch === '"') {
      inString = true;
      out += ch;
      i += 1;
    } else if (ch === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i += 1;
    } else if (ch === "/" && next === "*") {
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) i += 1;
      i += 2;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}
