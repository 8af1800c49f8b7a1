/** @module unit tests: the selector never drops a rule that matches, plain or indexed. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRuleText } from "../load.ts";
import { candidates, mergeLayers } from "../merge.ts";
import { EventView, matchStatic } from "../match.ts";
import type { HookEvent } from "../schema.ts";
import { indexedSelector, plainSelector, selectorFor } from "./selector.ts";

describe("selector", () => {
  const rules = [
    ...Array.from({ length: 40 }, (_, i) => ({ name: `r${i}`, action: "block", pattern: `\\bprog${i}\\b.*--flag${i}` })),
    { name: "no-literal", action: "notify", pattern: "\\s-[a-z]{3}\\d" },
    { name: "cond", action: "notify", conditions: [{ field: "command", pattern: "(deploy|publish) (prod|live)" }] },
    { name: "neg", action: "notify", pattern: "x", conditions: [{ field: "command", pattern: "zzz", negate: true }] },
    { name: "ci", action: "steer", pattern: "SeCrEt", flags: "i" },
    { name: "shell", action: "block", command: { program: "rm", flags: ["-r"] } },
    { name: "shell-glob", action: "block", command: { program: "python*" } },
  ];
  const loaded = loadRuleText(JSON.stringify(rules), { file: "t.json", source: "global" });
  const set = mergeLayers([{ source: "global", files: [{ file: "t.json", rules: loaded.rules }] }]);
  const list = candidates(set, "tool_call", "bash");
  const shell = { cwd: "/p", projectRoot: "/p", home: "/home/u" };
  /** A list is indexed only once it has been used a few times (one-shot hooks never pay for the index). */
  const indexed = () => {
    let sel = selectorFor(list);
    for (let i = 0; i < 8; i++) sel = selectorFor(list);
    return sel;
  };

  const commands = [
    "prog3 run --flag3",
    "PROG3 --FLAG3",
    "prog12 --flag1",
    "ls -abc1",
    "deploy prod",
    "x",
    "echo ſecret",
    "echo \u212a",
    "sudo rm -r /tmp/x",
    "bash -c 'rm -r a'",
    "python3 -c 'print(1)'",
    "prog7 --flag7 && prog8 --flag8",
    "",
  ];

  it("has every rule that matches, in definition order", () => {
    expect(loaded.ok).toBe(true);
    // A fresh list is not indexed yet: its plain selector gates rules by literal on their source.
    const plain = selectorFor([...list]);
    const sel = indexed();
    const check = (command: string) => {
      checkWith(sel, command);
      checkWith(plain, command);
    };
    const checkWith = (sel: ReturnType<typeof selectorFor>, command: string) => {
      const ev: HookEvent = { hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "bash", input: { command } } };
      const view = new EventView(ev);
      const picked = sel.select(view, shell);
      const matching = list.filter((cr) => matchStatic(cr, view, shell, false) === undefined);
      for (const cr of matching) expect(picked).toContain(cr);
      const order = picked.map((cr) => list.indexOf(cr));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      return picked.length;
    };
    for (const c of commands) check(c);
    expect(checkWith(sel, "git status")).toBeLessThan(list.length / 2);
    expect(checkWith(plain, "git status")).toBeLessThan(list.length / 2);
    fc.assert(
      fc.property(fc.array(fc.constantFrom("prog1", "--flag1", "prog22", "--FLAG22", "rm", "-r", "deploy", "prod", "x", "zzz", "SECRET", " ", "|", "&&", "'", "-abc9"), { maxLength: 8 }), (words) => {
        check(words.join(" "));
      }),
      { numRuns: 500 },
    );
  });

  it("finds every rule of a large index by its own text", () => {
    // Hundreds of distinct n-grams: the packed table's probing (collisions, wrap-around) is exercised.
    const many = Array.from({ length: 700 }, (_, i) => ({ name: `m${i}`, action: "notify", pattern: `q${i.toString(36)}z` }));
    const big = mergeLayers([{ source: "global", files: [{ file: "m.json", rules: loadRuleText(JSON.stringify(many), { file: "m.json", source: "global" }).rules }] }]);
    const bigList = candidates(big, "tool_call", "bash");
    let sel = selectorFor(bigList);
    for (let i = 0; i < 8; i++) sel = selectorFor(bigList);
    many.forEach((rule, i) => {
      const view = new EventView({ hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "bash", input: { command: `echo ${rule.pattern}` } } });
      const picked = sel.select(view, shell);
      expect(picked.map((cr) => cr.rule.name)).toContain(`m${i}`);
      expect(picked.length).toBeLessThan(bigList.length / 10);
    });
  });

  it("picks again after a given rule, for rewrites", () => {
    const sel = indexed();
    const view = new EventView({ hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "bash", input: { command: "prog1 --flag1 prog30 --flag30" } } });
    const all = sel.select(view, shell);
    const after = sel.select(view, shell, all[0]);
    expect(after).toEqual(all.slice(1));
  });

  it("keeps every built-in rule the compiled matcher accepts, on the safety corpus, indexed and plain", () => {
    // Most built-in shell rules are picked by effect kind: checked here against the matchers themselves
    // (`explain` on: the compiled condition decides, not the line pre-check the effect index copies).
    const root = join(import.meta.dir, "..", "..", "..");
    const files = readdirSync(join(root, "rules")).filter((f) => f.endsWith(".json"));
    const builtin = mergeLayers([{ source: "builtin", files: files.map((f) => ({ file: f, rules: loadRuleText(readFileSync(join(root, "rules", f), "utf8"), { file: f, source: "builtin" }).rules })) }]);
    const corpus = JSON.parse(readFileSync(join(root, "tests", "fixtures", "safety-corpus.json"), "utf8")) as { cwd: string; projectRoot: string; home: string; cases: { command: string }[] };
    const ctx = { cwd: corpus.cwd, projectRoot: corpus.projectRoot, home: corpus.home };
    const bash = candidates(builtin, "tool_call", "bash");
    const selectors = [indexedSelector(bash), plainSelector(bash)];
    let accepted = 0;
    let picked = 0;
    for (const { command } of corpus.cases) {
      const view = new EventView({ hook: "tool_call", session: { id: "s", cwd: corpus.cwd }, tool: { name: "bash", input: { command } } });
      const matching = bash.filter((cr) => matchStatic(cr, view, ctx) === undefined);
      accepted += matching.length;
      for (const sel of selectors) {
        const names = sel.select(view, ctx).map((cr) => cr.rule.name);
        for (const cr of matching) expect(names).toContain(cr.rule.name);
        picked += names.length;
      }
    }
    // The corpus makes rules fire, and selection still leaves most of the list out.
    expect(accepted).toBeGreaterThan(100);
    expect(picked / (2 * corpus.cases.length)).toBeLessThan(bash.length / 2);
  });
});
