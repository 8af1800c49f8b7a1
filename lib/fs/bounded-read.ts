/**
 * @module reads a file a repository, a disk or a home folder controls, at a bounded cost: only regular
 * files (a FIFO, a device, a directory or a socket is refused before it is read), at most a size cap,
 * never a blocking open. Results are data; a missing file is a reason of its own (it is normal).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** Rule files: 10,000 hand-written rules are ~2 MB (bench/lib/synthetic-rules.ts). */
export const MAX_RULE_FILE_BYTES = 4 * 1024 * 1024;
/** settings.json (pi's and Shepherd's keys) and the trust list in it: small by nature. */
export const MAX_SETTINGS_BYTES = 1024 * 1024;
/** A session's state file: per-rule counters of 10,000 rules and the commands since the last edit. */
export const MAX_STATE_BYTES = 4 * 1024 * 1024;
/** Shepherd's own cache entries: a rule file's load result with its gates and regex analyses. */
export const MAX_CACHE_ENTRY_BYTES = 32 * 1024 * 1024;

/** What a file is known by between processes: a change of content changes one of these. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export type RefusalReason = "missing" | "not-regular" | "too-large" | "unreadable";

export type BoundedRead =
  | { ok: true; text: string; identity: FileIdentity }
  /** `identity` is there whenever the file could be stat'ed: a refusal can be remembered by it. */
  | { ok: false; reason: RefusalReason; message: string; identity?: FileIdentity };

export type OpenRegular = { ok: true; fd: number; identity: FileIdentity } | { ok: false; reason: RefusalReason; message: string; identity?: FileIdentity };

// O_NONBLOCK: opening a FIFO for reading would wait for a writer; non-blocking it returns at once and fstat refuses it.
// O_NOCTTY: a terminal device opened by mistake never becomes the controlling terminal. Both are 0 where absent.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export function identityOf(st: Stats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/** One string for a cache key or a fingerprint. */
export function identityKey(id: FileIdentity): string {
  return `${id.dev}:${id.ino}:${id.size}:${id.mtimeMs}:${id.ctimeMs}`;
}

/** The identity of what `file` points at (stat follows symbolic links and never blocks, even on a FIFO); undefined when it cannot be stat'ed. */
export function statIdentity(file: string): FileIdentity | undefined {
  try {
    const st = statSync(file, NO_THROW_IF_MISSING);
    return st === undefined ? undefined : identityOf(st);
  } catch {
    return undefined;
  }
}

/** What a non-regular file is, for the message. */
export function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isDirectory()) return "a directory";
  if (st.isSocket()) return "a socket";
  return "a special file";
}

function notRegular(st: Stats): { ok: false; reason: "not-regular"; message: string; identity: FileIdentity } {
  return { ok: false, reason: "not-regular", message: `not a regular file but ${kindOf(st)}: refused unread`, identity: identityOf(st) };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Most files a hook looks for are not there (settings, rule and lock files of every layer): a stat that
 * answers undefined costs no exception, which in a hook's cold code is ~10 µs each, two dozen times.
 */
const NO_THROW_IF_MISSING = { throwIfNoEntry: false } as const;

const MISSING = { ok: false, reason: "missing", message: "file not found" } as const;

function failed(err: unknown): { ok: false; reason: RefusalReason; message: string } {
  const code = (err as { code?: unknown }).code;
  if (code === "ENOENT" || code === "ENOTDIR") return { ...MISSING };
  return { ok: false, reason: "unreadable", message: `cannot read: ${errorMessage(err)}` };
}

/** Human size of a byte count, for messages. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** The refusal of a file over `maxBytes` (a caller reading under a smaller budget names the real cap with it). */
export function tooLargeMessage(maxBytes = MAX_RULE_FILE_BYTES): string {
  return `larger than the ${formatBytes(maxBytes)} limit: refused unread`;
}

function tooLarge(maxBytes: number, identity: FileIdentity): { ok: false; reason: "too-large"; message: string; identity: FileIdentity } {
  return { ok: false, reason: "too-large", message: tooLargeMessage(maxBytes), identity };
}

/**
 * Opens a regular file for reading without ever blocking: stat first (a non-regular file is not even
 * opened, so a device's open has no side effect), then a non-blocking open and fstat of the descriptor (the
 * path may have been swapped in between). The caller closes `fd`.
 */
export function openRegular(file: string): OpenRegular {
  let st: Stats | undefined;
  try {
    st = statSync(file, NO_THROW_IF_MISSING);
  } catch (err) {
    return failed(err);
  }
  if (st === undefined) return { ...MISSING };
  if (!st.isFile()) return notRegular(st);
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    return { ...failed(err), identity: identityOf(st) };
  }
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile()) {
      closeSync(fd);
      return notRegular(fst);
    }
    return { ok: true, fd, identity: identityOf(fst) };
  } catch (err) {
    closeSync(fd);
    return { ...failed(err), identity: identityOf(st) };
  }
}

/** Kept BOM: callers compare and rewrite texts byte for byte (readFileSync's "utf8" keeps it too). */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The text of `file` when it is a regular file of at most `maxBytes` bytes. At most `maxBytes + 1` bytes
 * are ever read, so a file that grows while it is read is refused too, and no buffer exceeds the cap.
 */
export function readBounded(file: string, maxBytes: number): BoundedRead {
  const opened = openRegular(file);
  if (!opened.ok) return opened;
  const { fd, identity } = opened;
  try {
    if (identity.size > maxBytes) return tooLarge(maxBytes, identity);
    const limit = maxBytes + 1;
    // Sized by fstat, grown only if the file grew meanwhile: a small file never costs a cap-sized buffer.
    let buf = new Uint8Array(Math.min(identity.size + 1, limit));
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (buf.length >= limit) break;
        const bigger = new Uint8Array(Math.min(buf.length * 2, limit));
        bigger.set(buf);
        buf = bigger;
      }
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) return tooLarge(maxBytes, identity);
    return { ok: true, text: utf8.decode(buf.subarray(0, got)), identity };
  } catch (err) {
    return { ...failed(err), identity };
  } finally {
    closeSync(fd);
  }
}
