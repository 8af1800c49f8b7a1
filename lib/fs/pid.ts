/** @module whether a process id is gone, the one test of a stale lock or temp file (same machine, same pid namespace). */

/** True only when `pid` is a valid id that no process has (ESRCH); a process of another user (EPERM) is alive. */
export function pidIsDead(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
