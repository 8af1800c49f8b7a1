/**
 * @module the compiled binary's entry point: `hook` runs the hook face, bundled here; everything else goes
 * to main.ts, imported on demand (in one bundle with main.ts, a hook process paid for the bytecode of every
 * other face). No top-level await: a module with one does not load from the binary's bytecode, and a hook
 * would parse its whole bundle first (~1 ms measured on a 200 KB bundle). From source, run main.ts.
 */
import { writeSync } from "node:fs";
import { bundledModule } from "../bundled-module.ts";
import { runHookFace } from "./face.ts";

// The hook's deadline counts from here: module evaluation is the first thing the process does.
const startedAt = Date.now();

// build.ts makes main.ts an entry point of its own: a computed specifier keeps it out of the hook's bundle.
const mainModule = bundledModule(import.meta.url, "main.ts", "../../main.ts");

const fail = (err: unknown): never => {
  writeSync(2, `shepherd error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(70);
};

const argv = process.argv.slice(2);
// `hook --help` is answered by main.ts with the other faces' help.
if (argv[0] === "hook" && argv[1] !== "--help" && argv[1] !== "-h") {
  // `hook <agent>` or `hook --agent <agent>`.
  const agent = argv[1] === "--agent" ? argv[2] : argv[1];
  runHookFace(agent ?? "", process.env, process.cwd(), startedAt).then((code) => process.exit(code), fail);
} else {
  import(mainModule).catch(fail);
}
