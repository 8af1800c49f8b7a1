/**
 * @module property-based fuzzing of the protocol layers in process (framing, dispatch, transport):
 * random bytes, invalid UTF-8, arbitrary chunking, wrong types in every event field, random valid
 * events, thousands of concurrent requests. Fast enough to run thousands of cases in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import * as v from "valibot";
import { HOOK_NAMES } from "../lib/engine/schema.ts";
import type { Logger } from "../lib/log.ts";
import { Dispatcher, ErrorCodes, type RpcResponse } from "../lib/rpc/dispatch.ts";
import { EnvelopeSchema } from "../lib/rpc/envelope.ts";
import { type Frame, LineFramer } from "../lib/rpc/framing.ts";
import { serveStdio } from "../lib/rpc/transport.ts";
import { Workspace } from "../lib/rules/workspace.ts";

const quiet: Logger = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };
let root = "";
let cwd = "";
let workspace: Workspace;
let dispatcher: Dispatcher;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-fuzz-"));
  cwd = join(root, "project");
  const agent = join(root, "agent");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(agent, { recursive: true });
  writeFileSync(
    join(agent, "shepherd-rules.json"),
    JSON.stringify([
      { name: "no-rm", action: "block", pattern: "\\brm\\s+-rf\\b", reason: "no rm -rf: {{command}}" },
      { name: "sudo", action: "ask", pattern: "^sudo\\b" },
      { name: "npm-ci", action: "rewrite", pattern: "^npm install$", rewrite: { replace: "npm ci" } },
      { name: "push-note", action: "notify", pattern: "git push" },
      { name: "errors", hook: "tool_result", tool: "*", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "slow down" },
      { name: "wrap", hook: "agent_end", action: "notify", check: "has_edits", reason: "run the tests" },
      { name: "secret-path", tool: ["read", "write", "edit"], action: "block", conditions: [{ field: "path", pattern: "\\.env$" }] },
    ]),
  );
  workspace = new Workspace({ env: { HOME: join(root, "home"), PI_CODING_AGENT_DIR: agent }, cwd, watch: false, builtin: [] }, "fuzz");
  dispatcher = new Dispatcher({ workspace, version: "fuzz", log: quiet });
});

afterAll(() => {
  workspace.close();
  rmSync(root, { recursive: true, force: true });
});

const enc = new TextEncoder();

function frames(framer: LineFramer, chunks: Uint8Array[]): Frame[] {
  const out: Frame[] = [];
  for (const c of chunks) framer.push(c, (f) => out.push(f));
  framer.end((f) => out.push(f));
  return out;
}

/** Splits bytes at the given cut points (fast-check picks them). */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  return out;
}

// Text without LF and without lone surrogates (they do not survive UTF-8 encoding).
const lineText = fc.string({ unit: "binary", maxLength: 200 }).filter((s) => !s.includes("\n"));

describe("LineFramer (fuzz)", () => {
  it("should emit exactly the non-blank lines, whatever the chunking", () => {
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 40 }), (lines, cuts) => {
        const bytes = enc.encode(lines.map((l) => `${l}\n`).join(""));
        const got = frames(new LineFramer(), chunk(bytes, cuts));
        const want = lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l)).filter((l) => l.trim() !== "");
        expect(got).toEqual(want.map((text) => ({ kind: "line", text })));
      }),
      { numRuns: 500 },
    );
  });

  it("should keep U+2028 and U+2029 inside a line", () => {
    const got = frames(new LineFramer(), [enc.encode('{"a":"x\u2028y\u2029z"}\n')]);
    expect(got).toEqual([{ kind: "line", text: '{"a":"x\u2028y\u2029z"}' }]);
  });

  it("should survive random bytes: every frame is a line, invalid UTF-8 or too long, never more than the LFs + 1", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 1, max: 256 }), (bytes, cuts, cap) => {
        const got = frames(new LineFramer(cap), chunk(bytes, cuts));
        const lfs = bytes.filter((b) => b === 10).length;
        expect(got.length).toBeLessThanOrEqual(lfs + 1);
        for (const f of got) {
          if (f.kind === "line") expect(enc.encode(f.text).length).toBeLessThanOrEqual(cap);
          if (f.kind === "too-long") expect(f.bytes).toBeGreaterThan(cap);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("should isolate an invalid or over-long line from its neighbours", () => {
    fc.assert(
      fc.property(lineText.filter((s) => s.trim() !== "" && !s.endsWith("\r")), fc.array(fc.nat(), { maxLength: 10 }), (good, cuts) => {
        const bad = new Uint8Array([0xff, 0xfe, 0xc3]);
        const long = enc.encode("x".repeat(2048));
        const g = enc.encode(`${good}\n`);
        const bytes = new Uint8Array([...g, ...bad, 10, ...g, ...long, 10, ...g]);
        const got = frames(new LineFramer(1024), chunk(bytes, cuts));
        expect(got.map((f) => f.kind)).toEqual(["line", "invalid-utf8", "line", "too-long", "line"]);
      }),
      { numRuns: 200 },
    );
  });
});

