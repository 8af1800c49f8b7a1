/**
 * @module Files Shepherd installs into an agent's folder (the pi extension, the OpenCode plugin): the text
 * embedded in the binary, written only where it differs, and folders listed without failing.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { MAX_RULE_FILE_BYTES, readBounded } from "../fs/bounded-read.ts";

/** The text of a `with { type: "text" }` import; `what` names the file in the error of a build that lacks it. */
export function embeddedText(what: string, module: unknown): string {
  // A text import yields `{default: string}`; TypeScript sees the module's own exports instead.
  const text: unknown = typeof module === "object" && module !== null ? Reflect.get(module, "default") : undefined;
  if (typeof text !== "string") throw new Error(`the embedded ${what} is missing from this build`);
  return text;
}

/** The installed copy, to compare: bounded (a FIFO or a huge file there is just "different", and is replaced). */
function readOrUndefined(path: string): string | undefined {
  const read = readBounded(path, MAX_RULE_FILE_BYTES);
  return read.ok ? read.text : undefined;
}

/** Writes each file whose installed text differs; the names written, or the first write's failure. */
export function writeChangedFiles(dir: string, files: ReadonlyMap<string, string>): { ok: true; changed: string[] } | { ok: false; reason: string } {
  const changed: string[] = [];
  for (const [name, text] of files) {
    const path = join(dir, name);
    if (readOrUndefined(path) === text) continue;
    const written = writeFileAtomic(path, text);
    if (!written.ok) return { ok: false, reason: written.reason };
    changed.push(name);
  }
  return { ok: true, changed };
}

/** A folder's entries, or none when it cannot be read. */
export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
