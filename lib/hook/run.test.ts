/** @module unit tests: one hook invocation end to end in-process (stdin JSON -> rules -> agent answer). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHook } from "./run.ts";

let root = "";
let env: Record<string, string> = {};
const rules = [
  { name: "no-rm", action: "block", pattern: "\\brm\\b", reason: "no rm: {{command}}" },
  { name: "errors", hook: "tool_result", action: "steer", state: { countKind: "errors", gte: 2 }, reason: "two errors now" },
  { name: "wrap-up", hook: "agent_end", check: "has_edits", action: "notify", reason: "commit your edits" },
];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-hook-"));
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  mkdirSync(join(root, "proj"));
  writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify(rules));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

async function hook(agent: string, input: unknown): Promise<{ code: number; out: unknown; err: string }> {
  let out = "";
  let err = "";
  const code = await runHook(agent, {
    env,
    cwd: join(root, "proj"),
    readStdin: () => (typeof input === "string" ? input : JSON.stringify(input)),
    writeOut: (t) => void (out += t),
    writeErr: (t) => void (err += t),
  });
  return { code, out: out ? JSON.parse(out) : undefined, err };
}

const cc = (extra: Record<string, unknown>) => ({ session_id: "s1", cwd: join(root, "proj"), ...extra });

describe("runHook", () => {
  it("should answer a PermissionRequest by rule without counting the call again, and note an unknown event", async () => {
    const ls = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } };
    // The same call four times in a row, with a permission prompt after each: the loop steer (3rd) must come
    // from the calls alone, so after three calls and three prompts it has fired once, not on the 2nd call.
    const answers: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      answers.push((await hook("claude-code", cc(ls))).out);
      const perm = await hook("claude-code", cc({ ...ls, hook_event_name: "PermissionRequest" }));
      expect(perm.out).toEqual({});
    }
    expect(JSON.stringify(answers)).not.toContain("three times in a row");
    const denied = await hook("claude-code", cc({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "rm -rf x" } }));
    expect(denied.out).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no rm: rm -rf x" } } });
    const future = await hook("claude-code", cc({ hook_event_name: "SomeFutureEvent" }));
    expect(future.out).toEqual({});
    expect(future.err).toContain('"SomeFutureEvent" is unknown to Shepherd');
  });

  it("should deny a Claude Code Bash call a rule blocks", async () => {
    const r = await hook("claude-code", cc({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf x" } }));
    expect(r.code).toBe(0);
    expect(r.out).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm: rm -rf x" } });
  });

  it("should count errors across separate invocations of one session", async () => {
    const fail = cc({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, error: "Exit code 1" });
    expect((await hook("claude-code", fail)).out).toEqual({});
    // The built-in loop rule speaks too: the same call has failed twice.
    const second = (await hook("claude-code", fail)).out as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(second.hookSpecificOutput.hookEventName).toBe("PostToolUseFailure");
    expect(second.hookSpecificOutput.additionalContext).toContain("two errors now");
  });

  it("should remind once at Stop after an edit, and not loop", async () => {
    await hook("claude-code", cc({ hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "a", content: "x" }, tool_response: {} }));
    const first = (await hook("claude-code", cc({ hook_event_name: "Stop", stop_hook_active: false }))).out as { decision: string; reason: string };
    expect(first.decision).toBe("block");
    expect(first.reason).toContain("commit your edits");
    expect((await hook("claude-code", cc({ hook_event_name: "Stop", stop_hook_active: true }))).out).toEqual({});
  });

  it("should drop the session state at SessionEnd", async () => {
    await hook("claude-code", cc({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } }));
    await hook("claude-code", cc({ hook_event_name: "SessionEnd", reason: "other" }));
    expect(readdirSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd", "sessions"))).toEqual([]);
  });

  it("should deny a Gemini shell call a rule blocks", async () => {
    const r = await hook("gemini", { session_id: "g", cwd: join(root, "proj"), hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "rm a" } });
    expect(r.out).toEqual({ decision: "deny", reason: "no rm: rm a" });
  });

  it("should block input that is not JSON with exit 2 and the reason on stderr", async () => {
    const r = await hook("codex", "{nope");
    expect(r.code).toBe(2);
    expect(r.err).toContain("not JSON");
  });

  it("should give no opinion on unparsable input whose event is sniffed as one with nothing pending", async () => {
    const r = await hook("claude-code", '{"session_id":"s","hook_event_name":"PostToolUse","tool_input":');
    expect(r.code).toBe(0);
    expect(r.err).toContain("PostToolUse: no opinion");
  });

  it("should block an input that is JSON but not a hook input (no session id)", async () => {
    const r = await hook("gemini", { hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "ls" } });
    expect(r.code).toBe(2);
    expect(r.err).toContain("Shepherd blocked this tool call");
  });

  it("should answer with the fail mode when the input never arrives, at the deadline", async () => {
    let out = "";
    let err = "";
    const t0 = Date.now();
    const code = await runHook("claude-code", {
      env,
      cwd: join(root, "proj"),
      readStdin: () => new Promise<string>(() => {}),
      writeOut: (t) => void (out += t),
      writeErr: (t) => void (err += t),
    });
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain("did not end within 5 s");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(4_900);
  }, 10_000);

  it("should answer a pending evaluation at the deadline the agent's timeout sets, failing closed", async () => {
    // A rule naming a plugin action makes the hook load plugins, which here never finish loading.
    writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify([{ name: "p", action: "some_plugin_action", pattern: "." }]));
    let out = "";
    const t0 = Date.now();
    const code = await runHook("claude-code", {
      env,
      cwd: join(root, "proj"),
      readStdin: () => JSON.stringify(cc({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } })),
      agentTimeoutMs: () => 400, // the agent gives up at 400 ms, so Shepherd answers at 300 ms
      loadPlugins: () => new Promise(() => {}),
      writeOut: (t) => void (out += t),
      writeErr: () => {},
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: 'Shepherd could not evaluate this call (evaluation exceeded 300 ms); it is blocked because failMode is "closed".',
      },
    });
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  describe("the watchdog", () => {
    /** A watchdog that records what it was told instead of starting a thread. */
    function fakeWatchdog() {
      const log: { started: number; armed: { at: number; exitCode: number; stdout: string }[] } = { started: 0, armed: [] };
      const factory = () => {
        log.started++;
        return {
          arm: (at: number, a: { exitCode: number; stdout: string }) => void log.armed.push({ at, exitCode: a.exitCode, stdout: a.stdout }),
          claim: () => true,
          yieldToWatchdog: (): never => {
            throw new Error("never lost the claim here");
          },
        };
      };
      return { log, factory };
    }
    const run = (input: string, watchdog: () => ReturnType<ReturnType<typeof fakeWatchdog>["factory"]>, extra: Record<string, unknown> = {}) =>
      runHook("claude-code", { env, cwd: join(root, "proj"), readStdin: () => input, watchdog, writeOut: () => {}, writeErr: () => {}, ...extra });
    const bash = (command: string) => JSON.stringify(cc({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } }));

    it("should not be started for a small input answered quickly", async () => {
      const { log, factory } = fakeWatchdog();
      // The clock is set so that the 25 ms of "slower than usual" cannot pass on a loaded machine.
      expect(await run(bash("ls"), factory, { startedAt: Date.now() + 60_000 })).toBe(0);
      expect(log.started).toBe(0);
    });

    it("should be started at once for a large input, and given this event's fail answer", async () => {
      const { log, factory } = fakeWatchdog();
      const startedAt = Date.now();
      await run(bash(`echo ${"a".repeat(70_000)}`), factory, { startedAt });
      expect(log.started).toBe(1);
      const last = log.armed.at(-1);
      expect(last?.exitCode).toBe(0);
      expect(last?.stdout).toContain('"permissionDecision":"deny"');
      expect(last?.at).toBe(startedAt + 5_000 + 150);
    });

    it("should be started once the hook runs slower than usual (25 ms)", async () => {
      const { log, factory } = fakeWatchdog();
      const slowInput = () => new Promise<string>((resolve) => setTimeout(() => resolve(bash("ls")), 80));
      expect(await run("", factory, { startedAt: Date.now(), readStdin: slowInput })).toBe(0);
      expect(log.started).toBe(1);
    });

    it("should be started before plugins load", async () => {
      writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify([{ name: "p", action: "some_plugin_action", pattern: "." }]));
      const { log, factory } = fakeWatchdog();
      let startedWhenLoading = -1;
      const loadPlugins = () => {
        startedWhenLoading = log.started;
        return new Promise<never>(() => {});
      };
      await run(bash("ls"), factory, { startedAt: Date.now(), agentTimeoutMs: () => 400, loadPlugins });
      expect(startedWhenLoading).toBe(1);
    });
  });

  it("should exit 2 for an unknown agent", async () => {
    expect((await hook("cursor", {})).code).toBe(2);
  });
});
