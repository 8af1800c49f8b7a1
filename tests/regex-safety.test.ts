/** @module black-box: a catastrophic pattern in project rules cannot stall the sidecar's answers. */
import { describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, bashEvent, disposeAfterEach, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

const live = disposeAfterEach();

function start(rules: unknown[], trusted = false): { p: TempProject; s: Sidecar } {
  const p = tempProject("shepherd-regex-");
  mkdirSync(join(p.project, ".pi"), { recursive: true });
  writeFileSync(join(p.project, ".pi", "shepherd-rules.json"), JSON.stringify(rules));
  if (trusted) writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [p.project] } }));
  live.project = p;
  const s = new Sidecar(p.project, p.env);
  live.sidecar = s;
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
    live.project = p;
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

describe("risky trusted patterns (global rules)", () => {
  // Matches (the last word), but natively `(\w+\s?){1,3}$` costs the fourth power of the length before
  // it gets there: ~a minute on 1 KB, after which Bun's engine may give up and answer "no match".
  const COMMAND = `${"a".repeat(1_000)}- b`;
  const globalRules = (p: TempProject, rules: unknown[]) => writeFileSync(join(p.agentDir, "shepherd-rules.json"), JSON.stringify(rules));
  const hook = (p: TempProject, command: string) =>
    spawnSync(BINARY, ["hook", "claude-code"], {
      cwd: p.project,
      env: p.env,
      encoding: "utf8",
      timeout: 30_000,
      input: JSON.stringify({ session_id: "s", cwd: p.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } }),
    });

  it("should block a 1 KB command that (\\w+\\s?){1,3}$ matches, promptly, in the sidecar and the hook", async () => {
    const p = tempProject("shepherd-regex-");
    live.project = p;
    globalRules(p, [{ name: "three-words", action: "block", pattern: "(\\w+\\s?){1,3}$", reason: "ends in words" }]);
    const s = new Sidecar(p.project, p.env);
    live.sidecar = s;
    const started = Date.now();
    const d = await s.evaluate(bashEvent(COMMAND, p.project));
    const sidecarMs = Date.now() - started;
    expect(d.action).toBe("block");
    expect(d.reason).toBe("ends in words");
    expect((await s.evaluate(bashEvent(`${"a".repeat(1_000)}-`, p.project))).action).toBe("allow");
    const hookStarted = Date.now();
    const res = hook(p, COMMAND);
    const hookMs = Date.now() - hookStarted;
    expect(res.signal).toBeNull();
    expect(res.stdout).toContain('"permissionDecision":"deny"');
    expect(res.stdout).toContain("ends in words");
    console.log(`(\\w+\\s?){1,3}$ on ${COMMAND.length} chars: sidecar ${sidecarMs} ms (first evaluate, load included), hook ${hookMs} ms (process included)`);
    // Generous bounds on a shared machine: natively this takes about a minute.
    expect(sidecarMs).toBeLessThan(3_000);
    expect(hookMs).toBeLessThan(3_000);
  }, 60_000);

  it("should fail closed, naming the rule, when a risky pattern the linear engine cannot run meets a long input", async () => {
    const p = tempProject("shepherd-regex-");
    live.project = p;
    globalRules(p, [
      { name: "look-words", action: "block", tool: "bash", conditions: [{ field: "command", pattern: "^zz (\\w+\\s?){1,3}(?=$)" }], reason: "look" },
      { name: "look-note", action: "notify", pattern: "^yy (\\w+\\s?){1,3}(?=$)", reason: "note" },
    ]);
    // Short: native, the real answer.
    expect(hook(p, "zz a b").stdout).toContain('"permissionDecisionReason":"look"');
    // Long, and the linear superset rules a match out: an exact allow.
    expect(hook(p, `ls ${COMMAND}`).stdout.trim()).toBe("{}");
    // Long, and it may match: the rule errors and the call is blocked (failMode closed), never "no match".
    const res = hook(p, `zz ${COMMAND}`);
    expect(res.stdout).toContain('"permissionDecision":"deny"');
    expect(res.stdout).toContain('could not evaluate this call (rule \\"look-words\\"');
    const s = new Sidecar(p.project, p.env);
    live.sidecar = s;
    // The sidecar answers an error (the pi extension applies the fail mode to it) and logs which rule.
    const answer = await s.request("shepherd/evaluate", { event: bashEvent(`zz ${COMMAND}`, p.project) });
    expect(answer.error?.message).toBe("internal error in shepherd/evaluate");
    expect(s.stderr).toMatch(/shepherd\/evaluate failed: rule "look-words": .*over its budget/);
    expect((await s.evaluate(bashEvent("zz a b", p.project))).action).toBe("block");
    // A notify rule's overrun is told, not a silent "no match", and does not stop the call.
    const note = await s.evaluate(bashEvent(`yy ${COMMAND}`, p.project));
    expect(note.action).toBe("allow");
    expect(JSON.stringify(note.notify)).toContain('Shepherd could not evaluate rule \\"look-note\\"');
    // rules explain shows the same: the rule cannot be evaluated, and the call is blocked.
    const ex = spawnSync(BINARY, ["rules", "explain", "--json", "--tool", "bash", "--command", `zz ${COMMAND}`], { cwd: p.project, env: p.env, encoding: "utf8", timeout: 20_000 });
    expect(ex.status).toBe(0);
    const report = JSON.parse(ex.stdout) as { rules: { name: string; fired: boolean; why?: string }[]; decision: { action: string; reason?: string } };
    expect(report.rules.find((r) => r.name === "look-words")).toMatchObject({ fired: false, why: expect.stringMatching(/^cannot be evaluated: rule "look-words"/) });
    expect(report.decision.action).toBe("block");
    expect(report.decision.reason).toContain("could not evaluate this call");
  }, 60_000);

  it("should be flagged by rules check with the file and JSON path", () => {
    const p = tempProject("shepherd-regex-");
    live.project = p;
    globalRules(p, [
      { name: "ok", action: "block", pattern: "\\brm\\s+-rf\\b" },
      { name: "three-words", action: "block", pattern: "(\\w+\\s?){1,3}$" },
      { name: "look-words", action: "block", conditions: [{ field: "command", pattern: "^zz (\\w+\\s?){1,3}(?=$)" }] },
    ]);
    const res = spawnSync(BINARY, ["rules", "check", "--json"], { cwd: p.project, env: p.env, encoding: "utf8", timeout: 20_000 });
    expect(res.status).toBe(0);
    const report = JSON.parse(res.stdout) as { issues: { file: string; path: string; severity: string; message: string }[] };
    const file = join(p.agentDir, "shepherd-rules.json");
    const risky = report.issues.filter((i) => i.message.includes("risky"));
    expect(risky.map((i) => [i.file, i.path, i.severity])).toEqual([
      [file, "[1].pattern", "warning"],
      [file, "[2].pattern", "warning"],
    ]);
    expect(risky[0]?.message).toMatch(/^rule "three-words": risky: pattern .* runs on the linear-time engine$/);
    expect(risky[1]?.message).toMatch(/^rule "look-words": risky: .* runs under a budget/);
  });

  it("should answer a hostile 128 KB argument to the built-in secrets rules promptly and correctly", () => {
    const p = tempProject("shepherd-regex-");
    live.project = p;
    // Natively ~8 s: the built-in pattern's `[\w.-]*(?:-key)[\w.-]*\.pem` retries every "-key" to the end.
    const started = Date.now();
    const res = hook(p, `cat /${"-key".repeat(32_000)}`);
    const ms = Date.now() - started;
    expect(res.signal).toBeNull();
    expect(res.stdout.trim()).toBe("{}");
    expect(hook(p, "cat ~/.ssh/id_rsa").stdout).toContain('"permissionDecision":"deny"');
    console.log(`built-in secrets rules on a 128 KB argument: hook ${ms} ms`);
    expect(ms).toBeLessThan(3_000);
  }, 60_000);

  it("should keep rules check quiet about every built-in rule", () => {
    const p = tempProject("shepherd-regex-");
    live.project = p;
    const res = spawnSync(BINARY, ["rules", "check", "--json"], { cwd: p.project, env: p.env, encoding: "utf8", timeout: 20_000 });
    expect(res.status).toBe(0);
    const report = JSON.parse(res.stdout) as { files: { source: string }[]; issues: unknown[] };
    expect(report.files.filter((f) => f.source === "builtin").length).toBeGreaterThan(3);
    expect(report.issues).toEqual([]);
  });
});

