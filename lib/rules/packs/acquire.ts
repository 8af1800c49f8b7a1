/**
 * @module what `shepherd pack add|update|verify` do with one pack: read it from its source (an npm pack from
 * the project's node_modules, a git pack fetched at its commit), turn it into a lock entry, keep a verified copy
 * in the cache, and check a locked pack the way a load does.
 */
import { join } from "node:path";
import { isPlainRecord } from "../../engine/guard-kit.ts";
import type { Env } from "../paths.ts";
import { cacheCopyDir, cacheFilesDir, storeVerifiedCopy } from "./cache.ts";
import { fetchGitPack, type GitFetchOptions } from "./git-fetch.ts";
import type { LockEntry } from "./lock-file.ts";
import { compareToLock, integrityOf, type PackFile, readPackTree } from "./pack-tree.ts";
import { locatePack } from "./resolve.ts";
import type { PackSpec } from "./spec.ts";

export interface AcquireContext {
  cwd: string;
  env: Env;
  git?: GitFetchOptions;
}

export type Acquired = { ok: true; entry: LockEntry; files: PackFile[] } | { ok: false; message: string };

function fileMap(files: readonly PackFile[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) out[f.path] = f.sha256;
  return out;
}

function versionOf(files: readonly PackFile[]): string {
  const pkg = files.find((f) => f.path === "package.json");
  if (!pkg) return "";
  try {
    const data: unknown = JSON.parse(new TextDecoder().decode(pkg.bytes));
    return isPlainRecord(data) && typeof data.version === "string" ? data.version.slice(0, 64) : "";
  } catch {
    return "";
  }
}

/** Reads a pack from its source as it is now (not from the cache): what `add` and `update` lock. */
export async function acquireFromSource(pack: PackSpec, ctx: AcquireContext): Promise<Acquired> {
  if (pack.kind === "npm") {
    const dir = join(ctx.cwd, "node_modules", ...pack.name.split("/"));
    const tree = readPackTree(dir);
    if (!tree.ok) return { ok: false, message: tree.message.endsWith("is missing") ? `${dir} is missing: run \`npm install ${pack.name}\` first` : `${dir}: ${tree.message}` };
    const files = fileMap(tree.files);
    return { ok: true, files: tree.files, entry: { kind: "npm", name: pack.name, version: versionOf(tree.files), integrity: integrityOf(files), files } };
  }
  const fetched = await fetchGitPack(pack.url, pack.commit, ctx.git);
  if (!fetched.ok) return { ok: false, message: `${pack.url}#${pack.commit}: ${fetched.message}` };
  const files = fileMap(fetched.files);
  return { ok: true, files: fetched.files, entry: { kind: "git", name: pack.name, url: pack.url, commit: pack.commit, integrity: integrityOf(files), files } };
}

/** Acquires and keeps a verified copy in the cache. */
export async function acquireAndStore(pack: PackSpec, ctx: AcquireContext): Promise<Acquired> {
  const got = await acquireFromSource(pack, ctx);
  if (!got.ok) return got;
  const stored = storeVerifiedCopy(ctx.env, pack.spec, got.entry, got.files);
  return stored ? { ok: false, message: `the pack cache: ${stored}` } : got;
}

export type Verified = { ok: true; dir: string; fetched: boolean; stored: boolean } | { ok: false; message: string };

/**
 * Checks a locked pack as a load would (every file against the lock). A git pack not in the cache is fetched
 * at its commit first, and any source that matches the lock is kept as the verified copy when the cache has
 * none. Never changes the lock.
 */
export async function verifyLocked(pack: PackSpec, entry: LockEntry, ctx: AcquireContext): Promise<Verified> {
  const copy = cacheFilesDir(cacheCopyDir(ctx.env, entry));
  let fetched = false;
  let stored = false;
  const cached = readPackTree(copy);
  if (!cached.ok || compareToLock(cached.files, entry.files).length > 0) {
    if (pack.kind === "git") {
      const got = await fetchGitPack(pack.url, pack.commit, ctx.git);
      if (!got.ok) return { ok: false, message: `cannot fetch it: ${got.message}` };
      fetched = true;
      const diff = compareToLock(got.files, entry.files);
      if (diff.length > 0) return { ok: false, message: `the fetched commit does not match the lock: ${diff.slice(0, 3).join("; ")}` };
      const problem = storeVerifiedCopy(ctx.env, pack.spec, entry, got.files);
      if (problem) return { ok: false, message: `the pack cache: ${problem}` };
      stored = true;
    } else {
      const src = readPackTree(join(ctx.cwd, "node_modules", ...pack.name.split("/")));
      if (src.ok && compareToLock(src.files, entry.files).length === 0) {
        const problem = storeVerifiedCopy(ctx.env, pack.spec, entry, src.files);
        if (problem) return { ok: false, message: `the pack cache: ${problem}` };
        stored = true;
      }
    }
  }
  const found = locatePack(pack, entry, ctx);
  if (!found.ok) return { ok: false, message: found.message };
  if (found.located.refused) return { ok: false, message: `${found.located.refused}; refused (its verified copy ${found.located.dir} would be used)` };
  return { ok: true, dir: found.located.dir, fetched, stored };
}
