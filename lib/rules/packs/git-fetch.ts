/**
 * @module fetches one commit of a git repository with the system `git`, never through a shell: a fresh bare
 * repository in a temp folder, a depth-1 fetch of exactly that commit, its tree listed and checked against the
 * pack caps before any blob is read, each git call bounded in time and output, the fetch in what it writes. Nothing is checked out, so no
 * hook, filter or symbolic link of the repository ever runs or lands on disk.
 */
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatBytes, MAX_RULE_FILE_BYTES } from "../../fs/bounded-read.ts";
import { MAX_PACK_BYTES, MAX_PACK_DEPTH, MAX_PACK_FILES, type PackFile } from "./pack-tree.ts";
import { sha256 } from "../../hash.ts";
import { safeRelativePath } from "./cache.ts";

export const GIT_FETCH_TIMEOUT_MS = 60_000;
/** What a fetch may put on disk before it is stopped: a pack holds at most 16 MiB, and git compresses it. */
export const MAX_FETCH_BYTES = 64 * 1024 * 1024;

/** Bytes under `dir`, stopping once past `cap`. */
function diskUse(dir: string, cap: number): number {
  let total = 0;
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      if (total > cap) return;
      try {
        const st = lstatSync(`${d}/${n}`);
        if (st.isDirectory()) walk(`${d}/${n}`);
        else total += st.size;
      } catch {
        // gone meanwhile (git renames its temp packs)
      }
    }
  };
  walk(dir);
  return total;
}

/**
 * `git fetch`, watched: killed when the repository it writes passes MAX_FETCH_BYTES or the deadline passes,
 * so a huge commit costs at most that much disk and time.
 */
function watchedFetch(args: string[], env: Record<string, string>, dir: string, deadline: number, maxBytes: number): Promise<{ ok: true } | { ok: false; message: string }> {
  return new Promise((resolve) => {
    const child = spawn("git", args, { env, stdio: ["ignore", "ignore", "pipe"], windowsHide: true });
    let stderr = "";
    let stopped: string | undefined;
    child.stderr.on("data", (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString("utf8");
    });
    const stop = (why: string) => {
      stopped ??= why;
      child.kill("SIGKILL");
    };
    const poll = setInterval(() => {
      if (Date.now() > deadline) stop("timed out");
      else if (diskUse(dir, maxBytes) > maxBytes) stop(`stopped: it passed ${formatBytes(maxBytes)}`);
    }, 50);
    child.on("error", (err) => {
      clearInterval(poll);
      resolve({ ok: false, message: `git fetch: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "git is not installed" : err.message}` });
    });
    child.on("close", (code) => {
      clearInterval(poll);
      if (stopped) resolve({ ok: false, message: `git fetch ${stopped}` });
      else if (code !== 0) resolve({ ok: false, message: `git fetch failed: ${stderr.trim().slice(0, 300) || `exit ${code}`}` });
      // A fetch faster than one poll is measured once it is done.
      else if (diskUse(dir, maxBytes) > maxBytes) resolve({ ok: false, message: `git fetch stopped: it passed ${formatBytes(maxBytes)}` });
      else resolve({ ok: true });
    });
  });
}

export type GitFetch = { ok: true; files: PackFile[] } | { ok: false; message: string };

export interface GitFetchOptions {
  timeoutMs?: number;
  /** Defaults to MAX_FETCH_BYTES. */
  maxFetchBytes?: number;
  env?: Record<string, string | undefined>;
}

/** Settings that keep a fetch from running anything of the repository or asking for a password. */
const SAFE_CONFIG = ["-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never", "-c", "protocol.https.allow=always", "-c", "protocol.file.allow=always", "-c", "core.fsmonitor=false"];

interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  size: number;
  path: string;
}

function parseTree(out: Buffer): TreeEntry[] | string {
  const entries: TreeEntry[] = [];
  for (const rec of out.toString("utf8").split("\0")) {
    if (rec === "") continue;
    const tab = rec.indexOf("\t");
    const [mode, type, sha, size] = rec.slice(0, tab).trim().split(/\s+/);
    if (tab < 0 || !mode || !type || !sha) return `unexpected git ls-tree output: ${JSON.stringify(rec.slice(0, 80))}`;
    entries.push({ mode, type, sha, size: size === "-" || size === undefined ? 0 : Number(size), path: rec.slice(tab + 1) });
  }
  return entries;
}

/** Reads the blobs of `entries` from one `git cat-file --batch`: `<sha> blob <size>\n<bytes>\n` each. */
function parseBatch(out: Buffer, entries: readonly TreeEntry[]): Uint8Array[] | string {
  const blobs: Uint8Array[] = [];
  let at = 0;
  for (const e of entries) {
    const nl = out.indexOf(10, at);
    if (nl < 0) return "git cat-file output ended early";
    const header = out.subarray(at, nl).toString("utf8").split(" ");
    if (header[0] !== e.sha || header[1] !== "blob") return `git cat-file: unexpected ${header.join(" ")}`;
    const size = Number(header[2]);
    if (size !== e.size) return `git cat-file: ${e.path} changed size`;
    blobs.push(new Uint8Array(out.subarray(nl + 1, nl + 1 + size)));
    at = nl + 1 + size + 1;
  }
  return blobs;
}

