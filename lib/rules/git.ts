/** @module `git_uncommitted`: a bounded `git status --porcelain` in the session's cwd, cached briefly. */

const CACHE_MS = 500;

/** Returns a check that never rejects: a missing git, a non-repository or a timeout count as "no changes". */
export function createGitCheck(timeoutMs: () => number): (cwd: string) => Promise<boolean> {
  const cache = new Map<string, { at: number; value: Promise<boolean> }>();
  return (cwd) => {
    const hit = cache.get(cwd);
    const now = Date.now();
    if (hit && now - hit.at < CACHE_MS) return hit.value;
    // node:child_process is imported on first use: loading it costs a hook process ~0.5 ms, and few rules ask git.
    const value = import("node:child_process").then(
      ({ execFile }) =>
        new Promise<boolean>((resolve) => {
          execFile(
            "git",
            ["status", "--porcelain", "--untracked-files=normal"],
            { cwd, timeout: timeoutMs(), maxBuffer: 1 << 20, windowsHide: true },
            (err, stdout) => resolve(!err && stdout.trim().length > 0),
          );
        }),
      () => false,
    );
    cache.set(cwd, { at: now, value });
    if (cache.size > 256) cache.delete(cache.keys().next().value ?? "");
    return value;
  };
}
