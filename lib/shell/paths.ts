/** @module path arguments: resolve ~, $HOME, `..` against the session cwd and classify against project and home. */
import { isStartupFileOf } from "./startup-files.ts";

/** Normalizes `.`/`..`/`//` of an absolute path without touching the file system (no symlinks: hot path). */
export function normalizeAbsolute(p: string): string {
  // Most paths are normalized already: one scan says so, with no split and join.
  if (p.charCodeAt(0) === 47 && isNormalized(p)) return p;
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}

/** An absolute path with no empty, `.` or `..` segment and no trailing slash (`/` itself included). */
function isNormalized(p: string): boolean {
  const n = p.length;
  if (n === 1) return true;
  if (p.charCodeAt(n - 1) === 47) return false;
  let start = 1;
  for (let i = 1; i <= n; i++) {
    if (i < n && p.charCodeAt(i) !== 47) continue;
    const len = i - start;
    if (len === 0) return false;
    if (p.charCodeAt(start) === 46 && (len === 1 || (len === 2 && p.charCodeAt(start + 1) === 46))) return false;
    start = i + 1;
  }
  return true;
}

/** A relative path with nothing to normalize: no `.`/`..` segment, no empty one. */
const NEEDS_NORMALIZING = /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|\/$/;

let lastCwd = "";
let lastNormalized = "/";
/** The last path the fast path built: normalized by construction, so a `cd` into it needs no second pass. */
let lastBuilt = "";

/** Resolves a path argument as the shell and the program would see it. `~user` is left as is (unknowable). */
export function resolvePath(p: string, cwd: string, home: string): string {
  // `rm -rf "C:\Windows\System32"` from the bash tool (Git Bash), or `C:WindowsSystem32` once bash ate the backslashes.
  let s = p.charCodeAt(1) === 58 && /^[A-Za-z]:(?:$|[\\/]|[^\\/:]+)/.test(p) && !p.includes("://") ? windowsPath(p, home, cwd) : p;
  if (s === "~" || s.startsWith("~/")) s = home + s.slice(1);
  if (s.startsWith("~")) return s;
  if (!s.startsWith("/")) {
    if (cwd === "") return s;
    // The cwd is normalized once for all the operands of a command: `rm -r a b c ...` in a deep directory
    // normalized the whole joined path per operand.
    if (s !== "" && !NEEDS_NORMALIZING.test(s)) {
      if (cwd !== lastCwd) {
        // `cd a && cd a && ...` carries the directory forward instead of normalizing it again per link.
        lastNormalized = cwd === lastBuilt ? cwd : normalizeAbsolute(cwd);
        lastCwd = cwd;
      }
      lastBuilt = lastNormalized === "/" ? `/${s}` : `${lastNormalized}/${s}`;
      return lastBuilt;
    }
    s = `${cwd}/${s}`;
  }
  return normalizeAbsolute(s);
}

export function isInside(p: string, root: string): boolean {
  if (root === "/") return true;
  // `p.startsWith(root + "/")` without building the string (asked for every path of every effect).
  return p === root || (p.length > root.length && p.charCodeAt(root.length) === 47 && p.startsWith(root));
}

/** Directories whose loss is a system-wide disaster, on top of / and the home directory. */
const SYSTEM_DIRS = new Set([
  "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/opt", "/proc", "/root", "/sbin", "/srv", "/sys",
  "/usr", "/var", "/mnt", "/media", "/snap", "/Users", "/System", "/Library", "/Applications", "/private", "/usr/bin",
  "/usr/lib", "/usr/local", "/usr/share", "/var/lib", "/etc/ssh",
]);

const GLOB_ONLY = /^[*?.[\]{},!]+$/;

function dirname(p: string): string {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
}

/** `/`, the home directory, a system directory, or a bare glob directly inside one of them (`/*`, `~/.*`). */
export function isHomeOrRoot(p: string, home: string): boolean {
  const at = (q: string) => q === "/" || q === home || SYSTEM_DIRS.has(q) || (home !== "/" && isInside(home, q) && q !== "");
  if (at(p)) return true;
  const base = p.slice(p.lastIndexOf("/") + 1);
  return GLOB_ONLY.test(base) && base.includes("*") && at(dirname(p));
}

/** The project root itself, a bare glob directly inside it (`rm -rf ./*`), or one of its ancestors. */
export function isProjectRoot(p: string, root: string): boolean {
  if (isInside(root, p)) return true;
  const base = p.slice(p.lastIndexOf("/") + 1);
  return GLOB_ONLY.test(base) && base.includes("*") && dirname(p) === root;
}

