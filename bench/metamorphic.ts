/**
 * @module metamorphic report: the development corpora's bash cases the safety pack judges right today, rewritten by
 * transformations that keep what the command does; prints per transformation how many must-stop variants are still
 * stopped and how many look-alike variants become stopped, with examples. `--json FILE` writes every changed variant.
 * Reads only the corpora named here (never the held-out one).
 */
import { writeFileSync } from "node:fs";
import { loadCorpus, loadSafetyPack } from "../tests/safety-corpus-eval.ts";
import { rightSeeds, runMetamorphic } from "../tests/metamorphic.ts";

const FILES = ["dev", "fresh", ...Array.from({ length: 11 }, (_, i) => `fresh${i + 2}`)].map((f) => `tests/fixtures/corpus/${f}.json`);
const argv = process.argv.slice(2);
const jsonArg = argv.indexOf("--json");
const { set } = loadSafetyPack();
const env = { cwd: "/home/user/project", projectRoot: "/home/user/project", home: "/home/user" };
const changed: { changed: boolean; transform: string; file: string; family?: string; expect: string; seed: string; command: string }[] = [];
const total = new Map<string, { stop: number; still: number; allow: number; newly: number }>();
for (const file of FILES) {
  const corpus = loadCorpus(file);
  const seeds = await rightSeeds(corpus, set);
  const res = await runMetamorphic(seeds, set, env);
  for (const [name, t] of res) {
    const a = total.get(name) ?? { stop: 0, still: 0, allow: 0, newly: 0 };
    total.set(name, { stop: a.stop + t.stopSeeds, still: a.still + t.stillStopped, allow: a.allow + t.allowSeeds, newly: a.newly + t.newlyStopped });
    for (const v of t.kept) changed.push({ changed: false, transform: name, file, family: v.seed.family, expect: v.seed.expect, seed: v.seed.command, command: v.command });
    for (const v of [...t.lost, ...t.alarms]) changed.push({ changed: true, transform: name, file, family: v.seed.family, expect: v.seed.expect, seed: v.seed.command, command: v.command });
  }
}
console.log("| transformation | must-stop variants | still stopped | look-alike variants | newly stopped |\n|---|---|---|---|---|");
for (const [name, t] of total) console.log(`| ${name} | ${t.stop} | ${t.still} | ${t.allow} | ${t.newly} |`);
for (const name of total.keys()) {
  const xs = changed.filter((c) => c.changed && c.transform === name).slice(0, 4);
  for (const x of xs) console.log(`  [${name}] ${x.expect === "block" ? "LOST " : "ALARM"} ${JSON.stringify(x.command)}`);
}
if (jsonArg >= 0) writeFileSync(argv[jsonArg + 1] ?? "metamorphic.json", `${JSON.stringify(changed, null, 1)}\n`);
