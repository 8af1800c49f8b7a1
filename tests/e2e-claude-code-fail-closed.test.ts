/**
 * @module e2e: which hook failures the real Claude Code CLI (2.1.332) turns into a block, with and without its
 * own fail-closed switch `"onFailure": "block"`, and that Shepherd's deadline answers before Claude Code's
 * timeout. A scripted model (fake Anthropic API) makes one Bash call that creates a marker file; whether the
 * file exists says whether the call ran, and the fake API's log says what the model was told.
 *
 * Observed with 2.1.332 (what the assertions below hold):
 * - command hook, no onFailure: a hook that runs past its `timeout`, exits 1, or is killed by SIGKILL lets
 *   the tool call run (a non-blocking error); so does exit 0 with stdout that is not JSON.
 * - command hook, `onFailure: "block"`: the timeout, exit 1 and SIGKILL block the call; the model gets an
 *   error tool_result `PreToolUse:Bash hook error: [<command>]: timed out; blocking because onFailure is
 *   "block"` ("failed" for exit 1 and SIGKILL, then the hook's stderr, "Killed" for the signal). Exit 0 with
 *   non-JSON stdout is no failure to Claude Code (plain stdout is no opinion): the call still runs.
 * - http hook: a 500 reply, or a server that does not answer within `timeout`, lets the call run without
 *   onFailure and blocks it with `onFailure: "block"`.
 * - The switch is ignored on Stop, SubagentStop, TaskCompleted and TeammateIdle (Claude Code warns so).
 * - `shepherd init claude-code` hooks (`timeout` 30 s, `onFailure: "block"` on PreToolUse) with an evaluation that hangs: Shepherd
 *   answers at its own deadline with its deny and reason, long before Claude Code's timeout. A Write of a
 *   9 MiB file (Claude Code's hook input is then over Shepherd's 8 MiB cap) is blocked by Shepherd's exit 2,
 *   the model reading its reason. With the binary from before these fixes both calls ran: the hang took
 *   Claude Code's whole 30 s timeout, the oversized input exited 1.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { claudeBin, claudeRunEnv, type ClaudeRequest, initAgent, makeSandbox, readJsonl, run, type Sandbox, startFake } from "./helpers/agent-sandbox.ts";

interface Outcome {
  ran: boolean;
  /** What the model got back for its Bash call. */
  result: { is_error: boolean; text: string } | undefined;
  ms: number;
}

