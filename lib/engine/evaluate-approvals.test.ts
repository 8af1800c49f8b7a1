/** @module unit tests: `ask` rules with `remember` in the pure engine (the lookup is the host's input). */
import { describe, expect, it } from "bun:test";
import { approvalKey, canonicalJson, normalizedInput } from "./approval-key.ts";
import { type ApprovalLookup, type ApprovalQuery, evaluate, explain } from "./evaluate.ts";
import { loadRuleText } from "./load.ts";
import type { HookEvent } from "./schema.ts";
import { emptyState, SessionStore } from "./state.ts";
import { bashCall, ruleSetOf } from "./test-helpers.ts";

const RULES = [
  { name: "ask-deploy", action: "ask", pattern: "^deploy", remember: "project", reason: "Deploy?" },
  { name: "ask-env", action: "ask", pattern: "prod", remember: "session" },
  { name: "ask-plain", action: "ask", pattern: "^deploy" },
];

function ctxWith(rules: unknown[], lookup?: ApprovalLookup) {
  return { rules: ruleSetOf({ project: rules }), sessions: new SessionStore(), maxWarnings: 0, projectRoot: "/proj", home: "/home/u", ...(lookup ? { approvals: lookup } : {}) };
}

describe("evaluate with remember", () => {
  it("should list each asking remember rule with the call's key, and only on an ask", async () => {
    const d = await evaluate(ctxWith(RULES.slice(0, 2)), bashCall("deploy prod"));
    expect(d.action).toBe("ask");
    expect(d.reason).toBe("Deploy?");
    const key = approvalKey("bash", { command: "deploy prod" });
    expect(d.remember).toEqual([
      { rule: "ask-deploy", source: "project", scope: "project", ...key },
      { rule: "ask-env", source: "project", scope: "session", ...key },
    ]);
    expect((await evaluate(ctxWith(RULES.slice(0, 2)), bashCall("ls"))).remember).toBeUndefined();
  });

  it("should allow without asking when the lookup knows the call, and record the approval in fired", async () => {
    const asked: ApprovalQuery[] = [];
    const lookup: ApprovalLookup = (q) => (asked.push(q), q.rule === "ask-deploy" ? "0123456789ab" : undefined);
    const d = await evaluate(ctxWith([RULES[0]], lookup), bashCall("deploy x", "s9"));
    expect(d.action).toBe("allow");
    expect(d.fired).toEqual([{ rule: "ask-deploy", source: "project", action: "allow", approval: "0123456789ab" }]);
    expect(d.remember).toBeUndefined();
    expect(asked.map((a) => ({ ...a, session: a.session.id }))).toEqual([{ rule: "ask-deploy", scope: "project", tool: "bash", inputHash: approvalKey("bash", { command: "deploy x" }).inputHash, session: "s9" }]);
  });

  it("should still ask for another ask rule that is not approved, remembering only what is not yet approved", async () => {
    const lookup: ApprovalLookup = (q) => (q.rule === "ask-deploy" ? "0123456789ab" : undefined);
    const d = await evaluate(ctxWith(RULES, lookup), bashCall("deploy prod"));
    expect(d.action).toBe("ask");
    expect(d.remember?.map((r) => r.rule)).toEqual(["ask-env"]);
    expect(d.fired.map((f) => [f.rule, f.action])).toEqual([["ask-deploy", "allow"], ["ask-env", "ask"], ["ask-plain", "ask"]]);
  });

  it("should let a block win over an approved ask", async () => {
    const lookup: ApprovalLookup = () => "0123456789ab";
    const d = await evaluate(ctxWith([RULES[0], { name: "no-prod", action: "block", pattern: "prod" }], lookup), bashCall("deploy prod"));
    expect(d.action).toBe("block");
  });

  it("should never ask the lookup for an ask rule without remember", async () => {
    let calls = 0;
    const d = await evaluate(ctxWith([RULES[2]], () => (calls++, "0123456789ab")), bashCall("deploy x"));
    expect(d.action).toBe("ask");
    expect(calls).toBe(0);
  });

  it("should explain an approved ask as allowed by the remembered approval", () => {
    const ctx = ctxWith([RULES[0]], () => "0123456789ab");
    const v = explain(ctx, bashCall("deploy x"), emptyState());
    expect(v[0]?.why).toContain("remembered approval 0123456789ab");
  });
});

describe("remember in a rule file", () => {
  it.each([
    [{ name: "r", action: "ask", remember: "project" }, true],
    [{ name: "r", action: "ask", remember: "session" }, true],
    [{ name: "r", action: "ask", remember: "forever" }, false],
    [{ name: "r", action: "block", remember: "project" }, false],
    [{ name: "r", action: "ask", hook: "input", remember: "session" }, false],
    [{ name: "r", remember: "session" }, true],
  ])("should load %j: %p", (rule, ok) => {
    expect(loadRuleText(JSON.stringify([rule]), { file: "p.json", source: "project" }).ok).toBe(ok);
  });
});

describe("approvalKey", () => {
  const hash = (name: string, input: Record<string, unknown>) => approvalKey(name, input).inputHash;

  it.each([
    ["the same command with another description and timeout", { command: "rm -rf build", description: "a", timeout: 5 }, true],
    ["Bash and bash", { command: "rm -rf build" }, true],
    ["one more space", { command: "rm -rf  build" }, false],
    ["a trailing space", { command: "rm -rf build " }, false],
    ["another command", { command: "rm -rf build2" }, false],
  ])("should tell %s apart or not", (_what, input, same) => {
    expect(hash("Bash", input) === hash("bash", { command: "rm -rf build" })).toBe(same);
  });

  it("should key other tools by their whole input in any key order, without the description", () => {
    expect(hash("Write", { file_path: "/a", content: "x" })).toBe(hash("write", { content: "x", file_path: "/a", description: "d" }));
    expect(hash("write", { file_path: "/a", content: "x" })).not.toBe(hash("write", { file_path: "/a", content: "y" }));
    expect(hash("write", { file_path: "/a" })).not.toBe(hash("edit", { file_path: "/a" }));
  });

  it("should not confuse a command with the same text in another field", () => {
    expect(normalizedInput("bash", { command: "x" })).not.toBe(normalizedInput("read", { command: "x" }));
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
  });

  it("should show a short, redacted text", () => {
    const key = approvalKey("bash", { command: `curl -H "Authorization: Bearer ghp_${"a".repeat(36)}" ${"x".repeat(400)}` });
    expect(key.display).not.toContain("ghp_aaaa");
    expect(key.display.length).toBeLessThanOrEqual(200);
    expect(key.inputHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("remember across events", () => {
  it("should leave tool results and other hooks alone", async () => {
    const ev: HookEvent = { hook: "tool_result", session: { id: "s", cwd: "/proj" }, tool: { name: "bash", input: { command: "deploy" } }, result: { text: "", isError: false } };
    const d = await evaluate(ctxWith([{ name: "n", hook: "tool_result", action: "notify", pattern: "deploy", reason: "r" }], () => "0123456789ab"), ev);
    expect(d.fired.every((f) => f.approval === undefined)).toBe(true);
  });
});
