/**
 * @module e2e: the real Claude Code CLI (2.1.332) offline, with `shepherd hook claude-code` installed. In
 * `-p` mode Claude Code has no dialog and denies an ask, unless `--permission-prompt-tool` names an MCP tool
 * to put the question to: tests/helpers/cc-approver-mcp.mjs stands in for the person there. A yes to an
 * `ask` rule with `remember` is then kept on the PostToolUse, the same command runs without a prompt, in a
 * later session too, and another command is still put to the person.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeBin, claudeRunEnv, type ClaudeRequest, initAgent, makeSandbox, readJsonl, run, type Sandbox, startFake, writeGlobalRules } from "./helpers/agent-sandbox.ts";

const APPROVER = join(import.meta.dir, "helpers", "cc-approver-mcp.mjs");

let sb: Sandbox;

interface Session {
  code: number | null;
  prompts: { answer: string; tool_name: string; input: { command?: string } }[];
  requests: ClaudeRequest[];
}

/** One `claude -p` session; `answers` are the stand-in person's, in order. */
async function session(name: string, commands: string[], answers: string[]): Promise<Session> {
  const dir = join(sb.root, name);
  const steps = [...commands.map((command) => ({ tool_use: [{ name: "Bash", input: { command } }] })), { text: "done" }];
  const api = await startFake("anthropic", { steps, side_text: "ok" }, join(dir, "api"));
  const log = join(sb.root, `${name}-prompts.jsonl`);
  const mcp = join(sb.root, `${name}-mcp.json`);
  writeFileSync(mcp, JSON.stringify({ mcpServers: { approver: { command: "node", args: [APPROVER], env: { APPROVER_ANSWERS: answers.join(","), APPROVER_LOG: log } } } }));
  let code: number | null;
  try {
    const r = await run(claudeBin(), ["-p", "go", "--output-format", "stream-json", "--verbose", "--mcp-config", mcp, "--permission-prompt-tool", "mcp__approver__approve"], {
      cwd: sb.proj,
      env: claudeRunEnv(sb, api.port),
    });
    code = r.code;
  } finally {
    await api.stop();
  }
  const prompts = existsSync(log) ? (readJsonl(log) as unknown as Session["prompts"]) : [];
  return { code, prompts, requests: readJsonl(api.logFile).filter((r) => r.kind === "main") as unknown as ClaudeRequest[] };
}

let first: Session;
let second: Session;

beforeAll(async () => {
  sb = makeSandbox("e2e-cc-approvals");
  writeGlobalRules(sb, [{ name: "ask-touch", action: "ask", pattern: "^touch ", reason: "E2E-ASK: may I run {{command}}?", remember: "project" }]);
  await initAgent(sb, "claude-code", { CLAUDE_CONFIG_DIR: join(sb.home, ".claude") });
  first = await session("first", ["touch a.txt", "touch a.txt", "touch b.txt"], ["allow", "deny"]);
  second = await session("second", ["touch a.txt"], []);
}, 240_000);

afterAll(() => sb?.cleanup());

describe("remembered approvals with the real Claude Code CLI", () => {
  it("should finish both sessions", () => {
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
  });

  it("should put the first touch a.txt and touch b.txt to the person, and not the repeated touch a.txt", () => {
    expect(first.prompts.map((p) => [p.input.command, p.answer])).toEqual([
      ["touch a.txt", "allow"],
      ["touch b.txt", "deny"],
    ]);
    const results = first.requests.flatMap((r) => r.tool_results);
    expect(results.map((r) => r.is_error)).toEqual([false, false, true]);
    expect(existsSync(join(sb.proj, "a.txt"))).toBe(true);
    expect(existsSync(join(sb.proj, "b.txt"))).toBe(false);
  });

  it("should keep the approval for the project, for that exact command only", () => {
    const file = JSON.parse(readFileSync(join(sb.agentDir, "shepherd", "approvals.json"), "utf8")) as { approvals: { rule: string; scope: string; project: string; display: string }[] };
    expect(file.approvals.map((a) => [a.rule, a.scope, a.project, a.display])).toEqual([["ask-touch", "project", realpathSync(sb.proj), "touch a.txt"]]);
  });

  it("should run the approved command in a later session without a prompt", () => {
    expect(second.prompts).toEqual([]);
    expect(second.requests.flatMap((r) => r.tool_results).map((r) => r.is_error)).toEqual([false]);
  });
});
