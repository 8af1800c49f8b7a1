/**
 * @module black-box: `shepherd http` stays bounded in memory and connections however its clients behave. An
 * event stream that stops reading is dropped and told, the decision feed keeps short entries whatever the
 * commands, and idle or never-finished connections are closed.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { makeSandbox, run, type Sandbox, shepherdBin, writeGlobalRules } from "./helpers/agent-sandbox.ts";
import { type RunningHttp, startHttp } from "./helpers/http-server.ts";

let sb: Sandbox;
let srv: RunningHttp | undefined;
const env = () => ({ PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir });

beforeEach(() => {
  sb = makeSandbox("http-bounds");
  // A reason that quotes the command: what made every feed entry as big as the command.
  // The same command again and again is what the built-in loop rules stop; here it is load, so they are off.
  writeGlobalRules(sb, [
    { name: "quote-echo", action: "block", pattern: "^echo", reason: "blocked: {{command}}" },
    { name: "loop-same-call-steer", enabled: false },
    { name: "loop-same-call-block", enabled: false },
  ]);
});
afterEach(async () => {
  await srv?.stop();
  srv = undefined;
  sb.cleanup();
});

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Math.round(Number(kb) / 1024);
}

/** Sockets the server process holds open (its listener and every connection). */
function socketsOf(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed while listed
    }
  }
  return n;
}

interface RawClient {
  socket: Socket;
  received(): string;
  closed: Promise<number>;
}

/** A raw TCP client, so the test decides when it reads (fetch would read for it). */
function rawClient(url: string, request: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let got = "";
  const start = Date.now();
  socket.setEncoding("utf8");
  socket.on("data", (d: string) => void (got += d));
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now() - start)));
  return new Promise((ok, fail) => {
    socket.once("error", fail);
    socket.once("connect", () => {
      socket.write(request);
      ok({ socket, received: () => got, closed });
    });
  });
}

const get = (url: string, path: string) => `GET ${path} HTTP/1.1\r\nHost: ${new URL(url).host}\r\n\r\n`;

async function until(test: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (test()) return true;
    await Bun.sleep(50);
  }
  return test();
}

