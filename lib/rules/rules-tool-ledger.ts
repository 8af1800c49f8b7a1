/**
 * @module which rules the `shepherd_rules` tool added on its own (without a person's consent): a ledger in
 * Shepherd's state folder, where no repository writes, keyed by rule file, name and content hash. Only
 * such a rule may be removed, enabled or disabled by a model's call without consent.
 */
import { readBounded } from "../fs/bounded-read.ts";
import { sha256 } from "../hash.ts";
import { basename, dirname, join } from "node:path";
import * as v from "valibot";
import { canonicalJson } from "./rules-tool-consent.ts";
import { type Env, agentDir } from "./paths.ts";
import { updateFileSafely } from "./safe-update.ts";
import { canonicalDir } from "./settings.ts";

/** Oldest entries go first past this: a ledger is bounded like every other file Shepherd keeps. */
export const MAX_LEDGER_ENTRIES = 1_000;
const MAX_LEDGER_BYTES = 1 << 20;

export interface LedgerEntry {
  file: string;
  name: string;
  hash: string;
}

const LedgerSchema = v.object({
  version: v.literal(1),
  entries: v.array(v.object({ file: v.string(), name: v.string(), hash: v.string() })),
});

export function ledgerFile(env: Env): string {
  return join(agentDir(env), "shepherd", "rules-tool-ledger.json");
}

/** The rule file as one path, whatever way it was reached (symlinked home or temp folders). */
export function ledgerKey(file: string): string {
  return join(canonicalDir(dirname(file)), basename(file));
}

/**
 * A rule entry's identity for the ledger: its content without `enabled` (which the tool itself toggles).
 * A rule edited since the tool added it is no longer the tool's rule.
 */
export function ruleHash(entry: unknown): string {
  const rest = entry !== null && typeof entry === "object" && !Array.isArray(entry) ? Object.fromEntries(Object.entries(entry).filter(([k]) => k !== "enabled")) : entry;
  return sha256(canonicalJson(rest));
}

/** The entries; a missing, oversized, non-regular or malformed ledger owns nothing (fail closed). */
export function readLedger(env: Env): LedgerEntry[] {
  const read = readBounded(ledgerFile(env), MAX_LEDGER_BYTES);
  if (!read.ok) return [];
  const text = read.text;
  try {
    const parsed = v.safeParse(LedgerSchema, JSON.parse(text));
    return parsed.success ? parsed.output.entries : [];
  } catch {
    return [];
  }
}

export function isRecorded(entries: readonly LedgerEntry[], file: string, name: string, entry: unknown): boolean {
  const key = ledgerKey(file);
  const hash = ruleHash(entry);
  return entries.some((e) => e.file === key && e.name === name && e.hash === hash);
}

/** Records (`hash` given) or forgets (`hash` undefined) the tool's rule `name` in `file`. */
export async function updateLedger(env: Env, file: string, name: string, hash: string | undefined): Promise<{ ok: true } | { ok: false; message: string }> {
  const key = ledgerKey(file);
  const target = ledgerFile(env);
  const res = await updateFileSafely(target, (current) => {
    const before = current === undefined ? [] : parseEntries(current);
    const kept = before.filter((e) => !(e.file === key && e.name === name));
    // Already as asked: no write, which is also how the writer sees that the change still stands.
    if (hash === undefined ? kept.length === before.length : kept.length === before.length - 1 && before.some((e) => e.file === key && e.name === name && e.hash === hash)) {
      return { value: undefined };
    }
    if (hash !== undefined) kept.push({ file: key, name, hash });
    const entries = kept.slice(-MAX_LEDGER_ENTRIES);
    return { value: undefined, text: `${JSON.stringify({ version: 1, entries }, null, 2)}\n` };
  });
  return res.ok ? { ok: true } : { ok: false, message: res.message };
}

function parseEntries(text: string): LedgerEntry[] {
  if (text.length > MAX_LEDGER_BYTES) return [];
  try {
    const parsed = v.safeParse(LedgerSchema, JSON.parse(text));
    return parsed.success ? parsed.output.entries : [];
  } catch {
    return [];
  }
}
