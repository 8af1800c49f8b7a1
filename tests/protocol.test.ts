import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject;
let sc: Sidecar;

beforeEach(() => {
  tp = tempProject();
  mkdirSync(join(tp.project, ".pi"));
  writeFileSync(join(tp.project, ".pi/shepherd-rules.json"), JSON.stringify([{ name: "no-rm", action: "block", pattern: "rm -rf", reason: "no {{command}}" }]));
  sc = new Sidecar(tp.project, tp.env);
});

afterEach(async () => {
  if (sc.child.exitCode === null) await sc.close();
  tp.cleanup();
});

describe("shepherd serve", () => {
  it("should answer the MCP lifecycle", async () => {
    const init = await sc.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect(init.result).toMatchObject({
      capabilities: { tools: { listChanged: true }, logging: {}, experimental: { shepherd: { version: 1 } } },
      serverInfo: { name: "shepherd" },
    });
    sc.sendRaw('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    expect((await sc.request("ping")).result).toEqual({});
    const tools = (await sc.request("tools/list")).result as { tools: { name: string }[] };
    expect(tools.tools.map((t) => t.name)).toContain("shepherd_rules");
  });

  it.each([
    ["not json at all\n", -32700],
    ['{"jsonrpc":"2.0","id":7,"method":"no/such"}\n', -32601],
    ['{"jsonrpc":"2.0","id":8,"method":"shepherd/evaluate","params":{"event":{"hook":"nope","session":{"id":"a","cwd":"/"}}}}\n', -32602],
    ['{"jsonrpc":"1.0","id":9,"method":"ping"}\n', -32600],
  ])("should answer %p with error %p and keep serving", async (line, code) => {
    sc.sendRaw(line);
    const err = await sc.waitFor((m) => m.error?.code === code);
    expect(err.error?.message).toBeTruthy();
    expect(JSON.stringify(err.error)).not.toContain("    at ");
    expect((await sc.request("ping")).result).toEqual({});
  });

  it("should name the offending path of invalid params in data", async () => {
    const res = await sc.request("shepherd/evaluate", { event: { hook: "tool_call", session: { id: "x" } } });
    expect(res.error).toMatchObject({ code: -32602, data: { path: "event.session.cwd" } });
  });

  it("should evaluate with project rules and answer concurrent requests by id", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => i);
    const answers = await Promise.all(ids.map((i) => sc.evaluate(bashEvent(i % 2 ? `rm -rf d${i}` : `ls d${i}`, tp.project))));
    answers.forEach((d, i) => {
      expect(d.action).toBe(i % 2 ? "block" : "allow");
      if (i % 2) expect(d.reason).toBe(`no rm -rf d${i}`);
    });
  });

  it("should reject an over-long line with an error and keep serving", async () => {
    sc.sendRaw(`${"x".repeat(9 * 1024 * 1024)}\n`);
    const err = await sc.waitFor((m) => m.error?.code === -32600, 20_000);
    expect(err.error?.message).toMatch(/line too long/);
    expect((await sc.request("ping")).result).toEqual({});
  });

  it("should accept a 3 MiB write in one line", async () => {
    const event = { hook: "tool_call", session: { id: "w", cwd: tp.project }, tool: { name: "write", input: { path: "big.txt", content: "y".repeat(3 * 1024 * 1024) } } };
    expect((await sc.evaluate(event)).action).toBe("allow");
  });

  it("should return a hint once at the next before_provider_request", async () => {
    expect((await sc.request("shepherd/hint", { session: { id: "h" }, text: "read the notes" })).result).toEqual({});
    const ev = { hook: "before_provider_request", session: { id: "h", cwd: tp.project } };
    expect((await sc.evaluate(ev)).steer).toEqual(["read the notes"]);
    expect((await sc.evaluate(ev)).steer).toEqual([]);
  });

  it("should exit 0 on stdin EOF after answering what is in flight", async () => {
    sc.sendRaw(`${JSON.stringify({ jsonrpc: "2.0", id: 99, method: "shepherd/evaluate", params: { event: bashEvent("rm -rf x", tp.project) } })}\n`);
    const code = await sc.close();
    expect(code).toBe(0);
    expect(sc.messages.find((m) => m.id === 99)?.result).toMatchObject({ action: "block" });
  });

  it("should exit 0 on SIGTERM", async () => {
    await sc.request("ping");
    sc.child.kill("SIGTERM");
    expect(await sc.exited).toBe(0);
  });

  it("should cap one rule's notify at the default maxWarnings of 3 per session", async () => {
    writeFileSync(join(tp.project, ".pi/shepherd-rules-notes.json"), JSON.stringify([{ name: "note-ls", action: "notify", pattern: "^ls", reason: "listing" }]));
    await sc.request("shepherd/reload");
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) counts.push(((await sc.evaluate(bashEvent("ls", tp.project, "cap"))).notify as string[]).length);
    expect(counts).toEqual([1, 1, 1, 0, 0]);
    expect(((await sc.evaluate(bashEvent("ls", tp.project, "other-session"))).notify as string[]).length).toBe(1);
  });

  it("should keep U+2028 inside a line as data", async () => {
    const d = await sc.evaluate(bashEvent("echo a\u2028b && rm -rf x", tp.project));
    expect(d.action).toBe("block");
  });
});
