/**
 * @module regexes built from joined parts (`new RegExp(...)` of a shared list) on their first use instead of at
 * import. A literal regex comes parsed with the binary's bytecode; one built at run time is parsed by every
 * process that imports its module, and a hook process imports the whole shell model to test one command line
 * that needs few of them.
 */

/** The regex `make` builds, made on the first call and the same object after. */
export function onFirstUse(make: () => RegExp): () => RegExp {
  let re: RegExp | undefined;
  return () => (re ??= make());
}

/** A regex's `test` and `exec`, the regex made on the first of them: a drop-in for a module constant used only so. */
export interface LazyMatcher {
  test(text: string): boolean;
  exec(text: string): RegExpExecArray | null;
}

export function lazyMatcher(make: () => RegExp): LazyMatcher {
  const re = onFirstUse(make);
  return { test: (text) => re().test(text), exec: (text) => re().exec(text) };
}
