/**
 * @module `shepherd-rules.lock`, beside the rules file that extends packs: for each pack its source, version or
 * commit, and the sha256 of every file. Read bounded and validated; written only by `shepherd pack`, through
 * the atomic writer under the advisory lock.
 */
import * as v from "valibot";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import { MAX_SETTINGS_BYTES, readBounded } from "../../fs/bounded-read.ts";
import { withFileLock } from "../../fs/lock.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../../json-depth.ts";

export { LOCK_FILE_NAME, lockFileFor } from "./locations.ts";
export const LOCKFILE_VERSION = 1;

/** Built on first use: a hook answering from its snapshot never validates a lock (snapshot-key.ts reads it raw). */
function schemas() {
  const Sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
  const Files = v.pipe(
    v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(1024)), Sha),
    v.check((r) => Object.keys(r).length <= 256, "at most 256 files"),
  );
  const Entry = v.variant("kind", [
    v.strictObject({ kind: v.literal("npm"), name: v.string(), version: v.string(), integrity: Sha, files: Files }),
    v.strictObject({ kind: v.literal("git"), name: v.string(), url: v.string(), commit: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/)), integrity: Sha, files: Files }),
  ]);
  const Lock = v.strictObject({
    lockfileVersion: v.literal(LOCKFILE_VERSION),
    packs: v.pipe(
      v.record(v.string(), Entry),
      v.check((r) => Object.keys(r).length <= 64, "at most 64 packs"),
    ),
  });
  return { Entry, Lock };
}

let built: ReturnType<typeof schemas> | undefined;
const lockSchemas = () => (built ??= schemas());

export type LockEntry = v.InferOutput<ReturnType<typeof schemas>["Entry"]>;
export type PackLock = v.InferOutput<ReturnType<typeof schemas>["Lock"]>;

export type LockRead =
  | { ok: true; lock: PackLock; text: string | undefined }
  | { ok: false; message: string; text: string | undefined };

export function emptyLock(): PackLock {
  return { lockfileVersion: LOCKFILE_VERSION, packs: {} };
}

/** A missing lock is an empty one; an unreadable or invalid one is a problem (no pack of it is verified). */
export function readLock(file: string): LockRead {
  const read = readBounded(file, MAX_SETTINGS_BYTES);
  if (!read.ok) return read.reason === "missing" ? { ok: true, lock: emptyLock(), text: undefined } : { ok: false, message: read.message, text: undefined };
  const deep = jsonDepthProblem(read.text, MAX_JSON_DEPTH);
  if (deep) return { ok: false, message: deep.message, text: read.text };
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch (err) {
    return { ok: false, message: `not JSON: ${err instanceof Error ? err.message : String(err)}`, text: read.text };
  }
  const parsed = v.safeParse(lockSchemas().Lock, data);
  if (!parsed.success) {
    const first = parsed.issues[0];
    const path = first?.path?.map((p) => String(p.key)).join(".") ?? "";
    return { ok: false, message: `invalid lock file${path ? ` at ${path}` : ""}: ${first?.message ?? "wrong shape"}`, text: read.text };
  }
  return { ok: true, lock: parsed.output, text: read.text };
}

/** Stable text: packs and files in sorted order, so a lock changes only where a pack did. */
export function serializeLock(lock: PackLock): string {
  const packs: Record<string, LockEntry> = {};
  for (const spec of Object.keys(lock.packs).sort()) {
    const e = lock.packs[spec] as LockEntry;
    const files: Record<string, string> = {};
    for (const p of Object.keys(e.files).sort()) files[p] = e.files[p] as string;
    packs[spec] = { ...e, files };
  }
  return `${JSON.stringify({ lockfileVersion: LOCKFILE_VERSION, packs }, null, 2)}\n`;
}

/**
 * Read-modify-write of a lock file under `<lock>.lock`: `change` gets the current lock (empty when missing)
 * and returns the new one. An invalid lock is not overwritten: the caller reports it.
 */
export async function updateLock(file: string, change: (lock: PackLock) => PackLock): Promise<{ ok: true; lock: PackLock } | { ok: false; message: string }> {
  const locked = await withFileLock(file, () => {
    const current = readLock(file);
    if (!current.ok) return { ok: false as const, message: `${file}: ${current.message} (fix or remove it, then run the command again)` };
    const next = change(current.lock);
    const written = writeFileAtomic(file, serializeLock(next));
    return written.ok ? { ok: true as const, lock: next } : { ok: false as const, message: written.reason };
  });
  return locked.ok ? locked.value : { ok: false, message: locked.reason };
}
