/**
 * @module line_guard: blocks a write or edit that would make a file longer than `maxLines` lines, so
 * an agent splits a growing module instead of piling onto it.
 *
 * Rule: { "name": "max-file-length", "tool": ["write", "edit"], "action": "line_guard",
 *         "options": { "maxLines": 400, "exclude": "\\.(json|lock|md)$" } }
 */
import { readBounded } from "../lib/fs/bounded-read.ts";
import { isAbsolute, resolve } from "node:path";
import { applyEdits, countLines, definePlugin, editsOfEvent, type HookEvent, pathOfEvent, textOfEvent, toolOf } from "shepherd:plugin";

const DEFAULT_MAX_LINES = 500;

/** A file bigger than what one hook input may hold is not edited through one either: unknown, like a FIFO or a device the model names. */
const MAX_EXISTING_BYTES = 8 * 1024 * 1024;

function readExisting(event: HookEvent, path: string): string | undefined {
  const read = readBounded(isAbsolute(path) ? path : resolve(event.session.cwd, path), MAX_EXISTING_BYTES);
  return read.ok ? read.text : undefined;
}

/** Line counts before and after the call, or undefined when the result cannot be known (e.g. a patch). */
function lineCounts(event: HookEvent, path: string): { before: number; after: number } | undefined {
  const tool = toolOf(event);
  const existing = readExisting(event, path);
  const before = existing === undefined ? 0 : countLines(existing);
  if (tool === "write") {
    const text = textOfEvent(event);
    return text === undefined ? undefined : { before, after: countLines(text) };
  }
  if (tool === "edit") {
    const edits = editsOfEvent(event);
    if (edits.length === 0 || existing === undefined) return undefined;
    return { before, after: countLines(applyEdits(existing, edits)) };
  }
  return undefined;
}

export default definePlugin({
  name: "line-guard",
  actions: {
    line_guard: ({ event, rule, options }) => {
      if (event.hook !== "tool_call") return undefined;
      const path = pathOfEvent(event);
      if (path === undefined) return undefined;
      const max = typeof options.maxLines === "number" && options.maxLines > 0 ? Math.floor(options.maxLines) : DEFAULT_MAX_LINES;
      if (typeof options.exclude === "string" && new RegExp(options.exclude).test(path)) return undefined;
      const counts = lineCounts(event, path);
      // A file that is already too long may still be edited as long as the edit does not grow it.
      if (!counts || counts.after <= max || counts.after <= counts.before) return undefined;
      return {
        action: "block",
        reason:
          `${path} would have ${counts.after} lines, over the limit of ${max} (rule "${rule.name}"). ` +
          "Split it into smaller modules instead of growing it, then write the parts.",
      };
    },
  },
});
