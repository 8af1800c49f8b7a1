/**
 * @module A scripted stand-in for `shepherd serve`, for testing the pi extension's client side:
 * failure modes the real binary never shows on purpose (hanging, dying, malformed answers).
 *
 * FAKE_SIDECAR_MODE: allow (default) | hang | hang-init | die-on-evaluate | bad-decision
 * FAKE_SIDECAR_IGNORE_EOF=1 keeps it alive after stdin closes (only a signal ends it).
 * FAKE_SIDECAR_LOG=file appends every received line, and "exit <how>" when it ends.
 * In allow mode a bash command containing FAKE_BLOCK is blocked.
 */
import { appendFileSync } from "node:fs";

const mode = process.env.FAKE_SIDECAR_MODE ?? "allow";
const log = process.env.FAKE_SIDECAR_LOG;

function record(line: string): void {
  if (log) appendFileSync(log, `${process.env.FAKE_SIDECAR_TIMES ? `${Date.now()} ` : ""}${line}\n`);
}

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function answer(message: Record<string, unknown>): void {
  const { id, method, params } = message;
  if (id === undefined) return;
  if (method === "initialize") {
    if (mode === "hang-init") return;
    send({ jsonrpc: "2.0", id, result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "shepherd", version: "fake" } } });
    return;
  }
  if (mode === "hang") return;
  if (method === "shepherd/evaluate") {
    if (mode === "die-on-evaluate") {
      record("exit die-on-evaluate");
      process.exit(3);
    }
    if (mode === "bad-decision") {
      send({ jsonrpc: "2.0", id, result: { action: "explode" } });
      return;
    }
    const event = isRecord(params) && isRecord(params.event) ? params.event : {};
    const tool = isRecord(event.tool) ? event.tool : {};
    const input = isRecord(tool.input) ? tool.input : {};
    const command = typeof input.command === "string" ? input.command : "";
    if (event.hook === "tool_call" && command.includes("FAKE_BLOCK")) {
      send({ jsonrpc: "2.0", id, result: { action: "block", reason: `fake block: ${command}`, notify: [], steer: [], fired: [] } });
      return;
    }
    send({ jsonrpc: "2.0", id, result: { action: "allow", notify: [], steer: [], fired: [] } });
    return;
  }
  if (method === "ping") {
    send({ jsonrpc: "2.0", id, result: {} });
    return;
  }
  send({ jsonrpc: "2.0", id, error: { code: -32601, message: `unknown method ${String(method)}` } });
}

let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffer += chunk;
  let newline = buffer.indexOf("\n");
  while (newline !== -1) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    record(line);
    try {
      const message: unknown = JSON.parse(line);
      if (isRecord(message)) answer(message);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
    }
    newline = buffer.indexOf("\n");
  }
});
process.stdin.on("end", () => {
  if (process.env.FAKE_SIDECAR_IGNORE_EOF === "1") {
    // Keep the event loop busy so only a signal ends this process.
    setInterval(() => {}, 1 << 30);
    return;
  }
  record("exit eof");
  process.exit(0);
});
process.on("SIGTERM", () => {
  record("exit sigterm");
  process.exit(0);
});
