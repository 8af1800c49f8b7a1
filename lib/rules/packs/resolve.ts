/**
 * @module the packs a rules file extends, as a load sees them: each allowed by the managed policy, locked, found
 * (the project's `node_modules`, else the pack cache; a git pack only in the cache), hashed whole and compared
 * with the lock. A pack that does not match is refused, loudly, and its verified copy in the cache is used
 * instead. What comes back are rule texts taken from the very bytes that were hashed.
 */
import { join } from "node:path";
import type { LayerName, LoadIssue } from "../../engine/schema.ts";
import { isPlainRecord } from "../../engine/guard-kit.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../../json-depth.ts";
import { formatBytes } from "../../fs/bounded-read.ts";
import type { Env } from "../paths.ts";
import { cacheCopyDir, cacheFilesDir, safeRelativePath } from "./cache.ts";
import { type LockEntry, lockFileFor, type LockRead, readLock } from "./lock-file.ts";
import { compareToLock, MAX_PACK_BYTES, type PackFile, readPackTree } from "./pack-tree.ts";
import { type PackRef, type PackSpec, parseExtends } from "./spec.ts";

/** A pack lists at most this many rule files, like a project. */
export const MAX_PACK_RULE_FILES = 32;
/** The rule bytes all packs of an untrusted project may add up to: it chooses them (trusted: as a project may). */
export const MAX_UNTRUSTED_PACK_RULE_BYTES = 2 * 1024 * 1024;
export const MAX_PACK_RULE_BYTES = 32 * 1024 * 1024;
/**
 * The bytes one load may read from all of a layer's packs (every file is hashed, rule file or not): an
 * untrusted project chooses its packs and their size, so it gets what one pack may hold.
 */
export const MAX_UNTRUSTED_PACK_READ_BYTES = 16 * 1024 * 1024;
export const MAX_PACK_READ_BYTES = 256 * 1024 * 1024;

export interface PackContext {
  cwd: string;
  env: Env;
  /** The managed policy's `allowedPacks` globs; undefined: any pack. The managed layer's own packs are always allowed. */
  allowed?: readonly string[];
  /** Rule bytes packs of this layer may still add, and bytes they may still read (shared across the layer's files; decremented). */
  budget: { left: number; untrusted: boolean; readLeft?: number };
  /** Lock files read during this load, by path (several rules files share one). */
  locks?: Map<string, LockRead>;
}

export interface PackRuleText {
  /** Where the rules were read (inside the verified copy), for `rules list` and positions. */
  file: string;
  text: string;
  /** The pack's spec, for reports. */
  pack: string;
  mode?: "shadow" | "enforce";
}

export interface ExpandedPacks {
  files: PackRuleText[];
  issues: LoadIssue[];
}

