/**
 * @module isolated runs of the real OpenCode CLI against the fake OpenAI-compatible server: its config, data,
 * cache and state folders all under the sandbox, the models.dev catalogue never fetched (the custom provider
 * is declared in full), no autoupdate, no default plugins, no LSP downloads, no share, and no npm install of
 * `@opencode-ai/plugin` into the config folder (see `markPluginDepsInstalled`).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { REPO, type Sandbox } from "./agent-sandbox.ts";
import { installInto, withInstallLock } from "./test-install.ts";

export const OPENCODE_SPEC = "opencode-ai@1.18.33";

/** Where OpenCode is installed on first use; `SHEPHERD_OPENCODE_DIR` points elsewhere (a cache shared by clones). */
export function opencodeDir(env: Record<string, string | undefined> = process.env): string {
  return resolve(env.SHEPHERD_OPENCODE_DIR ?? join(REPO, ".tmp", "opencode"));
}

function platformBinary(dir: string): string | undefined {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const os = process.platform === "win32" ? "windows" : process.platform;
  const exe = os === "windows" ? "opencode.exe" : "opencode";
  for (const pkg of [`opencode-${os}-${arch}`, `opencode-${os}-${arch}-baseline`, `opencode-${os}-${arch}-musl`]) {
    const p = join(dir, "node_modules", pkg, "bin", exe);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * The real OpenCode CLI, installed from the npm registry on first use into `.tmp/opencode/` (not a
 * devDependency: `opencode-ai` lists a platform package for every platform as an optional dependency, and
 * `npm ci` refuses a lock file that lacks one the registry does not hold). OpenCode ships its native binary
 * in that platform package; `opencode-ai`'s own bin is a copy its postinstall makes, which an install
 * without scripts never does. The platform package's binary works either way.
 */
export function opencodeBin(): string {
  const root = opencodeDir();
  const pkgDir = join(root, "opencode118");
  withInstallLock(root, () => platformBinary(pkgDir) !== undefined, () => installInto(root, "opencode118", OPENCODE_SPEC, { name: "shepherd-test-opencode", private: true }));
  const bin = platformBinary(pkgDir);
  if (!bin) throw new Error(`${OPENCODE_SPEC} installed into ${pkgDir} has no binary for ${process.platform}-${process.arch}`);
  return bin;
}

export const OPENCODE_MODEL = "fake/fake-model";

/** The sandbox's XDG config folder; OpenCode's user config is `<it>/opencode/`. */
export function xdgConfig(sb: Sandbox): string {
  return join(sb.home, ".config");
}

/**
 * OpenCode 1.18 runs `npm install @opencode-ai/plugin` in every config folder it reads (in the background, and
 * plugins wait for it) unless the folder has a `node_modules/` and a package-lock.json that lists the package.
 * Shepherd's plugin imports nothing of it, so the sandbox marks it installed: the run reaches no registry.
 */
export function markPluginDepsInstalled(configDir: string): void {
  mkdirSync(join(configDir, "node_modules"), { recursive: true });
  writeFileSync(join(configDir, "package-lock.json"), JSON.stringify({ name: "opencode-config", lockfileVersion: 3, packages: { "": { dependencies: { "@opencode-ai/plugin": "*" } } } }));
}

/** A user-level opencode.json whose only provider is the fake at `port`. */
export function writeOpenCodeConfig(sb: Sandbox, port: number): void {
  const dir = join(xdgConfig(sb), "opencode");
  mkdirSync(dir, { recursive: true });
  markPluginDepsInstalled(dir);
  writeFileSync(
    join(dir, "opencode.json"),
    JSON.stringify({
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      model: OPENCODE_MODEL,
      small_model: OPENCODE_MODEL,
      provider: {
        fake: {
          npm: "@ai-sdk/openai-compatible",
          name: "Fake",
          options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "sk-fake-e2e" },
          models: { "fake-model": { name: "Fake Model", tool_call: true, limit: { context: 100000, output: 4096 } } },
        },
      },
      // No permission prompt may wait for a person in `opencode run`.
      permission: { edit: "allow", bash: "allow", webfetch: "allow", external_directory: "allow" },
    }),
  );
}

/** OpenCode's environment: nothing of the caller's but PATH. */
export function opencodeEnv(sb: Sandbox, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: sb.home,
    TMPDIR: join(sb.home, "tmp"),
    XDG_CONFIG_HOME: xdgConfig(sb),
    XDG_DATA_HOME: join(sb.home, ".local", "share"),
    XDG_CACHE_HOME: join(sb.home, ".cache"),
    XDG_STATE_HOME: join(sb.home, ".local", "state"),
    TERM: "dumb",
    NO_COLOR: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    PI_CODING_AGENT_DIR: sb.agentDir,
    ...extra,
  };
}

export interface FakeOpenAI {
  port: number;
  logFile: string;
  stop(): Promise<void>;
}

/** The fake runs as its own node process and reports its port through a file. */
export async function startFakeOpenAI(script: unknown, dir: string): Promise<FakeOpenAI> {
  mkdirSync(dir, { recursive: true });
  const scriptFile = join(dir, "script.json");
  const portFile = join(dir, "port");
  const logFile = join(dir, "requests.jsonl");
  writeFileSync(scriptFile, JSON.stringify(script));
  const child = spawn("node", [join(import.meta.dir, "fake-openai-api.mjs"), "--script", scriptFile, "--log", logFile, "--port-file", portFile], {
    stdio: "ignore",
    env: { PATH: process.env.PATH ?? "" },
  });
  const port = await new Promise<number>((ok, fail) => {
    const tick = () => {
      if (existsSync(portFile) && readFileSync(portFile, "utf8").trim() !== "") return ok(Number(readFileSync(portFile, "utf8")));
      if (child.exitCode !== null) return fail(new Error(`the fake OpenAI server exited with ${child.exitCode}`));
      setTimeout(tick, 20);
    };
    tick();
  });
  const stop = () =>
    new Promise<void>((ok) => {
      if (child.exitCode !== null) return ok();
      child.once("exit", () => ok());
      child.kill("SIGTERM");
    });
  return { port, logFile, stop };
}

/** Live processes whose working folder is `dir` and whose command line names `word`: what a test leaves behind. */
export function processesIn(dir: string, word: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) !== dir) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      if (cmdline.includes(word)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}
