/**
 * @module the one advisory lock file (`<file>.lock`, O_EXCL) that serializes Shepherd's read-modify-writes.
 * The lock holds its owner's pid. A lock is stale, and broken at once rather than waited out, when that pid
 * is gone, or when it is empty or unreadable for longer than a writer needs to put its pid there (the owner
 * died between create and write, or the disk was full). A live owner is waited for; the caller decides what a
 * timeout means (a rule write fails, a hook goes on without the lock).
 */
import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmdirSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { writeAll } from "./atomic-write.ts";
import { pidIsDead } from "./pid.ts";

export interface LockOptions {
  /** How long to wait for a live owner. */
  waitMs?: number;
  /** An empty or unparsable lock younger than this is an owner still writing its pid. */
  emptyGraceMs?: number;
  /**
   * A lock older than this is broken even though its pid is alive: after a crash the pid may have been
   * given to an unrelated process, and no Shepherd write holds a lock this long.
   */
  maxAgeMs?: number;
  now?: () => number;
}

export type LockResult = { ok: true; release: () => void } | { ok: false; timedOut: boolean; reason: string };

export const LOCK_DEFAULTS = { waitMs: 5_000, emptyGraceMs: 1_000, maxAgeMs: 30_000 } as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type Holder = { ino: number; pid: number | undefined; ageMs: number };

function readHolder(lock: string, now: number): Holder | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(lock);
  } catch {
    return undefined;
  }
  // Not a file Shepherd made (a symlink, a FIFO, a folder planted there): never opened, broken after the grace.
  if (!st.isFile()) return { ino: st.ino, pid: undefined, ageMs: now - st.mtimeMs };
  let fd: number;
  try {
    fd = openSync(lock, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const opened = fstatSync(fd);
    // A pid is a few digits: a lock file is never read past 32 bytes, whatever is planted there.
    const buf = Buffer.alloc(32);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString("utf8");
    const pid = /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : undefined;
    return { ino: opened.ino, pid, ageMs: now - opened.mtimeMs };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Why `holder` no longer owns its lock, or undefined while it may. */
export function staleReason(holder: Holder, opts: Required<Pick<LockOptions, "emptyGraceMs" | "maxAgeMs">>): string | undefined {
  if (holder.pid === undefined) return holder.ageMs > opts.emptyGraceMs ? "empty or unreadable" : undefined;
  if (holder.pid !== process.pid && pidIsDead(holder.pid)) return `owner ${holder.pid} is gone`;
  if (holder.ageMs > opts.maxAgeMs) return `held for ${Math.round(holder.ageMs)} ms`;
  return undefined;
}

/**
 * Breaks `lock` if it is still the one judged stale. It is moved aside first, so of several waiters only
 * one takes it; a lock that turns out to be a new owner's (same name, other inode) is put back.
 */
function breakLock(lock: string, judged: Holder): void {
  const aside = `${lock}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // someone else broke or released it
  }
  try {
    if (lstatSync(aside).ino !== judged.ino) linkSync(aside, lock);
  } catch {
    // A third writer already holds the name: that one owns the lock now.
  }
  try {
    if (lstatSync(aside).isDirectory()) rmdirSync(aside);
    else rmSync(aside, { force: true });
  } catch {
    // A planted folder with content is left aside (renamed): it no longer blocks the lock.
  }
}

/** What tells this owner's lock file from a later one that got the same name (and maybe the same inode). */
type Identity = { ino: number; mtimeMs: number };

function sameLock(lock: string, id: Identity): boolean {
  try {
    const st = statSync(lock);
    return st.ino === id.ino && st.mtimeMs === id.mtimeMs && readFileSync(lock, "utf8") === String(process.pid);
  } catch {
    return false;
  }
}

function tryCreate(lock: string): { ok: true; id: Identity } | { ok: false; exists: boolean; reason: string } {
  let fd: number;
  try {
    fd = openSync(lock, "wx", 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, exists: code === "EEXIST", reason: err instanceof Error ? err.message : String(err) };
  }
  try {
    writeAll(fd, Buffer.from(String(process.pid)));
    const { ino, mtimeMs } = fstatSync(fd);
    closeSync(fd);
    return { ok: true, id: { ino, mtimeMs } };
  } catch (err) {
    // A full disk: an empty lock must not be left for others to wait on.
    try {
      closeSync(fd);
      rmSync(lock, { force: true });
    } catch {
      // Left empty: others break it after the grace.
    }
    return { ok: false, exists: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Takes `<file>.lock`. The returned release removes it only while it is still this owner's. */
export async function acquireLock(file: string, opts: LockOptions = {}): Promise<LockResult> {
  const lock = `${file}.lock`;
  const now = opts.now ?? Date.now;
  const policy = { emptyGraceMs: opts.emptyGraceMs ?? LOCK_DEFAULTS.emptyGraceMs, maxAgeMs: opts.maxAgeMs ?? LOCK_DEFAULTS.maxAgeMs };
  const deadline = now() + (opts.waitMs ?? LOCK_DEFAULTS.waitMs);
  try {
    mkdirSync(dirname(lock), { recursive: true });
  } catch (err) {
    return { ok: false, timedOut: false, reason: `cannot lock ${lock}: ${err instanceof Error ? err.message : String(err)}` };
  }
  let delay = 1;
  // A lock just broken or released is retried at once, but only once in a row: a lock that cannot be broken
  // (a folder we may not write) must not spin past the deadline.
  let retryNow = false;
  for (;;) {
    const created = tryCreate(lock);
    if (created.ok) {
      const release = () => {
        // A lock broken as stale and taken by another owner is that owner's now: only our own is removed.
        if (sameLock(lock, created.id)) rmSync(lock, { force: true });
      };
      return { ok: true, release };
    }
    if (!created.exists) return { ok: false, timedOut: false, reason: `cannot lock ${lock}: ${created.reason}` };
    const holder = readHolder(lock, now());
    const stale = holder !== undefined && staleReason(holder, policy) !== undefined;
    if (holder !== undefined && stale) breakLock(lock, holder);
    if ((holder === undefined || stale) && !retryNow) {
      retryNow = true;
      continue;
    }
    retryNow = false;
    if (now() > deadline) return { ok: false, timedOut: true, reason: `timed out waiting for ${lock} (held by pid ${holder?.pid ?? "unknown"})` };
    await sleep(delay);
    delay = Math.min(delay * 2, 25);
  }
}

export type LockedResult<T> = { ok: true; value: T } | { ok: false; timedOut: boolean; reason: string };

/** Runs `fn` holding `<file>.lock`, releasing it however `fn` ends. */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, opts: LockOptions = {}): Promise<LockedResult<T>> {
  const lock = await acquireLock(file, opts);
  if (!lock.ok) return lock;
  try {
    return { ok: true, value: await fn() };
  } finally {
    lock.release();
  }
}
