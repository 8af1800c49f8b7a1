/** @module metamorphic safety: a sample of the development corpora's bash cases, each rewritten by every transformation that keeps what it does (tests/metamorphic.ts), keeps the pack's verdict. */
import { beforeAll, describe, expect, it } from "bun:test";
import { commandHash } from "./fixtures/corpus/split.ts";
import { rightSeeds, runMetamorphic, TRANSFORMS, type TransformTally } from "./metamorphic.ts";
import { type CorpusCase, loadCorpus, loadSafetyPack } from "./safety-corpus-eval.ts";

/** Named one by one: the held-out part is never read here. */
const FILES = ["dev", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12"].map((f) => `tests/fixtures/corpus/${f}.json`);
const SEEDS = 300;
const ENV = { cwd: "/home/user/project", projectRoot: "/home/user/project", home: "/home/user" };

describe("metamorphic variants of the development corpora", () => {
  const { set } = loadSafetyPack();
  let tallies = new Map<string, TransformTally>();
  let seeds: CorpusCase[] = [];
  beforeAll(async () => {
    // Deterministic: the seeds the pack judges right, ordered by their command's hash, the first 300 (half must-stop).
    const right = (await Promise.all(FILES.map((f) => rightSeeds(loadCorpus(f), set)))).flat();
    const byHash = (xs: CorpusCase[]) => [...xs].sort((a, b) => commandHash(a.command) - commandHash(b.command) || (a.command < b.command ? -1 : 1));
    seeds = [...byHash(right.filter((c) => c.expect === "block")).slice(0, SEEDS / 2), ...byHash(right.filter((c) => c.expect === "allow")).slice(0, SEEDS / 2)];
    tallies = await runMetamorphic(seeds, set, ENV);
  }, 120_000);

  it("should sample 300 seeds with both labels, and give most transformations a variant to judge", () => {
    expect(seeds.length).toBe(SEEDS);
    const used = TRANSFORMS.filter((t) => (tallies.get(t.name)?.stopSeeds ?? 0) + (tallies.get(t.name)?.allowSeeds ?? 0) > 0);
    expect(used.length).toBeGreaterThan(TRANSFORMS.length * 0.8);
  });

  it.each(TRANSFORMS.map((t) => [t.name] as const))("should keep every must-stop variant stopped and no look-alike newly stopped under %s", (name) => {
    const t = tallies.get(name);
    expect(t).toBeDefined();
    expect({ lost: t?.lost.map((v) => v.command), newlyStopped: t?.alarms.map((v) => v.command) }).toEqual({ lost: [], newlyStopped: [] });
  });
});
