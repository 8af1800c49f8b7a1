/**
 * @module per-session state on disk, so counters and `has_edits` survive across the separate hook processes
 * of one agent session. A lock file serializes concurrent hooks of a session (parallel tool calls); the state
 * itself is replaced by rename, so a reader never sees half a file even if a lock is ever broken.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type AtomicWriteResult, writeFileAtomic } from "../fs/atomic-write.ts";
import { acquireLock } from "../fs/lock.ts";
import { guardedParse } from "../engine/guard-kit.ts";
import { emptyState, isExactSessionState, type SessionState, SessionStateSchema } from "../engine/state.ts";
import { agentDir, type Env } from "../rules/paths.ts";
import { textHash } from "../hash.ts";
import { MAX_STATE_BYTES, readBounded } from "../fs/bounded-read.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../json-depth.ts";

export function sessionStateDir(env: Env): string {
  return join(agentDir(env), "shepherd", "sessions");
}

/** A file name that cannot escape the folder whatever the agent sends as a session id. */
export function stateFileName(agent: string, sessionId: string): string {
  const safe = /^[A-Za-z0-9._-]{1,128}$/.test(sessionId) && !sessionId.startsWith(".") ? sessionId : `h${textHash(sessionId)}`;
  return `${agent}-${safe}.json`;
}

/**
 * Where a state file's version before the last write is (see writeStateFile): read when the file itself is
 * missing, removed with it. Hidden and not `.json`, so it is never taken for a session's state file.
 */
export function previousStateFile(file: string): string {
  return join(dirname(file), `.${basename(file)}.prev`);
}

export interface StateFileOptions {
  /** A lock older than this is taken over even though its pid lives (the pid was reused); a dead pid's at once. */
  staleLockMs?: number;
  /** How long to wait for the lock before going on without it (an agent must never hang on Shepherd). */
  lockTimeoutMs?: number;
  now?: () => number;
}

/** Bounded like every file under the home folder: one that is not regular, too large or too deep restarts the counters. */
export function readStateFile(file: string, now = Date.now()): SessionState {
  let read = readBounded(file, MAX_STATE_BYTES);
  // Between a write's two renames, or after a crash there, the state is the version before it.
  if (!read.ok && read.reason === "missing") read = readBounded(previousStateFile(file), MAX_STATE_BYTES);
  if (!read.ok || jsonDepthProblem(read.text, MAX_JSON_DEPTH)) return emptyState(now);
  const text = read.text;
  try {
    const parsed = guardedParse(isExactSessionState, SessionStateSchema, JSON.parse(text));
    // A corrupt or older-format file restarts the counters rather than failing the hook.
    return parsed.success ? parsed.output : emptyState(now);
  } catch {
    return emptyState(now);
  }
}

/**
 * Temp file + rename, every byte checked; not durable: losing a counter in a power cut is harmless, a slow
 * hook is not. A write that fails (full disk) leaves the previous state and is reported. The file replaced is
 * moved aside rather than renamed over (on ext4 that rename waits for the new file's data to be written out).
 */
export function writeStateFile(file: string, state: SessionState): AtomicWriteResult {
  // The sessions folder is pruned by age at each session start (pruneStateFiles), a dead hook's temp file included.
  return writeFileAtomic(file, JSON.stringify(state), { durable: false, removeStale: false, previous: previousStateFile(file) });
}

/** Deletes a session's state, its previous version first (so a crash in between leaves the latest, as before). */
export function removeStateFile(file: string): void {
  rmSync(previousStateFile(file), { force: true });
  rmSync(file, { force: true });
}

/**
 * Runs `fn` on the session's state under the session's lock and saves what it leaves behind.
 * `remove` deletes the state instead (the session ended).
 */
export async function withSessionState<T>(
  dir: string,
  agent: string,
  sessionId: string,
  fn: (state: SessionState) => T | Promise<T>,
  opts: StateFileOptions & { remove?: boolean } = {},
): Promise<T> {
  const now = opts.now ?? Date.now;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, stateFileName(agent, sessionId));
  const lock = await acquireLock(file, { maxAgeMs: opts.staleLockMs ?? 10_000, waitMs: opts.lockTimeoutMs ?? 2_000, now });
  // A hook must never hang on Shepherd's own bookkeeping: without the lock, a parallel call may lose a count.
  if (!lock.ok) process.stderr.write(`shepherd: session state ${file}: ${lock.reason}; going on without the lock\n`);
  try {
    const state = readStateFile(file, now());
    const result = await fn(state);
    state.lastSeen = now();
    if (opts.remove) removeStateFile(file);
    else {
      const written = writeStateFile(file, state);
      if (!written.ok) process.stderr.write(`shepherd: session state not saved: ${written.reason}\n`);
    }
    return result;
  } finally {
    if (lock.ok) lock.release();
  }
}

/** Drops state files of sessions idle longer than `maxAgeMs` (sessions killed without a SessionEnd). */
export function pruneStateFiles(dir: string, maxAgeMs: number, now = Date.now()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > maxAgeMs) {
        rmSync(file, { force: true });
        removed++;
      }
    } catch {
      // vanished meanwhile
    }
  }
  return removed;
}
