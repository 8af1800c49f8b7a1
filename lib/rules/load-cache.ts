/**
 * @module a disk cache of loaded rule files for one-shot hook processes. Validating a thousand rules (JSON,
 * valibot, regex checks) costs a cold process more than its whole time budget; the result depends only
 * on the file's text, so it is kept under the agent folder, keyed by path, and used while the text hashes
 * the same. Small files are not worth a second read and are never cached.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import type { LoadResult } from "../engine/load.ts";
import { type Gate, gatesOf, primeGates } from "../engine/prefilter.ts";
import { analysesOf, type PatternAnalysis, primeAnalyses } from "../engine/regex-safety.ts";
import type { LayerName } from "../engine/schema.ts";
import { fastHash, textHash } from "../hash.ts";
import { MAX_CACHE_ENTRY_BYTES, readBounded } from "../fs/bounded-read.ts";
import { type FailureCache, fileFailureCache } from "./load-failure-cache.ts";

export interface RuleLoadCache extends Partial<FailureCache> {
  get(file: string, source: LayerName, text: string): LoadResult | undefined;
  set(file: string, source: LayerName, text: string, result: LoadResult): void;
}

/**
 * An entry as read back: a regular file within MAX_CACHE_ENTRY_BYTES. Not depth-scanned: JSON.parse does not
 * recurse, the entry holds rules that passed the depth cap on load, and the scan cost a hook that misses its
 * snapshot 6 ms of ~80.
 */
function readEntry(path: string): Entry | undefined {
  const read = readBounded(path, MAX_CACHE_ENTRY_BYTES);
  return read.ok ? (JSON.parse(read.text) as Entry) : undefined;
}

interface Entry {
  salt: string;
  file: string;
  source: LayerName;
  length: number;
  hash: string;
  result: LoadResult;
  /** The prefilter's literal gate of each rule: computing them cold costs a hook as much as loading. */
  gates: (Gate | null)[];
  /** Regex safety analyses of the rules' patterns: the picked rules of a hook are compiled, and analysing cost more than matching. */
  analyses?: [string, PatternAnalysis][];
}

/** Files below this size load faster than a cache entry is read and checked. */
export const MIN_CACHED_BYTES = 16 * 1024;

/**
 * `salt` must change whenever the loader may read a file differently (the binary's identity): an entry
 * written by another build is ignored.
 */
export function fileLoadCache(dir: string, salt: string, minBytes = MIN_CACHED_BYTES): RuleLoadCache {
  const hash = fastHash;
  const entryFile = (file: string, source: LayerName) => join(dir, `rules-${textHash(`${source}\0${file}`)}.json`);
  return {
    ...fileFailureCache(dir, salt),
    get(file, source, text) {
      if (text.length < minBytes) return undefined;
      try {
        const e = readEntry(entryFile(file, source));
        if (!e) return undefined;
        if (e.salt !== salt || e.file !== file || e.source !== source || e.length !== text.length || e.hash !== hash(text)) return undefined;
        if (Array.isArray(e.gates)) primeGates(e.result.rules, e.gates);
        if (Array.isArray(e.analyses)) primeAnalyses(e.analyses);
        return e.result;
      } catch {
        return undefined;
      }
    },
    set(file, source, text, result) {
      if (text.length < minBytes) return;
      const target = entryFile(file, source);
      try {
        const entry: Entry = { salt, file, source, length: text.length, hash: hash(text), result, gates: gatesOf(result.rules), analyses: analysesOf(patternsOf(result)) };
        // Not durable: a cache entry lost in a power cut is rebuilt; a hook must not wait on fsync.
        writeFileAtomic(target, JSON.stringify(entry), { mode: 0o600, dirMode: 0o700, durable: false });
      } catch {
        // A cache that cannot be built only costs the next hook the full load.
      }
    },
  };
}

function patternsOf(result: LoadResult): { pattern: string; flags: string | undefined }[] {
  const out: { pattern: string; flags: string | undefined }[] = [];
  for (const r of result.rules) {
    if (r.pattern !== undefined) out.push({ pattern: r.pattern, flags: r.flags });
    for (const c of r.conditions) out.push({ pattern: c.pattern, flags: c.flags });
    // The `command` condition's regexes go through the same compiler (lib/shell/index.ts), without flags.
    const cmd = r.command;
    if (cmd) for (const p of [cmd.args, cmd.notArgs, cmd.branch, cmd.writesTo]) if (p !== undefined) out.push({ pattern: p, flags: undefined });
  }
  return out;
}
