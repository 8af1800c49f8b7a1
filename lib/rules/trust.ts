/**
 * @module the trust list (DESIGN section 6): `shepherd.trustedProjects` in the global settings.json.
 * Written with targeted JSONC edits, so pi's own keys, other tools' keys, comments and formatting
 * survive; validated before and after; atomic; never written over a file it cannot parse.
 */
import { statSync } from "node:fs";
import { applyEdits, modify, parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import * as v from "valibot";
import { isPlainRecord } from "../engine/guard-kit.ts";
import { issuePath, SettingsSchema } from "../engine/schema.ts";
import { type Env, globalSettingsFile } from "./paths.ts";
import { updateFileSafely, type UpdateStep } from "./safe-update.ts";
import { canonicalDir } from "./settings.ts";
import { MAX_SETTINGS_BYTES, readBounded } from "../fs/bounded-read.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../json-depth.ts";

export type TrustResult<T> = { ok: true; value: T } | { ok: false; message: string };

interface SettingsText {
  file: string;
  text: string;
  list: string[];
}


/** Parses settings.json (undefined: missing) and its trust list; an empty file is an empty list, a broken one is an error. */
function parseSettingsText(file: string, text: string | undefined): TrustResult<SettingsText> {
  if (text === undefined || text.trim() === "") return { ok: true, value: { file, text: "", list: [] } };
  const deep = jsonDepthProblem(text, MAX_JSON_DEPTH);
  if (deep) return { ok: false, message: `${file}:${deep.line}:${deep.column}: ${deep.message}; fix it first, Shepherd will not overwrite it` };
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) return { ok: false, message: `${file} is not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset}); fix it first, Shepherd will not overwrite it` };
  if (!isPlainRecord(data)) return { ok: false, message: `${file} must hold a JSON object; fix it first, Shepherd will not overwrite it` };
  const section = data.shepherd;
  if (section === undefined) return { ok: true, value: { file, text, list: [] } };
  if (!isPlainRecord(section)) return { ok: false, message: `${file}: "shepherd" must be an object` };
  const list = section.trustedProjects;
  if (list === undefined) return { ok: true, value: { file, text, list: [] } };
  if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) {
    return { ok: false, message: `${file}: "shepherd.trustedProjects" must be a list of folder paths` };
  }
  return { ok: true, value: { file, text, list } };
}

/** The trusted project folders, as stored. */
export function listTrusted(env: Env): TrustResult<{ file: string; list: string[] }> {
  const file = globalSettingsFile(env);
  const read = readBounded(file, MAX_SETTINGS_BYTES);
  if (!read.ok && read.reason !== "missing") return { ok: false, message: `cannot read ${file}: ${read.message}` };
  const r = parseSettingsText(file, read.ok ? read.text : undefined);
  return r.ok ? { ok: true, value: { file, list: r.value.list } } : r;
}

export function isTrusted(dir: string, env: Env): boolean {
  const r = listTrusted(env);
  if (!r.ok) return false;
  const want = canonicalDir(dir);
  return r.value.list.some((entry) => canonicalDir(entry) === want);
}

/** The settings text with `list` as `shepherd.trustedProjects`, touching nothing else, validated. */
function withList(s: SettingsText, list: string[]): TrustResult<string> {
  const base = s.text === "" ? "{}\n" : s.text;
  const edits = modify(base, ["shepherd", "trustedProjects"], list, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } });
  const next = applyEdits(base, edits);
  const errors: ParseError[] = [];
  const data: unknown = parse(next, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !isPlainRecord(data)) return { ok: false, message: `refusing to write ${s.file}: the edited file would not parse` };
  const checked = v.safeParse(SettingsSchema(), data.shepherd);
  if (!checked.success) {
    const i = checked.issues[0];
    return { ok: false, message: `refusing to write ${s.file}: shepherd.${i ? issuePath(i) : ""} ${i?.message ?? "is invalid"}` };
  }
  return { ok: true, value: next.endsWith("\n") ? next : `${next}\n` };
}

/**
 * Changes the trust list with `change` (undefined: no change needed) under the shared safe update: a
 * person saving settings.json at the same time keeps their edit, and the entry survives their save.
 */
async function updateList(env: Env, change: (list: string[]) => string[] | undefined): Promise<TrustResult<{ file: string; changed: boolean }>> {
  const file = globalSettingsFile(env);
  const r = await updateFileSafely(
    file,
    (current): UpdateStep<boolean> => {
      const parsed = parseSettingsText(file, current);
      if (!parsed.ok) return { error: parsed.message };
      const next = change(parsed.value.list);
      if (next === undefined) return { value: false };
      const text = withList(parsed.value, next);
      return text.ok ? { value: true, text: text.value } : { error: text.message };
    },
    // Dotfile managers symlink settings.json: replace the target, not the link.
    { followSymlink: true },
  );
  return r.ok ? { ok: true, value: { file, changed: r.value } } : r;
}

export interface TrustChange {
  file: string;
  dir: string;
  /** false when the list already said so. */
  changed: boolean;
}

/** Adds a folder (canonical: absolute, symlinks resolved) to the trust list. */
export async function trustDir(dir: string, env: Env): Promise<TrustResult<TrustChange>> {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDir) return { ok: false, message: `${dir} is not a folder` };
  const canonical = canonicalDir(dir);
  const r = await updateList(env, (list) => (list.some((e) => canonicalDir(e) === canonical) ? undefined : [...list, canonical]));
  return r.ok ? { ok: true, value: { ...r.value, dir: canonical } } : r;
}

/** Removes a folder from the trust list; entries are compared canonically, so a removed folder can still be revoked by path. */
export async function revokeDir(dir: string, env: Env): Promise<TrustResult<TrustChange>> {
  const canonical = canonicalDir(dir);
  const r = await updateList(env, (list) => {
    const kept = list.filter((e) => canonicalDir(e) !== canonical);
    return kept.length === list.length ? undefined : kept;
  });
  return r.ok ? { ok: true, value: { ...r.value, dir: canonical } } : r;
}
