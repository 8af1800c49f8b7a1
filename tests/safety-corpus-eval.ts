/** @module evaluates a safety corpus (the legacy one or any file of the development corpus) against the built-in safety pack through the real engine (shared by the tests and bench). */
import { readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as v from "valibot";
import { evaluate } from "../lib/engine/evaluate.ts";
import { loadRuleText } from "../lib/engine/load.ts";
import { type LayerFile, mergeLayers, type RuleSet } from "../lib/engine/merge.ts";
import type { Decision, LoadIssue } from "../lib/engine/schema.ts";
import { SessionStore } from "../lib/engine/state.ts";
import { parseShell } from "../lib/shell/index.ts";

const ROOT = join(import.meta.dir, "..");

const CorpusSchema = v.object({
  /** true on the held-out part: report its totals only, never which cases miss. */
  heldout: v.optional(v.boolean()),
  cwd: v.string(),
  projectRoot: v.string(),
  home: v.string(),
  cases: v.array(
    v.object({
      command: v.string(),
      expect: v.picklist(["block", "allow"]),
      family: v.optional(v.string()),
      source: v.optional(v.string()),
      /** the agent tool the command goes to; bash unless said otherwise */
      tool: v.optional(v.picklist(["bash", "powershell"])),
    }),
  ),
});
export type Corpus = v.InferOutput<typeof CorpusSchema>;
export type CorpusCase = Corpus["cases"][number];

export const LEGACY_CORPUS = "tests/fixtures/safety-corpus.json";

/** A corpus file, relative to the repository root or absolute; the legacy corpus when none is named. */
export function loadCorpus(file: string = LEGACY_CORPUS): Corpus {
  return v.parse(CorpusSchema, JSON.parse(readFileSync(isAbsolute(file) ? file : join(ROOT, file), "utf8")));
}

/** The built-in safety pack (rules/safety-*.json) as the engine loads it. */
export function loadSafetyPack(): { set: RuleSet; issues: LoadIssue[] } {
  const files: LayerFile[] = [];
  const issues: LoadIssue[] = [];
  for (const name of readdirSync(join(ROOT, "rules")).filter((f) => /^safety-.*\.json$/.test(f)).sort()) {
    const file = `rules/${name}`;
    const res = loadRuleText(readFileSync(join(ROOT, file), "utf8"), { file, source: "builtin" });
    issues.push(...res.issues);
    files.push({ file, rules: res.rules });
  }
  return { set: mergeLayers([{ source: "builtin", files }], issues), issues };
}

export interface CaseResult {
  c: CorpusCase;
  decision: Decision;
  /** block or ask: the command would not run without the user. */
  stopped: boolean;
  ok: boolean;
  unparsable: boolean;
}

export interface Rates {
  results: CaseResult[];
  mustStop: number;
  caught: number;
  mustAllow: number;
  falseAlarms: number;
  catchRate: number;
  falseAlarmRate: number;
}

export async function runCorpus(corpus: Corpus, set: RuleSet): Promise<Rates> {
  const ctx = { rules: set, sessions: new SessionStore(), maxWarnings: 0, projectRoot: corpus.projectRoot, home: corpus.home };
  const results: CaseResult[] = [];
  for (const [i, c] of corpus.cases.entries()) {
    const decision = await evaluate(ctx, { hook: "tool_call", session: { id: `corpus-${i}`, cwd: corpus.cwd }, tool: { name: c.tool ?? "bash", input: { command: c.command } } });
    const stopped = decision.action === "block" || decision.action === "ask";
    const parsed = parseShell(c.command, { cwd: corpus.cwd, home: corpus.home });
    // Over an analysis cap counts too: no corpus command may be judged too complex.
    const unparsable = parsed.fallback || parsed.limit !== undefined;
    results.push({ c, decision, stopped, ok: stopped === (c.expect === "block"), unparsable });
  }
  const mustStop = results.filter((r) => r.c.expect === "block").length;
  const caught = results.filter((r) => r.c.expect === "block" && r.stopped).length;
  const mustAllow = results.length - mustStop;
  const falseAlarms = results.filter((r) => r.c.expect === "allow" && r.stopped).length;
  return { results, mustStop, caught, mustAllow, falseAlarms, catchRate: caught / mustStop, falseAlarmRate: falseAlarms / mustAllow };
}

export interface Tally {
  mustStop: number;
  caught: number;
  mustAllow: number;
  falseAlarms: number;
}

/** Stopped and false-alarm counts overall and per family, from any guard's verdicts on the same cases. */
export function tallyByFamily(verdicts: readonly { c: CorpusCase; stopped: boolean }[]): { total: Tally; families: Map<string, Tally> } {
  const empty = (): Tally => ({ mustStop: 0, caught: 0, mustAllow: 0, falseAlarms: 0 });
  const total = empty();
  const families = new Map<string, Tally>();
  for (const { c, stopped } of verdicts) {
    const name = c.family ?? "(none)";
    const f = families.get(name) ?? empty();
    families.set(name, f);
    for (const t of [total, f]) {
      if (c.expect === "block") {
        t.mustStop++;
        if (stopped) t.caught++;
      } else {
        t.mustAllow++;
        if (stopped) t.falseAlarms++;
      }
    }
  }
  return { total, families };
}