// ---- dispatch -----------------------------------------------------------------------------

const KNOWN_CODES = new Set<number>(Object.values(ErrorCodes));

/** JSON-RPC leaves only a notification unanswered: a valid envelope without an id, or a `notifications/` method. */
function isNotification(msg: unknown): boolean {
  const env = v.safeParse(EnvelopeSchema, msg);
  return env.success && (!("id" in env.output) || env.output.method.startsWith("notifications/"));
}

function checkResponse(msg: unknown, res: RpcResponse | undefined): void {
  if (res === undefined) {
    // No answer is right for a notification only: a request left unanswered must fail here.
    expect(isNotification(msg)).toBe(true);
    return;
  }
  expect(res.jsonrpc).toBe("2.0");
  const hasResult = "result" in res;
  const hasError = "error" in res;
  expect(hasResult !== hasError).toBe(true);
  if ("error" in res) {
    expect(KNOWN_CODES.has(res.error.code)).toBe(true);
    expect(res.error.message).not.toMatch(/\n\s+at /);
  }
  const id = msg && typeof msg === "object" && !Array.isArray(msg) ? (msg as { id?: unknown }).id : undefined;
  if (typeof id === "string" || typeof id === "number") expect(res.id).toBe(id);
  else expect(res.id).toBeNull();
}

const anyId = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null));
const methods = fc.constantFrom("initialize", "ping", "tools/list", "tools/call", "shepherd/evaluate", "shepherd/hint", "shepherd/status", "shepherd/reload", "nope", "notifications/x", "");

describe("Dispatcher (fuzz)", () => {
  it("should answer any JSON value with a well-formed response or nothing, never throw", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (msg) => {
        checkResponse(msg, await dispatcher.handleMessage(msg));
      }),
      { numRuns: 500 },
    );
  });

  it("should answer any envelope with any params", async () => {
    await fc.assert(
      fc.asyncProperty(methods, anyId, fc.option(fc.jsonValue(), { nil: undefined }), fc.boolean(), async (method, id, params, notification) => {
        const msg = { jsonrpc: "2.0", method, ...(notification ? {} : { id }), ...(params === undefined ? {} : { params }) };
        const res = await dispatcher.handleMessage(msg);
        // An envelope without a usable method is an invalid request: answered with id null (JSON-RPC 2.0 section 5).
        const validEnvelope = method !== "" && (params === undefined || (typeof params === "object" && params !== null));
        if (!validEnvelope) expect(res && "error" in res ? res.error.code : 0).toBe(ErrorCodes.InvalidRequest);
        else if (notification || method.startsWith("notifications/")) expect(res).toBeUndefined();
        else checkResponse(msg, res);
      }),
      { numRuns: 500 },
    );
  });

  it("should answer any line, including garbage, with a parse error or a response", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json()), async (line) => {
        const res = await dispatcher.handleLine(line);
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          expect(res && "error" in res ? res.error.code : 0).toBe(ErrorCodes.ParseError);
          return;
        }
        checkResponse(parsed, res);
      }),
      { numRuns: 500 },
    );
  });
});

// ---- events: wrong types in every field, random valid events ---------------------------------

