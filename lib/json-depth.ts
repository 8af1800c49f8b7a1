/**
 * @module a nesting-depth cap for JSON and JSONC texts, checked by one linear scan before the real parse:
 * jsonc-parser (comments, errors, positions) recurses per level, and so does code that walks what was
 * parsed, so 800,000 nested arrays (1.6 MB) cost a hook seconds or `rules check` a RangeError. The scan
 * skips strings and comments and tolerates broken JSON (the parser reports that).
 */

/** Rule files, settings, events: hand-written rules nest about 6 deep; plugin options get the rest. */
export const MAX_JSON_DEPTH = 64;

export interface DepthProblem {
  /** Character offset of the bracket that went one level too deep. */
  offset: number;
  /** 1-based line and column of `offset`. */
  line: number;
  column: number;
  /** The JSON path of the value that bracket opens, e.g. `rules[0].options.a[3]`. */
  path: string;
  /** Names the path: an issue about the whole file (path "") still says where. */
  message: string;
}

interface Frame {
  array: boolean;
  index: number;
  /** Offsets of the last key's string (quotes excluded) in an object; -1 before any. */
  keyStart: number;
  keyEnd: number;
  /** In an object: the next string is a key. */
  expectKey: boolean;
}

function pathOf(text: string, frames: Frame[]): string {
  const parts: string[] = [];
  for (const f of frames) {
    if (f.array) parts.push(`[${f.index}]`);
    else if (f.keyStart >= 0) {
      const key = text.slice(f.keyStart, f.keyEnd);
      parts.push(parts.length === 0 ? key : `.${key}`);
    }
  }
  return parts.join("");
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at >= 0 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Offset of the quote closing the string opened at `open`, or the text's length. */
function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    // Escaped when an odd run of backslashes precedes it; each run is looked at once.
    let k = q - 1;
    while (k > open && text.charCodeAt(k) === 92) k--;
    if ((q - 1 - k) % 2 === 0) return q;
    from = q + 1;
  }
}

/** The first place `text` nests deeper than `maxDepth` arrays and objects, or undefined. Linear in the text's length. */
export function jsonDepthProblem(text: string, maxDepth = MAX_JSON_DEPTH): DepthProblem | undefined {
  const frames: Frame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      const top = frames[frames.length - 1];
      if (top && !top.array && top.expectKey) {
        top.keyStart = i + 1;
        top.keyEnd = end;
        top.expectKey = false;
      }
      i = end + 1;
      continue;
    }
    if (c === 47 /* / */ && i + 1 < n) {
      const next = text.charCodeAt(i + 1);
      if (next === 47) {
        const end = text.indexOf("\n", i + 2);
        i = end < 0 ? n : end + 1;
        continue;
      }
      if (next === 42 /* * */) {
        const end = text.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        continue;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (frames.length >= maxDepth) {
        const path = pathOf(text, frames);
        return { offset: i, ...lineColumn(text, i), path, message: `nested more than ${maxDepth} levels deep${path ? ` at ${path}` : ""}: refused before parsing` };
      }
      frames.push({ array: c === 91, index: 0, keyStart: -1, keyEnd: -1, expectKey: c === 123 });
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      frames.pop();
    } else if (c === 44 /* , */) {
      const top = frames[frames.length - 1];
      if (top) {
        if (top.array) top.index++;
        else top.expectKey = true;
      }
    }
    i++;
  }
  return undefined;
}
