/**
 * @module a disk cache of pattern facts (each pattern's safety analysis and required text, prepared.ts),
 * keyed by pattern and flags, so a cold `shepherd serve` or `rules check` whose rule files were seen before
 * parses no regex: the rules are still read and validated, and every issue is still reported, but the
 * parse, the risk analysis and the required-text reading (most of a cold load) come from here. One file
 * under the agent folder, read once per process, written after a load that found new patterns.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { MAX_CACHE_ENTRY_BYTES, readBounded } from "../fs/bounded-read.ts";
import { isDenseArray, isPlainRecord, isStringArray } from "../engine/guard-kit.ts";
import type { PatternFactsStore, StoredFacts } from "../engine/prepared.ts";
import type { PatternAnalysis } from "../engine/regex/risk.ts";
import { agentDir, type Env } from "./paths.ts";

export interface PatternFactsCache extends PatternFactsStore {
  /** Writes the patterns added since the last write (nothing when none were); with `deferMs`, that long after. */
  flush(): void;
  /**
   * Writes what a deferred `flush` would write, now: a sidecar does it before the collection that follows
   * its load, so the write's garbage (10,000 rows at 10,000 rules) goes with the load's instead of
   * landing among its first requests' (the memory bench's peak at 10,000 rules: 132-139 MB deferred,
   * 111-122 MB written first, in one run of each).
   */
  writeNow(): void;
}

/** Patterns kept: the newest first out when full (a 10,000-rule file fits, with its edits). */
export const MAX_STORED_PATTERNS = 32_768;

/** On disk: `[analysis or 0, literal sets or 0, shapes]` per key, so the file stays small. */
type Row = [PatternAnalysis | 0, string[][] | 0, string[]];

const RISK_KINDS = new Set(["exponential", "polynomial"]);

function isAnalysis(x: unknown): x is PatternAnalysis {
  if (!isPlainRecord(x) || typeof x.needsBacktracking !== "boolean") return false;
  if (x.superset !== undefined && typeof x.superset !== "string") return false;
  const r = x.risk;
  if (r === undefined) return true;
  return isPlainRecord(r) && RISK_KINDS.has(r.kind as string) && typeof r.why === "string" && (r.degree === undefined || (typeof r.degree === "number" && r.degree >= 2));
}

/** A row as written by `flush`; anything else is not used (the pattern is parsed again). */
function factsOfRow(row: unknown): StoredFacts | undefined {
  if (!isDenseArray(row) || row.length !== 3) return undefined;
  const [analysis, sets, shapes] = row;
  if (analysis !== 0 && !isAnalysis(analysis)) return undefined;
  if (sets !== 0 && !(isDenseArray(sets) && sets.every(isStringArray))) return undefined;
  if (!isStringArray(shapes)) return undefined;
  return { analysis: analysis === 0 ? null : analysis, sets: sets === 0 ? null : (sets as string[][]), shapes };
}

/**
 * `salt` must change whenever the analysis may differ (the binary's identity): a file written by another
 * build is ignored whole.
 */
export function filePatternFactsCache(dir: string, salt: string, opts: { deferMs?: number } = {}): PatternFactsCache {
  const file = join(dir, "pattern-facts.json");
  // The file's rows, read on the first `get` and dropped at `flush`: a sidecar does not keep them.
  let rows: Map<string, unknown> | undefined;
  const added = new Map<string, Row>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = (): Map<string, unknown> => {
    if (rows) return rows;
    rows = new Map();
    try {
      const got = readBounded(file, MAX_CACHE_ENTRY_BYTES);
      if (!got.ok) return rows;
      const data = JSON.parse(got.text) as unknown;
      if (!isPlainRecord(data) || data.salt !== salt || !isPlainRecord(data.rows)) return rows;
      for (const [k, v] of Object.entries(data.rows)) rows.set(k, v);
    } catch {
      // A cache that cannot be read only costs this process the parse.
    }
    return rows;
  };
  const write = () => {
    if (added.size === 0) {
      rows = undefined;
      return;
    }
    try {
      const all = read();
      for (const [k, v] of added) {
        all.delete(k);
        all.set(k, v);
      }
      // Oldest first in insertion order: drop from the front past the cap.
      for (const k of all.keys()) {
        if (all.size <= MAX_STORED_PATTERNS) break;
        all.delete(k);
      }
      // Row by row, not through an object of every row (10,000 keys in dictionary mode, for one write).
      const parts: string[] = [];
      for (const [k, v] of all) parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
      const text = `{"salt":${JSON.stringify(salt)},"rows":{${parts.join(",")}}}`;
      // Not durable: a cache lost in a power cut is rebuilt by the next load.
      writeFileAtomic(file, text, { mode: 0o600, dirMode: 0o700, durable: false });
    } catch {
      // A cache that cannot be written only costs the next process the parse.
    }
    added.clear();
    rows = undefined;
  };
  return {
    get(key) {
      const row = added.get(key) ?? read().get(key);
      return row === undefined ? undefined : factsOfRow(row);
    },
    add(key, facts) {
      // The rule's own values, not copies: nothing changes them, and the sidecar keeps them anyway.
      added.set(key, [facts.analysis ?? 0, facts.sets ?? 0, facts.shapes as string[]]);
    },
    flush() {
      if (timer) return;
      if (opts.deferMs === undefined || added.size === 0) {
        write();
        return;
      }
      // A sidecar writes after the load it answers for, not before it: its start is what the user waits on.
      timer = setTimeout(() => {
        timer = undefined;
        write();
      }, opts.deferMs);
      timer.unref?.();
    },
    writeNow() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      write();
    },
  };
}

/**
 * The cache of this process's agent folder, beside the hook's load cache, salted as it is: another build's
 * file (the binary's size and mtime stand for the analysis code) is ignored.
 */
export function processPatternFacts(env: Env, version: string, opts: { deferMs?: number } = {}): PatternFactsCache {
  let salt = `facts:${version}`;
  try {
    const self = statSync(process.execPath);
    salt += `:${self.size}:${self.mtimeMs}`;
  } catch {
    // No identity for the binary: the version alone.
  }
  return filePatternFactsCache(join(agentDir(env), "shepherd", "cache"), salt, opts);
}
