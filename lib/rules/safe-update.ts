/**
 * @module the one way Shepherd changes a file it shares with people (rule files, settings.json, an
 * agent's hook settings): a locked read-modify-write that is validated by the caller, compare-and-swap
 * before the rename, atomic, and checked again once a concurrent save has had time to land.
 */
import { realpathSync, statSync } from "node:fs";
import { MAX_RULE_FILE_BYTES, readBounded } from "../fs/bounded-read.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { withFileLock } from "../fs/lock.ts";

/**
 * What the caller's update makes of the file's current text: an error (nothing is written, no retry),
 * or a value with the new text, or a value without text when the file already says what it should.
 * The update must validate `text` itself: whatever it returns is written as is.
 */
export type UpdateStep<T> = { error: string } | { value: T; text?: string };

export type SafeUpdateResult<T> = { ok: true; value: T; written: boolean } | { ok: false; message: string };

export interface SafeUpdateOptions {
  /**
   * Whether the change still stands in the file as it is now (`undefined`: the file is gone). Others may
   * have written since, which is fine; a change they undid is written again. Default: the update, run on
   * the current text, asks for no write.
   */
  verify?: (current: string | undefined) => boolean;
  /** Replace the file a symbolic link points at rather than the link (dotfile managers link settings files). */
  followSymlink?: boolean;
  /** How many times a change that someone undid is written again. */
  attempts?: number;
  /** How long to keep retrying while the file changes under every attempt. */
  waitMs?: number;
  settleMs?: number;
}

const MAX_ATTEMPTS = 8;
/** A file that changes under every attempt for this long is being fought over, not saved. */
const WAIT_MS = 5_000;
/** Longer than any editor's read-compare-rename, so a save that raced ours has landed when we look. */
const SETTLE_MS = 30;

type Read = { ok: true; text: string | undefined } | { ok: false; message: string };

/** Bounded like every read of a shared file: the largest of them are rule files. A non-regular file is never written over. */
function readCurrent(file: string): Read {
  const read = readBounded(file, MAX_RULE_FILE_BYTES);
  if (read.ok) return { ok: true, text: read.text };
  if (read.reason === "missing") return { ok: true, text: undefined };
  return { ok: false, message: `cannot read ${file}: ${read.message}` };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Applies `update` to `file`. Shepherd writers serialize on `<file>.lock`; a person's editor does not,
 * so the text is read again just before the rename (a save in between means start over) and once more
 * `settleMs` later (a save that slipped between that check and the rename means write again).
 */
export async function updateFileSafely<T>(
  file: string,
  update: (current: string | undefined, attempt: number) => UpdateStep<T>,
  opts: SafeUpdateOptions = {},
): Promise<SafeUpdateResult<T>> {
  let target = file;
  if (opts.followSymlink) {
    try {
      target = realpathSync(file);
    } catch {
      // Not there yet: it is created where it was asked for.
    }
  }
  const attempts = opts.attempts ?? MAX_ATTEMPTS;
  const settleMs = opts.settleMs ?? SETTLE_MS;
  const deadline = Date.now() + (opts.waitMs ?? WAIT_MS);
  let undone = 0;
  // The first write's result: a retry that finds the change already there (someone else wrote it back) still reports it.
  let wrote: { ok: true; value: T; written: true } | undefined;

  // Under load, reading, editing and writing can take as long as an eager editor's save cycle, so a
  // conflict is retried until the deadline rather than a fixed number of times.
  for (let attempt = 0; ; attempt++) {
    type Once = { ok: true; value: T; written: boolean } | { ok: false; message: string } | "conflict";
    const once = (): Once => {
      const before = readCurrent(target);
      if (!before.ok) return before;
      const step = update(before.text, attempt);
      if ("error" in step) return { ok: false, message: step.error };
      if (step.text === undefined) return { ok: true, value: step.value, written: false };
      const unchanged = () => {
        const now = readCurrent(target);
        return now.ok && now.text === before.text;
      };
      // The writer keeps the file's mode; a failed write (full disk, file size limit) leaves the old file whole.
      const written = writeFileAtomic(target, step.text, { beforeRename: unchanged });
      if (!written.ok) return written.kind === "conflict" ? "conflict" : { ok: false, message: written.reason };
      return { ok: true, value: step.value, written: true };
    };
    // The lock is on the path Shepherd was given, so every Shepherd writer of that path meets there.
    let locked: Awaited<ReturnType<typeof withFileLock<Once>>>;
    try {
      locked = await withFileLock(file, once);
    } catch (err) {
      // An update that throws (a file it must not overwrite) is released and reported like any refusal.
      return { ok: false, message: `cannot write ${target}: ${errorText(err)}` };
    }
    if (!locked.ok) return { ok: false, message: `cannot write ${target}: ${locked.reason}` };
    const result = locked.value;
    if (result === "conflict") {
      if (Date.now() > deadline) return { ok: false, message: `${file} kept changing while this write was prepared; try again` };
      // A short random pause: an editor saving on a steady beat would otherwise meet every retry.
      await sleep(Math.random() * 10);
      continue;
    }
    if (!result.ok) return result;
    if (!result.written) return wrote ?? result;
    wrote ??= { ok: true, value: result.value, written: true };
    await sleep(settleMs);
    const after = readCurrent(target);
    const stands = after.ok && (opts.verify ? opts.verify(after.text) : stillNoOp(update(after.text, attempt + 1)));
    if (stands) return wrote;
    if (++undone >= attempts || Date.now() > deadline) return { ok: false, message: `${file} kept changing under this write; try again` };
  }
}

function stillNoOp<T>(step: UpdateStep<T>): boolean {
  return !("error" in step) && step.text === undefined;
}
