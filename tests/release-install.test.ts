/**
 * @module Black-box: `npm run release` packs the binary as npm users expect a native tool: one package per
 * platform as optional dependencies of a main package. The packed packages install into a temp prefix,
 * the launcher runs this machine's binary, `init` names the binary itself, and pi 1.x installs the main
 * package as a pi package whose extension finds the platform binary.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN_PACKAGE, PLATFORM_PACKAGES, platformPackageFor } from "../pi-extension/platform-package.ts";
import { BUN_BIN, PiProject, ROOT, toolResults } from "./helpers/pi-harness.ts";
import { piVersions } from "./helpers/pi1-install.ts";

const host = platformPackageFor(process.platform, process.arch);
let work: string;
let prefix: string;
let tarballs: string[];

function npmGlobalRoot(): string {
  return process.platform === "win32" ? join(prefix, "node_modules") : join(prefix, "lib", "node_modules");
}

beforeAll(() => {
  if (!host) throw new Error(`no platform package for ${process.platform}-${process.arch}`);
  work = mkdtempSync(join(tmpdir(), "shepherd-release-"));
  const out = join(work, "release");
  const built = spawnSync(BUN_BIN, [join(ROOT, "scripts", "release.ts"), "--targets", `${host.os}-${host.cpu}`, "--out", out], { cwd: ROOT, encoding: "utf8", timeout: 240_000 });
  expect(built.status).toBe(0);
  tarballs = built.stdout.trim().split("\n");
  prefix = join(work, "prefix");
  // --offline: the tarballs are local, and the other platforms' optional packages are skipped, as npm skips them on a real install.
  const installed = spawnSync("npm", ["install", "--global", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", ...tarballs], { cwd: work, encoding: "utf8", timeout: 120_000 });
  if (installed.status !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
}, 400_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("npm run release", () => {
  it("should pack the host's platform package and the main package, whose optional dependencies name every platform", () => {
    expect(tarballs.map((t) => t.split("/").pop())).toEqual([`shepherd-guard-shepherd-${host?.os}-${host?.cpu}-0.1.0.tgz`, "shepherd-guard-shepherd-0.1.0.tgz"]);
    const main = JSON.parse(readFileSync(join(npmGlobalRoot(), MAIN_PACKAGE, "package.json"), "utf8"));
    expect(Object.keys(main.optionalDependencies).sort()).toEqual(PLATFORM_PACKAGES.map((p) => p.name).sort());
    expect(main.pi.extensions).toEqual(["./pi-extension/index.ts"]);
    const platform = JSON.parse(readFileSync(join(npmGlobalRoot(), host?.name ?? "", "package.json"), "utf8"));
    expect({ os: platform.os, cpu: platform.cpu }).toEqual({ os: [host?.os], cpu: [host?.cpu] });
    // Only this machine's binary was installed.
    expect(readdirSync(join(npmGlobalRoot(), "@shepherd-guard")).sort()).toEqual(["shepherd", `shepherd-${host?.os}-${host?.cpu}`]);
  });

  it("should run the installed binary through the launcher on PATH, with its arguments, stdin and exit status", () => {
    const bin = join(prefix, "bin", "shepherd");
    const version = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
    const project = join(work, "hook-project");
    mkdirSync(project, { recursive: true });
    const input = JSON.stringify({ session_id: "s1", transcript_path: "", cwd: project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf ~" } });
    const hook = spawnSync(bin, ["hook", "claude-code"], { input, encoding: "utf8", env: { ...process.env, HOME: work } });
    expect(hook.status).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const unknown = spawnSync(bin, ["no-such-face"], { encoding: "utf8" });
    expect(unknown.status).not.toBe(0);
  });

  it("should write the platform binary itself into an agent's hooks, not the node launcher", () => {
    const home = join(work, "home-init");
    mkdirSync(home, { recursive: true });
    const init = spawnSync(join(prefix, "bin", "shepherd"), ["init", "claude-code"], { cwd: home, encoding: "utf8", env: { ...process.env, HOME: home } });
    expect(init.status).toBe(0);
    const settings = readFileSync(join(home, ".claude", "settings.json"), "utf8");
    const native = realpathSync(join(npmGlobalRoot(), host?.name ?? "", "bin", host?.exe ?? ""));
    expect(settings).toContain(`${native} hook claude-code`);
    expect(settings).not.toContain("shepherd.cjs");
  });
});

// pi 1.x reads `pi.extensions` of an installed package: the extension runs from the main package and starts the platform binary.
describe.each(piVersions().filter((pi) => pi.modern).map((pi) => [pi.version, pi] as const))("pi %s installing the npm package", (_version, pi) => {
  it("should guard a session with the platform package's binary, found without SHEPHERD_BIN or PATH", async () => {
    const project = new PiProject(pi.bin);
    try {
      const pkg = join(npmGlobalRoot(), MAIN_PACKAGE);
      const env = { ...project.baseEnv(), SHEPHERD_BIN: undefined };
      // Nothing else could supply the binary: no shepherd on PATH.
      expect(spawnSync("sh", ["-c", "command -v shepherd"], { env }).status).not.toBe(0);
      const installed = spawnSync(pi.bin, ["install", pkg], { cwd: project.dir, encoding: "utf8", env });
      expect(installed.status).toBe(0);
      project.write("victim/keep.txt", "precious\n");
      project.rules([{ name: "no-rm", tool: "bash", action: "block", pattern: "rm -rf", reason: "no: {{command}}" }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] }, { text: "done" }]);
      const run = await project.run({ loadExtension: false, env: { SHEPHERD_BIN: undefined } });
      expect(run.code).toBe(0);
      expect(toolResults(run)[0]?.text).toContain("no: rm -rf victim");
      expect(project.read("victim/keep.txt")).toBe("precious\n");
    } finally {
      project.cleanup();
    }
  }, 180_000);
});

