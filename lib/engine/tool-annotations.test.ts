import { describe, expect, it } from "bun:test";
import type { HookEvent } from "./schema.ts";
import { makeEvaluator, ruleSetOf } from "./test-helpers.ts";

function call(name: string, annotations?: Record<string, boolean>): HookEvent {
  return { hook: "tool_call", session: { id: "s1", cwd: "/proj" }, tool: { name, input: {}, ...(annotations ? { annotations } : {}) } };
}

describe("tool annotations", () => {
  const rules = ruleSetOf({
    global: [{ name: "ask-destructive", tool: "*", action: "ask", conditions: [{ field: "annotations.destructiveHint", pattern: "^true$" }], reason: "{{tool}} may destroy data" }],
  });

  it.each([
    ["a tool its author calls destructive", call("wipe_cache", { destructiveHint: true }), "ask"],
    ["a tool its author calls read-only", call("wipe_cache", { readOnlyHint: true, destructiveHint: false }), "allow"],
    ["a tool without annotations", call("wipe_cache"), "allow"],
    ["an MCP tool never heard of", call("mcp__ops__drop_table", { destructiveHint: true }), "ask"],
  ] as const)("should decide %s as %p", async (_what, event, expected) => {
    const decision = await makeEvaluator(rules).run(event);
    expect(decision.action).toBe(expected);
    if (expected === "ask") expect(decision.reason).toBe(`${event.tool?.name} may destroy data`);
  });
});
