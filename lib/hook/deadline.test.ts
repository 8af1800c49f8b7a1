/** @module unit tests: one hook's clock: the deadline answer, its moves, and a single answer per process. */
import { describe, expect, it } from "bun:test";
import type { AgentAnswer } from "../adapters/agent-adapter.ts";
import { HookDeadline } from "./deadline.ts";

function clock(opts: { startedAt?: number; claim?: boolean } = {}) {
  const written: AgentAnswer[] = [];
  const armed: number[] = [];
  let yielded = 0;
  const c = new HookDeadline({
    agent: "claude-code",
    startedAt: opts.startedAt ?? Date.now(),
    failure: (message) => ({ stdout: `deny: ${message}`, exitCode: 0 }),
    write: (a) => void written.push(a),
    watchdog: () => ({
      arm: (at) => void armed.push(at),
      claim: () => opts.claim ?? true,
      yieldToWatchdog: (): never => {
        yielded++;
        throw new Error("yielded");
      },
    }),
  });
  return { c, written, armed, yielded: () => yielded };
}

describe("HookDeadline", () => {
  it("should write the fail answer when the deadline passes, and nothing after it", async () => {
    const { c, written } = clock({ startedAt: Date.now() - 4_950 });
    c.inputRead();
    expect(await c.late).toBe(0);
    expect(c.answer({ stdout: "late evaluation", exitCode: 0 })).toBe(0);
    c.close();
    expect(written).toEqual([{ stdout: "deny: evaluation exceeded 5 s", exitCode: 0, stderr: "shepherd hook claude-code: evaluation exceeded 5 s\n" }]);
  });

  it("should move the deadline to what the agent's timeout and the setting allow", () => {
    const { c } = clock();
    c.parsed(2_000);
    expect(c.ms).toBe(1_500);
    c.settings(10_000, false);
    expect(c.ms).toBe(1_500);
    c.settings(300, false);
    expect(c.ms).toBe(300);
    c.close();
  });

  it("should give the watchdog the deadline plus its grace, and re-arm it when the answer changes", () => {
    const startedAt = Date.now();
    const { c, armed } = clock({ startedAt });
    c.startWatchdog();
    c.parsed(undefined);
    c.settings(undefined, true);
    c.close();
    expect(armed).toEqual([startedAt + 5_150, startedAt + 5_150, startedAt + 5_150]);
  });

  it("should leave the answer to the watchdog once it claimed it", () => {
    const { c, written, yielded } = clock({ claim: false });
    c.startWatchdog();
    expect(() => c.answer({ stdout: "x", exitCode: 0 })).toThrow("yielded");
    c.close();
    expect(yielded()).toBe(1);
    expect(written).toEqual([]);
  });
});
