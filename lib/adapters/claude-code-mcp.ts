/**
 * @module Claude Code's `mcp_tool` hooks: the arguments Claude Code fills in from its hook JSON <-> that hook
 * JSON, and a command hook's answer <-> the tool's text. Translation only: the claude-code adapter decides.
 *
 * Claude Code 2.1.332 fills every `${path}` string of the hook's `input` from the hook JSON: a string or number
 * as its text, an object as its JSON, and a field the event lacks as "". There is no path for the whole JSON,
 * so the input names each field Shepherd reads, and this module turns the strings back into the hook JSON.
 */

/** The tool Claude Code's `mcp_tool` hooks call on `shepherd serve`. */
export const HOOK_TOOL_NAME = "shepherd_hook";

/** Fields of Claude Code's hook JSON that the adapter reads (and newer events carry): each one `${field}`. */
export const HOOK_INPUT_FIELDS = [
  "hook_event_name",
  "session_id",
  "transcript_path",
  "cwd",
  "permission_mode",
  "tool_name",
  "tool_input",
  "tool_response",
  "tool_use_id",
  "error",
  "prompt",
  "stop_hook_active",
  "last_assistant_message",
  "agent_id",
  "agent_type",
  "source",
  "reason",
  "trigger",
  "message",
  "notification_type",
] as const;

/** Fields whose value is an object: Claude Code sends them as JSON text. */
const OBJECT_FIELDS: ReadonlySet<string> = new Set(["tool_input", "tool_response"]);
const BOOLEAN_FIELDS: ReadonlySet<string> = new Set(["stop_hook_active"]);

/** The `input` of an `mcp_tool` hook entry: every field Shepherd reads, as a `${field}` string. */
export function hookToolInputTemplate(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of HOOK_INPUT_FIELDS) out[f] = `\${${f}}`;
  return out;
}

export const HOOK_TOOL_DEFINITION = {
  name: HOOK_TOOL_NAME,
  description:
    "Called by Claude Code's mcp_tool hooks (set up by `shepherd init claude-code --mcp`), never by the model: takes the hook's fields and answers as a command hook would.",
  inputSchema: {
    type: "object",
    properties: Object.fromEntries(HOOK_INPUT_FIELDS.map((f) => [f, { type: "string" }])),
    required: ["hook_event_name", "session_id"],
  },
} as const;

/**
 * The hook JSON back from the filled-in arguments. An empty string is a field the event did not have; an
 * object field that is not JSON stays a string, which the adapter's schema then refuses (never guessed).
 * Values that are not strings (a client sending real JSON) pass through as they are.
 */
export function hookJsonFromToolArgs(args: unknown): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    if (typeof value !== "string") {
      out[key] = value;
      continue;
    }
    if (value === "") continue;
    if (OBJECT_FIELDS.has(key)) out[key] = parseObjectText(value);
    else if (BOOLEAN_FIELDS.has(key)) out[key] = value === "true" ? true : value === "false" ? false : value;
    else out[key] = value;
  }
  return out;
}

function parseObjectText(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A command hook's answer as the tool's text. With `onFailure: "block"` Claude Code takes only a hook's JSON,
 * `{}` or nothing; "no opinion" is written `{}` so the answer is never mistaken for a failure.
 */
export function toolTextOfAnswer(stdout: string, agentEvent?: string): string {
  const text = stdout.trim();
  // On PreCompact plain text is the hook's answer (compaction instructions): there, no opinion is no text.
  if (agentEvent === "PreCompact") return text;
  return text === "" ? "{}" : text;
}
