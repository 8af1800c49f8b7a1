/**
 * @module pi 1.x's own project trust (`<agent dir>/trust.json`: folder -> true | false | null, the nearest
 * saved decision applies), read only to show it beside Shepherd's: the two are separate, and pi trusting a
 * project never makes Shepherd trust it.
 */
import { readBounded } from "../fs/bounded-read.ts";
import { dirname, join } from "node:path";
import { isPlainRecord } from "../engine/guard-kit.ts";
import { agentDir, type Env } from "./paths.ts";
import { canonicalDir } from "./settings.ts";

/** A trust store bigger than this is not pi's (it holds one short line per decided folder). */
const MAX_TRUST_FILE = 1 << 20;

export interface PiTrust {
  trusted: boolean;
  /** The folder the decision was saved for: the project or one of its parents. */
  folder: string;
}

/** pi's saved decision for `cwd`, or undefined when there is none (or no readable pi 1.x trust store). */
export function piTrustFor(cwd: string, env: Env): PiTrust | undefined {
  const data = readTrustStore(join(agentDir(env), "trust.json"));
  if (!data) return undefined;
  const decisions = new Map<string, boolean>();
  for (const [key, value] of Object.entries(data)) if (typeof value === "boolean") decisions.set(canonicalDir(key), value);
  for (let dir = canonicalDir(cwd); ; dir = dirname(dir)) {
    const decision = decisions.get(dir);
    if (decision !== undefined) return { trusted: decision, folder: dir };
    if (dirname(dir) === dir) return undefined;
  }
}

function readTrustStore(file: string): Record<string, unknown> | undefined {
  // The one bounded reader: a FIFO or device in its place is refused unread, never waited on.
  const read = readBounded(file, MAX_TRUST_FILE);
  if (!read.ok) return undefined;
  try {
    const parsed: unknown = JSON.parse(read.text.replace(/^\uFEFF/, ""));
    return isPlainRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Both verdicts side by side, for `rules list` and the dashboard. */
export interface TrustSideBySide {
  shepherd: boolean;
  /** pi 1.x's saved decision, or null when pi has none for this project. */
  pi: PiTrust | null;
  /** Set when pi trusts the project and Shepherd does not: the command that trusts it in Shepherd too. */
  advice?: string;
}

export function trustSideBySide(cwd: string, shepherdTrusts: boolean, env: Env): TrustSideBySide {
  const pi = piTrustFor(cwd, env) ?? null;
  const advice = pi?.trusted === true && !shepherdTrusts ? `shepherd trust ${cwd}` : undefined;
  return { shepherd: shepherdTrusts, pi, ...(advice ? { advice } : {}) };
}