/**
 * Where the analysis puts a program looked up on PATH (`$(which rm)`, `$(command -v shepherd)`): the real folder
 * cannot be known without the disk, and a system bin folder is where such a lookup lands for every rule that
 * asks (a copied program, a delete outside the project, Shepherd's own binary).
 */
export const ON_PATH_DIR = "/usr/bin";

/** Every path class a rule may name, for schemas. */
export const PATH_CLASSES = ["outside_project", "inside_project", "home_or_root", "project_root", "shepherd_state", "startup_files", "unknown", "any"] as const;

export type PathClass = (typeof PATH_CLASSES)[number];

/**
 * Answers the `shepherd_state` class: Shepherd's own files and the agents' hook settings. Built from the
 * environment by the engine (lib/engine/protected-paths.ts); the shell layer only asks it.
 */
export interface PathGuard {
  /**
   * Whether changing `p` (absolute, normalized) changes protected state. `deep`: the change reaches the whole
   * tree under `p` or replaces `p` itself as a directory (rm -r, mv, chmod, ln), so a folder that holds
   * protected files counts too.
   */
  covers(p: string, deep: boolean): boolean;
}

/** Whether a resolved path argument falls in the class. Unresolvable paths ($VAR, ~user) match only "any". */
export function pathInClass(p: string, cls: PathClass, projectRoot: string, home: string, guard?: PathGuard, deep = true): boolean {
  if (cls === "any") return true;
  if (!p.startsWith("/")) return false;
  switch (cls) {
    case "shepherd_state":
      return guard?.covers(p, deep) ?? false;
    case "startup_files":
      return isStartupFileOf(p, home);
    case "outside_project":
      return !isInside(p, projectRoot);
    case "inside_project":
      return isInside(p, projectRoot);
    case "home_or_root":
      return isHomeOrRoot(p, home);
    case "project_root":
      return isProjectRoot(p, projectRoot);
    case "unknown":
      return false;
  }
}

function parentDir(p: string): string {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
}

/** `s` with its prefix spelled as `anchor` when they differ only in case at a segment boundary; undefined otherwise. */
function foldCase(s: string, anchor: string): string | undefined {
  if (anchor === "" || anchor === "/" || s.length < anchor.length) return undefined;
  const head = s.slice(0, anchor.length);
  if (head === anchor || head.toLowerCase() !== anchor.toLowerCase()) return undefined;
  const next = s[anchor.length];
  return next === undefined || next === "/" ? anchor + s.slice(anchor.length) : undefined;
}

/** A Windows path as a POSIX-like one: `C:\` is `/`, `C:\Users\x` is a sibling of the home, `~\a` is `~/a`. */
export function windowsPath(word: string, home: string, cwd = ""): string {
  let s = word.replaceAll("\\", "/");
  // PowerShell's FileSystem provider reads `~` as the home, quoted or not.
  if (s === "~" || s.startsWith("~/")) s = home + s.slice(1);
  // `C:Usersme`: bash ate the backslashes of an unquoted path; it is still under the drive root.
  if (/^[A-Za-z]:[^/]/.test(s)) s = `${s.slice(0, 2)}/${s.slice(2)}`;
  const drive = /^[A-Za-z]:(?=\/|$)/.exec(s);
  if (drive) {
    s = s.slice(2) || "/";
    const users = /^\/Users(?=\/|$)/i.exec(s);
    if (users) s = parentDir(home) + s.slice(users[0].length);
  }
  // NTFS names are case-insensitive: `C:\Users\User\PROJECT`, `~\Project`, `$HOME\PROJECT` are the project (claude-code issue #60442).
  if (s.charCodeAt(0) === 47) s = foldCase(s, cwd) ?? foldCase(s, home) ?? s;
  if (/^\/\/[^/]/.test(s)) return `/unc${s.slice(1)}`;
  return s;
}


/**
 * An `exceptPaths` entry holding a glob, as a regex over resolved paths: `*` is one name's characters, `**\/` any
 * depth (none too), `{a,b}` alternatives, a leading `~/` the home. Group 1 is whatever lies below the matched
 * directory (undefined for the directory itself), so an entry ending in "/" can spare the directory too.
 */
export function exceptGlob(entry: string, home: string): RegExp {
  const abs = (entry.startsWith("~/") ? `${home}/${entry.slice(2)}` : entry).replace(/\/+$/, "");
  let re = "";
  let depth = 0;
  for (let i = 0; i < abs.length; i++) {
    const c = abs[i] ?? "";
    if (c === "*" && abs[i + 1] === "*") {
      re += abs[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += abs[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "{") {
      depth++;
      re += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      re += ")";
    } else if (c === "," && depth > 0) re += "|";
    else re += c.replace(/[.+?^$()[\]\\|{}]/g, "\\$&");
  }
  return new RegExp(`^${re}(/.*)?$`);
}
