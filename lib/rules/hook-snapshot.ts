/**
 * @module a per-project snapshot of the merged rule set for one-shot hook processes. Loading, merging and
 * indexing a thousand rules costs a cold process more than everything else it does; a hook then tests a
 * few of them. The snapshot keeps the merged rules one JSON per rule behind an index (hook, tool, literal
 * gate, byte range), so a hook parses only the rules its events can pick.
 *
 * Staleness: the key is built by the rule host from what the merge depends on (every rule file's path and
 * content fingerprint, trust, plugin names, the project folder), and the store adds the binary's
 * identity; a snapshot is used only when the whole key matches. Rule sets naming plugin actions or checks
 * are never stored (the hook reloads them with plugins).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EventView } from "../engine/match.ts";
import type { RuleSet } from "../engine/merge.ts";
import { type Gate, gatePasses, gatesOf, primeGates, requiredPrograms } from "../engine/prefilter.ts";
import { analysesOf, type PatternAnalysis, primeAnalyses } from "../engine/regex-safety.ts";
import type { HookEvent, Rule } from "../engine/schema.ts";
import { textHash } from "../hash.ts";
import { parseShell } from "../shell/index.ts";

export interface RuleSnapshots {
  /** The merged rules stored under `key` that this process's events may pick, in merged order; undefined on a miss. */
  load(cwd: string, key: string): Rule[] | undefined;
  save(cwd: string, key: string, set: RuleSet): void;
}

interface Header {
  salt: string;
  key: string;
  /** Per hook: indices of the rules for any tool, and per tool. */
  index: Record<string, { any: number[]; byTool: Record<string, number[]> }>;
  gates: (Gate | null)[];
  /** Per rule, the programs its `command` condition requires (one must run), or null: the prefilter's program index. */
  programs: (string[] | null)[];
  /** Rules that rewrite: a rewritten input is selected again, so their lists are never narrowed by gate. */
  rewrites: number[];
  /** End of each rule's JSON in the body (bytes); each starts where the previous one ends. */
  ends: number[];
}

interface Body {
  rule: Rule;
  analyses: [string, PatternAnalysis][];
}

function patternsOf(rule: Rule): { pattern: string; flags: string | undefined }[] {
  const out: { pattern: string; flags: string | undefined }[] = [];
  if (rule.pattern !== undefined) out.push({ pattern: rule.pattern, flags: rule.flags });
  for (const c of rule.conditions) out.push({ pattern: c.pattern, flags: c.flags });
  // The `command` condition's regexes go through the same compiler (lib/shell/index.ts), without flags.
  const cmd = rule.command;
  if (cmd) for (const p of [cmd.args, cmd.notArgs, cmd.branch, cmd.writesTo]) if (p !== undefined) out.push({ pattern: p, flags: undefined });
  return out;
}

/**
 * `events`: what this process will evaluate; a loaded snapshot holds only the rules of their hooks and
 * tools whose literal gate their text passes (the same test the evaluation's prefilter makes first).
 * `salt` must change whenever the loader or merge may differ (the binary's identity). `home` is the one
 * evaluation parses command lines with, so the parse made here is the one its cache hands the matchers.
 */
export function fileRuleSnapshots(dir: string, salt: string, events: readonly HookEvent[], home: string): RuleSnapshots {
  const fileOf = (cwd: string) => join(dir, `snapshot-${textHash(cwd)}.bin`);
  let tmpCount = 0;
  return {
    load(cwd, key) {
      let buf: Buffer;
      try {
        buf = readFileSync(fileOf(cwd));
      } catch {
        return undefined;
      }
      const nl = buf.indexOf(10);
      if (nl < 0) return undefined;
      let header: Header;
      try {
        header = JSON.parse(buf.toString("utf8", 0, nl)) as Header;
      } catch {
        return undefined;
      }
      if (header.salt !== salt || header.key !== key || !Array.isArray(header.programs)) return undefined;
      const wanted = new Set<number>();
      const rewrites = new Set(header.rewrites);
      for (const event of events) {
        const view = new EventView(event);
        const idx = header.index[event.hook];
        if (!idx) continue;
        const list = [...idx.any, ...(idx.byTool[view.tool] ?? [])];
        const narrow = !list.some((i) => rewrites.has(i));
        const folded = new Map<string, string | undefined>();
        let running: Set<string> | undefined;
        const runs = (programs: string[]): boolean => {
          // A condition on a missing command line fails; otherwise one of the programs must really run.
          if (view.command === undefined) return false;
          running ??= new Set(parseShell(view.command, { cwd: event.session.cwd, home }).commands.map((c) => c.program));
          return programs.some((p) => running?.has(p));
        };
        for (const i of list) {
          if (narrow) {
            if (!gatePasses(header.gates[i] ?? null, view, folded)) continue;
            const programs = header.programs[i];
            if (programs && !runs(programs)) continue;
          }
          wanted.add(i);
        }
      }
      const base = nl + 1;
      const rules: Rule[] = [];
      try {
        for (const i of [...wanted].sort((a, b) => a - b)) {
          const start = i === 0 ? 0 : (header.ends[i - 1] as number);
          const body = JSON.parse(buf.toString("utf8", base + start, base + (header.ends[i] as number))) as Body;
          primeGates([body.rule], [header.gates[i] ?? null]);
          primeAnalyses(body.analyses);
          rules.push(body.rule);
        }
      } catch {
        return undefined;
      }
      return rules;
    },
    save(cwd, key, set) {
      const target = fileOf(cwd);
      const tmp = `${target}.${process.pid}.${tmpCount++}.tmp`;
      try {
        const position = new Map(set.rules.map((r, i) => [r, i]));
        const at = (list: readonly { rule: Rule }[]) => list.map((cr) => position.get(cr.rule) as number);
        const index: Header["index"] = {};
        for (const [hook, idx] of set.byHook) {
          const byTool: Record<string, number[]> = {};
          for (const [tool, list] of idx.byTool) byTool[tool] = at(list);
          index[hook] = { any: at(idx.any), byTool };
        }
        const ends: number[] = [];
        const parts: string[] = [];
        let end = 0;
        for (const rule of set.rules) {
          const text = JSON.stringify({ rule, analyses: analysesOf(patternsOf(rule)) } satisfies Body);
          end += Buffer.byteLength(text);
          ends.push(end);
          parts.push(text);
        }
        const rewrites = set.rules.flatMap((r, i) => (r.action === "rewrite" ? [i] : []));
        const programs = set.rules.map((r) => requiredPrograms(r) ?? null);
        const header: Header = { salt, key, index, gates: gatesOf(set.rules), programs, rewrites, ends };
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(tmp, `${JSON.stringify(header)}\n${parts.join("")}`, { mode: 0o600 });
        renameSync(tmp, target);
      } catch {
        // A snapshot that cannot be written only costs the next hook the full load.
        rmSync(tmp, { force: true });
      }
    },
  };
}
