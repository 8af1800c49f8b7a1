/**
 * @module black-box: `shepherd serve` keeps its patterns' facts in the agent folder, and a start that reads
 * them back (or finds another build's file) still moves a catastrophic pattern off the backtracking engine.
 */
import { describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, bashEvent, disposeAfterEach, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

const live = disposeAfterEach();

// Bun's backtracking engine needs far longer than any test timeout for (a+)+$ on this input.
const EVIL = `${"a".repeat(64)}!`;
const RULES = [
  { name: "evil", action: "block", pattern: "(a+)+$", reason: "evil" },
  { name: "rm", action: "block", pattern: "\\brm\\s+-rf\\b", reason: "no rm" },
];

function trustedProject(): TempProject {
  const p = tempProject("shepherd-facts-");
  mkdirSync(join(p.project, ".pi"), { recursive: true });
  writeFileSync(join(p.project, ".pi", "shepherd-rules.json"), JSON.stringify(RULES));
  writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [p.project] } }));
  live.project = p;
  return p;
}

async function answersSafely(p: TempProject): Promise<void> {
  const s = new Sidecar(p.project, p.env);
  live.sidecar = s;
  const started = Date.now();
  expect((await s.evaluate(bashEvent(EVIL, p.project))).action).toBe("allow");
  expect(Date.now() - started).toBeLessThan(10_000);
  expect((await s.evaluate(bashEvent("aaaa", p.project))).action).toBe("block");
  expect((await s.evaluate(bashEvent("rm -rf /", p.project))).action).toBe("block");
}

async function stop(): Promise<void> {
  live.sidecar?.child.kill("SIGTERM");
  await live.sidecar?.exited;
  live.sidecar = undefined;
}

const cacheFile = (p: TempProject) => join(p.agentDir, "shepherd", "cache", "pattern-facts.json");

describe("pattern facts across sidecar starts", () => {
  it("should write each pattern's risk, and keep a risky pattern off the backtracking engine when read back", async () => {
    const p = trustedProject();
    await answersSafely(p);
    // Written a second after the load, not on its path.
    for (let i = 0; i < 100 && !existsSync(cacheFile(p)); i++) await Bun.sleep(100);
    const rows = (JSON.parse(readFileSync(cacheFile(p), "utf8")) as { rows: Record<string, [{ risk?: { kind: string } } | 0, unknown, unknown]> }).rows;
    const evil = rows["/(a+)+$"]?.[0];
    expect(evil === 0 ? undefined : evil?.risk?.kind).toBe("exponential");
    expect(Object.keys(rows)).toContain("/\\brm\\s+-rf\\b");
    await stop();
    await answersSafely(p);
  }, 60_000);

  it("should ignore a file written by another build, even one that calls the pattern plain", async () => {
    const p = trustedProject();
    mkdirSync(join(p.agentDir, "shepherd", "cache"), { recursive: true });
    writeFileSync(cacheFile(p), JSON.stringify({ salt: "facts:another-build", rows: { "/(a+)+$": [{ needsBacktracking: false }, 0, []] } }));
    await answersSafely(p);
  }, 60_000);
});

describe("pattern facts across rules check runs", () => {
  it("should report a risky pattern on a warm cache as on a cold one", () => {
    const p = trustedProject();
    const check = () => {
      const res = spawnSync(BINARY, ["rules", "check", "--json"], { cwd: p.project, env: p.env, encoding: "utf8", timeout: 20_000 });
      expect(res.status).toBe(0);
      return (JSON.parse(res.stdout) as { issues: { path: string; message: string }[] }).issues.filter((i) => i.message.includes("risky")).map((i) => i.path);
    };
    expect(check()).toEqual(["[0].pattern"]);
    expect(existsSync(cacheFile(p))).toBe(true);
    expect(check()).toEqual(["[0].pattern"]);
  }, 60_000);
});
