/**
 * @module The extension's own settings (pi settings key `shepherd`) and where the binary is.
 *
 * Mirrors the binary's rule for project settings: a project may set `binary` or `failMode`
 * only once it is trusted, since both choose what runs or loosen the guard.
 */
import { accessSync, closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { platformBinary } from "./platform-package.ts";
import { isRecord } from "./wire.ts";

export type Env = Record<string, string | undefined>;

export interface ExtensionSettings {
  binary: string;
  /** Where `binary` came from, for `/shepherd` and error messages. */
  binarySource: "setting" | "SHEPHERD_BIN" | "install" | "package" | "npm" | "PATH" | "default";
  timeoutMs: number;
  /** When Shepherd cannot answer a tool call: let it pass, block it, or block it and stop the run. */
  failMode: FailMode;
  trusted: boolean;
  issues: string[];
}

export type FailMode = "closed" | "open" | "halt";

export const DEFAULT_TIMEOUT_MS = 3000;
/**
 * Caps of the binary's own reader (lib/fs/bounded-read.ts, lib/json-depth.ts), repeated here: the extension
 * is copied into pi's folder on its own and cannot import from lib/.
 */
export const MAX_SETTINGS_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;
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
    // Installed from npm (`pi install npm:@shepherd-guard/shepherd`): the binary is this platform's package.
    const fromNpm = installed || packaged ? undefined : platformBinary(join(extensionDir, "index.ts"));
    if (installed) {
      binary = installed;
      binarySource = "install";
    } else if (packaged) {
      binary = packaged;
      binarySource = "package";
    } else if (fromNpm) {
      binary = fromNpm;
      binarySource = "npm";
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
  const read = readBoundedText(join(extensionDir, INSTALL_FILE), MAX_SETTINGS_BYTES);
  if (!read.ok || nestingTooDeep(read.text, MAX_JSON_DEPTH)) return undefined;
  try {
    const parsed: unknown = JSON.parse(read.text);
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

/**
 * The text of a regular file of at most `maxBytes`: a project may commit `.pi/settings.json` as a link to
 * /dev/urandom or a FIFO, which a plain read would never finish. Stat first (never blocks), open without
 * blocking, check the descriptor again, read at most `maxBytes + 1` bytes.
 */
export function readBoundedText(file: string, maxBytes: number): { ok: true; text: string } | { ok: false; missing: boolean; message: string } {
  let fd: number | undefined;
  try {
    if (!statSync(file).isFile()) return { ok: false, missing: false, message: "not a regular file: refused unread" };
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, missing: false, message: "not a regular file: refused unread" };
    if (st.size > maxBytes) return { ok: false, missing: false, message: `larger than ${maxBytes} bytes: refused unread` };
    const buf = new Uint8Array(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) return { ok: false, missing: false, message: `larger than ${maxBytes} bytes: refused unread` };
    return { ok: true, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(buf.subarray(0, got)) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { ok: false, missing: code === "ENOENT" || code === "ENOTDIR", message: error instanceof Error ? error.message : String(error) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** True when brackets outside strings and comments nest deeper than `max`: JSON.parse recurses per level. */
export function nestingTooDeep(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf("\n", i + 2);
      i = end < 0 ? text.length : end;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
    }
  }
  return false;
}

function shepherdKey(file: string, issues: string[]): Record<string, unknown> {
  const read = readBoundedText(file, MAX_SETTINGS_BYTES);
  if (!read.ok) {
    if (!read.missing) issues.push(`${file}: ${read.message}`);
    return {};
  }
  const text = read.text;
  if (nestingTooDeep(text, MAX_JSON_DEPTH)) {
    issues.push(`${file}: nested more than ${MAX_JSON_DEPTH} levels deep: refused before parsing`);
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
