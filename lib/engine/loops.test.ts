/** @module unit tests: the loop counters (same call in a row, same call failing) and the rules/loops.json family. */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import { textHash } from "../hash.ts";
import { callKey, loopCount, MAX_FAILED_CALLS, trackCall, trackFailure } from "./loops.ts";
import { EventView } from "./match.ts";
import type { HookEvent } from "./schema.ts";
import { emptyState, isExactSessionState, SessionStateSchema } from "./state.ts";
import { bashCall, makeEvaluator, ruleSetOf, toolResult } from "./test-helpers.ts";
import * as v from "valibot";

const LOOP_RULES = (parse(readFileSync(join(import.meta.dir, "..", "..", "rules", "loops.json"), "utf8")) as { rules: unknown[] }).rules;
const failed = (command: string) => toolResult("bash", { command }, true, "exit 1");

describe("callKey", () => {
  it("should name the same call the same, whatever its spacing, and tell tools and inputs apart", () => {
    const k = (e: HookEvent) => callKey(new EventView(e));
    expect(k(bashCall("npm  test "))).toBe(k(bashCall("npm test")));
    expect(k(bashCall("npm test"))).not.toBe(k(bashCall("npm run test")));
    const read = (path: string): HookEvent => ({ hook: "tool_call", session: { id: "s", cwd: "/" }, tool: { name: "Read", input: { file_path: path } } });
    expect(k(read("/a"))).toBe(k(read("/a")));
    expect(k(read("/a"))).not.toBe(k(read("/b")));
    expect(k(bashCall("x")).length).toBe(16);
  });

  it("should give the lanes' own 16 hex digits (lib/hash.ts) for the normalized call, leading zeros kept", () => {
    const keys = Array.from({ length: 300 }, (_, i) => callKey(new EventView(bashCall(`  npm   test --shard=${i} `))));
    keys.forEach((key, i) => expect(key).toBe(textHash(`bash\0npm test --shard=${i}\0`)));
    // Some byte below 0x10 among them: its leading zero is the one padStart kept.
    expect(keys.some((key) => (key.match(/../g) ?? []).some((byte) => byte.startsWith("0")))).toBe(true);
  });

  it("should hash a huge input with bounded work, and still tell its ends apart", () => {
    const big = (tail: string): HookEvent => ({ hook: "tool_call", session: { id: "s", cwd: "/" }, tool: { name: "Write", input: { file_path: "/a", content: `${"x".repeat(2_000_000)}${tail}` } } });
    expect(callKey(new EventView(big("1")))).not.toBe(callKey(new EventView(big("2"))));
  });

  it("should tell long inputs apart by every character it reads, and name the same one the same", () => {
    const write = (content: string): HookEvent => ({ hook: "tool_call", session: { id: "s", cwd: "/" }, tool: { name: "Write", input: { file_path: "/a", content } } });
    const k = (content: string) => callKey(new EventView(write(content)));
    const base = "line of a file\n".repeat(100);
    expect(k(base)).toBe(k(`${"line of a file\n".repeat(50)}${"line of a file\n".repeat(50)}`));
    expect(k(base)).not.toBe(k(`${base.slice(0, 700)}X${base.slice(701)}`));
    expect(k(base)).not.toBe(k(`${base} `));
    // Past twice the edge, only the head and the tail are read: a change between them is the same call, as before.
    const huge = "y".repeat(20_000);
    expect(k(huge)).toBe(k(`${huge.slice(0, 10_000)}Z${huge.slice(10_001)}`));
    expect(k(huge)).not.toBe(k(`Z${huge.slice(1)}`));
    expect(k(huge)).not.toBe(k(`${huge.slice(1)}Z`));
  });
});

describe("loop state", () => {
  it("should count a streak of the same call and start over on another", () => {
    const s = emptyState();
    for (const c of ["a", "a", "a", "b", "b"]) trackCall(s, new EventView(bashCall(c)));
    expect(s.repeats).toBe(2);
    expect(loopCount("repeats", s, new EventView(bashCall("b")))).toBe(2);
  });

  it("should keep at most MAX_FAILED_CALLS hashes, never the inputs", () => {
    const s = emptyState();
    for (let i = 0; i < MAX_FAILED_CALLS + 10; i++) trackFailure(s, new EventView(failed(`secret-token-${i}`)));
    expect(Object.keys(s.failedCalls)).toHaveLength(MAX_FAILED_CALLS);
    expect(JSON.stringify(s)).not.toContain("secret-token");
  });

  it("should read a state file written before the loop fields existed, with them at zero", () => {
    const old = { ...emptyState(5) } as Record<string, unknown>;
    for (const k of ["lastCall", "repeats", "failedCalls", "startedAt"]) delete old[k];
    expect(isExactSessionState(old)).toBe(false);
    expect(v.parse(SessionStateSchema(), old)).toMatchObject({ lastCall: "", repeats: 0, failedCalls: {}, startedAt: 0 });
    expect(isExactSessionState(emptyState(5))).toBe(true);
  });
});

describe("rules/loops.json", () => {
  it("should steer on the third identical call in a row and block the fifth", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: LOOP_RULES }));
    const actions: string[] = [];
    for (let i = 0; i < 5; i++) {
      const d = await run(bashCall("cat missing.txt"));
      actions.push(d.action === "block" ? "block" : d.steer.length > 0 ? "steer" : "allow");
    }
    expect(actions).toEqual(["allow", "allow", "steer", "steer", "block"]);
    expect((await run(bashCall("ls"))).action).toBe("allow");
  });

  it("should steer after the same call failed twice and block a fourth try after three failures", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: LOOP_RULES }));
    const steps: string[] = [];
    for (let i = 0; i < 3; i++) {
      // Other calls in between: the failures count per call, not in a row.
      await run(bashCall(`echo ${i}`));
      const call = await run(bashCall("npm test"));
      steps.push(call.action);
      const r = await run(failed("npm test"));
      steps.push(r.steer.length > 0 ? "steer" : "none");
    }
    const fourth = await run(bashCall("npm test"));
    expect(steps).toEqual(["allow", "none", "allow", "steer", "allow", "steer"]);
    expect(fourth.action).toBe("block");
    expect(fourth.reason).toContain("already failed three times");
    expect((await run(bashCall("npm test -- --verbose"))).action).toBe("allow");
  });
});