/** `*` matches any run of characters (a `/` too): `@acme/*`, `git+https://git.acme.example/*`. */
export function packAllowed(pack: PackSpec, globs: readonly string[]): boolean {
  const names = pack.kind === "npm" ? [pack.name] : [`git+${pack.url}`, pack.spec];
  return globs.some((g) => {
    const re = new RegExp(`^${g.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    return names.some((n) => re.test(n));
  });
}

/** The rule files a pack declares: `package.json` `"shepherd": {"rules": [...]}`, else `shepherd-rules.json`. */
export function packRuleFileNames(files: readonly PackFile[]): { names: string[] } | { message: string } {
  const pkg = files.find((f) => f.path === "package.json");
  if (pkg) {
    const text = new TextDecoder().decode(pkg.bytes);
    const deep = jsonDepthProblem(text, MAX_JSON_DEPTH);
    if (deep) return { message: `package.json: ${deep.message}` };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { message: "package.json is not JSON" };
    }
    const shepherd = isPlainRecord(data) ? data.shepherd : undefined;
    if (shepherd !== undefined) {
      const rules = isPlainRecord(shepherd) ? shepherd.rules : undefined;
      if (!Array.isArray(rules) || !rules.every((r) => typeof r === "string")) return { message: 'package.json "shepherd.rules" must be a list of rule file paths' };
      const names = rules.map((r) => r.replace(/^\.\//, ""));
      if (names.length > MAX_PACK_RULE_FILES) return { message: `a pack lists at most ${MAX_PACK_RULE_FILES} rule files` };
      const bad = names.find((n) => !safeRelativePath(n));
      if (bad !== undefined) return { message: `package.json "shepherd.rules": ${JSON.stringify(bad)} is not a path inside the pack` };
      return { names };
    }
  }
  return { names: ["shepherd-rules.json"] };
}

interface Located {
  dir: string;
  files: PackFile[];
  /** Set when an earlier place held the pack but did not match: why, so the use of this copy is reported. */
  refused?: string;
}

/** Where a pack may be, in the order tried: an npm pack in the project's node_modules first, then the cache. */
export function packPlaces(pack: PackSpec, entry: LockEntry, ctx: Pick<PackContext, "cwd" | "env">): { dir: string; cached: boolean }[] {
  const cached = { dir: cacheFilesDir(cacheCopyDir(ctx.env, entry)), cached: true };
  return pack.kind === "npm" ? [{ dir: join(ctx.cwd, "node_modules", ...pack.name.split("/")), cached: false }, cached] : [cached];
}

function entryMismatch(pack: PackSpec, entry: LockEntry): string | undefined {
  if (entry.kind !== pack.kind) return `the lock has it as a ${entry.kind} pack`;
  if (pack.kind === "git" && entry.kind === "git" && (entry.commit !== pack.commit || entry.url !== pack.url)) return `the lock pins ${entry.url}#${entry.commit}`;
  return undefined;
}

/** The verified files of one locked pack, or why there are none. Reads and hashes every file of each place tried. */
export function locatePack(pack: PackSpec, entry: LockEntry, ctx: Pick<PackContext, "cwd" | "env"> & { budget?: PackContext["budget"] }): { ok: true; located: Located } | { ok: false; message: string } {
  const problems: string[] = [];
  const budget = ctx.budget;
  for (const place of packPlaces(pack, entry, ctx)) {
    const left = budget?.readLeft ?? MAX_PACK_READ_BYTES;
    if (left <= 0) {
      problems.push(`${place.dir}: not read: the packs of this layer have used up the ${formatBytes(budget?.untrusted ? MAX_UNTRUSTED_PACK_READ_BYTES : MAX_PACK_READ_BYTES)} one load may read`);
      continue;
    }
    const tree = readPackTree(place.dir, Math.min(MAX_PACK_BYTES, left));
    if (budget) budget.readLeft = left - (tree.ok ? tree.files.reduce((n, f) => n + f.bytes.length, 0) : (tree.bytes ?? 0));
    if (!tree.ok) {
      if (tree.message.endsWith("is missing")) continue;
      problems.push(`${place.dir}: refused: ${tree.message}`);
      continue;
    }
    const diff = compareToLock(tree.files, entry.files);
    if (diff.length > 0) {
      problems.push(`${place.dir}: ${diff.slice(0, 3).join("; ")}${diff.length > 3 ? `; and ${diff.length - 3} more` : ""}`);
      continue;
    }
    return { ok: true, located: { dir: place.dir, files: tree.files, ...(problems.length > 0 ? { refused: problems.join("; ") } : {}) } };
  }
  if (problems.length === 0) {
    const how = pack.kind === "npm" ? `run \`npm install ${pack.name}\`, or \`shepherd pack update ${pack.name}\`` : "run `shepherd pack verify` to fetch it";
    return { ok: false, message: `not found in node_modules or the pack cache: ${how}` };
  }
  return { ok: false, message: `${problems.join("; ")}; no verified copy is left, so its rules are not loaded (\`shepherd pack update\` re-locks it once you have checked the change)` };
}

function lockOf(ctx: PackContext, rulesFile: string): { file: string; read: LockRead } {
  const file = lockFileFor(rulesFile);
  let read = ctx.locks?.get(file);
  if (!read) {
    read = readLock(file);
    ctx.locks?.set(file, read);
  }
  return { file, read };
}

/**
 * The rule texts of the packs `extendsRaw` names (the `extends` value of `rulesFile`, in layer `source`),
 * in order, with every problem as an issue on the rules file at `extends[i]`. A pack not allowed, not locked,
 * not found or not matching its lock contributes only its verified copy, or nothing.
 */
export function resolvePacks(rulesFile: string, source: LayerName, extendsRaw: unknown, ctx: PackContext): ExpandedPacks {
  const issues: LoadIssue[] = [];
  const files: PackRuleText[] = [];
  const issue = (path: string, message: string, severity: "error" | "warning" = "error") => issues.push({ file: rulesFile, path, message, severity });
  const { refs, problems } = parseExtends(extendsRaw);
  for (const p of problems) issue(p.path, p.message);
  if (refs.length === 0) return { files, issues };
  const lock = lockOf(ctx, rulesFile);
  for (const ref of refs) {
    const name = ref.pack.spec;
    if (source !== "managed" && ctx.allowed !== undefined && !packAllowed(ref.pack, ctx.allowed)) {
      issue(ref.path, `pack "${name}" is refused: the managed policy's allowedPacks (${ctx.allowed.length === 0 ? "none" : ctx.allowed.join(", ")}) does not allow it`);
      continue;
    }
    if (!lock.read.ok) {
      issue(ref.path, `pack "${name}" is refused: its lock file ${lock.file} is unusable (${lock.read.message})`);
      continue;
    }
    const entry = lock.read.lock.packs[name];
    if (!entry) {
      issue(ref.path, `pack "${name}" is not in ${lock.file}: run \`shepherd pack add ${name}\` to lock it`);
      continue;
    }
    const wrong = entryMismatch(ref.pack, entry);
    if (wrong) {
      issue(ref.path, `pack "${name}" is refused: ${wrong} (run \`shepherd pack update\`)`);
      continue;
    }
    const found = locatePack(ref.pack, entry, ctx);
    if (!found.ok) {
      issue(ref.path, `pack "${name}" is refused: ${found.message}`);
      continue;
    }
    const { located } = found;
    if (located.refused) issue(ref.path, `pack "${name}" does not match ${lock.file}: ${located.refused}; refused, and its last verified copy (${located.dir}) is used instead`);
    pushRuleTexts(ref, located, ctx, (path, message, severity) => issue(path, `pack "${name}": ${message}`, severity), files);
  }
  return { files, issues };
}

function pushRuleTexts(ref: PackRef, located: Located, ctx: PackContext, issue: (path: string, message: string, severity?: "error" | "warning") => void, out: PackRuleText[]): void {
  const declared = packRuleFileNames(located.files);
  if ("message" in declared) {
    issue(ref.path, declared.message);
    return;
  }
  const byPath = new Map(located.files.map((f) => [f.path, f]));
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  for (const rel of declared.names) {
    const f = byPath.get(rel);
    if (!f) {
      issue(ref.path, `lists the rule file ${rel}, which it does not contain`);
      continue;
    }
    if (f.bytes.length > ctx.budget.left) {
      const cap = ctx.budget.untrusted ? MAX_UNTRUSTED_PACK_RULE_BYTES : MAX_PACK_RULE_BYTES;
      issue(ref.path, `${rel} not loaded: the packs' rule files add up to more than ${formatBytes(cap)}${ctx.budget.untrusted ? " (an untrusted project's budget; `shepherd trust` raises it)" : ""}`);
      continue;
    }
    ctx.budget.left -= f.bytes.length;
    out.push({ file: join(located.dir, ...rel.split("/")), text: decoder.decode(f.bytes), pack: ref.pack.spec, ...(ref.mode ? { mode: ref.mode } : {}) });
  }
}

/** A fresh budget for one layer's packs. */
export function packBudget(source: LayerName, trusted: boolean): PackContext["budget"] {
  const untrusted = source === "project" && !trusted;
  return { left: untrusted ? MAX_UNTRUSTED_PACK_RULE_BYTES : MAX_PACK_RULE_BYTES, untrusted, readLeft: untrusted ? MAX_UNTRUSTED_PACK_READ_BYTES : MAX_PACK_READ_BYTES };
}

/** A pack's `"mode"` applied to the rules of one of its files: every full rule takes it; patches keep theirs. */
export function withPackMode<R extends { patch?: unknown; shadow?: boolean }>(rules: R[], mode: "shadow" | "enforce" | undefined): R[] {
  if (!mode) return rules;
  return rules.map((r) => (r.patch ? r : { ...r, shadow: mode === "shadow" }));
}
