/**
 * @module the pack cache (`~/.pi/agent/shepherd/packs/`): one verified copy per pack content, named by the
 * pack's integrity (the hash of its locked file hashes), so a lock entry names exactly one copy. A copy is
 * complete once its `verified.json` stamp is written, which is written last.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import type { Env } from "../paths.ts";
import { cacheCopyDir, cacheFilesDir, packCacheRoot, safeRelativePath, STAMP_FILE } from "./locations.ts";
import type { LockEntry } from "./lock-file.ts";
import type { PackFile } from "./pack-tree.ts";

export { cacheCopyDir, cacheFilesDir, packCacheRoot, safeRelativePath, STAMP_FILE };

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
