/** @module the development corpus (dev + held-out) is well-formed and split by its hash rule, the fresh corpus is well-formed and apart from it; pass rates are printed, not asserted (the rules are being rewritten). */
import { beforeAll, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DecisionActions } from "../lib/engine/schema.ts";
import { commandHash, FAMILIES, LATER_FAMILIES, splitOf } from "./fixtures/corpus/split.ts";
import { type Corpus, loadCorpus, loadSafetyPack, runCorpus, tallyByFamily } from "./safety-corpus-eval.ts";

const DEV = "tests/fixtures/corpus/dev.json";
const HELDOUT = "tests/fixtures/corpus/heldout.json";
const parts: { file: string; side: "dev" | "heldout"; corpus: Corpus }[] = [
  { file: DEV, side: "dev", corpus: loadCorpus(DEV) },
  { file: HELDOUT, side: "heldout", corpus: loadCorpus(HELDOUT) },
];
const all = parts.flatMap((p) => p.corpus.cases);
const raw = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(import.meta.dir, "..", file), "utf8"));

describe("commandHash", () => {
  it.each([
    ["", 0x811c9dc5],
    ["a", 0xe40c292c],
    ["foobar", 0xbf9cf968],
  ] as const)("should give the FNV-1a value for %p", (text, hash) => {
    expect(commandHash(text)).toBe(hash);
  });
});

describe("development corpus", () => {
  it("should hold at least 1,500 cases, both labels, about 30% held out", () => {
    expect(all.length).toBeGreaterThanOrEqual(1500);
    expect(all.filter((c) => c.expect === "block").length).toBeGreaterThanOrEqual(500);
    expect(all.filter((c) => c.expect === "allow").length).toBeGreaterThanOrEqual(500);
    const share = (parts[1]?.corpus.cases.length ?? 0) / all.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });

  it.each(parts.map((p) => [p.file, p] as const))("should use the project's environment convention in %s", (_, p) => {
    expect({ cwd: p.corpus.cwd, projectRoot: p.corpus.projectRoot, home: p.corpus.home }).toEqual({ cwd: "/home/user/project", projectRoot: "/home/user/project", home: "/home/user" });
    expect(p.corpus.heldout === true).toBe(p.side === "heldout");
  });

  it("should say in the held-out file that it must not be looked at while changing rules", () => {
    expect(String(raw(HELDOUT).$comment)).toMatch(/^HELD-OUT corpus: do NOT read these cases/);
  });

  it("should give every case a declared family and a non-empty source", () => {
    const known = new Set<string>(FAMILIES);
    expect(all.filter((c) => c.family === undefined || !known.has(c.family)).map((c) => [c.command, c.family])).toEqual([]);
    expect(all.filter((c) => (c.source ?? "").trim() === "").map((c) => c.command)).toEqual([]);
    expect(all.filter((c) => c.command.trim() === "").length).toBe(0);
  });

  it("should use every declared family", () => {
    const used = new Set(all.map((c) => c.family));
    expect(FAMILIES.filter((f) => !used.has(f))).toEqual([]);
  });

  it("should hold no command twice for the same tool, across both files", () => {
    const keys = all.map((c) => `${c.tool ?? "bash"}\u0000${c.command}`);
    const dupes = keys.filter((k, i) => keys.indexOf(k) !== i);
    expect(dupes).toEqual([]);
  });

  it("should put each case on the side its command's hash says", () => {
    const wrong = parts.flatMap((p) => p.corpus.cases.filter((c) => splitOf(c.command) !== p.side).map((c) => `${p.side}: ${c.command}`));
    expect(wrong).toEqual([]);
  });

  it("should keep only the declared keys on each case", () => {
    const allowed = new Set(["command", "expect", "family", "source", "tool"]);
    const extra = parts.flatMap((p) => (raw(p.file).cases as Record<string, unknown>[]).flatMap((c) => Object.keys(c).filter((k) => !allowed.has(k))));
    expect(extra).toEqual([]);
  });

  it("should not contradict the legacy corpus on a shared command", () => {
    const legacy = new Map(loadCorpus().cases.map((c) => [c.command, c.expect]));
    const clash = all.filter((c) => (c.tool ?? "bash") === "bash" && legacy.has(c.command) && legacy.get(c.command) !== c.expect).map((c) => c.command);
    expect(clash).toEqual([]);
  });
});

