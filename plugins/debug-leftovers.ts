/**
 * @module debug_leftovers: notices debugging code (console.log, debugger, breakpoint(), dbg!, pdb) that a
 * write or edit adds, counting only lines the call adds, so touching a file that already has some
 * does not nag. A JSON pattern rule cannot tell added lines from existing ones; this can.
 *
 * Rule: { "name": "no-debug-leftovers", "tool": ["write", "edit"], "action": "debug_leftovers",
 *         "options": { "mode": "steer", "ignore": "(\\.test\\.|/scripts/)" } }
 * Options: `mode` "steer" (default) | "notify" | "block"; `patterns` (regex strings, replace the
 * defaults); `ignore` (regex on the path; default skips tests, scripts and docs).
 */
import { readBounded } from "../lib/fs/bounded-read.ts";
import { isAbsolute, resolve } from "node:path";
import { definePlugin, editsOfEvent, type HookEvent, type PartialDecision, pathOfEvent, textOfEvent, toolOf } from "shepherd:plugin";

const DEFAULT_PATTERNS = [
  "\\bconsole\\.(?:log|debug|trace|dir)\\(",
  "^\\s*debugger;?\\s*$",
  "\\bbreakpoint\\(\\)",
  "\\bpdb\\.set_trace\\(",
  "\\bbinding\\.pry\\b",
  "\\bdbg!\\(",
  "\\bvar_dump\\(",
];
const DEFAULT_IGNORE = "(?:\\.(?:test|spec)\\.|(?:^|/)(?:tests?|__tests__|scripts|bin|bench)/|\\.(?:md|txt|json)$)";
const MAX_SHOWN = 3;

function matchingLines(text: string, patterns: RegExp[]): string[] {
  return text.split("\n").filter((line) => patterns.some((re) => re.test(line)));
}

/** Lines of `after` matching a pattern, minus as many equal lines as `before` already had. */
function added(before: string, after: string, patterns: RegExp[]): string[] {
  const had = new Map<string, number>();
  for (const line of matchingLines(before, patterns)) had.set(line.trim(), (had.get(line.trim()) ?? 0) + 1);
  const out: string[] = [];
  for (const line of matchingLines(after, patterns)) {
    const key = line.trim();
    const n = had.get(key) ?? 0;
    if (n > 0) had.set(key, n - 1);
    else out.push(key);
  }
  return out;
}

/** As line-guard: the model names the path, which may be a FIFO, a device or a huge file; those read as empty. */
const MAX_EXISTING_BYTES = 8 * 1024 * 1024;

function existing(event: HookEvent, path: string): string {
  const read = readBounded(isAbsolute(path) ? path : resolve(event.session.cwd, path), MAX_EXISTING_BYTES);
  return read.ok ? read.text : "";
}

function patternsOf(options: Record<string, unknown>): RegExp[] {
  const list = Array.isArray(options.patterns) ? options.patterns.filter((p): p is string => typeof p === "string") : DEFAULT_PATTERNS;
  return list.map((p) => new RegExp(p));
}

export default definePlugin({
  name: "debug-leftovers",
  actions: {
    debug_leftovers: ({ event, rule, options }): PartialDecision | undefined => {
      if (event.hook !== "tool_call") return undefined;
      const tool = toolOf(event);
      const path = pathOfEvent(event) ?? "";
      const ignore = typeof options.ignore === "string" ? options.ignore : DEFAULT_IGNORE;
      if (path && new RegExp(ignore).test(path.replaceAll("\\", "/"))) return undefined;
      const patterns = patternsOf(options);
      let lines: string[];
      if (tool === "write") {
        lines = added(path ? existing(event, path) : "", textOfEvent(event) ?? "", patterns);
      } else if (tool === "edit") {
        lines = editsOfEvent(event).flatMap((e) => added(e.oldText, e.newText, patterns));
      } else {
        return undefined;
      }
      if (lines.length === 0) return undefined;
      const shown = lines.slice(0, MAX_SHOWN).map((l) => `\`${l.length > 120 ? `${l.slice(0, 120)}…` : l}\``).join(", ");
      const more = lines.length > MAX_SHOWN ? ` and ${lines.length - MAX_SHOWN} more` : "";
      const text = `This change adds debugging code to ${path || "a file"}: ${shown}${more}. Remove it before you finish (rule "${rule.name}").`;
      if (options.mode === "block") return { action: "block", reason: text };
      if (options.mode === "notify") return { notify: [text] };
      return { steer: [text] };
    },
  },
});