/** The pack files of `commit` in `url`, hashed; the repository's `node_modules/` and `.git` are not part of it. */
export async function fetchGitPack(url: string, commit: string, opts: GitFetchOptions = {}): Promise<GitFetch> {
  const timeout = opts.timeoutMs ?? GIT_FETCH_TIMEOUT_MS;
  const deadline = Date.now() + timeout;
  const env: Record<string, string> = {};
  for (const [k, val] of Object.entries(opts.env ?? process.env)) if (val !== undefined) env[k] = val;
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_ASKPASS = "/bin/false";
  env.GIT_CONFIG_NOSYSTEM = "1";
  let tmp: string | undefined;
  const git = (args: string[], maxBuffer: number, input?: string) => {
    const left = deadline - Date.now();
    if (left <= 0) return { ok: false as const, message: `git timed out after ${timeout} ms` };
    const r = spawnSync("git", [...SAFE_CONFIG, ...args], { env, timeout: left, maxBuffer, windowsHide: true, ...(input !== undefined ? { input } : {}) });
    if (r.error) {
      const code = (r.error as NodeJS.ErrnoException).code;
      const why = code === "ETIMEDOUT" ? `timed out after ${timeout} ms` : code === "ENOBUFS" ? "answered more than a pack may hold" : code === "ENOENT" ? "git is not installed" : r.error.message;
      return { ok: false as const, message: `git ${args[0] === "-C" ? args[2] : args[0]}: ${why}` };
    }
    if (r.status !== 0) return { ok: false as const, message: `git ${args[0] === "-C" ? args[2] : args[0]} failed: ${r.stderr.toString("utf8").trim().slice(0, 300) || `exit ${r.status}`}` };
    return { ok: true as const, out: r.stdout };
  };
  try {
    tmp = mkdtempSync(join(tmpdir(), "shepherd-pack-"));
    const init = git(["init", "-q", "--bare", tmp], 1 << 16);
    if (!init.ok) return init;
    const fetched = await watchedFetch([...SAFE_CONFIG, "-C", tmp, "fetch", "--depth=1", "--no-tags", "-q", url, commit], env, tmp, deadline, opts.maxFetchBytes ?? MAX_FETCH_BYTES);
    if (!fetched.ok) return { ok: false, message: fetched.message.includes("failed") ? `${fetched.message} (the server must allow fetching the commit ${commit} by its hash)` : fetched.message };
    const kind = git(["-C", tmp, "cat-file", "-t", commit], 1 << 10);
    if (!kind.ok) return kind;
    if (kind.out.toString("utf8").trim() !== "commit") return { ok: false, message: `${commit} is not a commit` };
    const listed = git(["-C", tmp, "ls-tree", "-r", "-l", "-z", "--full-tree", commit], 4 << 20);
    if (!listed.ok) return listed;
    const tree = parseTree(listed.out);
    if (typeof tree === "string") return { ok: false, message: tree };
    const kept: TreeEntry[] = [];
    let total = 0;
    for (const e of tree) {
      const segs = e.path.split("/");
      if (segs.some((s) => s === "node_modules" || s === ".git")) continue;
      if (!safeRelativePath(e.path)) return { ok: false, message: `${JSON.stringify(e.path)}: a file name a pack may not have` };
      if (e.mode === "120000") return { ok: false, message: `${e.path}: a symbolic link (a git pack holds regular files only)` };
      if (e.type !== "blob") return { ok: false, message: `${e.path}: a ${e.type === "commit" ? "submodule" : e.type} (a git pack holds regular files only)` };
      if (segs.length - 1 > MAX_PACK_DEPTH) return { ok: false, message: `${e.path}: folders nest deeper than ${MAX_PACK_DEPTH}` };
      if (e.size > MAX_RULE_FILE_BYTES) return { ok: false, message: `${e.path}: larger than a pack file may be` };
      total += e.size;
      kept.push(e);
    }
    if (kept.length > MAX_PACK_FILES) return { ok: false, message: `more than ${MAX_PACK_FILES} files` };
    if (total > MAX_PACK_BYTES) return { ok: false, message: `its files add up to more than a pack may hold` };
    const batch = git(["-C", tmp, "cat-file", "--batch"], total + kept.length * 128 + 1024, kept.map((e) => `${e.sha}\n`).join(""));
    if (!batch.ok) return batch;
    const blobs = parseBatch(batch.out, kept);
    if (typeof blobs === "string") return { ok: false, message: blobs };
    const files = kept.map((e, i) => ({ path: e.path, sha256: sha256(blobs[i] as Uint8Array), bytes: blobs[i] as Uint8Array }));
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { ok: true, files };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}
