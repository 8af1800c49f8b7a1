/**
 * @module The sidecar's wire shapes (DESIGN section 2) and hand-written checks for its answers.
 *
 * pi loads this extension as plain TypeScript from wherever it is installed, with no
 * node_modules beside it, so the trust boundary is checked by hand rather than with valibot.
 */

export type HookName =
  | "tool_call"
  | "tool_result"
  | "message_end"
  | "agent_end"
  | "session_start"
  | "session_shutdown"
  | "before_provider_request"
  | "input";

export interface SessionRef {
  id: string;
  cwd: string;
  agent?: string;
  subagent?: boolean;
}

export interface HookEvent {
  hook: HookName;
  session: SessionRef;
  /** `parentCallId`: pi 1.x's `parentToolCallId`, set on a call another tool made (codemode, MCP). */
  tool?: { name: string; callId?: string; parentCallId?: string; annotations?: ToolAnnotations; input: Record<string, unknown> };
  /** `structured`: the tool's structuredContent (pi 1.x), so a redaction can replace it in step with the text. */
  result?: { text: string; isError: boolean; structured?: unknown };
  message?: { text: string };
  stopReason?: string;
  prompt?: string;
  availableTools?: string[];
}

/** What a tool's author says it does (MCP tool annotations, as pi 1.x reports them); unverified. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

const ANNOTATION_KEYS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** The boolean hints of a tool's `annotations`, or undefined when there are none. */
export function parseAnnotations(value: unknown): ToolAnnotations | undefined {
  if (!isRecord(value)) return undefined;
  const out: ToolAnnotations = {};
  for (const key of ANNOTATION_KEYS) {
    const hint = value[key];
    if (typeof hint === "boolean") out[key] = hint;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export type DecisionAction = "allow" | "block" | "rewrite" | "ask";

export interface Fired {
  rule: string;
  source: string;
  action: string;
}

export interface Decision {
  action: DecisionAction;
  reason?: string;
  input?: Record<string, unknown>;
  /** tool_result: the output the model gets instead of the tool's (secrets redacted). */
  result?: { text: string; structured?: unknown };
  notify: string[];
  steer: string[];
  fired: Fired[];
  /** A block that should also stop the agent after this batch of calls. */
  terminate?: boolean;
  /** An ask a rule wants remembered: sent back with `shepherd/approve` when the person says yes. */
  approvalToken?: string;
}

export interface ToolCallResult {
  text: string;
  isError: boolean;
  /** A change the sidecar makes only with a person's consent: what to ask them and the digest to send back. */
  consent?: { summary: string; digest: string };
}

/** The `_meta` key of a consent request (in a tool result) and of the consent itself (in a request). */
export const CONSENT_META_KEY = "shepherd/consent";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

const DECISION_ACTIONS: readonly string[] = ["allow", "block", "rewrite", "ask"];

/** Returns the decision, or a message naming the first field that is wrong. */
export function parseDecision(value: unknown): Decision | string {
  if (!isRecord(value)) return "decision is not an object";
  const { action, reason, input, notify, steer, fired, terminate, result, approvalToken } = value;
  if (typeof action !== "string" || !DECISION_ACTIONS.includes(action)) return "decision.action is not allow|block|rewrite|ask";
  if (reason !== undefined && typeof reason !== "string") return "decision.reason is not a string";
  if (input !== undefined && !isRecord(input)) return "decision.input is not an object";
  if (action === "rewrite" && input === undefined) return "decision.input is missing on a rewrite";
  if (result !== undefined && !(isRecord(result) && typeof result.text === "string")) return "decision.result is not {text}";
  // Lists may be omitted by a lenient server; a present list must hold strings.
  if (notify !== undefined && !isStringArray(notify)) return "decision.notify is not a list of strings";
  if (steer !== undefined && !isStringArray(steer)) return "decision.steer is not a list of strings";
  if (terminate !== undefined && typeof terminate !== "boolean") return "decision.terminate is not a boolean";
  if (approvalToken !== undefined && !(typeof approvalToken === "string" && approvalToken.length > 0 && approvalToken.length <= 128)) return "decision.approvalToken is not a token";
  const firedList: Fired[] = [];
  if (fired !== undefined) {
    if (!Array.isArray(fired)) return "decision.fired is not a list";
    for (const item of fired) {
      if (!isRecord(item) || typeof item.rule !== "string") return "decision.fired has an entry without a rule name";
      firedList.push({
        rule: item.rule,
        source: typeof item.source === "string" ? item.source : "",
        action: typeof item.action === "string" ? item.action : "",
      });
    }
  }
  const decision: Decision = {
    action: action as DecisionAction,
    notify: notify ?? [],
    steer: steer ?? [],
    fired: firedList,
  };
  if (reason !== undefined) decision.reason = reason;
  if (input !== undefined) decision.input = input;
  if (terminate === true && action === "block") decision.terminate = true;
  if (typeof approvalToken === "string" && action === "ask") decision.approvalToken = approvalToken;
  if (isRecord(result) && typeof result.text === "string") decision.result = { text: result.text, ...(result.structured !== undefined ? { structured: result.structured } : {}) };
  return decision;
}

/** An MCP `tools/call` answer: `{content: [{type: "text", text}], isError}`. */
export function parseToolCallResult(value: unknown): ToolCallResult | string {
  if (!isRecord(value)) return "tool result is not an object";
  const { content, isError } = value;
  if (!Array.isArray(content)) return "tool result content is not a list";
  const texts: string[] = [];
  for (const part of content) {
    if (isRecord(part) && part.type === "text" && typeof part.text === "string") texts.push(part.text);
  }
  const result: ToolCallResult = { text: texts.join("\n"), isError: isError === true };
  const meta = value._meta;
  const ask = isRecord(meta) ? meta[CONSENT_META_KEY] : undefined;
  // Only a refusal can ask for consent; a request that is not whole is no question to put to a person.
  if (result.isError && isRecord(ask) && ask.required === true && typeof ask.summary === "string" && typeof ask.digest === "string" && ask.summary !== "" && ask.digest !== "") {
    result.consent = { summary: ask.summary, digest: ask.digest };
  }
  return result;
}

/** Renders `shepherd/status` for a person; unknown fields are shown rather than dropped. */
export function formatStatus(value: unknown, extra: Record<string, string>): string {
  const lines: string[] = [];
  for (const [key, text] of Object.entries(extra)) lines.push(`${key}: ${text}`);
  if (value === undefined) return lines.join("\n");
  if (!isRecord(value)) {
    lines.push(`status: ${inline(value)}`);
    return lines.join("\n");
  }
  for (const [key, field] of Object.entries(value)) {
    if (Array.isArray(field)) {
      if (field.length === 0) {
        lines.push(`${key}: none`);
        continue;
      }
      lines.push(`${key}:`);
      for (const item of field) lines.push(`  - ${inline(item)}`);
    } else if (isRecord(field)) {
      lines.push(`${key}:`);
      for (const [sub, subField] of Object.entries(field)) lines.push(`  ${sub}: ${inline(subField)}`);
    } else if (field !== undefined && field !== null) {
      lines.push(`${key}: ${inline(field)}`);
    }
  }
  return lines.join("\n");
}

/** One line per value: `key=value` pairs for objects, commas for lists. */
function inline(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map(inline).join(", ");
  if (isRecord(value)) {
    const pairs = Object.entries(value).filter(([, v]) => v !== undefined);
    return pairs.length === 0 ? "none" : pairs.map(([k, v]) => `${k}=${isRecord(v) || Array.isArray(v) ? JSON.stringify(v) : inline(v)}`).join(" ");
  }
  return JSON.stringify(value) ?? "";
}
