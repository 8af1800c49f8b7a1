/** @module black-box: `shepherd http` routes (health, evaluate, agent hooks, status, SSE) and its bind/token guards. */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { makeSandbox, run, type Sandbox, shepherdBin, writeGlobalRules } from "./helpers/agent-sandbox.ts";
import { type RunningHttp, startHttp } from "./helpers/http-server.ts";

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "curl is blocked: {{command}}" },
  { name: "two-errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "HTTP-ERRORS: two failures" },
];

let sb: Sandbox;
let srv: RunningHttp;
const env = () => ({ PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir });

beforeAll(async () => {
  sb = makeSandbox("http");
  writeGlobalRules(sb, RULES);
  srv = await startHttp([], { cwd: sb.proj, env: env() });
}, 180_000);
afterAll(async () => {
  await srv?.stop();
  sb?.cleanup();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${srv.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

const ccHook = (extra: Record<string, unknown>) => ({ session_id: "http-s1", cwd: sb.proj, ...extra });

describe("shepherd http", () => {
  it("should answer /health", async () => {
    const res = await fetch(`${srv.url}/health`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  });

  it("should bind to 127.0.0.1 by default", () => {
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("should evaluate a HookEvent on POST /v1/evaluate", async () => {
    const res = await post("/v1/evaluate", { event: { hook: "tool_call", session: { id: "e1", cwd: sb.proj }, tool: { name: "bash", input: { command: "curl x" } } } });
    expect(await res.json()).toMatchObject({ action: "block", reason: "curl is blocked: curl x", fired: [{ rule: "no-curl", source: "global", action: "block" }] });
  });

  it("should reject an invalid event with the offending path", async () => {
    const res = await post("/v1/evaluate", { event: { hook: "tool_call", session: { id: "e1" } } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { path: string }).path).toBe("event.session.cwd");
  });

  const badBodies: [string, string, Record<string, string>, number][] = [
    ["a body that is not JSON", "{nope", {}, 400],
    ["a non-JSON content type", "{}", { "content-type": "text/plain" }, 415],
  ];
  for (const [name, body, headers, status] of badBodies) {
    it(`should refuse ${name} with ${status}`, async () => {
      expect((await post("/v1/evaluate", body, headers)).status).toBe(status);
    });
  }

  it("should answer a Claude Code http hook in Claude Code's contract", async () => {
    const res = await post("/v1/hooks/claude-code", ccHook({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "curl example.invalid" } }));
    expect(await res.json()).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "curl is blocked: curl example.invalid" },
    });
  });

  it("should keep session counters across hook requests", async () => {
    const fail = ccHook({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, error: "Exit code 1" });
    expect(await (await post("/v1/hooks/claude-code", fail)).json()).toEqual({});
    // Another failing command: the same one failing twice would bring the built-in loop rule's steer too.
    const other = ccHook({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "exit 1" }, error: "Exit code 1" });
    expect(await (await post("/v1/hooks/claude-code", other)).json()).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "HTTP-ERRORS: two failures" } });
    const status = (await (await fetch(`${srv.url}/v1/status`)).json()) as { sessions: { id: string; errors: number }[] };
    expect(status.sessions.find((s) => s.id === "http-s1")?.errors).toBe(2);
  });

  it("should list rules by layer with their source files", async () => {
    const status = (await (await fetch(`${srv.url}/v1/status`)).json()) as { layers: Record<string, { name: string; file: string }[]> };
    expect(status.layers.global?.map((r) => r.name)).toEqual(["no-curl", "two-errors"]);
    expect(status.layers.global?.[0]?.file).toEndWith("shepherd-rules.json");
  });

  it("should 404 an unknown agent", async () => {
    expect((await post("/v1/hooks/cursor", {})).status).toBe(404);
  });

  it("should refuse a foreign Host header (DNS rebinding)", async () => {
    const res = await fetch(`${srv.url}/health`, { headers: { host: "attacker.example" } });
    expect(res.status).toBe(403);
  });

  it("should stream decisions as server-sent events", async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${srv.url}/v1/events`, { signal: ctrl.signal });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await post("/v1/evaluate", { hook: "tool_call", session: { id: "sse-1", cwd: sb.proj }, tool: { name: "bash", input: { command: "curl sse" } } });
    let text = "";
    while (!text.includes('"session":"sse-1"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    ctrl.abort();
    expect(text).toContain("event: decision");
    expect(text).toContain('"subject":"curl sse"');
  });
});

describe("shepherd http guards", () => {
  it("should refuse a non-loopback bind without --token", async () => {
    const r = await run(shepherdBin(), ["http", "--port", "0", "--host", "0.0.0.0"], { cwd: sb.proj, env: env() });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("--token");
  });

  it("should require the token on every route but /health", async () => {
    const token = "e2e-token-0123456789abcdef";
    const guarded = await startHttp(["--host", "0.0.0.0", "--token", token], { cwd: sb.proj, env: env() });
    try {
      const base = guarded.url.replace("0.0.0.0", "127.0.0.1");
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect((await fetch(`${base}/v1/status`)).status).toBe(401);
      expect((await fetch(`${base}/v1/status`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
      expect((await fetch(`${base}/v1/status`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await fetch(`${base}/v1/status?token=${token}`)).status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });
});
