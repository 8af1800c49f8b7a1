/**
 * @module the compiled binary's entry point: `hook` goes to its own bundle, everything else to main.ts.
 * In one bundle, a hook process paid ~2 ms of start-up for the bytecode of every other face (HTTP
 * server, dashboard, schema, authoring commands) before its first line ran. From source, run main.ts.
 */
import { writeSync } from "node:fs";

// Inside the binary the other entry points sit at their repository paths; from source, next to this file.
const compiled = import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN");
const at = (inBinary: string, fromHere: string) => (compiled ? inBinary : new URL(fromHere, import.meta.url).href);

const argv = process.argv.slice(2);
// `hook --help` is answered by main.ts with the other faces' help.
if (argv[0] === "hook" && argv[1] !== "--help" && argv[1] !== "-h") {
  const face = (await import(at("./lib/cli/hook-face.ts", "./hook-face.ts"))) as typeof import("./hook-face.ts");
  face.runHookFace(argv[1] ?? "", process.env, process.cwd()).then(
    (code) => process.exit(code),
    (err: unknown) => {
      writeSync(2, `shepherd error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(70);
    },
  );
} else {
  await import(at("./main.ts", "../../main.ts"));
}
