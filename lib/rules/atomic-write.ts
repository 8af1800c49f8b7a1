/** @module atomic file writes: temp file in the same folder, fsync, rename; a reader never sees half a file. */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

let counter = 0;

/**
 * Writes `text` to `path` atomically. `beforeRename`, when given, runs once the temp file is on disk and
 * may call the write off (returns false; nothing changes): a compare-and-swap done there leaves only the
 * rename itself between the check and the new content, not the write and fsync.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o644, beforeRename?: () => boolean): boolean {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  const fd = openSync(tmp, "w", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (beforeRename && !beforeRename()) {
      rmSync(tmp, { force: true });
      return false;
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return true;
}
