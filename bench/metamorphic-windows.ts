/**
 * @module metamorphic run of the Windows model: takes the PowerShell and cmd cases of the named development corpora
 * (never the held-out part), keeps those the safety pack gets right today, rewrites each with semantics-preserving
 * transforms (bench/lib/metamorphic-windows.ts) and reports per transform the must-stop variants no longer stopped
 * and the look-alike variants newly stopped. `--out FILE` writes those variants as JSON; `--list` prints them.
 */
import { writeFileSync } from "node:fs";
import { type CorpusCase, loadCorpus, loadSafetyPack, runCorpus } from "../tests/safety-corpus-eval.ts";
import { isWindowsCase, TRANSFORMS, type Variant } from "./lib/metamorphic-windows.ts";

export const DEV_CORPORA = ["dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh6", "fresh7", "fresh8", "fresh10", "fresh11", "fresh12"].map((f) => `tests/fixtures/corpus/${f}.json`);

export interface Regression {
  transform: string;
  seed: CorpusCase;
  variant: Variant;
  expect: "block" | "allow";
}
export interface Report {
  seeds: number;
  perTransform: Record<string, { variants: number; regressions: number }>;
  regressions: Regression[];
}

/** Runs every transform over the seeds the pack gets right; `pick` may thin the seeds (a test's sample). */
export async function metamorphic(files: string[], pick: (cs: CorpusCase[]) => CorpusCase[] = (cs) => cs): Promise<Report> {
  const { set } = loadSafetyPack();
  const env = loadCorpus(files[0]);
  const all = files.flatMap((f) => loadCorpus(f).cases.filter(isWindowsCase));
  const seen = new Set<string>();
  const uniq = all.filter((c) => {
    const k = `${c.tool ?? "bash"}\u0000${c.command}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  const base = await runCorpus({ ...env, cases: uniq }, set);
  const seeds = pick(base.results.filter((r) => r.ok).map((r) => r.c));
  const variants: { transform: string; seed: CorpusCase; v: Variant }[] = [];
  for (const seed of seeds) {
    for (const t of TRANSFORMS) {
      for (const v of t.apply({ command: seed.command, tool: seed.tool ?? "bash", family: seed.family })) variants.push({ transform: t.name, seed, v });
    }
  }
  const res = await runCorpus({ ...env, cases: variants.map((x) => ({ command: x.v.command, tool: x.v.tool, expect: x.seed.expect })) }, set);
  const perTransform: Report["perTransform"] = Object.fromEntries(TRANSFORMS.map((t) => [t.name, { variants: 0, regressions: 0 }]));
  const regressions: Regression[] = [];
  for (const [i, x] of variants.entries()) {
    const slot = perTransform[x.transform];
    if (slot === undefined) continue;
    slot.variants++;
    if (res.results[i]?.ok === true) continue;
    slot.regressions++;
    regressions.push({ transform: x.transform, seed: x.seed, variant: x.v, expect: x.seed.expect });
  }
  return { seeds: seeds.length, perTransform, regressions };
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const outAt = argv.indexOf("--out");
  const report = await metamorphic(DEV_CORPORA);
  console.log(`seeds kept (right today): ${report.seeds}`);
  for (const [name, t] of Object.entries(report.perTransform)) {
    const stop = report.regressions.filter((r) => r.transform === name && r.expect === "block").length;
    console.log(`${name.padEnd(20)} variants ${String(t.variants).padStart(5)}  no longer stopped ${String(stop).padStart(4)}  newly stopped ${String(t.regressions - stop).padStart(4)}`);
  }
  if (argv.includes("--list")) for (const r of report.regressions) console.log(`${r.expect} ${r.transform} [${r.variant.tool}] ${r.variant.command}`);
  if (outAt >= 0) writeFileSync(argv[outAt + 1] ?? "metamorphic.json", JSON.stringify(report.regressions, null, 1));
}
