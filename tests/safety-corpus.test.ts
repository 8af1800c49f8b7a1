/** @module the safety corpus: bypass shapes the built-in pack must stop and look-alikes it must allow, through the real engine. */
import { beforeAll, describe, expect, it } from "bun:test";
import { loadCorpus, loadSafetyPack, type Rates, runCorpus } from "./safety-corpus-eval.ts";

const corpus = loadCorpus();
const { set, issues } = loadSafetyPack();
let rates: Rates;

beforeAll(async () => {
  rates = await runCorpus(corpus, set);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `safety corpus: caught ${rates.caught}/${rates.mustStop} (${pct(rates.catchRate)}), false alarms ${rates.falseAlarms}/${rates.mustAllow} (${pct(rates.falseAlarmRate)})`,
  );
});

describe("safety pack", () => {
  it("should load without issues", () => {
    expect(issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(set.rules.length).toBeGreaterThan(20);
  });

  it("should hold at least 150 commands to stop and 150 look-alikes to allow", () => {
    expect(corpus.cases.filter((c) => c.expect === "block").length).toBeGreaterThanOrEqual(150);
    expect(corpus.cases.filter((c) => c.expect === "allow").length).toBeGreaterThanOrEqual(150);
  });

  it("should parse every corpus command without falling back", () => {
    expect(rates.results.filter((r) => r.unparsable).map((r) => r.c.command)).toEqual([]);
  });
});

describe("safety corpus", () => {
  it.each(corpus.cases.map((c) => [c.expect, c.command] as const))("should %s: %s", (expectation, command) => {
    const r = rates.results.find((x) => x.c.command === command);
    expect({ command, stopped: r?.stopped, fired: r?.decision.fired.map((f) => f.rule) }).toMatchObject({ command, stopped: expectation === "block" });
  });

  it("should keep false alarms under 2% and catch at least 98%", () => {
    expect(rates.falseAlarmRate).toBeLessThan(0.02);
    expect(rates.catchRate).toBeGreaterThanOrEqual(0.98);
  });
});