const str = (min = 0, max = 40) => fc.string({ minLength: min, maxLength: max });
const validEvent = fc.record(
  {
    hook: fc.constantFrom(...HOOK_NAMES),
    session: fc.record(
      { id: str(1, 12), cwd: fc.constant("") as fc.Arbitrary<string>, agent: str(), subagent: fc.boolean() },
      { requiredKeys: ["id", "cwd"] },
    ),
    tool: fc.record(
      {
        name: fc.constantFrom("bash", "Bash", "read", "write", "edit", "Edit", "custom_tool", "x"),
        callId: str(),
        input: fc.oneof(
          fc.record({ command: fc.oneof(str(), fc.constantFrom("rm -rf /", "sudo ls", "npm install", "git push", "ls")) }),
          fc.record({ path: fc.oneof(str(), fc.constant(".env")), content: str() }),
          fc.dictionary(str(1, 8), fc.jsonValue({ maxDepth: 3 })),
        ),
      },
      { requiredKeys: ["name", "input"] },
    ),
    result: fc.record({ text: str(), isError: fc.boolean() }),
    message: fc.record({ text: str() }),
    stopReason: fc.constantFrom("stop", "length", "aborted"),
    prompt: str(),
    availableTools: fc.array(str(1, 10), { maxLength: 4 }),
  },
  { requiredKeys: ["hook", "session"] },
);

/** Each event field with a value of the wrong type for it. */
const WRONG: Record<string, fc.Arbitrary<unknown>> = {
  hook: fc.oneof(fc.integer(), fc.constant(null), str().filter((s) => !(HOOK_NAMES as readonly string[]).includes(s))),
  session: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer())),
  "session.id": fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant(""), fc.constant("x".repeat(513))),
  "session.cwd": fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(str(), str())),
  "session.agent": fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)),
  "session.subagent": fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
  tool: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
  "tool.name": fc.oneof(fc.integer(), fc.constant(""), fc.constant(null), fc.array(fc.string())),
  "tool.callId": fc.oneof(fc.integer(), fc.boolean()),
  "tool.input": fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer())),
  result: fc.oneof(fc.string(), fc.integer()),
  "result.text": fc.oneof(fc.integer(), fc.constant(null), fc.boolean()),
  "result.isError": fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
  message: fc.oneof(fc.string(), fc.integer()),
  "message.text": fc.oneof(fc.integer(), fc.constant(null)),
  stopReason: fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string())),
  prompt: fc.oneof(fc.integer(), fc.boolean(), fc.dictionary(str(), str())),
  availableTools: fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer(), { minLength: 1 })),
};

function withField(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(base);
  const keys = path.split(".");
  let obj: Record<string, unknown> = out;
  for (const k of keys.slice(0, -1)) {
    if (!obj[k] || typeof obj[k] !== "object") obj[k] = k === "tool" ? { name: "bash", input: {} } : k === "result" ? { text: "", isError: false } : { text: "" };
    obj = obj[k] as Record<string, unknown>;
  }
  obj[keys[keys.length - 1] as string] = value;
  return out;
}

