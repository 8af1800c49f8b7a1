/**
 * @module a pack folder read at a bounded cost: every file hashed (sha256), only regular files, symbolic links
 * only to files inside the pack, at most MAX_PACK_FILES files and MAX_PACK_BYTES bytes, never a blocking open.
 */
import { closeSync, lstatSync, readdirSync, readSync, realpathSync, type Stats, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { formatBytes, kindOf, MAX_RULE_FILE_BYTES, openRegular } from "../../fs/bounded-read.ts";
import { sha256 } from "../../hash.ts";

/** A pack holds at most this many files (what is hashed and locked), ... */
export const MAX_PACK_FILES = 256;
/** ... adding up to this many bytes, ... */
export const MAX_PACK_BYTES = 16 * 1024 * 1024;
/** ... in folders at most this deep. */
export const MAX_PACK_DEPTH = 16;

/** Never part of a pack: its own dependencies and a repository's metadata. */
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

export interface PackFile {
  /** Relative to the pack root, `/`-separated. */
  path: string;
  sha256: string;
  bytes: Uint8Array;
}

/** How many pack folders this process has read and hashed: the work count tests and the bench check (a snapshot hook reads none). */
export const packTreeStats = { reads: 0 };

/** `bytes`: what was read before the refusal (counted against a load's read budget). */
export type PackTree = { ok: true; files: PackFile[] } | { ok: false; message: string; bytes?: number };


/** One hash for the whole pack: of its sorted `path NUL sha256` lines. Names its verified copy in the cache. */
export function integrityOf(files: Readonly<Record<string, string>>): string {
  const lines = Object.keys(files)
    .sort()
    .map((p) => `${p}\0${files[p]}\n`);
  return sha256(lines.join(""));
}

/** The bytes of a regular file within `max`: refused (not read) when it is a FIFO, a device, or larger. */
export function readBytesBounded(file: string, max: number): { ok: true; bytes: Uint8Array } | { ok: false; message: string } {
  const opened = openRegular(file);
  if (!opened.ok) return { ok: false, message: opened.message };
  const { fd, identity } = opened;
  try {
    if (identity.size > max) return { ok: false, message: `larger than ${formatBytes(max)}` };
    const buf = new Uint8Array(Math.min(identity.size + 1, max + 1));
    let got = 0;
    for (;;) {
      if (got === buf.length) break;
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > max || got > identity.size) return { ok: false, message: "changed while it was read" };
    return { ok: true, bytes: buf.subarray(0, got) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  } finally {
    closeSync(fd);
  }
}

function within(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep) && rel.split(sep)[0] !== "..";
}

/**
 * Every file of the pack at `dir`, hashed, in path order. Any file that cannot be part of a pack (a FIFO, a
 * device, a socket, a link out of the pack or to a folder, too many, too large, too deep) refuses the whole
 * pack: a pack is verified whole or not used.
 */
export function readPackTree(dir: string, maxBytes = MAX_PACK_BYTES): PackTree {
  packTreeStats.reads++;
  let root: string;
  try {
    root = realpathSync(dir);
    if (!statSync(root).isDirectory()) return { ok: false, message: `${dir} is not a folder` };
  } catch {
    return { ok: false, message: `${dir} is missing` };
  }
  const files: PackFile[] = [];
  let total = 0;
  const walk = (abs: string, depth: number): string | undefined => {
    if (depth > MAX_PACK_DEPTH) return `${relative(root, abs)}: folders nest deeper than ${MAX_PACK_DEPTH}`;
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch (err) {
      return `${relative(root, abs) || "."}: ${err instanceof Error ? err.message : String(err)}`;
    }
    for (const name of names) {
      const full = join(abs, name);
      const rel = relative(root, full).split(sep).join("/");
      let st: Stats;
      try {
        st = lstatSync(full);
      } catch (err) {
        return `${rel}: ${err instanceof Error ? err.message : String(err)}`;
      }
      if (st.isDirectory()) {
        if (SKIPPED_DIRS.has(name)) continue;
        const problem = walk(full, depth + 1);
        if (problem) return problem;
        continue;
      }
      if (st.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(full);
        } catch {
          return `${rel}: a symbolic link to nothing`;
        }
        if (!within(root, target)) return `${rel}: a symbolic link out of the pack (${target})`;
        try {
          st = statSync(target);
        } catch {
          return `${rel}: a symbolic link to nothing`;
        }
        if (!st.isFile()) return `${rel}: a symbolic link to ${st.isDirectory() ? "a folder" : kindOf(st)} (only links to files inside the pack are followed)`;
      } else if (!st.isFile()) return `${rel}: ${kindOf(st)}, not a regular file`;
      if (files.length >= MAX_PACK_FILES) return `more than ${MAX_PACK_FILES} files`;
      const read = readBytesBounded(full, Math.min(MAX_RULE_FILE_BYTES, maxBytes - total));
      if (!read.ok) return `${rel}: ${read.message} (a pack may hold ${formatBytes(maxBytes)} here, each file ${formatBytes(MAX_RULE_FILE_BYTES)})`;
      total += read.bytes.length;
      files.push({ path: rel, sha256: sha256(read.bytes), bytes: read.bytes });
    }
    return undefined;
  };
  const problem = walk(root, 0);
  if (problem) return { ok: false, message: problem, bytes: total };
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, files };
}

/** The differences between a pack as found and as locked, each naming the file; empty when they agree. */
export function compareToLock(found: readonly PackFile[], locked: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    seen.add(f.path);
    const want = locked[f.path];
    if (want === undefined) out.push(`${f.path}: not in the lock (added)`);
    else if (want !== f.sha256) out.push(`${f.path}: sha256 ${f.sha256.slice(0, 12)}… does not match the lock's ${want.slice(0, 12)}…`);
  }
  for (const p of Object.keys(locked).sort()) if (!seen.has(p)) out.push(`${p}: missing (in the lock)`);
  return out;
}
