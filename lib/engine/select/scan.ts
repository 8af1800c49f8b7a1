/**
 * @module reading an event against a gram index: each keyed field's text is folded and slid over once, the
 * command line's programs and effect kinds (and whether it writes) looked up, and the positions of the rules that may match come
 * out in order.
 */
import { type LineFacts, lineFacts, parseShell, type ShellContext, wildcardHit } from "../../shell/index.ts";
import type { EventView } from "../match.ts";
import { bloomIndex, type FieldTable, type GramIndex, SHAPE_BIT, slotHash, WRITES_KEY } from "./gram-index.ts";

/** Lower-cased code of one character for matching against literals; -1 for anything no literal holds. */
function fold(code: number): number {
  if (code >= 65 && code <= 90) return code + 32;
  if (code < 127) return code;
  if (code === 0x17f) return 115; // ſ folds to s
  if (code === 0x212a) return 107; // Kelvin sign folds to k
  return -1;
}

/**
 * The shape code of one character (regex/literals.ts): `a` for a lower-case ASCII letter, `A` for an
 * upper-case one, `0` for a digit, a space for any white space `\s` matches, other printable ASCII as itself;
 * -1 for anything no shape holds.
 */
export function shapeCode(code: number): number {
  if (code >= 97 && code <= 122) return 97;
  if (code >= 65 && code <= 90) return 65;
  if (code >= 48 && code <= 57) return 48;
  if (code === 32 || (code >= 9 && code <= 13)) return 32;
  if (code > 32 && code < 127) return code;
  return code >= 127 && /\s/.test(String.fromCharCode(code)) ? 32 : -1;
}

/** The text with every character as its shape code (NUL for a character no shape holds). */
export function shapeText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = shapeCode(text.charCodeAt(i));
    out += String.fromCharCode(c < 0 ? 0 : c);
  }
  return out;
}

/** Per-index scratch: which positions this event has already collected (a stamp per event, no clearing). */
export class Marks {
  #seen: Uint32Array;
  #stamp = 0;

  constructor(size: number) {
    this.#seen = new Uint32Array(size);
  }

  next(): Uint32Array {
    if (++this.#stamp === 0xffffffff) {
      this.#seen.fill(0);
      this.#stamp = 1;
    }
    return this.#seen;
  }

  get stamp(): number {
    return this.#stamp;
  }
}

/** What the command line is parsed with: the matchers' own context, so the parse cache hands them this one. */
export interface ScanShell {
  cwd: string;
  home: string;
  dialect?: "powershell";
}

/**
 * The line's facts (its programs, effect kinds...) as the matchers' pre-check reads them (lib/shell lineFacts,
 * cached per parsed line): a rule filed under effect kinds is picked exactly when that check lets it through.
 * The facts come from the parse alone, so a context without a project root (the hook's) reads the same.
 */
export function lineFactsOf(command: string, shell: ScanShell): LineFacts {
  const ctx: ShellContext = typeof (shell as Partial<ShellContext>).projectRoot === "string" ? (shell as ShellContext) : { ...shell, projectRoot: "" };
  return lineFacts(command, ctx);
}

/** The field's text as rules read it (`subject` for a rule's pattern). */
export function fieldText(view: EventView, field: string): string | undefined {
  return field === "subject" ? view.subject : view.field(field);
}

/**
 * Positions (ascending) of the rules of `index` that may match this event: a superset of those that do. A
 * keyed rule is picked when one of its filed n-grams occurs in its field; a field the event lacks picks none
 * (a non-negated condition on a missing field fails); a rule filed under programs (or program globs) or
 * effect kinds, when the command line runs one of those programs or has one of those effects.
 */
export function scanIndex(index: GramIndex, marks: Marks, view: EventView, shell: ScanShell): number[] {
  const seen = marks.next();
  const stamp = marks.stamp;
  const hits: number[] = [];
  for (const f of index.fields) {
    const value = fieldText(view, f.field);
    if (value !== undefined) scanText(value, f, seen, stamp, hits);
  }
  if (index.programs.size > 0 || index.globs.size > 0 || index.effects.size > 0) {
    const command = view.command;
    // The same parse the matchers make (cached), so the programs are the ones they compare.
    if (command !== undefined && index.programs.size > 0) {
      for (const cmd of parseShell(command, shell).commands) {
        const list = index.programs.get(cmd.program);
        if (list !== undefined) collect(list, 0, list.length, seen, stamp, hits);
      }
    }
    // A glob is tested by the matchers' own wildcard (lib/shell), against each program the line runs.
    if (command !== undefined && index.globs.size > 0) {
      const running = lineFactsOf(command, shell).programs;
      for (const [glob, list] of index.globs) {
        for (const name of running) {
          if (!headFits(glob, name) || !wildcardHit(glob, name)) continue;
          collect(list, 0, list.length, seen, stamp, hits);
          break;
        }
      }
    }
    if (command !== undefined && index.effects.size > 0) {
      const facts = lineFactsOf(command, shell);
      for (const kind of facts.kinds) {
        const list = index.effects.get(kind);
        if (list !== undefined) collect(list, 0, list.length, seen, stamp, hits);
      }
      const writers = facts.writes ? index.effects.get(WRITES_KEY) : undefined;
      if (writers !== undefined) collect(writers, 0, writers.length, seen, stamp, hits);
    }
  }
  const always = index.always;
  if (hits.length === 0) return Array.from(always);
  sortSmall(hits);
  if (always.length === 0) return hits;
  const out: number[] = [];
  let a = 0;
  let h = 0;
  while (a < always.length || h < hits.length) {
    out.push(h >= hits.length || (a < always.length && (always[a] as number) < (hits[h] as number)) ? (always[a++] as number) : (hits[h++] as number));
  }
  return out;
}

