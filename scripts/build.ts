/** @module `npm run build`: regenerate embedded modules, then `bun build --compile` into dist/shepherd. */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { schemaText } from "../lib/cli/schema.ts";
import { renderBuiltinModule } from "./gen-embedded.ts";
import { STARTUP_JIT_POLICY } from "../lib/jit-policy.ts";

const root = join(import.meta.dir, "..");
writeFileSync(join(root, "lib/rules/builtin-rules.gen.ts"), renderBuiltinModule(root));
mkdirSync(join(root, "dist"), { recursive: true });
// The built-in rule files name this schema in `$schema`, so editors validate them in the repository.
writeFileSync(join(root, "dist/rules.schema.json"), schemaText());

const outfile = process.env.SHEPHERD_OUTFILE ?? join(root, "dist/shepherd");
const target = process.env.SHEPHERD_TARGET;
const args = [
  "build",
  "--compile",
  "--minify",
  "--format=esm",
  "--bytecode",
  "--compile-autoload-package-json",
  // Tier-up thresholds scaled for a hook's run-once code; every other face puts the normal policy back (lib/jit-policy.ts).
  `--compile-jit-policy=${STARTUP_JIT_POLICY}`,
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  ...(target ? [`--target=${target}`] : []),
  // The binary's entry runs hooks from its own bundle and imports main.ts for the other faces (lib/hook/entry.ts).
  join(root, "lib/hook/entry.ts"),
  join(root, "main.ts"),
  // Plugins run in a worker (so a hung plugin can be terminated): its entry point must be in the binary too.
  join(root, "lib/plugins/plugin-worker.ts"),
  // The hook's watchdog thread (lib/hook/watchdog.ts), likewise.
  join(root, "lib/hook/watchdog-worker.ts"),
  // The telemetry export thread of the long-running faces (lib/telemetry/worker-exporter.ts), likewise.
  join(root, "lib/telemetry/export-worker.ts"),
  // The OpenTelemetry SDK, imported by path on first export (lib/telemetry/load-exporter.ts): out of the hook's bundle.
  join(root, "lib/telemetry/otlp-exporter.ts"),
  join(root, "lib/telemetry/worker-exporter.ts"),
  // Packages a hook rarely needs, required by path on first use (lib/lazy-deps.ts): out of the hook's bundle.
  join(root, "lib/vendor/re2js.ts"),
  join(root, "lib/vendor/regexpp.ts"),
  join(root, "lib/vendor/jsonc-parser.ts"),
  "--outfile",
  outfile,
];
const res = spawnSync(process.execPath, args, { stdio: "inherit", cwd: root });
if (res.status !== 0) process.exit(res.status ?? 1);
process.stderr.write(`built ${outfile}\n`);
