/**
 * @module a disk cache of loaded rule files for one-shot hook processes. Validating a thousand rules (JSON,
 * valibot, regex checks) costs a cold process more than its whole time budget; the result depends only
 * on the file's text, so it is kept under the agent folder, keyed by path, and used while the text hashes
 * the same. Small files are not worth a second read and are never cached.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import type { LoadResult } from "../engine/load.ts";
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
  /**
   * Each rule with its prepared value (prepared.ts: literal keys and regex analyses), which would cost a cold
   * hook as much again as loading: it travels inside the rule, so nothing is primed on the side.
   */
  result: LoadResult;
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
        return e.result;
      } catch {
        return undefined;
      }
    },
    set(file, source, text, result) {
      if (text.length < minBytes) return;
      const target = entryFile(file, source);
      try {
        const entry: Entry = { salt, file, source, length: text.length, hash: hash(text), result };
        // Not durable: a cache entry lost in a power cut is rebuilt; a hook must not wait on fsync.
        writeFileAtomic(target, JSON.stringify(entry), { mode: 0o600, dirMode: 0o700, durable: false });
      } catch {
        // A cache that cannot be built only costs the next hook the full load.
      }
    },
  };
}