/** Whether `name` starts with what `glob` holds before its first `*` (compared in place: no substring made). */
function headFits(glob: string, name: string): boolean {
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charCodeAt(i);
    if (c === 42) return true;
    if (name.charCodeAt(i) !== c) return false;
  }
  return glob.length === name.length;
}

/** Thrown by a scan of an index whose runs or positions lie outside its arrays (a damaged snapshot). */
export class DamagedIndexError extends Error {}

/** `seen` holds one stamp per rule of the list: a position past it is not one of the list's rules. */
function collect(list: Int32Array, from: number, to: number, seen: Uint32Array, stamp: number, hits: number[]): void {
  // An index read back from a file is not checked number by number (gram-index.ts): each run and position is, here.
  if (!(from >= 0 && from <= to && to <= list.length)) throw new DamagedIndexError("gram index: a run outside its positions");
  for (let i = from; i < to; i++) {
    const pos = list[i] as number;
    if (pos >>> 0 >= seen.length) throw new DamagedIndexError("gram index: a position outside its list");
    if (seen[pos] !== stamp) {
      seen[pos] = stamp;
      hits.push(pos);
    }
  }
}

/** Insertion sort: hits are a few dozen at most, where it beats Array#sort with a comparator. */
function sortSmall(list: number[]): void {
  if (list.length > 64) {
    list.sort((a, b) => a - b);
    return;
  }
  for (let i = 1; i < list.length; i++) {
    const v = list[i] as number;
    let j = i - 1;
    while (j >= 0 && (list[j] as number) > v) {
      list[j + 1] = list[j] as number;
      j--;
    }
    list[j + 1] = v;
  }
}

/** Slides 1-, 2- and 3-gram windows over the folded text; collects positions filed under a gram seen. */
function scanText(text: string, f: FieldTable, seen: Uint32Array, stamp: number, hits: number[]): void {
  if (f.shape) {
    scanShapes(text, f, seen, stamp, hits);
    return;
  }
  const lengths = f.lengths;
  // Most literals are 3+ characters: then one probe per position, and no loop over lengths.
  if (lengths === 1 << 3) {
    scanTrigrams(text, f, seen, stamp, hits);
    return;
  }
  let window = 0;
  let valid = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    else if (c >= 127) {
      c = fold(c);
      if (c < 0) {
        valid = 0;
        window = 0;
        continue;
      }
    }
    window = ((window << 7) | c) & 0x1fffff;
    if (valid < 3) valid++;
    for (let len = 1; len <= valid; len++) {
      if ((lengths & (1 << len)) !== 0) probe((len << 21) | (window & ((1 << (7 * len)) - 1)), f, seen, stamp, hits);
    }
  }
}

/**
 * The 3-gram-only scan (nearly every table): the bitmap read from a local and tested in the loop, the table
 * looked up only past it. This loop runs once per character of every keyed field of every event.
 */
function scanTrigrams(text: string, f: FieldTable, seen: Uint32Array, stamp: number, hits: number[]): void {
  const bloom = f.bloom;
  const shift = f.bloomShift;
  const n = text.length;
  let window = 0;
  let valid = 0;
  for (let i = 0; i < n; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    else if (c >= 127) {
      c = fold(c);
      if (c < 0) {
        valid = 0;
        window = 0;
        continue;
      }
    }
    window = ((window << 7) | c) & 0x1fffff;
    if (++valid < 3) continue;
    const key = (3 << 21) | window;
    const b = bloomIndex(key, shift);
    if (((bloom[b >>> 3] as number) & (1 << (b & 7))) !== 0) lookup(key, f, seen, stamp, hits);
  }
}

/** Slides a 3-gram window over the shape-folded text (shapes are three characters or more). */
function scanShapes(text: string, f: FieldTable, seen: Uint32Array, stamp: number, hits: number[]): void {
  const bloom = f.bloom;
  const shift = f.bloomShift;
  const n = text.length;
  let window = 0;
  let valid = 0;
  for (let i = 0; i < n; i++) {
    const c = shapeCode(text.charCodeAt(i));
    if (c < 0) {
      valid = 0;
      window = 0;
      continue;
    }
    window = ((window << 7) | c) & 0x1fffff;
    if (++valid < 3) continue;
    const key = SHAPE_BIT | (3 << 21) | window;
    const b = bloomIndex(key, shift);
    if (((bloom[b >>> 3] as number) & (1 << (b & 7))) !== 0) lookup(key, f, seen, stamp, hits);
  }
}

function probe(key: number, f: FieldTable, seen: Uint32Array, stamp: number, hits: number[]): void {
  const b = bloomIndex(key, f.bloomShift);
  if (((f.bloom[b >>> 3] as number) & (1 << (b & 7))) === 0) return;
  lookup(key, f, seen, stamp, hits);
}

/** The positions filed under `key`, once the bitmap let it through. */
function lookup(key: number, f: FieldTable, seen: Uint32Array, stamp: number, hits: number[]): void {
  const keys = f.keys;
  const mask = keys.length - 1;
  for (let slot = slotHash(key) >>> f.shift; ; slot = (slot + 1) & mask) {
    const k = keys[slot] as number;
    if (k === 0) return;
    if (k !== key) continue;
    collect(f.positions, f.runs[2 * slot] as number, f.runs[2 * slot + 1] as number, seen, stamp, hits);
    return;
  }
}
