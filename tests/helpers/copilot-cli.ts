/**
 * @module the real GitHub Copilot CLI (`@github/copilot`, a native binary in a platform package) run offline:
 * its BYOK provider pointed at a local fake model server, with GitHub sign-in, telemetry and updates off.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO, type Sandbox } from "./agent-sandbox.ts";

/**
 * The platform package's binary: the `copilot` bin is a Node loader that only spawns it, so calling it
 * directly needs no particular Node version.
 */
export function copilotBin(): string {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const os = process.platform === "darwin" ? "darwin" : process.platform === "win32" ? "win32" : "linux";
  const exe = os === "win32" ? "copilot.exe" : "copilot";
  for (const pkg of [`copilot-${os}-${arch}`, `copilot-${os}musl-${arch}`]) {
    const p = join(REPO, "node_modules", "@github", pkg, exe);
    if (existsSync(p)) return p;
  }
  return join(REPO, "node_modules", ".bin", "copilot");
}

/**
 * Copilot isolated in the sandbox. `COPILOT_OFFLINE` skips all network access (GitHub authentication,
 * telemetry, web tools, the GitHub MCP server, auto-update) and needs a BYOK provider; the provider speaks
 * Anthropic's Messages API, so the Claude Code fake serves it. The binary unpacks its JavaScript (~235 MB)
 * once into a cache shared by the test runs, under the repository's `.tmp/`.
 */
export function copilotRunEnv(sb: Sandbox, apiPort: number): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: sb.home,
    COPILOT_HOME: join(sb.home, ".copilot"),
    COPILOT_PKG_CACHE_HOME: join(REPO, ".tmp", "copilot-pkg"),
    TMPDIR: join(sb.home, "tmp"),
    TERM: "dumb",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${apiPort}`,
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_API_KEY: "fake-e2e",
    COPILOT_MODEL: "claude-sonnet-4",
    PI_CODING_AGENT_DIR: sb.agentDir,
  };
}
