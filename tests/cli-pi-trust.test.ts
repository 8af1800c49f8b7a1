/** @module black-box: `shepherd rules list` shows pi 1.x's project trust beside Shepherd's, which stays separate. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./helpers/sidecar-client.ts";

let root = "";
let project = "";
let agent = "";

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "shepherd-cli-pi-trust-")));
  project = join(root, "project");
  agent = join(root, "agent");
  mkdirSync(join(project, ".pi"), { recursive: true });
  mkdirSync(agent, { recursive: true });
  // Only a trusted project may rewrite: whether this rule is in force shows Shepherd's own verdict.
  writeFileSync(join(project, ".pi", "shepherd-rules.json"), JSON.stringify([{ name: "rw", action: "rewrite", pattern: "^npm ", rewrite: { replace: "pnpm " } }]));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function rulesList(json: boolean): string {
  const env = { PATH: process.env.PATH ?? "", HOME: root, PI_CODING_AGENT_DIR: agent };
  const res = spawnSync(BINARY, ["rules", "list", ...(json ? ["--json"] : [])], { cwd: project, env, encoding: "utf8" });
  expect(res.status).toBe(0);
  return res.stdout;
}

describe("shepherd rules list with pi's project trust", () => {
  it.each([
    ["no pi trust store", undefined, false, "pi: no saved project trust decision", null],
    ["pi trusting a project Shepherd does not", { "<project>": true }, false, "pi: trusted; Shepherd trusts it separately: shepherd trust <project>", true],
    ["both trusting it", { "<project>": true }, true, "pi: trusted", true],
    ["pi distrusting its parent", { "<root>": false }, false, "pi: not trusted (saved for <root>)", false],
  ] as const)("should show %s", (_what, store, shepherdTrusts, line, piTrusted) => {
    const fill = (s: string) => s.replaceAll("<project>", project).replaceAll("<root>", root);
    if (store) writeFileSync(join(agent, "trust.json"), JSON.stringify(Object.fromEntries(Object.entries(store).map(([k, v]) => [fill(k), v]))));
    if (shepherdTrusts) writeFileSync(join(agent, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [project] } }));
    const text = rulesList(false);
    expect(text.split("\n").filter((l) => l.startsWith("pi: "))).toEqual([fill(line)]);
    // pi's verdict never stands in for Shepherd's: the rewrite rule is in force only where Shepherd trusts.
    const out = JSON.parse(rulesList(true)) as { trusted: boolean; piTrusted: boolean | null; rules: { name: string; status: string }[] };
    expect(out).toMatchObject({ trusted: shepherdTrusts, piTrusted });
    expect(out.rules.find((r) => r.name === "rw")?.status).toBe(shepherdTrusts ? "active" : "skipped");
  });
});
