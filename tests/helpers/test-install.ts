/**
 * @module TEST-ONLY: npm packages the e2e suite installs on first use, once per machine, under `.tmp/`
 * (gitignored), each in a folder of its own: packages whose optional platform dependencies the registry
 * may not hold for every platform (npm ci refuses a lock file without them), or whose bins would shadow
 * the project's own (pi 1.x's `pi`, Node 22's `node`). Parallel test files take turns through a lock
 * folder (mkdir is atomic); a lock left by a killed run is taken over once it is old.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";


const LOCK_STALE_MS = 10 * 60_000;
const WAIT_LIMIT_MS = 15 * 60_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function lockTime(lock: string): number {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** Installs one package into `<dir>/<name>` through a staging folder, so a folder that exists is whole. */
export function installInto(dir: string, name: string, spec: string, packageJson: Record<string, unknown>): void {
  const target = join(dir, name);
  if (existsSync(target)) return;
  const staging = join(dir, `${name}.partial-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, "package.json"), `${JSON.stringify(packageJson)}\n`);
  const res = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", spec], { cwd: staging, encoding: "utf8", timeout: 10 * 60_000 });
  if (res.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${spec} failed (${String(res.status ?? res.error)}):\n${res.stderr}`);
  }
  renameSync(staging, target);
}

/** Runs `install` under `<dir>/install.lock` unless `ready()` already holds; waits for another process's install. */
export function withInstallLock(dir: string, ready: () => boolean, install: () => void): void {
  if (ready()) return;
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, "install.lock");
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (ready()) return;
      if (Date.now() - lockTime(lock) > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`gave up waiting for ${lock}`);
      else sleepSync(500);
    }
  }
  try {
    if (!ready()) install();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