describe("shepherd/evaluate (fuzz)", () => {
  it("should reject an array as the tool input (found by fuzzing: valibot's record accepts arrays)", async () => {
    const event = { hook: "tool_call", session: { id: "a", cwd }, tool: { name: "bash", input: ["rm -rf /"] } };
    const res = await dispatcher.handleMessage({ jsonrpc: "2.0", id: 1, method: "shepherd/evaluate", params: { event } });
    expect(res && "error" in res ? [res.error.code, res.error.data] : res).toEqual([ErrorCodes.InvalidParams, { path: "event.tool.input" }]);
  });

  it("should answer -32602 naming the path for a wrong type in any field", async () => {
    const fieldAndValue = fc.constantFrom(...Object.keys(WRONG)).chain((field) => fc.tuple(fc.constant(field), WRONG[field] as fc.Arbitrary<unknown>));
    await fc.assert(
      fc.asyncProperty(validEvent, fieldAndValue, fc.integer(), async (ev, [field, value], id) => {
        const event = withField({ ...ev, session: { ...ev.session, cwd } }, field, value);
        const res = await dispatcher.handleMessage({ jsonrpc: "2.0", id, method: "shepherd/evaluate", params: { event } });
        expect(res && "error" in res ? res.error.code : undefined).toBe(ErrorCodes.InvalidParams);
        const data = res && "error" in res ? (res.error.data as { path: string }) : undefined;
        expect(data?.path.startsWith(`event.${field}`)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("should return a well-formed Decision for any valid event", async () => {
    await fc.assert(
      fc.asyncProperty(validEvent, async (ev) => {
        const event = { ...ev, session: { ...ev.session, cwd } };
        const res = await dispatcher.handleMessage({ jsonrpc: "2.0", id: 1, method: "shepherd/evaluate", params: { event } });
        if (!res || !("result" in res)) throw new Error(`no result: ${JSON.stringify(res)}`);
        const d = res.result as Record<string, unknown>;
        expect(["allow", "block", "rewrite", "ask"]).toContain(d.action as string);
        for (const k of ["notify", "steer", "fired"]) expect(Array.isArray(d[k])).toBe(true);
        if (d.action === "block" || d.action === "ask") expect(typeof d.reason).toBe("string");
        if (d.action === "rewrite") expect(typeof d.input).toBe("object");
        const command = (ev.tool?.input as { command?: unknown } | undefined)?.command;
        if (ev.hook === "tool_call" && ev.tool && ["bash", "Bash"].includes(ev.tool.name) && command === "rm -rf /") expect(d.action).toBe("block");
      }),
      { numRuns: 1000 },
    );
  });
});

// ---- transport: concurrency, order, EOF ------------------------------------------------------

async function* once(chunks: Uint8Array[]): AsyncIterable<Uint8Array> {
  for (const c of chunks) yield c;
}

describe("serveStdio (fuzz)", () => {
  it("should answer every one of thousands of concurrent requests exactly once, then end at EOF", async () => {
    const n = 5000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const command = i % 3 === 0 ? "rm -rf /" : `echo ${i}`;
      lines.push(JSON.stringify({ jsonrpc: "2.0", id: i, method: i % 10 === 0 ? "ping" : "shepherd/evaluate", params: { event: { hook: "tool_call", session: { id: `s${i % 50}`, cwd }, tool: { name: "bash", input: { command } } } } }));
    }
    const out: string[] = [];
    const transport = serveStdio({ input: once(chunk(enc.encode(`${lines.join("\n")}\n`), [7, 4096, 100_000, 100_001])), write: (l) => out.push(l) }, dispatcher, quiet);
    await transport.done;
    expect(out.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    const byId = new Map<number, Record<string, unknown>>();
    for (const l of out) {
      const m = JSON.parse(l) as { id: number; result: Record<string, unknown> };
      expect(byId.has(m.id)).toBe(false);
      byId.set(m.id, m.result);
    }
    expect(byId.size).toBe(n);
    for (let i = 1; i < n; i++) if (i % 10 !== 0) expect(byId.get(i)?.action).toBe(i % 3 === 0 ? "block" : "allow");
  });

  it("should turn random bytes into errors and still answer the valid request after them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.nat(), { maxLength: 10 }), async (noise, cuts) => {
        const ping = enc.encode('\n{"jsonrpc":"2.0","id":"last","method":"ping"}\n');
        const out: string[] = [];
        const t = serveStdio({ input: once(chunk(new Uint8Array([...noise, ...ping]), cuts)), write: (l) => out.push(l) }, dispatcher, quiet, 1024);
        await t.done;
        const msgs = out.map((l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number } });
        expect(msgs.find((m) => m.id === "last")?.result).toEqual({});
        for (const m of msgs) if (m.error) expect(KNOWN_CODES.has(m.error.code)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("should answer deeply nested JSON without crashing", async () => {
    const deepArray = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    let deepInput = '"x"';
    for (let i = 0; i < 20_000; i++) deepInput = `{"a":${deepInput}}`;
    const evaluate = `{"jsonrpc":"2.0","id":2,"method":"shepherd/evaluate","params":{"event":{"hook":"tool_call","session":{"id":"d","cwd":${JSON.stringify(cwd)}},"tool":{"name":"custom","input":${deepInput}}}}}`;
    const out: string[] = [];
    const t = serveStdio({ input: once([enc.encode(`${deepArray}\n${evaluate}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n`)]), write: (l) => out.push(l) }, dispatcher, quiet);
    await t.done;
    const msgs = out.map((l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number } });
    expect(msgs).toHaveLength(3);
    expect(msgs.find((m) => m.id === 3)?.result).toEqual({});
    const ev = msgs.find((m) => m.id === 2);
    expect(ev?.result ?? ev?.error).toBeDefined();
  });
});