/** Posts `count` bash tool calls running `command` to /v1/evaluate, `parallel` at a time; calls `every` after each. */
async function evaluateMany(url: string, count: number, command: string, parallel: number, every: (n: number) => void): Promise<void> {
  const body = JSON.stringify({ hook: "tool_call", session: { id: "bounds", cwd: sb.proj }, tool: { name: "bash", input: { command } } });
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const res = await fetch(`${url}/v1/evaluate`, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(((await res.json()) as { action: string }).action).toBe("block");
      every(sent);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

type Entry = { seq: number; subject?: string; reason?: string };
function decisionsIn(sse: string): Entry[] {
  return sse
    .split("\n\n")
    .filter((block) => block.includes("event: decision"))
    .map((block) => JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as Entry);
}

describe("shepherd http memory", () => {
  it("should drop an event stream that stops reading while 15,000 decisions are evaluated, tell it, and stay under 250 MB", async () => {
    srv = await startHttp([], { cwd: sb.proj, env: env() });
    const pid = srv.child.pid ?? 0;
    const stalled = await rawClient(srv.url, get(srv.url, "/v1/events"));
    expect(await until(() => stalled.received().includes("event: hello"), 5_000)).toBe(true);
    stalled.socket.pause();
    let peak = rssMb(pid);
    await evaluateMany(srv.url, 15_000, `echo ${"y".repeat(7_000)}`, 4, (n) => {
      if (n % 500 === 0) peak = Math.max(peak, rssMb(pid));
    });
    peak = Math.max(peak, rssMb(pid));
    process.stderr.write(`http-bounds: peak VmRSS over 15,000 decisions with a stalled event stream: ${peak} MB\n`);
    expect(peak).toBeLessThan(250);
    // The stalled reader, once it reads again, finds why it got no more and the end of the stream.
    stalled.socket.resume();
    expect(await until(() => stalled.received().includes("event: dropped"), 15_000)).toBe(true);
    const notice = /event: dropped\ndata: (.*)\n/.exec(stalled.received())?.[1] ?? "{}";
    expect(JSON.parse(notice)).toMatchObject({ reason: expect.stringMatching(/fell behind/) });
    expect(decisionsIn(stalled.received()).length).toBeLessThan(15_000);
    expect(await until(() => stalled.received().endsWith("0\r\n\r\n"), 10_000)).toBe(true);
    stalled.socket.destroy();
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
  }, 240_000);

  it("should keep RSS bounded over 200 decisions on 4 MB commands and keep only short feed entries", async () => {
    srv = await startHttp([], { cwd: sb.proj, env: env() });
    const pid = srv.child.pid ?? 0;
    const stalled = await rawClient(srv.url, get(srv.url, "/v1/events"));
    expect(await until(() => stalled.received().includes("event: hello"), 5_000)).toBe(true);
    stalled.socket.pause();
    const command = `echo ${"z".repeat(4 * 1024 * 1024)}`;
    let after20 = 0;
    let peak = 0;
    await evaluateMany(srv.url, 200, command, 1, (n) => {
      const now = rssMb(pid);
      peak = Math.max(peak, now);
      if (n === 20) after20 = now;
    });
    const after200 = rssMb(pid);
    process.stderr.write(`http-bounds: VmRSS after 20 / 200 decisions on 4 MB commands: ${after20} / ${after200} MB (peak ${peak} MB)\n`);
    // Kept whole, 180 more commands would be 720 MB more at the least. The bound leaves room for what the
    // collector and the allocator give back late on a loaded machine (measured alone: -37 to +17 MB; in a
    // full suite on 2 busy CPUs: up to +105 MB), and still fails far below what keeping them would cost.
    expect(after200 - after20).toBeLessThan(250);
    // Issue 13's promise for any input a model controls: no face past 300 MB (a collection follows every
    // 32 MiB of input, lib/rpc/gc-policy.ts; ~190 MB measured alone, ~400 MB before on a busy host).
    expect(peak).toBeLessThan(300);
    stalled.socket.destroy();
    // A dashboard connecting now gets the history: every entry cut short, with the marker.
    const late = await rawClient(srv.url, get(srv.url, "/v1/events"));
    expect(await until(() => decisionsIn(late.received()).length >= 200, 15_000)).toBe(true);
    late.socket.destroy();
    const entries = decisionsIn(late.received());
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const e of entries) {
      expect(e.subject?.length ?? Infinity).toBeLessThan(400);
      expect(e.reason?.length ?? Infinity).toBeLessThan(2_100);
      expect(e.reason).toMatch(/… \[\d+ more characters\]$/);
    }
  }, 240_000);
});

describe("shepherd http connections", () => {
  it("should close an idle keep-alive connection after the idle timeout", async () => {
    srv = await startHttp(["--idle-timeout", "2"], { cwd: sb.proj, env: env() });
    const client = await rawClient(srv.url, get(srv.url, "/health"));
    expect(await until(() => client.received().includes('"ok":true'), 5_000)).toBe(true);
    const closedAfter = await Promise.race([client.closed, Bun.sleep(20_000).then(() => -1)]);
    client.socket.destroy();
    // Bun checks timeouts every few seconds: closed, and neither at once nor never.
    expect(closedAfter).toBeGreaterThan(1_000);
    expect(closedAfter).toBeLessThan(15_000);
  }, 30_000);

  it("should keep a live event stream open past the idle timeout with its heartbeat", async () => {
    srv = await startHttp(["--idle-timeout", "2"], { cwd: sb.proj, env: env() });
    const client = await rawClient(srv.url, get(srv.url, "/v1/events"));
    const outcome = await Promise.race([client.closed.then(() => "closed"), Bun.sleep(9_000).then(() => "open")]);
    client.socket.destroy();
    expect(outcome).toBe("open");
    expect(client.received().match(/event: ping/g)?.length ?? 0).toBeGreaterThan(3);
  }, 30_000);

  it("should close, after the idle timeout, the connection of an event stream it dropped that still does not read", async () => {
    srv = await startHttp(["--idle-timeout", "2"], { cwd: sb.proj, env: env() });
    const pid = srv.child.pid ?? 0;
    const baseline = socketsOf(pid);
    const stalled = await rawClient(srv.url, get(srv.url, "/v1/events"));
    expect(await until(() => stalled.received().includes("event: hello"), 5_000)).toBe(true);
    stalled.socket.pause();
    expect(socketsOf(pid)).toBe(baseline + 1);
    // Enough to fill the socket buffers and then the subscriber's queue.
    await evaluateMany(srv.url, 6_000, `echo ${"y".repeat(7_000)}`, 4, () => undefined);
    expect(await until(() => socketsOf(pid) === baseline, 20_000)).toBe(true);
    stalled.socket.destroy();
  }, 120_000);

  for (const bad of ["0", "256", "1.5", "soon"]) {
    it(`should refuse --idle-timeout ${bad}`, async () => {
      const r = await run(shepherdBin(), ["http", "--port", "0", "--idle-timeout", bad], { cwd: sb.proj, env: env(), timeoutMs: 20_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--idle-timeout must be an integer 1-255");
    });
  }

  it("should close a request whose body trickles in and never ends, within a few idle timeouts", async () => {
    srv = await startHttp(["--idle-timeout", "2"], { cwd: sb.proj, env: env() });
    const head = `POST /v1/evaluate HTTP/1.1\r\nHost: ${new URL(srv.url).host}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{`;
    const client = await rawClient(srv.url, head);
    const drip = setInterval(() => client.socket.write(" "), 500);
    const closedAfter = await Promise.race([client.closed, Bun.sleep(40_000).then(() => -1)]);
    clearInterval(drip);
    client.socket.destroy();
    expect(closedAfter).toBeGreaterThan(0);
    expect(closedAfter).toBeLessThan(15_000);
  }, 60_000);

  it("should close a connection that trickles its headers and never finishes them", async () => {
    srv = await startHttp([], { cwd: sb.proj, env: env() });
    const client = await rawClient(srv.url, `GET /health HTTP/1.1\r\nHost: ${new URL(srv.url).host}\r\nX-Slow: `);
    const drip = setInterval(() => client.socket.write("a"), 500);
    const closedAfter = await Promise.race([client.closed, Bun.sleep(40_000).then(() => -1)]);
    clearInterval(drip);
    client.socket.destroy();
    // Bun.serve's own deadline for a request's headers (about 10 s, not configurable).
    expect(closedAfter).toBeGreaterThan(0);
    expect(closedAfter).toBeLessThan(30_000);
    expect(client.received()).toBe("");
  }, 60_000);
});
