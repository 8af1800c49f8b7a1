/**
 * @module names of the environment variables a line sets for each of its commands (`HOME=/tmp/x pi`, `env X=1`,
 * `export X=1;` before it), kept beside the commands rather than on them: most commands carry none, and a property
 * only some have would give the hot shell objects two shapes.
 */
import type { SimpleCommand } from "./types.ts";

const names = new WeakMap<SimpleCommand, readonly string[]>();

/** Variables set for `cmd` on its line; values are not kept: a rule asks which variables are moved, not where to. */
export function envOf(cmd: SimpleCommand): readonly string[] | undefined {
  return names.get(cmd);
}

export function setEnv(cmd: SimpleCommand, list: readonly string[]): void {
  if (list.length > 0) names.set(cmd, list);
}
