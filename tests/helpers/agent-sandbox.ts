/**
 * @module isolated runs of the real Claude Code, Codex and Gemini CLIs against local fake model servers,
 * with Shepherd installed as their hook. Nothing of the caller's environment leaks in except PATH, and every
 * file (agent homes, Shepherd's agent dir, logs) lives under one temp dir the test removes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dir, "..", "..");
const HELPERS = import.meta.dir;

/** The compiled binary under test (SHEPHERD_BIN lets a developer point at another build). */
export function shepherdBin(): string {
  return process.env.SHEPHERD_BIN ?? join(REPO, "dist", "shepherd");
}

/**
 * Claude Code ships its native binary in a platform package; the `claude` bin is a placeholder until the
 * package's postinstall copies it over, which `npm ci` without install scripts never does. The platform
 * package's binary works either way.
 */
export function claudeBin(): string {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const os = process.platform === "darwin" ? "darwin" : process.platform === "win32" ? "win32" : "linux";
  const exe = os === "win32" ? "claude.exe" : "claude";
  for (const pkg of [`claude-code-${os}-${arch}`, `claude-code-${os}-${arch}-musl`]) {
    const p = join(REPO, "node_modules", "@anthropic-ai", pkg, exe);
    if (existsSync(p)) return p;
  }
  return join(REPO, "node_modules", ".bin", "claude");
}

export interface Sandbox {
  root: string;
  home: string;
  /** PI_CODING_AGENT_DIR for Shepherd: global rules and session state files live here. */
  agentDir: string;
  proj: string;
  cleanup(): void;
}

export function makeSandbox(prefix: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), `shepherd-${prefix}-`));
  const home = join(root, "home");
  const agentDir = join(root, "agent");
  const proj = join(root, "proj");
  for (const d of [home, join(home, "tmp"), agentDir, proj]) mkdirSync(d, { recursive: true });
  return { root, home, agentDir, proj, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function writeGlobalRules(sb: Sandbox, rules: unknown[]): void {
  writeFileSync(join(sb.agentDir, "shepherd-rules.json"), JSON.stringify(rules, null, 2));
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; the timeout only guards against a hung CLI, no assertion depends on time. */
export function run(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number; input?: string }): Promise<RunResult> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: clean(opts.env), stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => void (stdout += d.toString("utf8")));
    child.stderr?.on("data", (d: Buffer) => void (stderr += d.toString("utf8")));
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 120_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

function clean(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

export interface FakeServer {
  port: number;
  logFile: string;
  stop(): Promise<void>;
}

function waitFor<T>(probe: () => T | undefined, child: ChildProcess, what: string): Promise<T> {
  return new Promise((ok, fail) => {
    const tick = () => {
      const v = probe();
      if (v !== undefined) return ok(v);
      if (child.exitCode !== null) return fail(new Error(`${what} exited with ${child.exitCode}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((ok) => {
      if (child.exitCode !== null) return ok();
      child.once("exit", () => ok());
      child.kill("SIGTERM");
    });
}

/** The three fakes are plain Node scripts: each runs as its own process and reports its port through a file. */
export async function startFake(kind: "anthropic" | "codex" | "gemini", script: unknown, dir: string): Promise<FakeServer> {
  mkdirSync(dir, { recursive: true });
  const scriptFile = join(dir, "script.json");
  writeFileSync(scriptFile, JSON.stringify(script));
  const portFile = join(dir, "port");
  let args: string[];
  let logFile: string;
  if (kind === "anthropic") {
    logFile = join(dir, "api-log.jsonl");
    args = [join(HELPERS, "fake-anthropic-api.mjs"), "--script", scriptFile, "--log", logFile];
  } else if (kind === "codex") {
    logFile = join(dir, "requests.jsonl");
    args = [join(HELPERS, "fake-codex-server.cjs"), scriptFile, dir];
  } else {
    logFile = join(dir, "requests.jsonl");
    args = [join(HELPERS, "fake-gemini-server.mjs"), "--script", scriptFile, "--log", logFile, "--port-file", portFile];
  }
  const child = spawn("node", args, { stdio: ["ignore", "pipe", "ignore"], env: { PATH: process.env.PATH ?? "" } });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => void (out += d.toString("utf8")));
  const port = await waitFor(
    () => {
      const m = /FAKE_API_LISTENING (\d+)/.exec(out);
      if (m?.[1]) return Number(m[1]);
      return existsSync(portFile) && readFileSync(portFile, "utf8").trim() !== "" ? Number(readFileSync(portFile, "utf8")) : undefined;
    },
    child,
    `fake ${kind} server`,
  );
  return { port, logFile, stop: stopper(child) };
}

export function readJsonl(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `shepherd init <agent>` the way a user runs it, with the sandbox's home. */
export async function initAgent(sb: Sandbox, agent: string, env: Record<string, string>, extra: string[] = []): Promise<RunResult> {
  const r = await run(shepherdBin(), ["init", agent, ...extra], { cwd: sb.proj, env: { PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir, ...env } });
  if (r.code !== 0) throw new Error(`shepherd init ${agent} failed (${r.code}): ${r.stderr}`);
  return r;
}

/** One model request the fake Anthropic API logged: what the model saw at that step. */
export interface ClaudeRequest {
  kind: string;
  step: number | null;
  new_messages: { role: string; text: string }[];
  tool_results: { tool_use_id: string; is_error: boolean; text: string }[];
}

/** Claude Code isolated in the sandbox, talking to the fake API only. */
export function claudeRunEnv(box: Sandbox, apiPort: number): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: box.home,
    CLAUDE_CONFIG_DIR: join(box.home, ".claude"),
    TMPDIR: join(box.home, "tmp"),
    TERM: "dumb",
    LANG: "C.UTF-8",
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
    ANTHROPIC_API_KEY: "sk-ant-api03-fake-e2e",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_MAX_RETRIES: "0",
    PI_CODING_AGENT_DIR: box.agentDir,
  };
}

/** Codex's `config.toml` for an offline run against the fake Responses API at `port`; returns CODEX_HOME. */
export function writeCodexConfig(sb: Sandbox, port: number): string {
  const codexHome = join(sb.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      'model = "fake-model"',
      'model_provider = "fake"',
      "check_for_update_on_startup = false",
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "http://127.0.0.1:${port}/v1"`,
      'env_key = "FAKE_API_KEY"',
      'wire_api = "responses"',
      "[analytics]",
      "enabled = false",
      "[features]",
      "plugins = false",
      "",
    ].join("\n"),
  );
  return codexHome;
}

/** Gemini CLI's user settings for an offline run: API-key auth, no folder trust prompt, no updates or telemetry. */
export function writeGeminiSettings(sb: Sandbox): void {
  const geminiDir = join(sb.home, ".gemini");
  mkdirSync(geminiDir, { recursive: true });
  writeFileSync(
    join(geminiDir, "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      ide: { enabled: false },
    }),
  );
}
