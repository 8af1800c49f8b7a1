/**
 * @module a per-project snapshot of the merged rule set for one-shot hook processes. Loading, merging and
 * indexing a thousand rules costs a cold process more than everything else it does; a hook then tests a
 * few of them. The snapshot keeps the merged rules one JSON per rule behind an index (hook, tool, the
 * prefilter's gate literals and programs, byte range), so a hook parses only the rules its events can pick.
 * The index is a superset filter: it may hand over a rule that then fails its gate, never drop one that
 * could match (evaluation tests every gate again).
 *
 * Staleness: the key is built by the rule host from what the merge depends on (every rule file's path and
 * content fingerprint, trust, plugin names, the project folder), and the store adds the binary's
 * identity; a snapshot is used only when the whole key matches. Rule sets naming plugin actions or checks
 * are never stored (the hook reloads them with plugins).
 */
import { closeSync, readSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { EventView } from "../engine/match.ts";
import { ruleToolsFor } from "../engine/tools.ts";
import type { RuleSet } from "../engine/merge.ts";
import { foldedField, type Gate, gatesOf, primeGates, requiredPrograms } from "../engine/prefilter.ts";
import type { CompiledRule } from "../engine/match.ts";
import { analysesOf, type PatternAnalysis, primeAnalyses } from "../engine/regex-safety.ts";
import type { HookEvent, Rule } from "../engine/schema.ts";
import { textHash } from "../hash.ts";
import { MAX_CACHE_ENTRY_BYTES, openRegular } from "../fs/bounded-read.ts";
import { parseShell } from "../shell/index.ts";

/** The section of a hook's tool-glob rules (`mcp__github__*`): no tool name holds a tab. */
const GLOB_SECTION = "\t\tglobs";

export interface RuleSnapshots {
  /** The merged rules stored under `key` that this process's events may pick, in merged order; undefined on a miss. */
  load(cwd: string, key: string): Rule[] | undefined;
  save(cwd: string, key: string, set: RuleSet): void;
}

interface Header {
  salt: string;
  key: string;
  /** Byte range (from the end of this line) of each candidate list's index: "hook\ttool", "hook\t" for any tool. */
  sections: Record<string, [number, number]>;
  /** Where the bodies start (from the end of this line); end of each rule's JSON counted from there. */
  bodies: number;
  ends: number[];
}

/**
 * One candidate list (merge's index by hook and tool), indexed the way the prefilter narrows it, so a hook
 * reads its event's texts once instead of testing every rule's gate.
 */
interface Section {
  /** Every rule of the list, by position in the merged order. */
  all: number[];
  /** The list holds a rewrite: a rewritten input is selected again, so it is never narrowed. */
  rewrites: boolean;
  /** Rules picked whatever the text: no gate, or a gate literal too short to index. */
  always: number[];
  /** Gated rules: field -> a GRAM-character substring of each gate literal -> rules. */
  grams: Record<string, Record<string, number[]>>;
  /** Rules whose `command` condition requires a program: name -> rules (the prefilter's program index). */
  programs: Record<string, number[]>;
}

interface Body {
  rule: Rule;
  gate: Gate | null;
  analyses: [string, PatternAnalysis][];
}

/** Literals are indexed by a substring of GRAM characters; a shorter literal makes its rule always picked. */
const GRAM = 3;

/** The first read of a snapshot: the header and indexes of a thousand rules (~40 KB), and bodies behind them. */
const FIRST_READ = 128 * 1024;

/** Up to `length` bytes at `position` (fewer at the end of the file). Typed arrays, not Buffer: see hook.ts. */
function readAt(fd: number, position: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

const utf8 = new TextDecoder();

/**
 * A piece of the snapshot, parsed. No depth scan (lib/json-depth.ts) here: JSON.parse does not recurse (JSC
 * and V8 parse iteratively), the pieces hold rules that passed the depth cap when their files were loaded,
 * and a scan of the header and indexes cost every hook 1.7 ms of its ~15. Bounded by the file's size instead.
 */
function parsePiece(bytes: Uint8Array): unknown {
  return JSON.parse(utf8.decode(bytes));
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
 * tools that the index cannot rule out for their text (evaluation then applies the prefilter's gates).
 * `salt` must change whenever the loader or merge may differ (the binary's identity). `home` is the one
 * evaluation parses command lines with, so the parse made here is the one its cache hands the matchers.
 */
export function fileRuleSnapshots(dir: string, salt: string, events: readonly HookEvent[], home: string): RuleSnapshots {
  const fileOf = (cwd: string) => join(dir, `snapshot-${textHash(cwd)}.bin`);
  /** The picked rules of the snapshot open at `fd`, or undefined when it is not the one for `key`. */
  const pick = (fd: number, size: number, key: string): Rule[] | undefined => {
    let head = readAt(fd, 0, FIRST_READ);
    let nl = head.indexOf(10);
    // A header past the first read (tens of thousands of rules): read on until its end, within the cap.
    while (nl < 0 && head.length % FIRST_READ === 0 && head.length > 0 && head.length < MAX_CACHE_ENTRY_BYTES) {
      const more = readAt(fd, head.length, head.length);
      if (more.length === 0) break;
      const joined = new Uint8Array(head.length + more.length);
      joined.set(head);
      joined.set(more, head.length);
      head = joined;
      nl = head.indexOf(10);
    }
    if (nl < 0) return undefined;
    const header = parsePiece(head.subarray(0, nl)) as Header;
    if (header.salt !== salt || header.key !== key || typeof header.sections !== "object") return undefined;
    const base = nl + 1;
    const bytesAt = (start: number, end: number): Uint8Array => {
      // Ranges come from the file: one past its end would allocate whatever it says.
      if (!(start >= 0 && end >= start && end <= size)) throw new Error("snapshot: range outside the file");
      const bytes = end <= head.length ? head.subarray(start, end) : readAt(fd, start, end - start);
      if (bytes.length !== end - start) throw new Error("snapshot: short read");
      return bytes;
    };
    // Parsed once each: a hook of several events (Codex, Gemini) may ask for a list again.
    const sections = new Map<string, Section | undefined>();
    const section = (name: string): Section | undefined => {
      if (sections.has(name)) return sections.get(name);
      const range = header.sections[name];
      const parsed = range ? (parsePiece(bytesAt(base + range[0], base + range[1])) as Section) : undefined;
      sections.set(name, parsed);
      return parsed;
    };
    const wanted = new Set<number>();
    for (const event of events) {
      const view = new EventView(event);
      // The lists the sidecar's candidates() would merge: every tool, the tools whose rules judge this one
      // (ruleToolsFor: PowerShell is judged by bash rules too), and the tool-glob rules (merge re-tests them).
      const names = [`${event.hook}\t`, ...ruleToolsFor(view.tool).map((t) => `${event.hook}\t${t}`), `${event.hook}${GLOB_SECTION}`];
      const lists = names.map(section).filter((x): x is Section => x !== undefined);
      if (lists.some((l) => l.rewrites)) {
        for (const l of lists) for (const i of l.all) wanted.add(i);
        continue;
      }
      const folded = new Map<string, string | undefined>();
      let running: string[] | undefined;
      for (const l of lists) {
        for (const i of l.always) wanted.add(i);
        for (const [field, grams] of Object.entries(l.grams)) {
          const text = foldedField(view, field, folded);
          // A gate on a missing field fails: none of these rules can match.
          if (text !== undefined) pickByGrams(text, grams, wanted);
        }
        // Parsed only for a list holding `command` rules (evaluation's parse cache then has the line).
        if (view.command === undefined || Object.keys(l.programs).length === 0) continue;
        running ??= parseShell(view.command, { cwd: event.session.cwd, home }).commands.map((c) => c.program);
        for (const program of running) if (Object.hasOwn(l.programs, program)) for (const i of l.programs[program] as number[]) wanted.add(i);
      }
    }
    const bodies = base + header.bodies;
    const rules: Rule[] = [];
    for (const i of [...wanted].sort((a, b) => a - b)) {
      const start = bodies + (i === 0 ? 0 : (header.ends[i - 1] as number));
      const body = parsePiece(bytesAt(start, bodies + (header.ends[i] as number))) as Body;
      primeGates([body.rule], [body.gate]);
      primeAnalyses(body.analyses);
      rules.push(body.rule);
    }
    return rules;
  };
  return {
    load(cwd, key) {
      // Read the header, then only the bodies this process picks: a thousand rules make a file of ~600 KB.
      // Only a regular file, opened without blocking: a FIFO put in its place must not hang the hook.
      const opened = openRegular(fileOf(cwd));
      if (!opened.ok) return undefined;
      const fd = opened.fd;
      try {
        return pick(fd, opened.identity.size, key);
      } catch {
        return undefined;
      } finally {
        closeSync(fd);
      }
    },
    save(cwd, key, set) {
      const target = fileOf(cwd);
      try {
        const position = new Map(set.rules.map((r, i) => [r, i]));
        const gates = gatesOf(set.rules);
        const parts: string[] = [];
        let offset = 0;
        const append = (text: string): [number, number] => {
          const start = offset;
          offset += Buffer.byteLength(text);
          parts.push(text);
          return [start, offset];
        };
        const sections: Header["sections"] = {};
        for (const [hook, idx] of set.byHook) {
          sections[`${hook}\t`] = append(JSON.stringify(sectionOf(idx.any, position, gates)));
          for (const [tool, list] of idx.byTool) sections[`${hook}\t${tool}`] = append(JSON.stringify(sectionOf(list, position, gates)));
          const globbed = [...new Set(idx.globs.map((g) => g.rule))];
          if (globbed.length > 0) sections[`${hook}${GLOB_SECTION}`] = append(JSON.stringify(sectionOf(globbed, position, gates)));
        }
        const bodies = offset;
        const ends: number[] = [];
        set.rules.forEach((rule, i) => {
          ends.push(append(JSON.stringify({ rule, gate: gates[i] ?? null, analyses: analysesOf(patternsOf(rule)) } satisfies Body))[1] - bodies);
        });
        const header: Header = { salt, key, sections, bodies, ends };
        // Not durable: a snapshot lost in a power cut is rebuilt; a hook must not wait on fsync.
        writeFileAtomic(target, `${JSON.stringify(header)}\n${parts.join("")}`, { mode: 0o600, dirMode: 0o700, durable: false });
      } catch {
        // A snapshot that cannot be built only costs the next hook the full load.
      }
    },
  };
}

/**
 * A candidate list's index: each rule under its programs, else under its gate's literals, else always. A
 * literal is filed under its rarest GRAM-character substring in the list, as the prefilter files rules:
 * literals sharing a prefix ("prog1", "prog2") would otherwise all be picked together.
 */
function sectionOf(list: readonly CompiledRule[], position: ReadonlyMap<Rule, number>, gates: readonly (Gate | null)[]): Section {
  const section: Section = { all: [], rewrites: false, always: [], grams: {}, programs: {} };
  const add = (map: Record<string, number[]>, key: string, i: number) => {
    const at = Object.hasOwn(map, key) ? (map[key] as number[]) : (map[key] = []);
    if (at.at(-1) !== i) at.push(i);
  };
  const gramsOf = (literal: string): string[] => {
    const out = new Set<string>();
    for (let at = 0; at + GRAM <= literal.length; at++) out.add(literal.slice(at, at + GRAM));
    return [...out];
  };
  const indexed: { i: number; gate: Gate }[] = [];
  const freq = new Map<string, number>();
  for (const cr of list) {
    const i = position.get(cr.rule) as number;
    section.all.push(i);
    if (cr.rule.action === "rewrite") section.rewrites = true;
    const programs = requiredPrograms(cr.rule);
    const gate = gates[i] ?? null;
    if (programs) for (const p of programs) add(section.programs, p, i);
    else if (!gate || gate.literals.some((l) => l.length < GRAM)) section.always.push(i);
    else {
      indexed.push({ i, gate });
      for (const l of gate.literals) for (const g of gramsOf(l)) freq.set(`${gate.field}\0${g}`, (freq.get(`${gate.field}\0${g}`) ?? 0) + 1);
    }
  }
  for (const { i, gate } of indexed) {
    const grams = Object.hasOwn(section.grams, gate.field) ? (section.grams[gate.field] as Record<string, number[]>) : (section.grams[gate.field] = {});
    for (const l of gate.literals) {
      let best = "";
      let bestCount = Number.POSITIVE_INFINITY;
      for (const g of gramsOf(l)) {
        const n = freq.get(`${gate.field}\0${g}`) ?? 0;
        if (n < bestCount) [best, bestCount] = [g, n];
      }
      add(grams, best, i);
    }
  }
  return section;
}

/**
 * Adds the rules one of whose literals may occur in `text` (its indexed substring does). Short texts are
 * read once, gram by gram; a long one (a written file) is searched for each indexed gram instead.
 */
function pickByGrams(text: string, grams: Record<string, number[]>, wanted: Set<number>): void {
  const keys = Object.keys(grams);
  if (text.length > keys.length * 8) {
    for (const g of keys) if (text.includes(g)) for (const i of grams[g] as number[]) wanted.add(i);
    return;
  }
  for (let at = 0; at + GRAM <= text.length; at++) {
    const g = text.slice(at, at + GRAM);
    if (Object.hasOwn(grams, g)) for (const i of grams[g] as number[]) wanted.add(i);
  }
}
