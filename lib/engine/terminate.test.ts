import { describe, expect, it } from "bun:test";
import { loadRuleText } from "./load.ts";
import { bashCall, makeEvaluator, ruleSetOf } from "./test-helpers.ts";

describe("terminate", () => {
  it("should mark the block of a terminate rule, and only that block", async () => {
    const rules = ruleSetOf({
      global: [
        { name: "stop-on-prod", action: "block", pattern: "deploy prod", reason: "never", terminate: true },
        { name: "plain", action: "block", pattern: "rm -rf", reason: "no" },
      ],
    });
    const { run } = makeEvaluator(rules);
    expect(await run(bashCall("deploy prod"))).toMatchObject({ action: "block", reason: "never", terminate: true });
    const plain = await run(bashCall("rm -rf x"));
    expect(plain.action).toBe("block");
    expect(plain.terminate).toBeUndefined();
    expect((await run(bashCall("ls"))).terminate).toBeUndefined();
  });

  it("should let a patch add terminate to an earlier block rule", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "b", action: "block", pattern: "rm -rf", reason: "no" }], global: [{ name: "b", terminate: true }] });
    expect(await makeEvaluator(rules).run(bashCall("rm -rf x"))).toMatchObject({ action: "block", terminate: true });
  });

  it.each([
    [{ name: "n", action: "notify", pattern: "x", reason: "r", terminate: true }],
    [{ name: "a", action: "ask", pattern: "x", reason: "r", terminate: true }],
    [{ name: "i", hook: "input", action: "block", pattern: "x", reason: "r", terminate: true }],
  ])("should refuse terminate outside a tool_call block: %j", (rule) => {
    const res = loadRuleText(JSON.stringify([rule]), { file: "g.json", source: "global" });
    expect(res.ok).toBe(false);
    expect(JSON.stringify(res.issues)).toContain('\\"terminate\\" only applies to action \\"block\\" on tool_call');
  });
});
