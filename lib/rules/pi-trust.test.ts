import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { piTrustFor } from "./pi-trust.ts";

let root = "";
let env: Record<string, string> = {};
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "shepherd-pi-trust-")));
  mkdirSync(join(root, "agent"));
  mkdirSync(join(root, "src", "app", "sub"), { recursive: true });
  env = { PI_CODING_AGENT_DIR: join(root, "agent"), HOME: root };
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("piTrustFor", () => {
  it.each([
    ["the project's own decision", { "<app>": true }, { trusted: true, folder: "<app>" }],
    ["a parent's decision", { "<src>": true }, { trusted: true, folder: "<src>" }],
    ["the nearest of two", { "<src>": true, "<app>": false }, { trusted: false, folder: "<app>" }],
    ["a cleared decision (null) under a parent's", { "<src>": false, "<app>": null }, { trusted: false, folder: "<src>" }],
    ["no decision", { "/elsewhere": true }, undefined],
  ] as const)("should find %s", (_what, store, expected) => {
    const fill = (s: string) => s.replace("<app>", join(root, "src", "app")).replace("<src>", join(root, "src"));
    writeFileSync(join(root, "agent", "trust.json"), JSON.stringify(Object.fromEntries(Object.entries(store).map(([k, v]) => [fill(k), v]))));
    const got = piTrustFor(join(root, "src", "app", "sub"), env);
    expect(got).toEqual(expected === undefined ? undefined : { trusted: expected.trusted, folder: fill(expected.folder) });
  });

  it.each([
    ["no trust store (pi 0.73)", undefined],
    ["a broken one", "{not json"],
    ["a list", "[true]"],
    ["one too big to be pi's", JSON.stringify({ pad: "x".repeat(1 << 20) })],
  ])("should report nothing for %s", (_what, text) => {
    if (text !== undefined) writeFileSync(join(root, "agent", "trust.json"), text);
    expect(piTrustFor(join(root, "src", "app"), env)).toBeUndefined();
  });
});
