/** @module unit tests for the `redact` action: the decision's replacement output, its notice, its precedence. */
import { describe, expect, it } from "bun:test";
import { loadRuleText } from "./load.ts";
import { bashCall, makeEvaluator, ruleSetOf, toolResult } from "./test-helpers.ts";

const TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const redactRule = { name: "redact-secrets", hook: "tool_result", tool: "*", action: "redact" };

describe("evaluate (redact)", () => {
  it("should give the redacted output and a notice naming the kinds, never the value", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [redactRule] }));
    const d = await run(toolResult("bash", { command: "cat .env" }, false, `GITHUB_TOKEN=${TOKEN}\nPORT=3000\n`));
    expect(d.action).toBe("allow");
    expect(d.result?.text).toStartWith("GITHUB_TOKEN=[REDACTED:github-token]\nPORT=3000\n");
    expect(d.result?.text).toContain("Shepherd redacted 1 secret (github-token)");
    expect(d.redacted).toEqual({ "github-token": 1 });
    expect(JSON.stringify(d)).not.toContain(TOKEN);
    expect(d.fired).toEqual([{ rule: "redact-secrets", source: "builtin", action: "redact" }]);
  });

  it("should redact the structured copy of the output in step with the text", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [redactRule] }));
    const ev = toolResult("mcp", {}, false, `tok ${TOKEN}`);
    const d = await run({ ...ev, result: { text: `tok ${TOKEN}`, isError: false, structured: { items: [{ token: TOKEN, n: 1 }] } } });
    expect(d.result?.structured).toEqual({ items: [{ token: "[REDACTED:github-token]", n: 1 }] });
    expect(JSON.stringify(d)).not.toContain(TOKEN);
  });

  it("should mask a secret in the model's own message, without a notice line", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [{ name: "m", hook: "message_end", action: "redact" }] }));
    const d = await run({ hook: "message_end", session: { id: "s1", cwd: "/proj" }, message: { text: `Use ${TOKEN} to log in.` } });
    expect(d.result?.text).toBe("Use [REDACTED:github-token] to log in.");
  });

  it("should answer no result when the output holds no secret", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [redactRule] }));
    const d = await run(toolResult("bash", { command: "ls" }, false, "a.txt\nb.txt\n"));
    expect(d.result).toBeUndefined();
    expect(d.fired).toEqual([]);
  });

  it("should be switched off by a later layer's patch with enabled false", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [redactRule], global: [{ name: "redact-secrets", enabled: false }] }));
    expect((await run(toolResult("bash", {}, false, TOKEN))).result).toBeUndefined();
  });

  it("should never act on a tool_call", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [{ ...redactRule, hook: "tool_result" }] }));
    expect((await run(bashCall(`echo ${TOKEN}`))).result).toBeUndefined();
  });

  it("should keep a block's precedence over a redaction of the same result", async () => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [redactRule, { name: "b", hook: "tool_result", tool: "*", action: "block", reason: "stop" }] }));
    const d = await run(toolResult("bash", {}, false, TOKEN));
    expect(d.action).toBe("block");
    expect(d.result).toBeUndefined();
  });

  it("should refuse a redact rule on a hook other than tool_result and message_end at load", () => {
    const res = loadRuleText(JSON.stringify([{ name: "r", hook: "tool_call", action: "redact" }]), { file: "x.json", source: "global" });
    expect(res.ok).toBe(false);
    expect(JSON.stringify(res.issues)).toContain('action \\"redact\\" only works on tool_result and message_end');
  });
});
