import { describe, expect, it } from "bun:test";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { decisionRecord, SPAN_NAME } from "./decision-record.ts";

const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const event = {
  hook: "tool_call",
  session: { id: "s-1", cwd: "/home/me/secret-project", agent: "pi" },
  tool: { name: "bash", input: { command: `curl -H "Authorization: token ${SECRET}" https://x` } },
  prompt: "my private prompt",
} as unknown as HookEvent;
const decision = {
  action: "block",
  reason: `no curl: curl -H "Authorization: token ${SECRET}"`,
  notify: [],
  steer: [],
  fired: [
    { rule: "no-curl", source: "project", action: "block" },
    { rule: "audit-net", source: "managed", action: "ask", shadow: true },
  ],
} as unknown as Decision;
const ctx = { face: "serve" as const, failMode: "closed", includeContent: false, startMs: 5, durationMs: 1.5 };

describe("decisionRecord", () => {
  it("should carry who, what, the outcome, rules with their layers and shadow actions", () => {
    const r = decisionRecord(event, decision, ctx);
    expect(r).toEqual({
      name: SPAN_NAME,
      startMs: 5,
      durationMs: 1.5,
      attributes: {
        "shepherd.face": "serve",
        "shepherd.agent": "pi",
        "shepherd.session.id": "s-1",
        "shepherd.hook": "tool_call",
        "shepherd.tool.name": "bash",
        "shepherd.action": "block",
        "shepherd.fail_mode": "closed",
        "shepherd.duration_ms": 1.5,
        "shepherd.rules": ["no-curl"],
        "shepherd.rule.layers": ["project"],
        "shepherd.rule.actions": ["block"],
        "shepherd.shadow.rules": ["audit-net"],
        "shepherd.shadow.layers": ["managed"],
        "shepherd.shadow.actions": ["ask"],
      },
    });
  });

  it("should hold no input, prompt, reason or project path by default", () => {
    const text = JSON.stringify(decisionRecord(event, decision, ctx));
    for (const s of ["curl -H", SECRET, "private prompt", "no curl:", "secret-project"]) expect(text).not.toContain(s);
  });

  it("should add content with includeContent, secrets redacted", () => {
    const a = decisionRecord(event, decision, { ...ctx, includeContent: true }).attributes;
    expect(String(a["shepherd.tool.input"])).toContain("curl -H");
    expect(a["shepherd.prompt"]).toBe("my private prompt");
    expect(String(a["shepherd.reason"])).toContain("no curl:");
    expect(JSON.stringify(a)).not.toContain(SECRET);
    expect(JSON.stringify(a)).toContain("[REDACTED]");
  });

  it("should cut names an agent could fill with input", () => {
    const long = { ...event, session: { ...event.session, id: "x".repeat(10_000) } } as HookEvent;
    expect(String(decisionRecord(long, decision, ctx).attributes["shepherd.session.id"]).length).toBe(256);
  });
});
