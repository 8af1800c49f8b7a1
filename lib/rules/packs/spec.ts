/** @module what a rules file's `extends` names: an npm package or a git repository at a pinned commit, parsed and checked. */
import { isPlainRecord } from "../../engine/guard-kit.ts";

export type PackSpec =
  | { kind: "npm"; spec: string; name: string }
  | { kind: "git"; spec: string; name: string; url: string; commit: string };

/** One `extends` entry: the pack and, when given, the mode every full rule in it takes. */
export interface PackRef {
  pack: PackSpec;
  mode?: "shadow" | "enforce";
  /** Where in the rules file it was written: `extends[2]`. */
  path: string;
}

/** A rules file names at most this many packs: each is hashed whole on every full load. */
export const MAX_PACKS_PER_FILE = 16;

// npm's own rule for new package names: lower case, URL-safe, an optional scope; no path tricks.
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const COMMIT = /^[0-9a-f]{40}$/;

/**
 * `@acme/pack` (npm) or `git+https://host/repo.git#<40-hex commit>` (`git+file:///abs/path#<commit>` for
 * local repositories). Only https and file: no ssh (a `-o ProxyCommand` host is a shell), no git:// (no
 * transport security), and the commit is a full hash, so the content is fixed by it.
 */
export function parsePackSpec(raw: string): { ok: true; pack: PackSpec } | { ok: false; message: string } {
  const spec = raw.trim();
  if (spec.length === 0 || spec.length > 2048) return { ok: false, message: "a pack spec must be 1 to 2048 characters" };
  if (spec.startsWith("git+")) {
    const hash = spec.lastIndexOf("#");
    if (hash < 0) return { ok: false, message: `git pack "${spec}" must pin a commit: git+https://host/repo.git#<40-hex commit>` };
    const url = spec.slice(4, hash);
    const commit = spec.slice(hash + 1).toLowerCase();
    if (!COMMIT.test(commit)) return { ok: false, message: `git pack "${spec}": "${spec.slice(hash + 1)}" is not a full 40-hex commit (a branch or tag can move)` };
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, message: `git pack "${spec}": "${url}" is not a URL` };
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "file:") return { ok: false, message: `git pack "${spec}": only https:// and file:// repositories are fetched, not ${parsed.protocol}//` };
    if (parsed.username || parsed.password) return { ok: false, message: `git pack "${spec}": credentials do not belong in a rules file` };
    if (parsed.search || parsed.hash) return { ok: false, message: `git pack "${spec}": a repository URL takes no query` };
    const base = parsed.pathname.replace(/\/+$/, "").split("/").pop() ?? "";
    const name = base.replace(/\.git$/, "") || "pack";
    // The parsed form (host lower-cased, backslashes and dot segments resolved) is what the allow-list and git see.
    const href = parsed.href;
    return { ok: true, pack: { kind: "git", spec: `git+${href}#${commit}`, name, url: href, commit } };
  }
  const name = spec.startsWith("npm:") ? spec.slice(4) : spec;
  if (name.length > 214 || !NPM_NAME.test(name)) return { ok: false, message: `"${spec}" is neither an npm package name nor git+https://...#<commit>` };
  return { ok: true, pack: { kind: "npm", spec: name, name } };
}

/**
 * The `extends` value of a rules file: a list of specs, or of `{"pack": spec, "mode": "shadow"}`. Problems
 * come back as issues at their JSON path; what is valid is still used.
 */
export function parseExtends(raw: unknown): { refs: PackRef[]; problems: { path: string; message: string }[] } {
  const refs: PackRef[] = [];
  const problems: { path: string; message: string }[] = [];
  if (raw === undefined) return { refs, problems };
  if (!Array.isArray(raw)) return { refs, problems: [{ path: "extends", message: 'extends must be a list of packs: ["@acme/pack", {"pack": "git+https://...#<commit>", "mode": "shadow"}]' }] };
  const seen = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const path = `extends[${i}]`;
    if (i >= MAX_PACKS_PER_FILE) {
      if (i === MAX_PACKS_PER_FILE) problems.push({ path, message: `a rules file extends at most ${MAX_PACKS_PER_FILE} packs; the rest are not loaded` });
      return;
    }
    let spec: unknown = entry;
    let mode: "shadow" | "enforce" | undefined;
    if (isPlainRecord(entry)) {
      spec = entry.pack;
      for (const key of Object.keys(entry)) if (key !== "pack" && key !== "mode") problems.push({ path: `${path}.${key}`, message: `unknown key "${key}" (expected "pack" and "mode")` });
      if (entry.mode === "shadow" || entry.mode === "enforce") mode = entry.mode;
      else if (entry.mode !== undefined) {
        problems.push({ path: `${path}.mode`, message: 'mode must be "enforce" or "shadow"' });
        return;
      }
    }
    if (typeof spec !== "string") {
      problems.push({ path, message: 'a pack is a spec string or {"pack": spec, "mode": "shadow"}' });
      return;
    }
    const parsed = parsePackSpec(spec);
    if (!parsed.ok) {
      problems.push({ path, message: parsed.message });
      return;
    }
    if (seen.has(parsed.pack.spec)) {
      problems.push({ path, message: `pack "${parsed.pack.spec}" is named twice` });
      return;
    }
    seen.add(parsed.pack.spec);
    refs.push({ pack: parsed.pack, ...(mode ? { mode } : {}), path });
  });
  return { refs, problems };
}
