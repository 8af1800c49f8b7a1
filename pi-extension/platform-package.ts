/**
 * @module The npm packages Shepherd's binary travels in: one per platform, picked at install as optional
 * dependencies of the main package (esbuild's and biome's way). Declared once: `npm run release` builds
 * from this table, writes it into the main package's launcher, and the pi extension resolves through it.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The main package: the launcher, the pi extension (a pi package), and the platform packages as optional dependencies. */
export const MAIN_PACKAGE = "@shepherd-guard/shepherd";

export interface PlatformPackage {
  /** `process.platform` and `process.arch` of the machines it serves (npm's `os` and `cpu`). */
  readonly os: "linux" | "darwin" | "win32";
  readonly cpu: "x64" | "arm64";
  /** Bun's cross-compilation target. */
  readonly bunTarget: string;
  readonly name: string;
  /** The binary's file name inside the package's `bin/`. */
  readonly exe: string;
}

function platform(os: PlatformPackage["os"], cpu: PlatformPackage["cpu"]): PlatformPackage {
  const bunOs = os === "win32" ? "windows" : os;
  return { os, cpu, bunTarget: `bun-${bunOs}-${cpu}`, name: `${MAIN_PACKAGE}-${os}-${cpu}`, exe: os === "win32" ? "shepherd.exe" : "shepherd" };
}

export const PLATFORM_PACKAGES: readonly PlatformPackage[] = [
  platform("linux", "x64"),
  platform("linux", "arm64"),
  platform("darwin", "x64"),
  platform("darwin", "arm64"),
  platform("win32", "x64"),
  platform("win32", "arm64"),
];

export function platformPackageFor(os: string, cpu: string): PlatformPackage | undefined {
  return PLATFORM_PACKAGES.find((p) => p.os === os && p.cpu === cpu);
}

/**
 * The binary of this machine's platform package, resolved from `fromFile` as Node resolves a dependency;
 * undefined when there is none (not installed from npm, or the optional dependency was left out).
 */
export function platformBinary(fromFile: string, os: string = process.platform, cpu: string = process.arch): string | undefined {
  const pkg = platformPackageFor(os, cpu);
  if (!pkg) return undefined;
  try {
    const manifest = createRequire(fromFile).resolve(`${pkg.name}/package.json`);
    const bin = join(dirname(manifest), "bin", pkg.exe);
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}
