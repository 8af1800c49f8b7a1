/**
 * @module a per-project snapshot of the merged rule set for one-shot hook processes. Loading, merging and
 * indexing a thousand rules costs a cold process more than everything else it does; a hook then tests a
 * few of them. The snapshot keeps the merged rules one JSON per rule (with its prepared value) behind the
 * sidecar's own gram index of each candidate list (select/gram-index.ts, serialized), so a hook reads its
 * event's texts once and parses only the rules the index picks: the same scan picks the same rules.
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
import { isPowerShellTool, ruleToolsFor } from "../engine/tools.ts";
import type { RuleSet } from "../engine/merge.ts";
import type { CompiledRule } from "../engine/match.ts";
import { buildGramIndex, deserializeGramIndex, type GramIndex, type SerializedGramIndex, serializeGramIndex } from "../engine/select/gram-index.ts";
import { Marks, scanIndex } from "../engine/select/scan.ts";
import { indexEntry } from "../engine/select/selector.ts";
import type { HookEvent, Rule } from "../engine/schema.ts";
import { textHash } from "../hash.ts";
import { identityKey, MAX_CACHE_ENTRY_BYTES, openRegular } from "../fs/bounded-read.ts";

/** The section of a hook's tool-glob rules (`mcp__github__*`): no tool name holds a tab. */
const GLOB_SECTION = "\t\tglobs";

/**
 * The rule files a snapshot was built from, by stat identity: a file whose identity is unchanged since is
 * not read again for the key (a thousand rules are ~200 KB to read and hash at every hook), as git trusts
 * its index. `at` is when the saving process started reading; an identity it saw change less than a
 * timestamp tick before (racily clean, in git's words) proves nothing, and the file is read.
 */
export interface FilePrints {
  at: number;
  /** File -> [identityKey, fingerprint of the text read under that identity]. */
  files: Readonly<Record<string, readonly [string, string]>>;
}

export interface RuleSnapshots {
  /** The merged rules stored under `key` that this process's events may pick, in merged order; undefined on a miss. */
  load(cwd: string, key: string): Rule[] | undefined;
  save(cwd: string, key: string, set: RuleSet, prints?: FilePrints): void;
  /** The rule files' prints of the snapshot stored for `cwd` (read before the key is known); undefined without one. */
  prints?(cwd: string): FilePrints | undefined;
  /** Replaces the prints of the snapshot stored under `key` (its rules unchanged), once files read as racy have settled. */
  refreshPrints?(cwd: string, key: string, prints: FilePrints): void;
}

interface Header {
  salt: string;
  key: string;
  /** Byte range (from the end of this line) of each candidate list's index: "hook\ttool", "hook\t" for any tool. */
  sections: Record<string, [number, number]>;
  /** Where the bodies start (from the end of this line); end of each rule's JSON counted from there. */
  bodies: number;
  ends: number[];
  prints?: FilePrints;
}

/** One candidate list (merge's index by hook and tool) and its gram index, positions local to the list. */
interface Section {
  /** Every rule of the list, by position in the merged order. */
  all: number[];
  /** The list holds a rewrite: a rewritten input is selected again, so it is never narrowed. */
  rewrites: boolean;
  index: SerializedGramIndex;
}

/** A rule with its prepared value (prepared.ts): no analysis or key is computed again on this side. */
interface Body {
  rule: Rule;
}

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

/**
 * `events`: what this process will evaluate; a loaded snapshot holds only the rules of their hooks and
 * tools that the index cannot rule out for their text (evaluation then applies the prefilter's gates).
 * `salt` must change whenever the loader or merge may differ (the binary's identity). `home` is the one
 * evaluation parses command lines with, so the parse made here is the one its cache hands the matchers.
 */
