/**
 * @module what a hook's rule snapshot depends on through packs, known without hashing a pack: each lock file's
 * text, and the stat identity (device, inode, size, mtime, ctime) of every locked file in each place a pack is
 * looked for, with the cache copy's verified stamp. A snapshot is saved only by a load that hashed them all,
 * so while these are unchanged (ctime cannot be set back by a writer) the snapshot holds the verified rules.
 */
import { join } from "node:path";
import { identityKey, MAX_SETTINGS_BYTES, readBounded, statIdentity } from "../../fs/bounded-read.ts";
import { textFingerprint } from "../../hash.ts";
import type { Env } from "../paths.ts";
import { cacheCopyDir, cacheFilesDir, lockFileFor, safeRelativePath, STAMP_FILE } from "./locations.ts";

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function statKey(file: string): string {
  const id = statIdentity(file);
  return id ? identityKey(id) : "-";
}

/**
 * One string for the snapshot key. `rulesFiles` are the rules files of every layer (their lock files are
 * beside them); `allowed` is the managed allow-list, which decides which packs load. Costs a failed open per
 * lock file when no pack is used; no valibot, no hashing.
 */
export function packSnapshotKey(ctx: { cwd: string; env: Env }, rulesFiles: readonly string[], allowed: readonly string[] | undefined): string {
  const parts = [`packsAllowed=${allowed === undefined ? "*" : JSON.stringify(allowed)}`];
  for (const lockFile of new Set(rulesFiles.map(lockFileFor))) {
    const read = readBounded(lockFile, MAX_SETTINGS_BYTES);
    if (!read.ok) {
      parts.push(`lock\0${lockFile}\0${read.reason === "missing" ? "-" : `!${read.message}`}`);
      continue;
    }
    parts.push(`lock\0${lockFile}\0${textFingerprint(read.text)}`);
    let data: unknown;
    try {
      data = JSON.parse(read.text);
    } catch {
      continue;
    }
    const packs = isRecord(data) && isRecord(data.packs) ? data.packs : {};
    for (const [spec, entry] of Object.entries(packs)) {
      if (!isRecord(entry) || typeof entry.name !== "string" || typeof entry.integrity !== "string" || !/^[0-9a-f]{64}$/.test(entry.integrity) || !isRecord(entry.files)) continue;
      const paths = Object.keys(entry.files).filter(safeRelativePath).sort();
      const copy = cacheCopyDir(ctx.env, { name: entry.name, integrity: entry.integrity });
      const dirs = [cacheFilesDir(copy)];
      if (entry.kind === "npm") dirs.unshift(join(ctx.cwd, "node_modules", ...spec.split("/")));
      parts.push(`pack\0${spec}\0stamp:${statKey(join(copy, STAMP_FILE))}`);
      for (const dir of dirs) for (const p of paths) parts.push(`${dir}/${p}\0${statKey(join(dir, p))}`);
    }
  }
  return parts.join("\n");
}
