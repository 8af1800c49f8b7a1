/**
 * @module `npm run release [-- --targets linux-x64,darwin-arm64] [--out dir]`: cross-compiles the binary
 * for every platform with Bun, writes one npm package per platform plus the main package, and packs them.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PLATFORM_PACKAGES, type PlatformPackage } from "../pi-extension/platform-package.ts";
import { launcherText, mainManifest, packageReadme, platformManifest } from "./release-manifests.ts";

const root = join(import.meta.dir, "..");

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fail(message: string): never {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const res = spawnSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (res.status !== 0) fail(`${cmd} ${args.join(" ")} exited ${res.status ?? res.signal}`);
  return res.stdout;
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

const version: unknown = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
if (typeof version !== "string") fail("package.json has no version");
const out = resolve(option("--out") ?? join(root, "dist", "release"));
const wanted = option("--targets")?.split(",").map((t) => t.trim()).filter((t) => t !== "");
const targets: PlatformPackage[] = wanted
  ? wanted.map((key) => PLATFORM_PACKAGES.find((p) => `${p.os}-${p.cpu}` === key) ?? fail(`unknown target ${key} (known: ${PLATFORM_PACKAGES.map((p) => `${p.os}-${p.cpu}`).join(", ")})`))
  : [...PLATFORM_PACKAGES];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const tarballs: string[] = [];
const pack = (dir: string): void => {
  const name = run(npm, ["pack", "--silent", "--pack-destination", out], dir).trim().split("\n").pop() ?? "";
  tarballs.push(join(out, name));
};

for (const p of targets) {
  const dir = join(out, "packages", `${p.os}-${p.cpu}`);
  mkdirSync(join(dir, "bin"), { recursive: true });
  const binary = join(dir, "bin", p.exe);
  process.stderr.write(`release: ${p.bunTarget} -> ${binary}\n`);
  run(process.execPath, [join(root, "scripts", "build.ts")], root, { ...process.env, SHEPHERD_TARGET: p.bunTarget, SHEPHERD_OUTFILE: binary });
  chmodSync(binary, 0o755);
  writeJson(join(dir, "package.json"), platformManifest(p, version));
  writeFileSync(join(dir, "README.md"), `The ${p.os}-${p.cpu} binary of Shepherd, installed by its main package.\n`);
  pack(dir);
}

const main = join(out, "packages", "main");
mkdirSync(join(main, "bin"), { recursive: true });
mkdirSync(join(main, "pi-extension"), { recursive: true });
writeFileSync(join(main, "bin", "shepherd.cjs"), launcherText());
chmodSync(join(main, "bin", "shepherd.cjs"), 0o755);
for (const f of readdirSync(join(root, "pi-extension"))) {
  if (f.endsWith(".ts") && !f.endsWith(".test.ts")) copyFileSync(join(root, "pi-extension", f), join(main, "pi-extension", f));
}
writeJson(join(main, "package.json"), mainManifest(version));
writeFileSync(join(main, "README.md"), packageReadme(version));
pack(main);

process.stdout.write(`${tarballs.join("\n")}\n`);