export function fileRuleSnapshots(dir: string, salt: string, events: readonly HookEvent[], home: string): RuleSnapshots {
  const fileOf = (cwd: string) => join(dir, `snapshot-${textHash(cwd)}.bin`);
  /** The header last read, by the file's identity: `prints` reads it before the key is known, `load` after. */
  let lastHead: { cwd: string; identity: string; head: Uint8Array; nl: number; header: Header } | undefined;
  const headOf = (cwd: string, fd: number, identity: string): { head: Uint8Array; nl: number; header: Header } | undefined => {
    if (lastHead && lastHead.cwd === cwd && lastHead.identity === identity) return lastHead;
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
    if (header.salt !== salt || typeof header.sections !== "object" || header.sections === null) return undefined;
    lastHead = { cwd, identity, head, nl, header };
    return lastHead;
  };
  /** The picked rules of the snapshot open at `fd`, or undefined when it is not the one for `key`. */
  const pick = (cwd: string, fd: number, size: number, identity: string, key: string): Rule[] | undefined => {
    const read = headOf(cwd, fd, identity);
    if (!read || read.header.key !== key) return undefined;
    const { head, nl, header } = read;
    const base = nl + 1;
    const bytesAt = (start: number, end: number): Uint8Array => {
      // Ranges come from the file: one past its end would allocate whatever it says.
      if (!(start >= 0 && end >= start && end <= size)) throw new Error("snapshot: range outside the file");
      const bytes = end <= head.length ? head.subarray(start, end) : readAt(fd, start, end - start);
      if (bytes.length !== end - start) throw new Error("snapshot: short read");
      return bytes;
    };
    // Parsed once each: a hook of several events (Codex, Gemini) may ask for a list again.
    const sections = new Map<string, { section: Section; index: GramIndex; marks: Marks } | undefined>();
    const section = (name: string) => {
      if (sections.has(name)) return sections.get(name);
      const range = header.sections[name];
      let read: { section: Section; index: GramIndex; marks: Marks } | undefined;
      if (range) {
        const parsed = parsePiece(bytesAt(base + range[0], base + range[1])) as Section;
        const index = deserializeGramIndex(parsed.index);
        if (!index || !Array.isArray(parsed.all) || index.size !== parsed.all.length) throw new Error("snapshot: damaged index");
        read = { section: parsed, index, marks: new Marks(index.size) };
      }
      sections.set(name, read);
      return read;
    };
    const wanted = new Set<number>();
    for (const event of events) {
      const view = new EventView(event);
      // The lists the sidecar's candidates() would merge: every tool, the tools whose rules judge this one
      // (ruleToolsFor: PowerShell is judged by bash rules too), and the tool-glob rules (merge re-tests them).
      const names = [`${event.hook}\t`, ...ruleToolsFor(view.tool).map((t) => `${event.hook}\t${t}`), `${event.hook}${GLOB_SECTION}`];
      const lists = names.map(section).filter((x) => x !== undefined);
      if (lists.some((l) => l.section.rewrites)) {
        for (const l of lists) for (const i of l.section.all) wanted.add(i);
        continue;
      }
      // The context evaluation parses command lines with, so its parse cache hands the matchers this parse.
      const shell = { cwd: event.session.cwd, home, ...(event.tool && isPowerShellTool(event.tool.name) ? { dialect: "powershell" as const } : {}) };
      for (const l of lists) for (const p of scanIndex(l.index, l.marks, view, shell)) wanted.add(l.section.all[p] as number);
    }
    const bodies = base + header.bodies;
    const rules: Rule[] = [];
    for (const i of [...wanted].sort((a, b) => a - b)) {
      const start = bodies + (i === 0 ? 0 : (header.ends[i - 1] as number));
      const body = parsePiece(bytesAt(start, bodies + (header.ends[i] as number))) as Body;
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
        return pick(cwd, fd, opened.identity.size, identityKey(opened.identity), key);
      } catch {
        return undefined;
      } finally {
        closeSync(fd);
      }
    },
    prints(cwd) {
      const opened = openRegular(fileOf(cwd));
      if (!opened.ok) return undefined;
      try {
        return validPrints(headOf(cwd, opened.fd, identityKey(opened.identity))?.header.prints);
      } catch {
        return undefined;
      } finally {
        closeSync(opened.fd);
      }
    },
    refreshPrints(cwd, key, prints) {
      // The header line alone changes: every range in it counts from the end of that line.
      const target = fileOf(cwd);
      try {
        const opened = openRegular(target);
        if (!opened.ok) return;
        let bytes: Uint8Array;
        try {
          if (opened.identity.size > MAX_CACHE_ENTRY_BYTES) return;
          bytes = readAt(opened.fd, 0, opened.identity.size);
        } finally {
          closeSync(opened.fd);
        }
        const nl = bytes.indexOf(10);
        if (nl < 0) return;
        const header = parsePiece(bytes.subarray(0, nl)) as Header;
        // Another process may have stored another rule set meanwhile: that one is left alone.
        if (header.salt !== salt || header.key !== key) return;
        const line = new TextEncoder().encode(JSON.stringify({ ...header, prints } satisfies Header));
        const out = new Uint8Array(line.length + bytes.length - nl);
        out.set(line);
        out.set(bytes.subarray(nl), line.length);
        writeFileAtomic(target, out, { mode: 0o600, dirMode: 0o700, durable: false });
      } catch {
        // Only the next hooks' reads of the rule files are lost.
      }
    },
    save(cwd, key, set, prints) {
      const target = fileOf(cwd);
      try {
        const position = new Map(set.rules.map((r, i) => [r, i]));
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
          sections[`${hook}\t`] = append(JSON.stringify(sectionOf(idx.any, position)));
          for (const [tool, list] of idx.byTool) sections[`${hook}\t${tool}`] = append(JSON.stringify(sectionOf(list, position)));
          const globbed = [...new Set(idx.globs.map((g) => g.rule))];
          if (globbed.length > 0) sections[`${hook}${GLOB_SECTION}`] = append(JSON.stringify(sectionOf(globbed, position)));
        }
        const bodies = offset;
        const ends: number[] = [];
        set.rules.forEach((rule) => {
          ends.push(append(JSON.stringify({ rule } satisfies Body))[1] - bodies);
        });
        const header: Header = { salt, key, sections, bodies, ends, ...(prints ? { prints } : {}) };
        // Not durable: a snapshot lost in a power cut is rebuilt; a hook must not wait on fsync.
        writeFileAtomic(target, `${JSON.stringify(header)}\n${parts.join("")}`, { mode: 0o600, dirMode: 0o700, durable: false });
      } catch {
        // A snapshot that cannot be built only costs the next hook the full load.
      }
    },
  };
}

/** The prints as read back from a file: anything malformed is no prints at all (every file is read then). */
function validPrints(x: unknown): FilePrints | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const { at, files } = x as { at?: unknown; files?: unknown };
  if (typeof at !== "number" || !Number.isFinite(at) || typeof files !== "object" || files === null || Array.isArray(files)) return undefined;
  for (const v of Object.values(files)) if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== "string" || typeof v[1] !== "string") return undefined;
  return { at, files: files as FilePrints["files"] };
}

/** A candidate list's section: its rules' merged positions and the gram index the sidecar builds for it. */
function sectionOf(list: readonly CompiledRule[], position: ReadonlyMap<Rule, number>): Section {
  return {
    all: list.map((cr) => position.get(cr.rule) as number),
    rewrites: list.some((cr) => cr.rule.action === "rewrite"),
    index: serializeGramIndex(buildGramIndex(list.map((cr) => indexEntry(cr.rule)))),
  };
}
