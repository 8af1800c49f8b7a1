/**
 * @module the user's home folder when `$HOME` is not set. node:os is not imported at start: evaluating it
 * cost every hook process ~0.3 ms, and a hook nearly always has `$HOME`.
 */

type Os = typeof import("node:os");

/** `os.homedir()`, with node:os loaded on this first use (Bun, Node 22.3+ and Deno have getBuiltinModule). */
export function systemHomedir(): string {
  const os = process.getBuiltinModule?.("node:os") as Os | undefined;
  return os ? os.homedir() : (process.env.HOME ?? process.env.USERPROFILE ?? "/");
}
