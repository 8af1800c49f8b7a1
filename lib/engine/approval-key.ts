/**
 * @module what "the same call" means for a remembered approval: the normalized tool name and its normalized
 * input, hashed with SHA-256 (lib/hash.ts). Exact on purpose: a person approved one call, not one like it.
 */
import { secureHash } from "../hash.ts";
import { redactSecrets } from "../secrets/redact.ts";
import { commandOf, normalizeToolName, pathOf } from "./tools.ts";

/** The longest text an approval keeps to show a person what it allows (`approvals list`, the dashboard). */
export const MAX_APPROVAL_DISPLAY = 200;

/** Input fields that describe a call without changing what it does (Claude Code's Bash `description`). */
const COSMETIC_KEYS: ReadonlySet<string> = new Set(["description"]);

const SHELL_TOOLS: ReadonlySet<string> = new Set(["bash", "powershell"]);

export interface ApprovalKey {
  /** The normalized tool name (`Bash` and `bash` are one tool). */
  tool: string;
  /** SHA-256 of the tool name and the normalized input. */
  inputHash: string;
  /** A short, redacted text of the call. */
  display: string;
}

/** JSON with every object's keys sorted, so the same input written in another key order is the same call. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((x) => canonicalJson(x)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
}

/**
 * The normalized input: a shell tool's command exactly as given (byte for byte: spacing inside quotes is
 * meaning, so nothing is collapsed), the agent's other fields (timeout, description) left out; any other
 * tool's whole input as canonical JSON without cosmetic fields (a write's path and content both count).
 */
export function normalizedInput(tool: string, input: Record<string, unknown>): string {
  const command = SHELL_TOOLS.has(tool) ? commandOf(input) : undefined;
  if (command !== undefined) return `command\0${command}`;
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!COSMETIC_KEYS.has(k)) kept[k] = v;
  return `input\0${canonicalJson(kept)}`;
}

function displayOf(tool: string, input: Record<string, unknown>): string {
  const shown = (SHELL_TOOLS.has(tool) ? commandOf(input) : undefined) ?? pathOf(input) ?? canonicalJson(input);
  // Redacted before it is cut, so a secret across the cut is still found; the head bounds the work.
  const text = redactSecrets(shown.slice(0, 16 * MAX_APPROVAL_DISPLAY)).text;
  return text.length > MAX_APPROVAL_DISPLAY ? `${text.slice(0, MAX_APPROVAL_DISPLAY - 1)}…` : text;
}

/** The key of a tool call (`name` as the agent sent it). */
export function approvalKey(name: string, input: Record<string, unknown>): ApprovalKey {
  const tool = normalizeToolName(name);
  return { tool, inputHash: secureHash(`${tool}\0${normalizedInput(tool, input)}`), display: displayOf(tool, input) };
}
