/**
 * @module where a module that is an entry point of its own in the compiled binary (scripts/build.ts) is found:
 * inside the binary by its repository path from the bundle root, from source beside its caller. The specifier
 * is computed, so the bundler leaves the module (and every runtime module it imports) out of its caller's
 * bundle: without a code-split, what a bundled `import()` names is evaluated lazily, but its `node:` imports
 * are hoisted and run at every start (lib/hook/entry.test.ts checks the compiled layout).
 */

/** True inside a `bun build --compile` binary, whose modules live under a virtual root. */
export function isCompiled(callerUrl: string): boolean {
  return callerUrl.includes("/$bunfs/") || callerUrl.includes("~BUN");
}

/**
 * `repoPath`: the module's path from the repository root (as build.ts names the entry point);
 * `fromCaller`: the same module relative to the caller's file, for runs from source.
 */
export function bundledModule(callerUrl: string, repoPath: string, fromCaller: string): string {
  return isCompiled(callerUrl) ? `./${repoPath}` : new URL(fromCaller, callerUrl).href;
}

const bunFileUrlToPath = (globalThis as { Bun?: { fileURLToPath(url: URL): string } }).Bun?.fileURLToPath;

/**
 * The same, as `require` takes it: a path from the bundle root inside the binary, a file path from source.
 * Only Bun has `require` in ES modules (lib/lazy-deps.ts), so Bun's own converter, not node:url's module.
 */
export function bundledModulePath(callerUrl: string, repoPath: string, fromCaller: string): string {
  if (isCompiled(callerUrl)) return `./${repoPath}`;
  const url = new URL(fromCaller, callerUrl);
  return bunFileUrlToPath ? bunFileUrlToPath(url) : decodeURIComponent(url.pathname);
}
