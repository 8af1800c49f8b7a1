/**
 * @module what the pi extension returns from `tool_result` when the sidecar redacted the output: the text
 * parts replaced by the redacted text, and structuredContent replaced by its redacted copy in the same answer
 * (pi 1.x drops structuredContent when only content changes, and an unredacted copy must not survive).
 */
import type { ToolResultEvent } from "@mariozechner/pi-coding-agent";
import type { Decision } from "./wire.ts";

type Content = ToolResultEvent["content"];

export interface RedactedToolResult {
  content: Content;
  structuredContent?: unknown;
}

/** undefined when the decision replaces nothing. Non-text parts (images) are kept as the tool gave them. */
export function redactedToolResult(event: { content: Content }, decision: Decision): RedactedToolResult | undefined {
  const result = decision.result;
  if (!result) return undefined;
  const content: Content = [{ type: "text", text: result.text }, ...event.content.filter((p) => p.type !== "text")];
  const out: RedactedToolResult = { content };
  const structured = structuredOf(event);
  // No redacted copy from the sidecar (an older one): null rather than the original, which holds the secret.
  if (structured !== undefined) out.structuredContent = result.structured ?? null;
  return out;
}

/** The structured output to send the sidecar with the result text, when the agent has one (pi 1.x). */
export function structuredOf(event: object): unknown {
  return "structuredContent" in event ? (event as { structuredContent?: unknown }).structuredContent : undefined;
}

/** The wire result, with the structured output when there is one. */
export function withStructured(result: { text: string; isError: boolean }, structured: unknown): { text: string; isError: boolean; structured?: unknown } {
  return structured === undefined ? result : { ...result, structured };
}

interface MessageLike {
  content: readonly { type: string }[];
}

/**
 * An assistant message with its text parts replaced by the sidecar's masked text (other parts, tool calls
 * among them, kept), as pi's `message_end` answer; undefined when nothing was masked.
 */
export function redactedMessage<M extends MessageLike>(message: M, decision: Decision): { message: M } | undefined {
  const result = decision.result;
  if (!result) return undefined;
  const content = [{ type: "text", text: result.text }, ...message.content.filter((p) => p.type !== "text")];
  return { message: { ...message, content } };
}
