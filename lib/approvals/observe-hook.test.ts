/** @module unit tests: a Claude Code ask becomes an approval only on the PostToolUse of that same call. */
import { describe, expect, it } from "bun:test";
import type { ParsedHook } from "../adapters/agent-adapter.ts";
import { approvalKey } from "../engine/approval-key.ts";
import type { Decision, HookEvent, RememberRequest } from "../engine/schema.ts";
import { emptyState } from "../engine/state.ts";
import { observeHook, PENDING_ASK_TTL_MS } from "./observe-hook.ts";
import { PendingOffers, MAX_PENDING_OFFERS, PENDING_OFFER_TTL_MS } from "./pending-offers.ts";

const session = { id: "s", cwd: "/p" };
const remember: RememberRequest[] = [{ rule: "r", source: "project", scope: "project", ...approvalKey("Bash", { command: "deploy" }) }];
const ask: Decision = { action: "ask", reason: "?", notify: [], steer: [], fired: [], remember };
const allow: Decision = { action: "allow", notify: [], steer: [], fired: [] };

function parsed(agentEvent: string, hook: HookEvent["hook"], callId: string | undefined, command = "deploy", extra: Partial<ParsedHook> = {}): ParsedHook {
  const tool = { name: "Bash", input: { command }, ...(callId ? { callId } : {}) };
  const event: HookEvent = hook === "tool_result" ? { hook, session, tool, result: { text: "", isError: agentEvent === "PostToolUseFailure" } } : { hook, session, tool };
  return { agentEvent, events: [event], stopHookActive: false, preTool: hook === "tool_call", sessionId: "s", ...extra };
}

describe("observeHook", () => {
  it("should give the remember requests on the PostToolUse of the asked call", () => {
    const state = emptyState();
    expect(observeHook(state, parsed("PreToolUse", "tool_call", "t1"), ask, 10)).toBeUndefined();
    expect(state.pendingAsk?.callId).toBe("t1");
    expect(observeHook(state, parsed("PostToolUse", "tool_result", "t1"), allow, 20)).toEqual(remember);
    expect(state.pendingAsk).toBeUndefined();
  });

  it.each([
    ["another call id", parsed("PostToolUse", "tool_result", "t2")],
    ["another input", parsed("PostToolUse", "tool_result", "t1", "deploy --all")],
    ["a failure", parsed("PostToolUseFailure", "tool_result", "t1")],
  ])("should give nothing for %s, and forget the ask", (_what, p) => {
    const state = emptyState();
    observeHook(state, parsed("PreToolUse", "tool_call", "t1"), ask, 10);
    expect(observeHook(state, p, allow, 20)).toBeUndefined();
    expect(state.pendingAsk).toBeUndefined();
  });

  it("should forget the ask at the session's next tool call", () => {
    const state = emptyState();
    observeHook(state, parsed("PreToolUse", "tool_call", "t1"), ask, 10);
    observeHook(state, parsed("PreToolUse", "tool_call", "t2", "ls"), allow, 11);
    expect(observeHook(state, parsed("PostToolUse", "tool_result", "t1"), allow, 12)).toBeUndefined();
  });

  it("should leave the ask pending through a re-ask (PermissionRequest) and an event without a tool", () => {
    const state = emptyState();
    observeHook(state, parsed("PreToolUse", "tool_call", "t1"), ask, 10);
    observeHook(state, parsed("PermissionRequest", "tool_call", "t1", "deploy", { dryRun: true }), ask, 11);
    observeHook(state, { agentEvent: "Notification", events: [], stopHookActive: false, preTool: false, sessionId: "s" }, allow, 12);
    expect(observeHook(state, parsed("PostToolUse", "tool_result", "t1"), allow, 13)).toEqual(remember);
  });

  it("should keep nothing pending for an ask without remember or without a call id, or one answered too late", () => {
    const state = emptyState();
    observeHook(state, parsed("PreToolUse", "tool_call", "t1"), { ...ask, remember: undefined } as Decision, 10);
    expect(state.pendingAsk).toBeUndefined();
    observeHook(state, parsed("PreToolUse", "tool_call", undefined), ask, 10);
    expect(state.pendingAsk).toBeUndefined();
    observeHook(state, parsed("PreToolUse", "tool_call", "t1"), ask, 10);
    expect(observeHook(state, parsed("PostToolUse", "tool_result", "t1"), allow, 11 + PENDING_ASK_TTL_MS)).toBeUndefined();
  });
});

describe("PendingOffers", () => {
  const grant = { project: "/p", session: { id: "s" }, remember };

  it("should give a grant back once for its token", () => {
    const o = new PendingOffers();
    const token = o.offer(grant);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(o.take(token)).toBe(grant);
    expect(o.take(token)).toBeUndefined();
    expect(o.take("nope")).toBeUndefined();
  });

  it(`should keep at most ${MAX_PENDING_OFFERS} and forget old ones`, () => {
    let now = 0;
    const o = new PendingOffers(() => now);
    const first = o.offer(grant);
    for (let i = 0; i < MAX_PENDING_OFFERS + 10; i++) o.offer(grant);
    expect(o.size).toBe(MAX_PENDING_OFFERS);
    expect(o.take(first)).toBeUndefined();
    const late = o.offer(grant);
    now += PENDING_OFFER_TTL_MS + 1;
    expect(o.take(late)).toBeUndefined();
  });
});