const FRESH = "tests/fixtures/corpus/fresh.json";
/** Written after fresh.json, before any rule change made for it: apart from every other corpus. */
const FRESH2 = "tests/fixtures/corpus/fresh2.json";
/** Written after fresh2.json's work, from other guards' own test suites, before any rule change made for it. */
const FRESH3 = "tests/fixtures/corpus/fresh3.json";
/** Bypass shapes as classes, each beside a close look-alike, written after fresh3's work, before any rule change made for it. */
const FRESH4 = "tests/fixtures/corpus/fresh4.json";
/** destructive_command_guard's service packs file by file (databases to package managers), written after fresh4's work, before any rule change made for it. */
const FRESH5 = "tests/fixtures/corpus/fresh5.json";
/** Codex, Gemini CLI, damage-control and agent incidents as sources, beside everyday developer commands; written before any rule change made for it. */
const FRESH6 = "tests/fixtures/corpus/fresh6.json";
/** Disguise shapes not in fresh4 (interpreters, decoders, positional tricks, runners, ssh, containers, PowerShell, cmd), written before any rule change made for it. */
const FRESH7 = "tests/fixtures/corpus/fresh7.json";
/** Everyday developer commands across ecosystems beside must-stop near twins, written before any rule change made for it. */
const FRESH8 = "tests/fixtures/corpus/fresh8.json";
/** git and filesystem deletes in every option spelling, wrapper and path form, beside look-alikes; written before any rule change made for it. */
const FRESH9 = "tests/fixtures/corpus/fresh9.json";
/** Secrets read by any reader, data leaving by any sender, fetch-and-run in every spelling, beside look-alikes; written before any rule change made for it. */
const FRESH10 = "tests/fixtures/corpus/fresh10.json";
/** Code that runs later or elsewhere on the line (scripts written then run, heredoc scripts, task runners written on the line, fork bombs by structure), written before any rule change made for it. */
const FRESH11 = "tests/fixtures/corpus/fresh11.json";
/** The machine itself (devices, permissions, system state) on bash, PowerShell and cmd, beside look-alikes; written before any rule change made for it. */
const FRESH12 = "tests/fixtures/corpus/fresh12.json";
/** Metamorphic variants (wrappers, name and option spellings, line structure, paths) of earlier cases, from bench/metamorphic.ts, written before any fix made for it. */
const FRESH13 = "tests/fixtures/corpus/fresh13.json";
/** Metamorphic variants (bench/metamorphic-windows.ts) of the Windows cases: each rewrite does what its seed does; written before any rule change made for it. */
const FRESH14 = "tests/fixtures/corpus/fresh14.json";
const FRESH15 = "tests/fixtures/corpus/fresh15.json";
/** Argument and environment injection through trusted programs, and persistence (start-up files, ssh, hooks, schedulers, autostart), beside look-alikes; written before any rule change made for it. */
const FRESH16 = "tests/fixtures/corpus/fresh16.json";
/** Session-length scripts (set -euo pipefail, functions, blocks, traps, heredocs, chains, scratch dirs, git/release/container/migration workflows) beside near twins with one dangerous step; written before any rule change made for it. */
const FRESH17 = "tests/fixtures/corpus/fresh17.json";
/** What other guards' newer test suites hold that earlier splits did not take (cc-safety-net's gate suite, dcg's awk, .git and credential-file tests), beside look-alikes; written before any rule change made for it. */
const FRESH18 = "tests/fixtures/corpus/fresh18.json";
const keyOf = (c: { tool?: string; command: string }) => `${c.tool ?? "bash"}\u0000${c.command}`;

/** The fresh corpora in the order they were written: each must share no command with those before it. */
const FRESH_FILES = [FRESH, FRESH2, FRESH3, FRESH4, FRESH5, FRESH6, FRESH7, FRESH8, FRESH9, FRESH10, FRESH11, FRESH12, FRESH13, FRESH14, FRESH15, FRESH16, FRESH17, FRESH18] as const;

describe.each(FRESH_FILES.map((f, i) => [f, FRESH_FILES.slice(0, i)] as const))("fresh corpus %s", (file, earlier) => {
  const fresh = loadCorpus(file);

  it("should hold at least 300 cases with both labels, in the project's environment", () => {
    expect(fresh.cases.length).toBeGreaterThanOrEqual(300);
    expect(fresh.cases.filter((c) => c.expect === "block").length).toBeGreaterThanOrEqual(100);
    expect(fresh.cases.filter((c) => c.expect === "allow").length).toBeGreaterThanOrEqual(100);
    expect({ cwd: fresh.cwd, projectRoot: fresh.projectRoot, home: fresh.home }).toEqual({ cwd: "/home/user/project", projectRoot: "/home/user/project", home: "/home/user" });
  });

  it("should give every case a declared family, a source and only the declared keys", () => {
    const known = new Set<string>([...FAMILIES, ...LATER_FAMILIES]);
    expect(fresh.cases.filter((c) => c.family === undefined || !known.has(c.family)).map((c) => c.command)).toEqual([]);
    expect(fresh.cases.filter((c) => (c.source ?? "").trim() === "").map((c) => c.command)).toEqual([]);
    const allowed = new Set(["command", "expect", "family", "source", "tool"]);
    expect((raw(file).cases as Record<string, unknown>[]).flatMap((c) => Object.keys(c).filter((k) => !allowed.has(k)))).toEqual([]);
  });

  it("should share no command with the development corpus or an earlier fresh corpus, and hold none twice", () => {
    const other = new Set([...all, ...earlier.flatMap((f) => loadCorpus(f).cases)].map(keyOf));
    const keys = fresh.cases.map(keyOf);
    expect(keys.filter((k) => other.has(k)).length).toBe(0);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});

describe("current safety pack on the development corpus", () => {
  const { set } = loadSafetyPack();
  const lines: string[] = [];
  const answered: { cases: number; decisions: number }[] = [];
  beforeAll(async () => {
    for (const p of [...parts, ...FRESH_FILES.map((file) => ({ file, side: "dev" as const, corpus: loadCorpus(file) }))]) {
      const rates = await runCorpus(p.corpus, set);
      answered.push({ cases: p.corpus.cases.length, decisions: rates.results.filter((r) => (DecisionActions as readonly string[]).includes(r.decision.action)).length });
      const t = tallyByFamily(rates.results).total;
      const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
      // The held-out part's figures are measured at the end of a change only (bench/safety-bench.ts), never printed by a test run.
      if (p.side === "heldout") continue;
      lines.push(`${p.file}: stopped ${t.caught}/${t.mustStop} (${pct(t.caught, t.mustStop)}), false alarms ${t.falseAlarms}/${t.mustAllow} (${pct(t.falseAlarms, t.mustAllow)})`);
    }
    console.log(lines.join("\n"));
    // Fourteen corpora through the whole pack on a shared 2-CPU machine: a generous bound, not a speed claim.
  }, 180_000);

  it("should give every case of every part a decision", () => {
    expect(answered.length).toBe(parts.length + FRESH_FILES.length);
    for (const a of answered) expect(a.decisions).toBe(a.cases);
  });
});
