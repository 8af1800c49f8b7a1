/** @module the side-by-side bench scripts' command line: numeric `--flag N` options taken out, binaries left. */

/** Takes `--name N` out of `args` (mutated), or gives `fallback` when it is absent. */
export function takeNumber(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i === -1) return fallback;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
}
