/** @module a JSON-RPC client over a child's stdio, for timing one request at a time (round-trip latency). */
import { readFileSync } from "node:fs";
import type { Subprocess } from "bun";

export interface LineClient {
  /** Sends one request and resolves with its response (parsed). */
  request(method: string, params: unknown): Promise<Record<string, unknown>>;
  /** Sends a pre-serialized request line (with its id) and resolves when the answer to `id` arrives. */
  send(id: number, line: string): Promise<Record<string, unknown>>;
  nextId(): number;
  pid: number;
  close(): Promise<void>;
}

export function spawnLineClient(cmd: string[], opts: { cwd: string; env: Record<string, string> }): LineClient {
  const proc: Subprocess<"pipe", "pipe", "inherit"> = Bun.spawn(cmd, { cwd: opts.cwd, env: opts.env, stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const waiting = new Map<number, (msg: Record<string, unknown>) => void>();
  let id = 0;
  const decoder = new TextDecoder();
  const pump = (async () => {
    let pending = "";
    const reader = proc.stdout.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let nl = pending.indexOf("\n");
      while (nl !== -1) {
        const msg = JSON.parse(pending.slice(0, nl)) as Record<string, unknown>;
        pending = pending.slice(nl + 1);
        const key = msg.id;
        if (typeof key === "number") {
          const resolve = waiting.get(key);
          waiting.delete(key);
          resolve?.(msg);
        }
        nl = pending.indexOf("\n");
      }
    }
  })();
  const send = (key: number, line: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(key, resolve);
      proc.stdin.write(line);
      void proc.stdin.flush();
    });
  return {
    nextId: () => ++id,
    send,
    request(method, params) {
      const key = ++id;
      return send(key, `${JSON.stringify({ jsonrpc: "2.0", id: key, method, params })}\n`);
    },
    pid: proc.pid,
    async close() {
      void proc.stdin.end();
      await Promise.race([proc.exited, Bun.sleep(2000)]);
      proc.kill();
      await pump.catch(() => undefined);
    },
  };
}

/** Resident set size of a process, from /proc (Linux). */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
