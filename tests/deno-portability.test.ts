import { describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

describe("deno run -A main.ts serve", () => {
  it("should serve the same protocol under Deno from source", () => {
    const denoDir = mkdtempSync(join(tmpdir(), "shepherd-deno-"));
    try {
      const line = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "shepherd/evaluate",
        params: { event: { hook: "tool_call", session: { id: "d", cwd: denoDir }, tool: { name: "Bash", input: { command: "git checkout -- a.ts" } } } },
      });
      const res = spawnSync(join(root, "node_modules/.bin/deno"), ["run", "-A", "main.ts", "serve"], {
        cwd: root,
        input: `${line}\n`,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: denoDir, DENO_DIR: join(denoDir, "cache"), PI_CODING_AGENT_DIR: join(denoDir, "agent"), NO_COLOR: "1" },
        timeout: 120_000,
      });
      expect(res.status).toBe(0);
      const answer = JSON.parse(res.stdout.trim().split("\n").at(-1) ?? "{}") as { result?: { action?: string } };
      expect(answer.result?.action).toBe("block");
    } finally {
      rmSync(denoDir, { recursive: true, force: true });
    }
  }, 130_000);
});
