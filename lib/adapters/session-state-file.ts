/**
 * @module per-session state on disk, so counters and `has_edits` survive across the separate hook processes
 * of one agent session. A lock file serializes concurrent hooks of a session (parallel tool calls); the state
 * itself is replaced by rename, so a reader never sees half a file even if a lock is ever broken.
 */
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
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

export interface StateFileOptions {
  /** A lock older than this is left over from a crashed hook and is taken over. */
  staleLockMs?: number;
  /** How long to wait for the lock before going on without it (an agent must never hang on Shepherd). */
  lockTimeoutMs?: number;
  now?: () => number;
}

/** Bounded like every file under the home folder: one that is not regular, too large or too deep restarts the counters. */
export function readStateFile(file: string, now = Date.now()): SessionState {
  const read = readBounded(file, MAX_STATE_BYTES);
  if (!read.ok || jsonDepthProblem(read.text, MAX_JSON_DEPTH)) return emptyState(now);
  const text = read.text;
  try {
    const parsed = guardedParse(isExactSessionState, SessionStateSchema(), JSON.parse(text));
    // A corrupt or older-format file restarts the counters rather than failing the hook.
    return parsed.success ? parsed.output : emptyState(now);
  } catch {
    return emptyState(now);
  }
}

let tmpCounter = 0;

/** Temp file + rename; no fsync: losing a counter in a power cut is harmless, a slow hook is not. */
export function writeStateFile(file: string, state: SessionState): void {
  const tmp = `${file}.${process.pid}.${tmpCounter++}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(state));
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function acquireLock(lock: string, opts: Required<Pick<StateFileOptions, "staleLockMs" | "lockTimeoutMs" | "now">>): Promise<boolean> {
  const start = opts.now();
  let delay = 1;
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    try {
      if (opts.now() - statSync(lock).mtimeMs > opts.staleLockMs) {
        // Move it aside first: of several waiters, only one rename succeeds.
        const aside = `${lock}.${process.pid}.stale`;
        renameSync(lock, aside);
        rmSync(aside, { force: true });
        continue;
      }
    } catch {
      continue; // the holder released it between our open and stat
    }
    if (opts.now() - start > opts.lockTimeoutMs) return false;
    await sleep(delay);
    delay = Math.min(delay * 2, 20);
  }
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
  const lock = `${file}.lock`;
  const locked = await acquireLock(lock, { staleLockMs: opts.staleLockMs ?? 10_000, lockTimeoutMs: opts.lockTimeoutMs ?? 2_000, now });
  if (!locked) process.stderr.write(`shepherd: session state ${file} stayed locked; going on without the lock\n`);
  try {
    const state = readStateFile(file, now());
    const result = await fn(state);
    state.lastSeen = now();
    if (opts.remove) rmSync(file, { force: true });
    else writeStateFile(file, state);
    return result;
  } finally {
    if (locked) {
      try {
        unlinkSync(lock);
      } catch {
        // already taken over as stale: nothing to release
      }
    }
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
