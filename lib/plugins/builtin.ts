/**
 * @module the bundled plugins (`plugins/*.ts`), imported statically so `bun build --compile` embeds them;
 * their `import ... from "shepherd:plugin"` resolves at build time through tsconfig `paths`.
 * Adding a file to plugins/ means adding it here (a unit test checks the two agree).
 */
import * as debugLeftovers from "../../plugins/debug-leftovers.ts";
import * as lineGuard from "../../plugins/line-guard.ts";
import * as testsRan from "../../plugins/tests-ran.ts";

export const BUILTIN_PLUGINS: readonly { file: string; module: unknown }[] = [
  { file: "plugins/debug-leftovers.ts", module: debugLeftovers },
  { file: "plugins/line-guard.ts", module: lineGuard },
  { file: "plugins/tests-ran.ts", module: testsRan },
];
