/**
 * @module one decision as the attributes of its span: who (agent, session), what (hook, tool name), the
 * outcome (action, the rules that fired and their layers, shadow rules' "would have" actions, fail mode,
 * duration). Never the tool's input or output, a prompt, a message or a reason unless `includeContent` is
 * set, and then redacted as the audit log redacts. No SDK here: records are plain data, cheap to queue.
 */
import { redactText, redactValue } from "../audit/redact.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";

export type AttributeValue = string | number | boolean | string[];

export interface DecisionRecord {
  name: string;
  /** Epoch milliseconds when evaluation began. */
  startMs: number;
  durationMs: number;
  attributes: Record<string, AttributeValue>;
}

/** Names (session, agent, hook, tool, rule) are cut to this many characters: attributes are not a channel for input. */
const NAME_MAX = 256;
/** Rules listed per decision at most. */
const LIST_MAX = 64;
/** Characters of each content attribute (redacted first) when `includeContent` is set. */
const CONTENT_MAX = 4_096;

export const SPAN_NAME = "shepherd.decision";

const name = (s: string): string => (s.length > NAME_MAX ? s.slice(0, NAME_MAX) : s);

export interface RecordContext {
  face: "serve" | "http" | "hook";
  failMode: string;
  includeContent: boolean;
  startMs: number;
  durationMs: number;
}

export function decisionRecord(event: HookEvent, decision: Decision, ctx: RecordContext): DecisionRecord {
  const a: Record<string, AttributeValue> = {
    "shepherd.face": ctx.face,
    "shepherd.agent": name(event.session.agent ?? ""),
    "shepherd.session.id": name(event.session.id),
    "shepherd.hook": name(event.hook),
    "shepherd.action": decision.action,
    "shepherd.fail_mode": ctx.failMode,
    "shepherd.duration_ms": ctx.durationMs,
  };
  if (event.tool) a["shepherd.tool.name"] = name(event.tool.name);
  const real = decision.fired.filter((f) => !f.shadow).slice(0, LIST_MAX);
  const shadow = decision.fired.filter((f) => f.shadow).slice(0, LIST_MAX);
  if (real.length > 0) {
    a["shepherd.rules"] = real.map((f) => name(f.rule));
    a["shepherd.rule.layers"] = real.map((f) => name(f.source));
    a["shepherd.rule.actions"] = real.map((f) => name(f.action));
  }
  if (shadow.length > 0) {
    a["shepherd.shadow.rules"] = shadow.map((f) => name(f.rule));
    a["shepherd.shadow.layers"] = shadow.map((f) => name(f.source));
    a["shepherd.shadow.actions"] = shadow.map((f) => name(f.action));
  }
  if (ctx.includeContent) addContent(a, event, decision);
  return { name: SPAN_NAME, startMs: ctx.startMs, durationMs: ctx.durationMs, attributes: a };
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "[unserializable]";
  }
}

function addContent(a: Record<string, AttributeValue>, event: HookEvent, decision: Decision): void {
  if (event.tool) a["shepherd.tool.input"] = redactText(json(redactValue(event.tool.input)), CONTENT_MAX);
  if (event.result) a["shepherd.tool.output"] = redactText(event.result.text, CONTENT_MAX);
  if (event.message) a["shepherd.message"] = redactText(event.message.text, CONTENT_MAX);
  if (event.prompt !== undefined) a["shepherd.prompt"] = redactText(event.prompt, CONTENT_MAX);
  if (decision.reason !== undefined) a["shepherd.reason"] = redactText(decision.reason, CONTENT_MAX);
  if (decision.input) a["shepherd.rewritten"] = redactText(json(redactValue(decision.input)), CONTENT_MAX);
}