/** One Claude Code run in which the model asks for `touch <marker>`; `hooks` is the PreToolUse handler list. */
async function bashCallWith(box: Sandbox, handlers: Record<string, unknown>[] | "installed"): Promise<Outcome> {
  const marker = join(box.root, "ran.marker");
  const script = { steps: [{ tool_use: [{ name: "Bash", input: { command: `touch ${marker}` } }] }, { text: "done" }], side_text: "ok" };
  const api = await startFake("anthropic", script, join(box.root, "api"));
  if (handlers !== "installed") {
    mkdirSync(join(box.proj, ".claude"), { recursive: true });
    writeFileSync(join(box.proj, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: handlers }] } }));
  }
  const t0 = performance.now();
  try {
    const r = await run(claudeBin(), ["-p", "go", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash"], { cwd: box.proj, env: claudeRunEnv(box, api.port) });
    expect(r.code).toBe(0);
  } finally {
    await api.stop();
  }
  const ms = performance.now() - t0;
  const main = readJsonl(api.logFile).filter((x) => x.kind === "main") as unknown as ClaudeRequest[];
  return { ran: existsSync(marker), result: main.find((x) => x.step === 1)?.tool_results[0], ms };
}

function script(box: Sandbox, name: string, body: string): string {
  const file = join(box.root, `${name}.sh`);
  writeFileSync(file, `#!/bin/sh\ncat >/dev/null\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const FAILING_COMMANDS: [string, string][] = [
  ["runs past its timeout", "sleep 5"],
  ["exits 1", "echo broken >&2; exit 1"],
  ["is killed by SIGKILL", "kill -9 $$"],
];

describe("Claude Code command hooks that fail", () => {
  for (const [what, body] of FAILING_COMMANDS) {
    for (const onFailure of [undefined, "block"] as const) {
      const expectRun = onFailure === undefined;
      it(`should ${expectRun ? "run" : "block"} the call when the hook ${what}${onFailure ? ' and onFailure is "block"' : ""}`, async () => {
        const box = makeSandbox("e2e-cc-fail");
        try {
          const command = script(box, "hook", body);
          const o = await bashCallWith(box, [{ type: "command", command, timeout: 1, ...(onFailure ? { onFailure } : {}) }]);
          expect(o.ran).toBe(expectRun);
          if (!expectRun) {
            expect(o.result?.is_error).toBe(true);
            expect(o.result?.text).toMatch(/hook error: \[.*\]: (timed out|failed); blocking because onFailure is "block"/);
          }
        } finally {
          box.cleanup();
        }
      }, 60_000);
    }
  }

  it('should run the call when the hook exits 0 with stdout that is not JSON, even with onFailure "block"', async () => {
    const box = makeSandbox("e2e-cc-fail");
    try {
      const command = script(box, "hook", "echo 'this is not { json'");
      expect((await bashCallWith(box, [{ type: "command", command, timeout: 5, onFailure: "block" }])).ran).toBe(true);
    } finally {
      box.cleanup();
    }
  }, 60_000);
});

describe("Claude Code http hooks that fail", () => {
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      if (req.url === "/error") {
        res.writeHead(500, { "content-type": "application/json" });
        res.end('{"error":"boom"}');
      }
      // "/hang": never answered; the socket is closed when the server stops.
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  for (const [what, path] of [
    ["answers 500", "/error"],
    ["does not answer within its timeout", "/hang"],
  ] as const) {
    for (const onFailure of [undefined, "block"] as const) {
      const expectRun = onFailure === undefined;
      it(`should ${expectRun ? "run" : "block"} the call when the server ${what}${onFailure ? ' and onFailure is "block"' : ""}`, async () => {
        const box = makeSandbox("e2e-cc-fail-http");
        try {
          const o = await bashCallWith(box, [{ type: "http", url: `${base}${path}`, timeout: 1, ...(onFailure ? { onFailure } : {}) }]);
          expect(o.ran).toBe(expectRun);
          if (!expectRun) expect(o.result?.is_error).toBe(true);
        } finally {
          box.cleanup();
        }
      }, 60_000);
    }
  }
});

describe("shepherd hook claude-code installed by shepherd init, on a hook input over 8 MiB", () => {
  it("should block a Write of a 9 MiB file with exit 2 and its reason", async () => {
    const box = makeSandbox("e2e-cc-big");
    try {
      const target = join(box.proj, "big.txt");
      const script = { steps: [{ tool_use: [{ name: "Write", input: { file_path: target, content: "x".repeat(9 * 1024 * 1024) } }] }, { text: "done" }], side_text: "ok" };
      const api = await startFake("anthropic", script, join(box.root, "api"));
      await initAgent(box, "claude-code", { CLAUDE_CONFIG_DIR: join(box.home, ".claude") });
      try {
        const r = await run(claudeBin(), ["-p", "go", "--output-format", "stream-json", "--verbose", "--allowedTools", "Write"], { cwd: box.proj, env: claudeRunEnv(box, api.port) });
        expect(r.code).toBe(0);
      } finally {
        await api.stop();
      }
      const main = readJsonl(api.logFile).filter((x) => x.kind === "main") as unknown as ClaudeRequest[];
      const result = main.find((x) => x.step === 1)?.tool_results[0];
      expect(existsSync(target)).toBe(false);
      expect(result?.is_error).toBe(true);
      expect(result?.text).toContain("exceeds the 8388608-byte limit");
    } finally {
      box.cleanup();
    }
  }, 90_000);
});

describe("shepherd hook claude-code installed by shepherd init, when its evaluation hangs", () => {
  it("should block the call with Shepherd's own answer at its deadline, before Claude Code's timeout", async () => {
    const box = makeSandbox("e2e-cc-deadline");
    try {
      // A plugin action that never settles, a plugin budget of a minute, and a hook deadline of 1 s.
      const plugins = join(box.agentDir, "shepherd", "plugins");
      mkdirSync(plugins, { recursive: true });
      writeFileSync(join(plugins, "hang.ts"), 'import { definePlugin } from "shepherd:plugin";\nexport default definePlugin({ actions: { hang: () => new Promise(() => {}) } });\n');
      writeFileSync(join(box.agentDir, "shepherd-rules.json"), JSON.stringify([{ name: "hangs", tool: "bash", action: "hang", pattern: "touch" }]));
      writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ shepherd: { pluginTimeoutMs: 60_000, hookDeadlineMs: 1_000 } }));
      await initAgent(box, "claude-code", { CLAUDE_CONFIG_DIR: join(box.home, ".claude") });
      const o = await bashCallWith(box, "installed");
      expect(o.ran).toBe(false);
      expect(o.result?.is_error).toBe(true);
      // Shepherd's reason, not Claude Code's "timed out": Shepherd answered first.
      expect(o.result?.text).toContain("Shepherd could not evaluate this call (evaluation exceeded 1 s)");
      expect(o.ms).toBeLessThan(30_000);
    } finally {
      box.cleanup();
    }
  }, 90_000);
});

describe('shepherd hook claude-code with failMode "halt", when its evaluation hangs', () => {
  it("should block the call and stop the run: the model is not asked again", async () => {
    const box = makeSandbox("e2e-cc-halt");
    try {
      const plugins = join(box.agentDir, "shepherd", "plugins");
      mkdirSync(plugins, { recursive: true });
      writeFileSync(join(plugins, "hang.ts"), 'import { definePlugin } from "shepherd:plugin";\nexport default definePlugin({ actions: { hang: () => new Promise(() => {}) } });\n');
      writeFileSync(join(box.agentDir, "shepherd-rules.json"), JSON.stringify([{ name: "hangs", tool: "bash", action: "hang", pattern: "touch" }]));
      writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ shepherd: { pluginTimeoutMs: 60_000, hookDeadlineMs: 1_000, failMode: "halt" } }));
      await initAgent(box, "claude-code", { CLAUDE_CONFIG_DIR: join(box.home, ".claude") });
      const marker = join(box.root, "ran.marker");
      // Were the run to go on, the model would get the blocked call's result and answer "done".
      const steps = { steps: [{ tool_use: [{ name: "Bash", input: { command: `touch ${marker}` } }] }, { text: "done" }], side_text: "ok" };
      const api = await startFake("anthropic", steps, join(box.root, "api"));
      let out = "";
      try {
        const r = await run(claudeBin(), ["-p", "go", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash"], { cwd: box.proj, env: claudeRunEnv(box, api.port) });
        out = r.stdout;
      } finally {
        await api.stop();
      }
      expect(existsSync(marker)).toBe(false);
      const main = readJsonl(api.logFile).filter((x) => x.kind === "main");
      expect(main.length).toBe(1);
      expect(out).toContain('failMode is \\"halt\\"');
    } finally {
      box.cleanup();
    }
  }, 90_000);
});