describe("inline tests of an untrusted project", () => {
  // Natively each of these cases costs Bun's engine ~0.6 s before it gives up; ten of them stalled the sidecar.
  const EVIL40 = `${"a".repeat(40)}!`;
  const rules = [
    ...Array.from({ length: 5 }, (_, i) => ({
      name: `evil-${i}`,
      action: "block",
      pattern: "^(a+)+$",
      reason: "evil",
      tests: [
        { command: EVIL40, expect: "allow" },
        { command: `${EVIL40}${EVIL40}`, expect: "allow" },
        { command: "aaaa", expect: "block" },
      ],
    })),
    // Natively "no match" (the engine gives up), though the command matches: this case would fail.
    { name: "evil-found", action: "block", pattern: "(a+)+b", reason: "found", tests: [{ command: `${EVIL40}ab`, expect: "block" }] },
  ];

  it("should not stall the sidecar's load: initialize and evaluate answer promptly", async () => {
    const { p, s } = start(rules);
    const started = Date.now();
    const init = await s.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect(init.error).toBeUndefined();
    expect((await s.evaluate(bashEvent("aaaa", p.project))).action).toBe("block");
    // The load has started the inline tests; the next answers must not wait for them.
    expect((await s.evaluate(bashEvent(`${EVIL40}ab`, p.project))).action).toBe("block");
    expect((await s.evaluate(bashEvent(EVIL40, p.project))).action).toBe("allow");
    const status = await s.request("shepherd/status", {});
    expect(status.error).toBeUndefined();
    const ms = Date.now() - started;
    console.log(`untrusted project with 6 catastrophic rules and 16 inline cases: initialize + 3 evaluates + status in ${ms} ms`);
    // Generous on a shared machine; natively the inline tests alone held the sidecar ~6 s.
    expect(ms).toBeLessThan(3_000);
    // No inline test failed (natively the last rule's case answers "no match"), so no warning about one.
    await new Promise((r) => setTimeout(r, 200));
    expect(s.notifications.filter((n) => JSON.stringify(n.params ?? {}).includes("inline test"))).toEqual([]);
  }, 60_000);

  it("should run them with shepherd rules test, all passing, promptly", () => {
    const p = tempProject("shepherd-regex-");
    live.project = p;
    mkdirSync(join(p.project, ".pi"), { recursive: true });
    writeFileSync(join(p.project, ".pi", "shepherd-rules.json"), JSON.stringify(rules));
    const started = Date.now();
    const res = spawnSync(BINARY, ["rules", "test", "--json"], { cwd: p.project, env: p.env, encoding: "utf8", timeout: 30_000 });
    const ms = Date.now() - started;
    expect(res.signal).toBeNull();
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout) as { ok: boolean; results: { rule: string; status: string }[] };
    expect(out.ok).toBe(true);
    const mine = out.results.filter((r) => r.rule.startsWith("evil"));
    expect(mine.map((r) => r.status)).toEqual(Array.from({ length: 16 }, () => "pass"));
    expect(ms).toBeLessThan(3_000);
  }, 60_000);
});
