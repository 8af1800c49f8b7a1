/**
 * @module the one atomic file writer: a temp file in the target's folder, every byte checked, fsync, rename.
 * A reader sees the old file or the new one, never a part; on any failure the old file stays as it was.
 */
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { pidIsDead } from "./pid.ts";

export type AtomicWriteResult =
  | { ok: true }
  /** `conflict`: `beforeRename` called the write off; `error`: the file system refused (the reason says why). */
  | { ok: false; kind: "conflict" | "error"; reason: string; code?: string };

export interface AtomicWriteOptions {
  /** The mode of a new file; an existing file keeps its own mode. */
  mode?: number;
  /** The mode of folders created on the way. */
  dirMode?: number;
  /**
   * Whether the data must survive a power cut (fsync of the file before the rename, of the folder after).
   * Only caches and counters that are rebuilt when lost may turn it off to keep a hook fast.
   */
  durable?: boolean;
  /**
   * Runs once the temp file is complete on disk and may call the write off (returns false): a
   * compare-and-swap done there leaves only the rename between the check and the new content.
   */
  beforeRename?: () => boolean;
  /**
   * Whether temp files of dead writers are looked for first (a scan of the folder). A folder that is pruned
   * by age anyway, on a hook's hot path, may skip it.
   */
  removeStale?: boolean;
  /**
   * Moves the file being replaced to this path (in the same folder) instead of renaming over it; its
   * readers read this path when they find no file (the moment between the two renames, or a crash in it).
   * On ext4 a rename over an existing file first writes out the new file's data (auto_da_alloc): 0.3 ms at
   * best, several under write load, on a hook's path. Renames onto names that do not exist do not.
   */
  previous?: string;
}

const TEMP_SUFFIX = ".tmp";
let counter = 0;

function errorOf(err: unknown, path: string): AtomicWriteResult {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, kind: "error", reason: `cannot write ${path}: ${message}`, ...(code ? { code } : {}) };
}

/** The temp files of `name` in `dir` carry their writer's pid: `.<name>.<pid>.<n>.tmp`. */
function tempPrefix(name: string): string {
  return `.${name}.`;
}

/**
 * Removes temp files of `name` left by writers that died mid-write (killed, out of memory, SIGXFSZ where it
 * is fatal): their pid is no longer alive. A live writer's temp file is left to it.
 */
export function removeStaleTemps(dir: string, name: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const prefix = tempPrefix(name);
  let removed = 0;
  for (const n of names) {
    if (!n.startsWith(prefix) || !n.endsWith(TEMP_SUFFIX)) continue;
    const pid = Number(n.slice(prefix.length).split(".")[0]);
    if (pid === process.pid || !pidIsDead(pid)) continue;
    try {
      rmSync(join(dir, n), { force: true });
      removed++;
    } catch {
      // Another writer cleaned it up first.
    }
  }
  return removed;
}

/** Writes all of `bytes` to `fd`; a write that makes no progress is a failure, never a silent truncation. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const n = writeSync(fd, bytes, offset, bytes.length - offset);
    if (!(n > 0)) throw Object.assign(new Error(`short write: ${offset} of ${bytes.length} bytes`), { code: "EIO" });
    offset += n;
  }
}

function syncDir(dir: string): void {
  // Makes the rename itself durable; some file systems refuse fsync on a folder, which is no reason to fail.
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort
  }
}

/** `tmp` becomes `path`, the file it replaces `previous` (an older one there is dropped); none is renamed over. */
function replaceKeepingPrevious(tmp: string, path: string, previous: string): void {
  let moved = false;
  try {
    rmSync(previous, { force: true });
    renameSync(path, previous);
    moved = true;
  } catch {
    // No file to move aside (a first write), or something not ours holds the aside name: the plain rename.
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    // The old file goes back where it was: a failed write leaves it as it found it.
    if (moved) {
      try {
        renameSync(previous, path);
      } catch {
        // Its readers find it at `previous`.
      }
    }
    throw err;
  }
}

/** Replaces `path` with `data`. Never throws: a failure is reported, the old file is untouched, the temp file gone. */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): AtomicWriteResult {
  const dir = dirname(path);
  const name = basename(path);
  const durable = opts.durable ?? true;
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  try {
    mkdirSync(dir, { recursive: true, ...(opts.dirMode !== undefined ? { mode: opts.dirMode } : {}) });
  } catch (err) {
    return errorOf(err, path);
  }
  if (opts.removeStale ?? true) removeStaleTemps(dir, name);
  let keepMode: number | undefined;
  try {
    keepMode = statSync(path).mode & 0o7777;
  } catch {
    // A new file: the requested mode, under the umask.
  }
  const tmp = join(dir, `${tempPrefix(name)}${process.pid}.${Date.now().toString(36)}${(counter++).toString(36)}${TEMP_SUFFIX}`);
  let fd: number | undefined;
  try {
    // Exclusive: a temp name that exists (a symlink planted there included) is never written through.
    fd = openSync(tmp, "wx", keepMode ?? opts.mode ?? 0o644);
    if (keepMode !== undefined) fchmodSync(fd, keepMode);
    writeAll(fd, bytes);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (opts.beforeRename && !opts.beforeRename()) {
      rmSync(tmp, { force: true });
      return { ok: false, kind: "conflict", reason: `${path} changed while the write was prepared` };
    }
    if (opts.previous === undefined) renameSync(tmp, path);
    else replaceKeepingPrevious(tmp, path, opts.previous);
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already closed or never usable
      }
    }
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing more can be done; the next write removes it once this process is gone.
    }
    return errorOf(err, path);
  }
  if (durable) syncDir(dir);
  return { ok: true };
}
