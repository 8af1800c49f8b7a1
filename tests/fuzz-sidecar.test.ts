/**
 * @module black-box protocol fuzzing of `dist/shepherd serve`: garbage, invalid UTF-8, truncated and
 * concatenated messages, over-long lines, deep nesting, a flood of concurrent requests. The process
 * must answer every valid request, error every invalid one, keep its memory bounded, exit 0 on EOF.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { bashEvent, type Message, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let project: TempProject | undefined;
let sidecar: Sidecar | undefined;
afterEach(async () => {
  if (sidecar && sidecar.child.exitCode === null) {
    sidecar.child.kill("SIGKILL");
    await sidecar.exited;
  }
  project?.cleanup();
  project = undefined;
  sidecar = undefined;
});

function start(): { p: TempProject; s: Sidecar } {
  const p = tempProject("shepherd-fuzz-bin-");
  project = p;
  sidecar = new Sidecar(p.project, p.env);
  return { p, s: sidecar };
}

/** Resident memory of a child in MiB (Linux); undefined elsewhere. */
function rssMiB(pid: number | undefined): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const errorsOf = (s: Sidecar): Message[] => s.messages.filter((m) => m.error);

describe("shepherd serve under hostile input", () => {
  it("should survive random bytes and invalid UTF-8, answer a ping after each burst, and exit 0 on EOF", async () => {
    const { s } = start();
    const bursts = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 4000 }), { numRuns: 40, seed: 42 });
    bursts.push(new Uint8Array([0xc3, 0x28, 10, 0xed, 0xa0, 0x80, 10, 0xf8, 0x88, 0x80, 0x80, 0x80, 10]));
    for (const [i, b] of bursts.entries()) {
      // The LF ends the burst's last partial line, so the ping starts a line of its own.
      s.child.stdin.write(b);
      s.sendRaw("\n");
      expect((await s.request("ping")).result).toEqual({});
      if (i % 10 === 0) expect(s.child.exitCode).toBeNull();
    }
    for (const e of errorsOf(s)) expect([-32700, -32600, -32601, -32602]).toContain(e.error?.code ?? 0);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it("should error truncated and concatenated messages and keep serving", async () => {
    const { p, s } = start();
    const ev = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "shepherd/evaluate", params: { event: bashEvent("ls", p.project) } });
    s.sendRaw(`${ev.slice(0, 30)}\n${ev}${ev}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    const pong = await s.waitFor((m) => m.id === 2);
    expect(pong.result).toEqual({});
    expect(errorsOf(s).map((m) => [m.id, m.error?.code])).toEqual([
      [null, -32700],
      [null, -32700],
    ]);
    // A message cut short by EOF is still answered (with an error) before the exit.
    s.sendRaw('{"jsonrpc":"2.0","id":3,"method":"pi');
    expect(await s.close()).toBe(0);
    expect(errorsOf(s)).toHaveLength(3);
  });

  it("should refuse over-long lines with bounded memory and still take a large valid write", async () => {
    const { p, s } = start();
    await s.request("ping");
    const before = rssMiB(s.child.pid);
    const huge = "x".repeat(9 * 1024 * 1024);
    for (let i = 0; i < 4; i++) s.sendRaw(`{"jsonrpc":"2.0","id":"big${i}","method":"ping","params":{"pad":"${huge}"}}\n`);
    const pong = await s.request("ping");
    expect(pong.result).toEqual({});
    const tooLong = s.messages.filter((m) => m.error?.message.includes("line too long"));
    expect(tooLong).toHaveLength(4);
    expect(tooLong[0]?.error?.code).toBe(-32600);
    const content = "y".repeat(6 * 1024 * 1024);
    const d = await s.evaluate({ hook: "tool_call", session: { id: "w", cwd: p.project }, tool: { name: "write", input: { path: "big.txt", content } } });
    expect(d.action).toBe("allow");
    const after = rssMiB(s.child.pid);
    // 36 MiB of refused lines and a 6 MiB write must not stay resident: generous bound for GC slack.
    if (process.platform === "linux") {
      // Measured wherever /proc exists: an unreadable reading is a failure, not a pass.
      expect(before).toBeNumber();
      expect(after).toBeNumber();
      expect((after ?? Number.POSITIVE_INFINITY) - (before ?? 0)).toBeLessThan(200);
    }
    expect(await s.close()).toBe(0);
  });

  it("should answer deeply nested JSON and keep serving", async () => {
    const { p, s } = start();
    s.sendRaw(`${"[".repeat(500_000)}\n`);
    s.sendRaw(`${"{\"a\":".repeat(100_000)}1${"}".repeat(100_000)}\n`);
    let deep = '"rm -rf /"';
    for (let i = 0; i < 50_000; i++) deep = `{"a":${deep}}`;
    s.sendRaw(`{"jsonrpc":"2.0","id":"deep","method":"shepherd/evaluate","params":{"event":{"hook":"tool_call","session":{"id":"d","cwd":${JSON.stringify(p.project)}},"tool":{"name":"custom","input":{"command":"ls","x":${deep}}}}}}\n`);
    const res = await s.waitFor((m) => m.id === "deep", 30_000);
    expect(res.result ?? res.error).toBeDefined();
    expect((await s.request("ping")).result).toEqual({});
    expect(await s.close()).toBe(0);
  });

  it("should answer thousands of concurrent requests, each id once", async () => {
    const { p, s } = start();
    const n = 3000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(JSON.stringify({ jsonrpc: "2.0", id: i, method: "shepherd/evaluate", params: { event: bashEvent(i % 2 ? "ls" : "rm -rf /", p.project, `s${i % 7}`) } }));
    s.sendRaw(`${lines.join("\n")}\n`);
    await s.waitFor(() => s.messages.length >= n, 60_000);
    const ids = new Set(s.messages.map((m) => m.id));
    expect(ids.size).toBe(n);
    expect(s.messages.every((m) => m.result !== undefined)).toBe(true);
    expect(await s.close()).toBe(0);
  });
});
