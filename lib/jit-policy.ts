/**
 * @module the JIT policy of the compiled binary. It starts with JavaScriptCore's tier-up thresholds scaled
 * up (scripts/build.ts, `--compile-jit-policy`): a hook process runs most of its code once, and compiling
 * the few loops that turn hot cost it ~2 ms of CPU (~0.3-0.5 ms of wall time on an idle machine, more on a
 * busy one) for code it then leaves. Everything that runs long or works hard puts the normal policy back:
 * the other faces and their workers at start, a hook on its slow paths (a large input, a rule load, plugins).
 */

type Unsafe = { setJITPolicy?: (scale: number) => void };

/** The scale the binary starts with (scripts/build.ts passes it to `bun build --compile`). */
export const STARTUP_JIT_POLICY = 1000;

let normal = false;

/** The normal JIT policy from now on, for this thread (a no-op where Bun's API is missing: Deno, Node, `bun run`). */
export function normalJitPolicy(): void {
  if (normal) return;
  normal = true;
  (globalThis as { Bun?: { unsafe?: Unsafe } }).Bun?.unsafe?.setJITPolicy?.(1);
}
