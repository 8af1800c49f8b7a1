/** @module unit tests: one table of selection cases, answered alike by every Selector implementation. */
import { describe, expect, it } from "bun:test";
import { loadRuleText } from "../load.ts";
import { candidates, mergeLayers, type RuleSet } from "../merge.ts";
import { type CompiledRule, EventView, matchStatic } from "../match.ts";
import type { HookEvent } from "../schema.ts";
import { isPowerShellTool } from "../tools.ts";
import { buildGramIndex, deserializeGramIndex, serializeGramIndex } from "./gram-index.ts";
import { DamagedIndexError, Marks, scanIndex } from "./scan.ts";
import { SELECT_CASES, SELECT_RULES } from "./select.cases.ts";
import { indexedSelector, indexEntry, plainSelector, type Selector } from "./selector.ts";

const loaded = loadRuleText(JSON.stringify(SELECT_RULES), { file: "/p/.pi/shepherd-rules.json", source: "project" });
const set: RuleSet = mergeLayers([{ source: "project", files: [{ file: "/p/.pi/shepherd-rules.json", rules: loaded.rules }] }]);

function shellFor(event: HookEvent) {
  return { cwd: event.session.cwd, projectRoot: "/p", home: "/home/u", ...(event.tool && isPowerShellTool(event.tool.name) ? { dialect: "powershell" as const } : {}) };
}

/** Base64 of little-endian int32s, as the serialized index holds them. */
const enc = (list: number[]) => Buffer.from(new Int32Array(list).buffer).toString("base64");
const ints = (text: string) => new Int32Array(new Uint8Array(Buffer.from(text, "base64")).buffer);

const roundTrip = (list: CompiledRule[]): Selector => {
  const text = JSON.stringify(serializeGramIndex(buildGramIndex(list.map((cr) => indexEntry(cr.rule)))));
  const index = deserializeGramIndex(JSON.parse(text));
  if (!index) throw new Error("the serialized index did not read back");
  return indexedSelector(list, index);
};

const implementations: [string, (list: CompiledRule[]) => Selector][] = [
  ["built in memory", (list) => indexedSelector(list)],
  ["serialized and read back", roundTrip],
  ["plain gates", plainSelector],
];

describe("select cases", () => {
  it("should load every rule of the table", () => {
    expect(loaded.ok).toBe(true);
    expect(set.rules.length).toBe(SELECT_RULES.length);
  });

  for (const [name, make] of implementations) {
    describe(name, () => {
      for (const c of SELECT_CASES) {
        it(`should pick as the table says: ${c.name}`, () => {
          const view = new EventView(c.event);
          const list = candidates(set, c.event.hook, view.tool);
          const shell = shellFor(c.event);
          const picked = make(list).select(view, shell);
          const names = picked.map((cr) => cr.rule.name);
          for (const n of c.picks) expect(names).toContain(n);
          for (const n of c.skips) expect(names).not.toContain(n);
          // Never drops a rule that matches, and keeps definition order.
          for (const cr of list) if (matchStatic(cr, view, shell, false) === undefined) expect(names).toContain(cr.rule.name);
          const order = picked.map((cr) => list.indexOf(cr));
          expect(order).toEqual([...order].sort((a, b) => a - b));
        });
      }
    });
  }

  it("should read back to the same index, and refuse a damaged one", () => {
    const list = candidates(set, "tool_call", "bash");
    const data = serializeGramIndex(buildGramIndex(list.map((cr) => indexEntry(cr.rule))));
    expect(serializeGramIndex(deserializeGramIndex(JSON.parse(JSON.stringify(data))) as never)).toEqual(data);
    const field = data.fields[0] as (typeof data.fields)[number];
    const keys = ints(field.keys);
    const damaged = [
      { ...data, size: -1 },
      { ...data, always: enc([data.size]) },
      { ...data, always: "not base64!" },
      // No empty slot: a probe would loop for good.
      { ...data, fields: [{ ...field, keys: enc([...keys].map((k) => k || 1)) }] },
      { ...data, fields: [{ ...field, runs: enc([1, 2, 3]) }] },
      { ...data, fields: [{ ...field, bloom: enc([1]) }] },
      // A bitmap between two sizes this module makes.
      { ...data, fields: [{ ...field, bloom: Buffer.from(new Uint8Array(100)).toString("base64") }] },
      { ...data, fields: [{ ...field, bloom: Buffer.from(new Uint8Array(16_384)).toString("base64") }] },
      { ...data, fields: [{ ...field, positions: [1, 2] }] },
      { ...data, programs: [["shred", 7]] },
      { ...data, effects: [["delete", 7]] },
      { ...data, programs: { ...data.programs, runs: enc([0, 1_000_000]) } },
      { ...data, programs: { ...data.programs, names: [...data.programs.names, "extra"] } },
      { ...data, effects: undefined },
      "not an index",
    ];
    for (const d of damaged) expect(deserializeGramIndex(d)).toBeUndefined();
  });

  it("should size each table's bitmap to its keys, from one cache line to 8 KiB, and find every key through it", () => {
    const entry = (lit: string) => ({ keys: [{ field: "subject", literals: [lit] }], programs: undefined, effects: undefined });
    for (const [count, bytes] of [[2, 64], [100, 512], [5_000, 8_192]] as const) {
      const words = Array.from({ length: count }, (_, i) => `w${i.toString(36)}q`);
      const index = buildGramIndex(words.map(entry));
      const table = index.fields[0];
      expect(table?.bloom.length).toBe(bytes);
      const back = deserializeGramIndex(JSON.parse(JSON.stringify(serializeGramIndex(index))));
      for (const [i, w] of words.entries()) {
        if (i % 97 !== 0 && i !== count - 1) continue;
        const view = new EventView({ hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "bash", input: { command: `echo ${w}` } } });
        for (const ix of [index, back]) expect(scanIndex(ix as NonNullable<typeof back>, new Marks(count), view, { cwd: "/p", home: "/h" })).toContain(i);
      }
    }
  });

  it("should make a scan of an index with a run or a position outside its arrays throw, never read past them", () => {
    const list = candidates(set, "tool_call", "bash");
    const data = serializeGramIndex(buildGramIndex(list.map((cr) => indexEntry(cr.rule))));
    const event = SELECT_CASES.find((c) => c.event.hook === "tool_call" && c.picks.length > 0 && c.event.tool?.name === "bash")?.event;
    if (!event) throw new Error("the case table has no bash case that picks a rule");
    const scan = (d: typeof data) => {
      const index = deserializeGramIndex(JSON.parse(JSON.stringify(d)));
      if (!index) throw new Error("refused at read");
      return scanIndex(index, new Marks(index.size), new EventView(event), shellFor(event));
    };
    expect(scan(data).length).toBeGreaterThan(0);
    const wide = (f: (typeof data.fields)[number]) => ({ ...f, runs: enc([...ints(f.runs)].map((r, i) => (i % 2 === 1 && r > 0 ? r + 1_000_000 : r))) });
    const far = (f: (typeof data.fields)[number]) => ({ ...f, positions: enc([...ints(f.positions)].map(() => data.size + 5)) });
    expect(() => scan({ ...data, fields: data.fields.map(wide) })).toThrow(DamagedIndexError);
    expect(() => scan({ ...data, fields: data.fields.map(far) })).toThrow(DamagedIndexError);
  });
});
