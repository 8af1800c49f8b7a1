/** @module unit tests for the pi extension's answer to a redacted tool result. */
import { describe, expect, it } from "bun:test";
import { redactedMessage, redactedToolResult, structuredOf, withStructured } from "./redact-result.ts";
import { parseDecision, type Decision } from "./wire.ts";

const decision = (result?: Decision["result"]): Decision => ({ action: "allow", notify: [], steer: [], fired: [], ...(result ? { result } : {}) });

describe("redactedToolResult", () => {
  it("should replace the text parts and keep images", () => {
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const out = redactedToolResult({ content: [{ type: "text", text: "T=ghp_x" }, image, { type: "text", text: "more" }] }, decision({ text: "T=[REDACTED:github-token]" }));
    expect(out?.content).toEqual([{ type: "text", text: "T=[REDACTED:github-token]" }, image]);
    expect(out && "structuredContent" in out).toBe(false);
  });

  it("should replace structuredContent in the same answer, never keep the original", () => {
    const event = { content: [{ type: "text" as const, text: "x" }], structuredContent: { token: "ghp_x" } };
    expect(redactedToolResult(event, decision({ text: "y", structured: { token: "[REDACTED]" } }))?.structuredContent).toEqual({ token: "[REDACTED]" });
    expect(redactedToolResult(event, decision({ text: "y" }))?.structuredContent).toBeNull();
  });

  it("should change nothing without a result", () => {
    expect(redactedToolResult({ content: [] }, decision())).toBeUndefined();
  });
});

describe("redactedMessage", () => {
  it("should replace the text parts of an assistant message and keep its tool calls", () => {
    const call = { type: "toolCall", id: "1", name: "bash", arguments: {} };
    const message = { role: "assistant", content: [{ type: "text", text: "key ghp_x" }, call] };
    expect(redactedMessage(message, decision({ text: "key [REDACTED:github-token]" }))).toEqual({ message: { role: "assistant", content: [{ type: "text", text: "key [REDACTED:github-token]" }, call] } });
    expect(redactedMessage(message, decision())).toBeUndefined();
  });
});

describe("structuredOf / withStructured", () => {
  it("should send structured output only when the event has it", () => {
    expect(withStructured({ text: "a", isError: false }, structuredOf({ content: [] }))).toEqual({ text: "a", isError: false });
    expect(withStructured({ text: "a", isError: false }, structuredOf({ structuredContent: { n: 1 } }))).toEqual({ text: "a", isError: false, structured: { n: 1 } });
  });
});

describe("parseDecision (result)", () => {
  it.each([
    [{ action: "allow", result: { text: "r", structured: [1] } }, { text: "r", structured: [1] }],
    [{ action: "allow", result: { text: "r" } }, { text: "r" }],
  ])("should keep %j", (raw, result) => {
    const d = parseDecision(raw);
    expect(typeof d === "string" ? d : d.result).toEqual(result);
  });

  it("should refuse a result without text", () => {
    expect(parseDecision({ action: "allow", result: { structured: 1 } })).toBe("decision.result is not {text}");
  });
});
