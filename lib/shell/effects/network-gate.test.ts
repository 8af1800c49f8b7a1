import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { NETWORK_GATE } from "./network.ts";

/** Every program name the file compares `p` against: a branch added for a new program must open the gate for it. */
function comparedNames(file: string): string[] {
  const src = readFileSync(new URL(file, import.meta.url), "utf8");
  return [...new Set([...src.matchAll(/\bp === "([^"]+)"/g)].map((m) => m[1] ?? ""))];
}

describe("NETWORK_GATE", () => {
  it("should name every program networkEffects compares by name", () => {
    const names = comparedNames("./network.ts");
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((n) => !NETWORK_GATE.has(n))).toEqual([]);
  });

  it("should know every set networkEffects tests the program against", () => {
    const src = readFileSync(new URL("./network.ts", import.meta.url), "utf8");
    const sets = [...new Set([...src.matchAll(/\b([A-Z_]+)\.(?:has|test)\(p\)/g)].map((m) => m[1] ?? ""))];
    // In the gate (spread into it or tested beside it); GENERATES only matters with a pipe into a runner, which opens the gate.
    const known = ["NETWORK", "FETCHERS", "MAILERS", "SOCKETS", "SERVERS", "PACKAGE_RUNNER", "NETWORK_GATE", "GENERATES"];
    expect(sets.length).toBeGreaterThan(5);
    expect(sets.filter((s) => !known.includes(s))).toEqual([]);
  });
});
