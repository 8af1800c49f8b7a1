/**
 * @module the load cache's memory of rule files that failed (refused unread, too deep, invalid), keyed by
 * the file's stat identity: a bad file a repository commits costs one hook process, not every one. The
 * issues are kept and handed back, so each hook still reports them.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LayerName, LoadIssue } from "../engine/schema.ts";
import { MAX_SETTINGS_BYTES, readBounded } from "../fs/bounded-read.ts";
import { textHash } from "../hash.ts";
import { jsonDepthProblem } from "../json-depth.ts";

/** A remembered failure: its issues, and the bytes of text it was read with (0 when refused unread), which count against the project's budget alike on every run. */
export interface KnownFailure {
  issues: LoadIssue[];
  bytes: number;
}

export interface FailureCache {
  /** How `file` failed to load with this stat identity; undefined when that is not known. */
  getFailure(file: string, source: LayerName, identity: string): KnownFailure | undefined;
  setFailure(file: string, source: LayerName, identity: string, failure: KnownFailure): void;
}

/** A broken file of thousands of rules has an issue per rule: the first ones say enough, and the entry stays small. */
export const MAX_REMEMBERED_ISSUES = 100;

function isIssue(x: unknown): x is LoadIssue {
  if (typeof x !== "object" || x === null) return false;
  const i = x as Record<string, unknown>;
  return (
    typeof i.file === "string" &&
    typeof i.path === "string" &&
    typeof i.message === "string" &&
    (i.severity === "error" || i.severity === "warning") &&
    (i.line === undefined || typeof i.line === "number") &&
    (i.column === undefined || typeof i.column === "number")
  );
}

/** `salt` as for the load cache: entries of another build are ignored. */
export function fileFailureCache(dir: string, salt: string): FailureCache {
  const entryFile = (file: string, source: LayerName) => join(dir, `failed-${textHash(`${source}\0${file}`)}.json`);
  let tmpCount = 0;
  return {
    getFailure(file, source, identity) {
      const read = readBounded(entryFile(file, source), MAX_SETTINGS_BYTES);
      if (!read.ok || jsonDepthProblem(read.text, 8)) return undefined;
      try {
        const e: unknown = JSON.parse(read.text);
        if (typeof e !== "object" || e === null) return undefined;
        const entry = e as Record<string, unknown>;
        if (entry.salt !== salt || entry.file !== file || entry.source !== source || entry.identity !== identity) return undefined;
        const { issues, bytes } = entry;
        if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0) return undefined;
        return Array.isArray(issues) && issues.length > 0 && issues.every(isIssue) ? { issues, bytes } : undefined;
      } catch {
        return undefined;
      }
    },
    setFailure(file, source, identity, { issues, bytes }) {
      const target = entryFile(file, source);
      const tmp = `${target}.${process.pid}.${tmpCount++}.tmp`;
      const kept = issues.slice(0, MAX_REMEMBERED_ISSUES);
      if (issues.length > kept.length) kept.push({ file, path: "", message: `... and ${issues.length - kept.length} more issues (\`shepherd rules check ${file}\` lists them all)`, severity: "error" });
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(tmp, JSON.stringify({ salt, file, source, identity, bytes, issues: kept }), { mode: 0o600 });
        renameSync(tmp, target);
      } catch {
        // Not remembered: the next hook loads the file again, at the same bounded cost.
        rmSync(tmp, { force: true });
      }
    },
  };
}
