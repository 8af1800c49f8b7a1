/**
 * @module the part of the schema every hook process needs: names, settings, issues. Kept apart from the
 * rule and event schemas (schema.ts, which re-exports all of this) because building those valibot schemas
 * costs a cold hook process ~1.5 ms, and a hook answering from its snapshot never validates a rule.
 */
import * as v from "valibot";
import { lazySchema } from "../lazy-schema.ts";
import { hasUnsafeKey, isNumber, isPlainRecord, isStringArray, optString } from "./guard-kit.ts";

export const HOOK_NAMES = [
  "tool_call",
  "tool_result",
  "message_end",
  "agent_end",
  "session_start",
  "session_shutdown",
  "before_provider_request",
  "input",
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export const BUILTIN_ACTIONS = ["block", "ask", "notify", "steer", "rewrite", "redact", "guard-secrets"] as const;
export type BuiltinAction = (typeof BUILTIN_ACTIONS)[number];
const BUILTIN_ACTION_SET: ReadonlySet<string> = new Set(BUILTIN_ACTIONS);

/** An action the engine runs itself (anything else is a plugin's). */
export function isBuiltinAction(action: string): action is BuiltinAction {
  return BUILTIN_ACTION_SET.has(action);
}

export const BUILTIN_CHECKS = ["has_edits", "git_uncommitted", "always"] as const;

/** How long a person's "yes" to an `ask` rule with `remember` holds for that exact call (lib/approvals/). */
export const REMEMBER_SCOPES = ["session", "project"] as const;
export type RememberScope = (typeof REMEMBER_SCOPES)[number];

// The vocabulary, defined once: every module asks these, none keeps its own list.
const BUILTIN_CHECK_SET: ReadonlySet<string> = new Set(BUILTIN_CHECKS);

/** True for the checks the engine implements itself; anything else must come from a plugin. */
export function isBuiltinCheck(check: string): boolean {
  return BUILTIN_CHECK_SET.has(check);
}

/** The hooks that carry a tool call: where `tool`, `paths`, block and ask apply. */
export const TOOL_HOOKS: ReadonlySet<string> = new Set(["tool_call", "tool_result"]);

export const LayerNames = ["builtin", "managed", "global", "project"] as const;
export type LayerName = (typeof LayerNames)[number];

/** An issue found while loading or validating: always names the file and the JSON path. */
export interface LoadIssue {
  file: string;
  /** Dotted/bracketed JSON path, e.g. `rules[3].pattern`; "" for the whole file. */
  path: string;
  message: string;
  severity: "error" | "warning";
  line?: number;
  column?: number;
}

/** "halt": as "closed", and the pi extension also stops the run when Shepherd cannot answer. */
export const FAIL_MODES = ["open", "closed", "halt"] as const;
export type FailMode = (typeof FAIL_MODES)[number];

/** The longest delay a timer keeps: a longer one (or Infinity) is cut to 1 ms, so a timeout would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

const timerMs = () => v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms (timers cut a longer delay, or Infinity, to 1 ms)`)));

export const SettingsSchema = lazySchema(() =>
  v.looseObject({
    projectRulesPattern: v.optional(v.string()),
    maxWarnings: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    timeoutMs: timerMs(),
    failMode: v.optional(v.picklist(FAIL_MODES)),
    binary: v.optional(v.string()),
    trustedProjects: v.optional(v.array(v.string())),
    pluginTimeoutMs: timerMs(),
    pluginLoadTimeoutMs: timerMs(),
    gitTimeoutMs: timerMs(),
    hookDeadlineMs: timerMs(),
    audit: v.optional(v.unknown()),
    /** Decision telemetry over OTLP (lib/telemetry/telemetry-config.ts checks its shape). */
    telemetry: v.optional(v.unknown()),
    /** Locked built-in rules the user unlocks by hand; honoured in the global settings only. */
    unlockBuiltins: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
    /** Per-session budgets (budgets.ts): a tool call past one is blocked with the reason. */
    budgets: v.optional(
      v.strictObject({
        toolCalls: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
        failures: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
        wallTimeMs: v.optional(v.pipe(v.number(), v.minValue(1))),
      }),
    ),
  }),
);
export type SettingsInput = v.InferOutput<ReturnType<typeof SettingsSchema>>;

const optTimerMs = (x: unknown): boolean => x === undefined || (isNumber(x) && x >= 1 && x <= MAX_TIMER_MS);

/**
 * True when `SettingsSchema` accepts `x` unchanged: every hook process reads the settings, and valibot's
 * first run in a cold process costs more than the file read. A property test holds the two together.
 */
export function isSettingsInput(x: unknown): x is SettingsInput {
  // An array passes the schema as an object but comes out as a plain one: left to the schema.
  if (!isPlainRecord(x) || hasUnsafeKey(x)) return false;
  if (!optString(x.projectRulesPattern) || !optString(x.binary)) return false;
  if (x.maxWarnings !== undefined && !(isNumber(x.maxWarnings) && Number.isInteger(x.maxWarnings) && x.maxWarnings >= 0)) return false;
  for (const key of ["timeoutMs", "pluginTimeoutMs", "pluginLoadTimeoutMs", "gitTimeoutMs", "hookDeadlineMs"] as const) if (!optTimerMs(x[key])) return false;
  if (x.failMode !== undefined && x.failMode !== "open" && x.failMode !== "closed" && x.failMode !== "halt") return false;
  if (x.unlockBuiltins !== undefined && !(isStringArray(x.unlockBuiltins) && x.unlockBuiltins.every((n) => n !== ""))) return false;
  if (x.budgets !== undefined && !isBudgets(x.budgets)) return false;
  return x.trustedProjects === undefined || isStringArray(x.trustedProjects);
}

const optNumberAtLeast = (x: unknown, min: number): boolean => x === undefined || (isNumber(x) && x >= min);
const optCount = (x: unknown): boolean => x === undefined || (isNumber(x) && Number.isInteger(x) && x >= 1);
const BUDGET_KEYS: ReadonlySet<string> = new Set(["toolCalls", "failures", "wallTimeMs"]);

function isBudgets(x: unknown): boolean {
  if (!isPlainRecord(x) || hasUnsafeKey(x) || !Object.keys(x).every((k) => BUDGET_KEYS.has(k))) return false;
  return optCount(x.toolCalls) && optCount(x.failures) && optNumberAtLeast(x.wallTimeMs, 1);
}

export interface Settings {
  projectRulesPattern: string;
  maxWarnings: number;
  timeoutMs: number;
  failMode: FailMode;
  binary?: string;
  trustedProjects: string[];
  pluginTimeoutMs: number;
  gitTimeoutMs: number;
  /** How long a hook process (and an HTTP hook request) may take before it answers with the fail mode. */
  hookDeadlineMs?: number;
  audit?: unknown;
  telemetry?: unknown;
  /** From the global settings only (settings.ts drops a project's). */
  unlockBuiltins?: string[];
  budgets?: { toolCalls?: number; failures?: number; wallTimeMs?: number };
  [key: string]: unknown;
}

export const DEFAULT_SETTINGS: Settings = {
  projectRulesPattern: "shepherd-rules-*.json",
  maxWarnings: 3,
  timeoutMs: 3000,
  failMode: "closed",
  trustedProjects: [],
  pluginTimeoutMs: 1000,
  gitTimeoutMs: 1500,
};

/** Formats a valibot issue path as `rules[2].conditions[0].pattern`. */
export function issuePath(issue: v.BaseIssue<unknown>, prefix = ""): string {
  let out = prefix;
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}
