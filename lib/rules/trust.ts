/**
 * @module the trust list (DESIGN section 6): `shepherd.trustedProjects` in the global settings.json.
 * Written with targeted JSONC edits, so pi's own keys, other tools' keys, comments and formatting
 * survive; validated before and after; atomic; never written over a file it cannot parse.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { applyEdits, modify, parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import * as v from "valibot";
import { issuePath, SettingsSchema } from "../engine/schema.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { withFileLock } from "./file-lock.ts";
import { type Env, globalSettingsFile } from "./paths.ts";
import { canonicalDir } from "./settings.ts";

export type TrustResult<T> = { ok: true; value: T } | { ok: false; message: string };

interface SettingsText {
  file: string;
  text: string;
  list: string[];
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Reads settings.json and its trust list; a missing file is an empty list, a broken one is an error. */
function readSettingsText(file: string): TrustResult<SettingsText> {
  if (!existsSync(file)) return { ok: true, value: { file, text: "", list: [] } };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    return { ok: false, message: `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (text.trim() === "") return { ok: true, value: { file, text: "", list: [] } };
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) return { ok: false, message: `${file} is not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset}); fix it first, Shepherd will not overwrite it` };
  if (!isObject(data)) return { ok: false, message: `${file} must hold a JSON object; fix it first, Shepherd will not overwrite it` };
  const section = data.shepherd;
  if (section === undefined) return { ok: true, value: { file, text, list: [] } };
  if (!isObject(section)) return { ok: false, message: `${file}: "shepherd" must be an object` };
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
  const r = readSettingsText(file);
  return r.ok ? { ok: true, value: { file, list: r.value.list } } : r;
}

export function isTrusted(dir: string, env: Env): boolean {
  const r = listTrusted(env);
  if (!r.ok) return false;
  const want = canonicalDir(dir);
  return r.value.list.some((entry) => canonicalDir(entry) === want);
}

/** Writes `list` as `shepherd.trustedProjects`, touching nothing else, and checks the result before the rename. */
function writeList(s: SettingsText, list: string[]): TrustResult<void> {
  const base = s.text === "" ? "{}\n" : s.text;
  const edits = modify(base, ["shepherd", "trustedProjects"], list, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } });
  const next = applyEdits(base, edits);
  const errors: ParseError[] = [];
  const data: unknown = parse(next, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !isObject(data)) return { ok: false, message: `refusing to write ${s.file}: the edited file would not parse` };
  const checked = v.safeParse(SettingsSchema, data.shepherd);
  if (!checked.success) {
    const i = checked.issues[0];
    return { ok: false, message: `refusing to write ${s.file}: shepherd.${i ? issuePath(i) : ""} ${i?.message ?? "is invalid"}` };
  }
  // Dotfile managers symlink settings.json: replace the target, not the link.
  let target = s.file;
  let mode = 0o644;
  try {
    target = realpathSync(s.file);
    mode = statSync(target).mode & 0o777;
  } catch {
    // New file: defaults apply.
  }
  try {
    writeFileAtomic(target, next.endsWith("\n") ? next : `${next}\n`, mode);
  } catch (err) {
    return { ok: false, message: `cannot write ${target}: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { ok: true, value: undefined };
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
  const file = globalSettingsFile(env);
  return withFileLock(file, (): TrustResult<TrustChange> => {
    const r = readSettingsText(file);
    if (!r.ok) return r;
    if (r.value.list.some((e) => canonicalDir(e) === canonical)) return { ok: true, value: { file, dir: canonical, changed: false } };
    const w = writeList(r.value, [...r.value.list, canonical]);
    return w.ok ? { ok: true, value: { file, dir: canonical, changed: true } } : w;
  });
}

/** Removes a folder from the trust list; entries are compared canonically, so a removed folder can still be revoked by path. */
export async function revokeDir(dir: string, env: Env): Promise<TrustResult<TrustChange>> {
  const canonical = canonicalDir(dir);
  const file = globalSettingsFile(env);
  return withFileLock(file, (): TrustResult<TrustChange> => {
    const r = readSettingsText(file);
    if (!r.ok) return r;
    const kept = r.value.list.filter((e) => canonicalDir(e) !== canonical);
    if (kept.length === r.value.list.length) return { ok: true, value: { file, dir: canonical, changed: false } };
    const w = writeList(r.value, kept);
    return w.ok ? { ok: true, value: { file, dir: canonical, changed: true } } : w;
  });
}
