/** @module Unit tests of the sidecar client against the scripted fake sidecar (tests/helpers/pi-fake-sidecar.ts). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SidecarClient, SidecarUnavailableError } from "./sidecar-client.ts";

const ROOT = resolve(import.meta.dir, "..");
const BUN = join(ROOT, "node_modules", ".bin", "bun");
const FAKE = join(ROOT, "tests", "helpers", "pi-fake-sidecar.ts");

let dir: string;
let log: string;
let clients: SidecarClient[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-client-"));
  log = join(dir, "fake.log");
  clients = [];
});
afterEach(async () => {
  for (const client of clients) await client.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

function client(env: Record<string, string>, overrides: { timeoutMs?: number; graceMs?: number; binary?: string } = {}): SidecarClient {
  const c = new SidecarClient({
    binary: overrides.binary ?? BUN,
    args: [FAKE, "serve"],
    cwd: dir,
    env: { ...process.env, FAKE_SIDECAR_LOG: log, ...env },
    timeoutMs: overrides.timeoutMs ?? 2000,
    graceMs: overrides.graceMs ?? 1000,
  });
  clients.push(c);
  return c;
}

const EVENT = { event: { hook: "tool_call", session: { id: "s", cwd: "/" }, tool: { name: "bash", input: { command: "FAKE_BLOCK now" } } } };

async function failure(promise: Promise<unknown>): Promise<SidecarUnavailableError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SidecarUnavailableError) return error;
    throw error;
  }
  throw new Error("expected the request to fail");
}

describe("SidecarClient", () => {
  it("should initialize, confirm with notifications/initialized, and answer requests", async () => {
    const c = client({});
    const answer = await c.request("shepherd/evaluate", EVENT);
    expect(answer).toMatchObject({ action: "block", reason: "fake block: FAKE_BLOCK now" });
    const lines = readFileSync(log, "utf8").split("\n");
    expect(lines[0]).toContain('"method":"initialize"');
    expect(lines[1]).toContain('"method":"notifications/initialized"');
    expect(c.starts).toBe(1);
  });

  it("should fail a request the sidecar never answers with a timeout, and start a fresh sidecar for the next", async () => {
    const c = client({ FAKE_SIDECAR_MODE: "hang" }, { timeoutMs: 300 });
    const error = await failure(c.request("shepherd/evaluate", EVENT));
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain("did not answer shepherd/evaluate within 300 ms");
    await failure(c.request("shepherd/evaluate", EVENT));
    expect(c.starts).toBe(2);
  });

  it("should retry once on a fresh sidecar when the process dies under a request", async () => {
    const c = client({ FAKE_SIDECAR_MODE: "die-on-evaluate" });
    const error = await failure(c.request("shepherd/evaluate", EVENT));
    expect(error.kind).toBe("exited");
    expect(c.starts).toBe(2);
    expect(readFileSync(log, "utf8").match(/exit die-on-evaluate/g)?.length).toBe(2);
  });

  it("should report a binary that cannot run as unavailable", async () => {
    const c = client({}, { binary: join(dir, "no-such-binary") });
    const error = await failure(c.request("ping", {}));
    expect(error.message).toContain("no-such-binary");
  });

  it("should never start a sidecar once shutdown has begun", async () => {
    const c = client({});
    await c.shutdown();
    const error = await failure(c.request("ping", {}));
    expect(error.kind).toBe("closed");
    expect(c.starts).toBe(0);
    expect(existsSync(log)).toBe(false);
  });

  it("should not restart a dead sidecar after stopRestarts", async () => {
    const c = client({ FAKE_SIDECAR_MODE: "die-on-evaluate" });
    await c.start();
    c.stopRestarts();
    const error = await failure(c.request("shepherd/evaluate", EVENT));
    expect(error.kind).toBe("exited");
    await failure(c.request("ping", {}));
    expect(c.starts).toBe(1);
  });

  it("should close stdin on shutdown, then SIGTERM a sidecar that does not leave", async () => {
    const polite = client({});
    await polite.start();
    await polite.shutdown();
    expect(readFileSync(log, "utf8")).toContain("exit eof");
    rmSync(log);
    const stubborn = client({ FAKE_SIDECAR_IGNORE_EOF: "1" }, { graceMs: 300 });
    await stubborn.start();
    await stubborn.shutdown();
    expect(readFileSync(log, "utf8")).toContain("exit sigterm");
  });
});
