/** @module an advisory lock file (O_EXCL) so two Shepherd writers never interleave a read-modify-write. */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

const STALE_MS = 10_000;

/** Runs `fn` holding `<file>.lock`; waits up to `waitMs`, breaking a lock older than 10 s (a crashed writer). */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, waitMs = 5_000): Promise<T> {
  const lock = `${file}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_MS || holderIsDead(lock)) rmSync(lock, { force: true });
      } catch {
        // The holder released it between our open and stat: just retry.
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * A lock whose holder process is gone (killed mid-write) is broken at once rather than after STALE_MS,
 * so the next write after a crash does not time out. Only for a holder on this machine: the pid is
 * meaningless elsewhere, and a lock being written (empty) is treated as alive.
 */
function holderIsDead(lock: string): boolean {
  const pid = Number(readFileSync(lock, "utf8"));
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
