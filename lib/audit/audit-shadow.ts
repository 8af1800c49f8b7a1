/**
 * @module "would have" counts per shadow-mode rule, read back from the audit log's daily files (for
 * `rules list`): each file through the bounded reader, newest first, within a total byte budget.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readBounded } from "../fs/bounded-read.ts";
import { type ShadowCount, ShadowTally } from "../engine/shadow-tally.ts";
import type { Fired } from "../engine/schema.ts";
import type { AuditConfig } from "./audit-log.ts";

/** One daily file read at most; and all files together. A busy team's month stays well under both. */
export const MAX_AUDIT_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_AUDIT_TOTAL_BYTES = 256 * 1024 * 1024;

const FILE_RE = /^audit-\d{4}-\d{2}-\d{2}\.jsonl$/;

export interface AuditShadowCounts {
  counts: ShadowCount[];
  /** Daily files read, and those left out (too large, unreadable, past the budget). */
  files: number;
  skipped: string[];
}

function firedOf(line: string): Fired[] {
  try {
    const rec = JSON.parse(line) as { fired?: unknown };
    if (!Array.isArray(rec.fired)) return [];
    return rec.fired.filter((f): f is Fired => typeof f === "object" && f !== null && typeof (f as Fired).rule === "string" && typeof (f as Fired).action === "string" && typeof (f as Fired).source === "string");
  } catch {
    return [];
  }
}

export function auditShadowCounts(config: AuditConfig): AuditShadowCounts {
  const tally = new ShadowTally();
  const skipped: string[] = [];
  let names: string[];
  try {
    names = readdirSync(config.dir).filter((n) => FILE_RE.test(n)).sort().reverse();
  } catch {
    return { counts: [], files: 0, skipped };
  }
  let budget = MAX_AUDIT_TOTAL_BYTES;
  let files = 0;
  for (const name of names) {
    const file = join(config.dir, name);
    const read = readBounded(file, Math.min(budget, MAX_AUDIT_FILE_BYTES));
    if (!read.ok) {
      skipped.push(file);
      continue;
    }
    budget -= read.identity.size;
    files++;
    for (const line of read.text.split("\n")) {
      // Only lines of shadow decisions are parsed.
      if (line.includes('"shadow":true')) tally.add(firedOf(line));
    }
  }
  return { counts: tally.list(), files, skipped };
}
