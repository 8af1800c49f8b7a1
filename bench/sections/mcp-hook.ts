/**
 * @module Claude Code's hook round trip two ways, side by side and interleaved call by call: an `mcp_tool`
 * hook (tools/call `shepherd_hook` on one running `shepherd serve`, the arguments filled in as Claude Code
 * fills them) and a spawned `shepherd hook claude-code` process. Both must deny the same discard first.
 *
 *   bun run bench/sections/mcp-hook.ts [--quick]     runs this section alone
 */
import { hookToolInputTemplate } from "../../lib/adapters/claude-code-mcp.ts";
import { SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { percentile } from "../lib/stats.ts";

export interface McpHookResult {
  rules: number;
  calls: number;
  mcp: { p50: number; p90: number };
  spawned: { p50: number; p90: number };
  ratioP50: number;
}

function hookJson(cwd: string, command: string): Record<string, unknown> {
  return { session_id: "bench-mcp", transcript_path: "/dev/null", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command, description: "bench" }, tool_use_id: "toolu_bench", permission_mode: "default" };
}

/** What Claude Code sends: every `${field}` of the template filled from the hook JSON (objects as JSON, missing as ""). */
function filled(json: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(hookToolInputTemplate())) {
    const v = json[key];
    out[key] = v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  }
  return out;
}

/** A line-framed JSON-RPC client of one `shepherd serve`. */
function startServe(cwd: string, env: Record<string, string>) {
  const proc = Bun.spawn([SHEPHERD, "serve", "--hook-tool"], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  let id = 0;
  const next = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const msg = JSON.parse(line) as Record<string, unknown>;
        if ("id" in msg) return msg;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("shepherd serve closed its stdout");
      buf += decoder.decode(value, { stream: true });
    }
  };
  const request = async (method: string, params: unknown): Promise<Record<string, unknown>> => {
    proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })}\n`);
    proc.stdin.flush();
    return next();
  };
  return {
    request,
    stop: async () => {
      proc.stdin.end();
      await Promise.race([proc.exited, Bun.sleep(2000)]);
      proc.kill("SIGKILL");
    },
  };
}

const toolText = (res: Record<string, unknown>): string => ((res.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text ?? JSON.stringify(res));

export async function benchMcpHook(ruleCount: number, opts: { calls: number; warmup: number }): Promise<McpHookResult> {
  const project = createProject(ruleCount, "mcp-hook");
  const serve = startServe(project.cwd, project.env);
  try {
    await serve.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
    const discard = hookJson(project.cwd, "git checkout -- src/a.ts");
    const viaMcp = toolText(await serve.request("tools/call", { name: "shepherd_hook", arguments: filled(discard) }));
    if (!viaMcp.includes('"deny"')) throw new Error(`bench: the mcp_tool hook did not deny: ${viaMcp.slice(0, 300)}`);
    const spawnedDeny = Bun.spawnSync([SHEPHERD, "hook", "claude-code"], { cwd: project.cwd, env: project.env, stdin: Buffer.from(JSON.stringify(discard)), stdout: "pipe", stderr: "ignore" });
    if (!spawnedDeny.stdout.toString().includes('"deny"')) throw new Error("bench: the spawned hook did not deny");

    // Two commands in turn: one command again and again is a loop, which the built-in loop rules stop.
    const allowed = [hookJson(project.cwd, "git status --short"), hookJson(project.cwd, "git status")];
    const argsOf = allowed.map(filled);
    const inputOf = allowed.map((a) => Buffer.from(JSON.stringify(a)));
    const mcp: number[] = [];
    const spawned: number[] = [];
    for (let i = 0; i < opts.warmup + opts.calls; i++) {
      const args = argsOf[i % 2];
      const input = inputOf[i % 2] as Buffer;
      let t0 = performance.now();
      const res = await serve.request("tools/call", { name: "shepherd_hook", arguments: args });
      const m = performance.now() - t0;
      if (toolText(res) !== "{}") throw new Error(`bench: the mcp_tool hook did not allow: ${toolText(res).slice(0, 300)}`);
      t0 = performance.now();
      const r = Bun.spawnSync([SHEPHERD, "hook", "claude-code"], { cwd: project.cwd, env: project.env, stdin: input, stdout: "pipe", stderr: "ignore" });
      const s = performance.now() - t0;
      if (r.exitCode !== 0) throw new Error(`bench: the spawned hook exited ${r.exitCode}`);
      if (i >= opts.warmup) {
        mcp.push(m);
        spawned.push(s);
      }
    }
    const mp50 = percentile(mcp, 50);
    const sp50 = percentile(spawned, 50);
    return { rules: ruleCount, calls: opts.calls, mcp: { p50: mp50, p90: percentile(mcp, 90) }, spawned: { p50: sp50, p90: percentile(spawned, 90) }, ratioP50: sp50 / mp50 };
  } finally {
    await serve.stop();
    project.dispose();
  }
}

if (import.meta.main) {
  const quick = process.argv.includes("--quick");
  const r = await benchMcpHook(quick ? 100 : 1_000, quick ? { calls: 20, warmup: 5 } : { calls: 200, warmup: 20 });
  process.stdout.write(
    `Claude Code hook round trip, ${r.rules} rules, ${r.calls} calls each, interleaved:\n` +
      `  mcp_tool hook (shepherd serve)      p50 ${r.mcp.p50.toFixed(3)} ms   p90 ${r.mcp.p90.toFixed(3)} ms\n` +
      `  spawned shepherd hook claude-code   p50 ${r.spawned.p50.toFixed(3)} ms   p90 ${r.spawned.p90.toFixed(3)} ms\n` +
      `  spawned / mcp_tool (p50)            ${r.ratioP50.toFixed(1)}x\n`,
  );
}
