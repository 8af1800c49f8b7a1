/** @module where the bench finds the binary, bun, node and the peer guard. */
import { existsSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");
export const SHEPHERD = process.env.SHEPHERD_BIN ?? join(ROOT, "dist", "shepherd");
export const BUN = process.execPath;
export const NODE = Bun.which("node") ?? "node";
export const ECHO_SERVER = join(ROOT, "bench", "fixtures", "echo-server.ts");
export const HTTP_ECHO_SERVER = join(ROOT, "bench", "fixtures", "http-echo-server.ts");
export const NODE_HOOK = join(ROOT, "bench", "fixtures", "node-hook.mjs");
export const BARE_HOOK = join(ROOT, "bench", "fixtures", "bare-hook.ts");
export const PEER_GUARD = join(ROOT, "node_modules", "cc-safety-net", "dist", "bin", "cc-safety-net.js");

export function hasPeerGuard(): boolean {
  return existsSync(PEER_GUARD);
}
