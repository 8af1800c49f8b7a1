/**
 * @module the pack cache (`~/.pi/agent/shepherd/packs/`): one verified copy per pack content, named by the
 * pack's integrity (the hash of its locked file hashes), so a lock entry names exactly one copy. A copy is
 * complete once its `verified.json` stamp is written, which is written last.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import { agentDir, type Env } from "../paths.ts";
import type { LockEntry } from "./lock-file.ts";
import type { PackFile } from "./pack-tree.ts";

export const STAMP_FILE = "verified.json";

export function packCacheRoot(env: Env): string {
  return join(agentDir(env), "shepherd", "packs");
}

/** The folder of the verified copy a lock entry names: readable name, then the integrity that decides. */
export function cacheCopyDir(env: Env, entry: Pick<LockEntry, "name" | "integrity">): string {
  const safe = entry.name.replace(/[^a-zA-Z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(0, 64) || "pack";
  return join(packCacheRoot(env), `${safe}-${entry.integrity.slice(0, 32)}`);
}

/** The pack's own files inside a copy (apart from the stamp, so no pack file can pass for it). */
export function cacheFilesDir(copyDir: string): string {
  return join(copyDir, "files");
}

/** A path from a pack's listing that stays inside the folder it is joined to. */
export function safeRelativePath(p: string): boolean {
  if (p === "" || p.startsWith("/") || p.includes("\\") || p.includes("\0")) return false;
  return p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}

/** Writes a verified copy of the pack (every file, then the stamp). Returns a problem, or undefined. */
export function storeVerifiedCopy(env: Env, spec: string, entry: LockEntry, files: readonly PackFile[]): string | undefined {
  const dir = cacheCopyDir(env, entry);
  const filesDir = cacheFilesDir(dir);
  try {
    mkdirSync(filesDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    return `cannot create ${filesDir}: ${err instanceof Error ? err.message : String(err)}`;
  }
  for (const f of files) {
    if (!safeRelativePath(f.path)) return `refused file name in the pack: ${JSON.stringify(f.path)}`;
    const written = writeFileAtomic(join(filesDir, f.path), f.bytes, { mode: 0o600, dirMode: 0o700 });
    if (!written.ok) return written.reason;
  }
  const stamp = { spec, integrity: entry.integrity, ...(entry.kind === "git" ? { commit: entry.commit } : { version: entry.version }), files: entry.files };
  const written = writeFileAtomic(join(dir, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`, { mode: 0o600 });
  return written.ok ? undefined : written.reason;
}
