/** @module black-box: a catastrophic pattern in project rules cannot stall the sidecar's answers. */
import { afterEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let project: TempProject | undefined;
let sidecar: Sidecar | undefined;
afterEach(async () => {
  sidecar?.child.kill("SIGKILL");
  await sidecar?.exited;
  project?.cleanup();
  project = undefined;
  sidecar = undefined;
});

function start(rules: unknown[], trusted = false): { p: TempProject; s: Sidecar } {
  const p = tempProject("shepherd-regex-");
  mkdirSync(join(p.project, ".pi"), { recursive: true });
  writeFileSync(join(p.project, ".pi", "shepherd-rules.json"), JSON.stringify(rules));
  if (trusted) writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [p.project] } }));
  project = p;
  const s = new Sidecar(p.project, p.env);
  sidecar = s;
  return { p, s };
}

// Bun's backtracking engine needs far longer than any test timeout for these on this input.
const EVIL = `${"a".repeat(64)}!`;

describe("catastrophic project patterns", () => {
  it("should answer within the timeout when an untrusted rule is (a+)+$", async () => {
    const { p, s } = start([
      { name: "evil", action: "block", pattern: "(a+)+$", reason: "evil" },
      { name: "evil-condition", action: "notify", conditions: [{ field: "command", pattern: "^(\\w+\\s?)*$" }], reason: "x" },
      { name: "rm", action: "block", pattern: "\\brm\\s+-rf\\b", reason: "no rm" },
    ]);
    const started = Date.now();
    const d = await s.evaluate(bashEvent(EVIL, p.project));
    expect(d.action).toBe("allow");
    expect(Date.now() - started).toBeLessThan(10_000);
    // The rules still work: on matching input they fire.
    expect((await s.evaluate(bashEvent("aaaa", p.project))).action).toBe("block");
    expect((await s.evaluate(bashEvent(`rm -rf / ${EVIL}`, p.project))).action).toBe("block");
  });

  it("should answer within the timeout when the catastrophic pattern sits in a command condition", async () => {
    // Many rules, so that even a backtracking engine that gives up after ~0.5 s per match would blow the bound.
    const { p, s } = start([
      ...Array.from({ length: 12 }, (_, i) => ({ name: `evil-args-${i}`, action: "block", command: { program: "echo", args: `^(a+)+$${"|z".repeat(i)}` }, reason: "evil args" })),
      ...Array.from({ length: 12 }, (_, i) => ({ name: `evil-branch-${i}`, action: "block", command: { program: "git", subcommand: "push", branch: `^(a+)+$${"|z".repeat(i)}` }, reason: "evil branch" })),
    ]);
    const started = Date.now();
    expect((await s.evaluate(bashEvent(`echo ${EVIL}`, p.project))).action).toBe("allow");
    expect((await s.evaluate(bashEvent(`git push origin ${EVIL}`, p.project))).action).toBe("allow");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await s.evaluate(bashEvent("echo aaaa", p.project))).action).toBe("block");
  });

  it("should answer within the timeout for a trusted project too", async () => {
    const { p, s } = start([{ name: "evil", action: "block", pattern: "^(([a-z])+.)+[A-Z]([a-z])+$" }], true);
    const d = await s.evaluate(bashEvent("a".repeat(40), p.project));
    expect(d.action).toBe("allow");
  });

  it("should skip and report a catastrophic pattern the linear engine cannot run", async () => {
    const { p, s } = start([{ name: "evil-look", action: "block", pattern: "(a+)+(?=!)" }]);
    const d = await s.evaluate(bashEvent(EVIL, p.project));
    expect(d.action).toBe("allow");
    const status = (await s.request("shepherd/status", {})).result as { skipped: { rule: string; reason: string }[]; issues: { path: string; message: string }[] };
    expect(status.skipped.find((k) => k.rule === "evil-look")?.reason).toMatch(/linear time/);
    expect(status.issues.some((i) => i.path === "[0].pattern")).toBe(true);
    const note = await s.waitFor((m) => m.method === "notifications/message" && JSON.stringify(m.params).includes("evil-look"));
    expect(JSON.stringify(note.params)).toContain("error");
  });

  it("should keep answering a large write checked by a quadratic pattern", async () => {
    const { p, s } = start([{ name: "trailing-space", action: "notify", tool: "write", conditions: [{ field: "text", pattern: "\\s+$" }], reason: "trailing space" }]);
    const content = `${" ".repeat(2_000_000)}x`;
    const d = await s.evaluate({ hook: "tool_call", session: { id: "w", cwd: p.project }, tool: { name: "write", input: { path: "a.txt", content } } });
    expect(d.action).toBe("allow");
    expect(d.notify).toEqual([]);
  });
});

describe("shepherd rules explain on catastrophic project patterns", () => {
  // Bun's backtracking engine gives up on one such match after about half a second, so a single rule
  // would only be slow; forty of them take far longer than the bound below unless they run in linear time.
  const evil = Array.from({ length: 40 }, (_, i) => ({ name: `evil-${i}`, action: "block", pattern: `(a+)+$${"|z".repeat(i)}`, reason: "evil" }));
  const explain = (p: TempProject, command: string) =>
    spawnSync(BINARY, ["rules", "explain", "--tool", "bash", "--command", command], { cwd: p.project, env: p.env, encoding: "utf8", timeout: 20_000 });

  it("should answer promptly when an untrusted project rule is (a+)+$", () => {
    const p = tempProject("shepherd-regex-");
    project = p;
    mkdirSync(join(p.project, ".pi"), { recursive: true });
    writeFileSync(join(p.project, ".pi", "shepherd-rules.json"), JSON.stringify(evil));
    const res = explain(p, EVIL);
    expect(res.signal).toBeNull();
    expect(res.status).toBe(0);
    expect(res.stdout).toContain("evil-0");
    expect(res.stdout).toContain("decision: allow");
    // The rules still judge: on matching input they fire.
    expect(explain(p, "aaaa").stdout).toContain("decision: block");
  }, 60_000);
});
