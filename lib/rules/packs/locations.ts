/**
 * @module where packs live on disk: the lock file beside a rules file, the pack cache and a verified copy in
 * it. Apart from the rest of lib/rules/packs/ because a hook answering from its snapshot needs only these.
 */
import { dirname, join } from "node:path";
import { agentDir, type Env } from "../paths.ts";

export const LOCK_FILE_NAME = "shepherd-rules.lock";
export const STAMP_FILE = "verified.json";

/** The lock file that belongs to a rules file: in the same folder. */
export function lockFileFor(rulesFile: string): string {
  return join(dirname(rulesFile), LOCK_FILE_NAME);
}

export function packCacheRoot(env: Env): string {
  return join(agentDir(env), "shepherd", "packs");
}

/** The folder of the verified copy a lock entry names: readable name, then the integrity that decides. */
export function cacheCopyDir(env: Env, entry: { name: string; integrity: string }): string {
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
