/** @module file-name globs, one place: only `*` is special, and it never crosses a `/`. */

/** `shepherd-rules-*.json` -> a RegExp matching whole file names. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return new RegExp(`^${body}$`);
}
