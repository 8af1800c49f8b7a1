/** @module valibot schemas and inferred types for rules, hook events and decisions (the trust boundary). */
import * as v from "valibot";
import type { Prepared } from "./prepared.ts";
import { CommandConditionSchema } from "../shell/command-condition-schema.ts";
import { PATH_CLASSES, type PathClass } from "../shell/paths.ts";
import { HOOK_NAMES, type HookName, type LayerName, REMEMBER_SCOPES, type RememberScope } from "./schema-core.ts";

export {
  BUILTIN_ACTIONS,
  BUILTIN_CHECKS,
  DEFAULT_SETTINGS,
  HOOK_NAMES,
  isBuiltinAction,
  issuePath,
  LayerNames,
  REMEMBER_SCOPES,
  SettingsSchema,
} from "./schema-core.ts";
export type { BuiltinAction, HookName, LayerName, LoadIssue, RememberScope, Settings, SettingsInput } from "./schema-core.ts";

export const EXPECTATIONS = ["block", "allow", "rewrite", "notify", "steer", "ask", "redact"] as const;

const RegexFlags = v.pipe(v.string(), v.regex(/^[dgimsuvy]*$/, "flags may only contain the letters d g i m s u v y"));

export const ConditionSchema = v.strictObject({
  field: v.pipe(v.string(), v.minLength(1)),
  pattern: v.string(),
  flags: v.optional(RegexFlags),
  /** true inverts the condition: it holds when the pattern does NOT match. */
  negate: v.optional(v.boolean()),
});
export type Condition = v.InferOutput<typeof ConditionSchema>;

export const StateSchema = v.strictObject({
  /** `repeats`: the same call in a row; `failing_repeats`: how often this same call failed (loops.ts). */
  countKind: v.picklist(["errors", "calls", "repeats", "failing_repeats"]),
  gte: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Count only events of the event's own tool (true) or of one named tool. */
  perTool: v.optional(v.union([v.boolean(), v.string()])),
  /** After firing, the rule counts again from zero (default true, so a reminder is not repeated on every later event). */
  reset: v.optional(v.boolean()),
});
export type RuleState = v.InferOutput<typeof StateSchema>;

export const RewriteSchema = v.union([
  v.strictObject({ prefix: v.pipe(v.string(), v.minLength(1)) }),
  v.strictObject({ replace: v.string() }),
]);

export const RuleTestSchema = v.strictObject({
  command: v.optional(v.string()),
  path: v.optional(v.string()),
  text: v.optional(v.string()),
  output: v.optional(v.string()),
  tool: v.optional(v.string()),
  hook: v.optional(v.picklist(HOOK_NAMES)),
  isError: v.optional(v.boolean()),
  cwd: v.optional(v.string()),
  expect: v.picklist(EXPECTATIONS),
});
export type RuleTest = v.InferOutput<typeof RuleTestSchema>;

const StringOrList = v.union([v.pipe(v.string(), v.minLength(1)), v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1))]);

/** A rule as written in a file. Unknown keys are errors so typos never silently disable a rule. */
export const RuleSchema = v.strictObject({
  $comment: v.optional(v.string()),
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  comment: v.optional(v.string()),
  hook: v.optional(v.picklist(HOOK_NAMES)),
  tool: v.optional(StringOrList),
  /** Absent = a patch: a rule with only a `name` and some fields changes the earlier rule of that name. */
  action: v.optional(v.pipe(v.string(), v.minLength(1), v.regex(/^[A-Za-z_][\w-]*$/, "action must be block, ask, notify, steer, rewrite, or a plugin action name"))),
  pattern: v.optional(v.string()),
  flags: v.optional(RegexFlags),
  command: v.optional(CommandConditionSchema),
  /** Where the tool's path (write/edit/read `path`, `file_path`, a patch's files) must point, resolved like a shell operand. */
  paths: v.optional(v.picklist(PATH_CLASSES)),
  conditions: v.optional(v.array(ConditionSchema)),
  reason: v.optional(v.string()),
  state: v.optional(StateSchema),
  check: v.optional(v.pipe(v.string(), v.minLength(1))),
  stopReason: v.optional(StringOrList),
  subagent: v.optional(v.boolean()),
  requireSuccess: v.optional(v.boolean()),
  /** A block on tool_call: ask the agent to stop after this batch of calls instead of trying again (pi 1.x). */
  terminate: v.optional(v.boolean()),
  /** An `ask` on tool_call: a person's "yes" is remembered for that exact call, in this session or this project. */
  remember: v.optional(v.picklist(REMEMBER_SCOPES)),
  requiresTools: v.optional(StringOrList),
  rewrite: v.optional(RewriteSchema),
  enabled: v.optional(v.boolean()),
  /** `shadow`: evaluated and recorded as `fired` with `shadow: true`, but it changes no decision. */
  mode: v.optional(v.picklist(["enforce", "shadow"])),
  locked: v.optional(v.boolean()),
  tests: v.optional(v.array(RuleTestSchema)),
  options: v.optional(v.record(v.string(), v.unknown())),
});
export type RuleInput = v.InferOutput<typeof RuleSchema>;

export const RuleFileSchema = v.union([
  v.array(v.unknown()),
  v.looseObject({ $schema: v.optional(v.string()), mode: v.optional(v.picklist(["enforce", "shadow"])), rules: v.array(v.unknown()) }),
]);

/** A rule after loading: defaults filled in, tagged with where it came from. */
export interface Rule {
  name: string;
  comment?: string;
  hook: HookName;
  /** Normalized (lower-case, agent-neutral) tool names; empty = any tool. */
  tools: string[];
  action: string;
  pattern?: string;
  flags?: string;
  command?: v.InferOutput<typeof CommandConditionSchema>;
  paths?: PathClass;
  conditions: Condition[];
  reason?: string;
  state?: RuleState;
  check?: string;
  stopReason?: string[];
  subagent: boolean;
  requireSuccess: boolean;
  terminate?: boolean;
  remember?: RememberScope;
  requiresTools?: string[];
  rewrite?: { prefix: string } | { replace: string };
  enabled: boolean;
  /** `"mode": "shadow"` (the rule's or its file's): what it would do is recorded, nothing is done. */
  shadow?: boolean;
  locked: boolean;
  tests: RuleTest[];
  options?: Record<string, unknown>;
  source: LayerName;
  file: string;
  /** Position of the rule within its file (0-based), for deterministic order and messages. */
  index: number;
  /** JSON path of the rule in its file, e.g. "rules[2]" or "[2]". */
  jsonPath: string;
  /** Set on a patch (a rule written without `action`): only the fields it gives, applied to the earlier rule. */
  patch?: Partial<Rule>;
  /** On a merged patch: the rule it changed. */
  patched?: Rule;
  /** What selection and the regex compiler need of its text, made on load (prepared.ts); travels with the rule. */
  prepared?: Prepared;
}

export const SessionSchema = v.looseObject({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
  cwd: v.string(),
  agent: v.optional(v.string()),
  subagent: v.optional(v.boolean()),
});

export const HookEventSchema = v.looseObject({
  hook: v.picklist(HOOK_NAMES),
  session: SessionSchema,
  tool: v.optional(
    v.looseObject({
      name: v.pipe(v.string(), v.minLength(1)),
      callId: v.optional(v.string()),
      /** The call of the tool that made this one (pi 1.x: a codemode script, an MCP tool). */
      parentCallId: v.optional(v.string()),
      /** What the tool's author says it does (MCP tool annotations; pi 1.x reports them). Unverified. */
      annotations: v.optional(
        v.looseObject({
          readOnlyHint: v.optional(v.boolean()),
          destructiveHint: v.optional(v.boolean()),
          idempotentHint: v.optional(v.boolean()),
          openWorldHint: v.optional(v.boolean()),
        }),
      ),
      // valibot's record accepts arrays; a tool input is always a JSON object.
      input: v.pipe(
        v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x), "Invalid type: Expected a JSON object"),
        v.record(v.string(), v.unknown()),
      ),
    }),
  ),
  result: v.optional(v.looseObject({ text: v.string(), isError: v.boolean() })),
  message: v.optional(v.looseObject({ text: v.string() })),
  stopReason: v.optional(v.string()),
  prompt: v.optional(v.string()),
  availableTools: v.optional(v.array(v.string())),
});
export type HookEvent = v.InferOutput<typeof HookEventSchema>;

export const DecisionActions = ["allow", "block", "rewrite", "ask"] as const;
export type DecisionAction = (typeof DecisionActions)[number];

export interface Fired {
  rule: string;
  source: string;
  /** What the rule did, or with `shadow` what it would have done. */
  action: string;
  /** A rule in shadow mode: it matched, and `action` is what it would have done; the decision ignores it. */
  shadow?: true;
  /** An `ask` rule that did not ask: a person approved this exact call before (the approval's id; `action` is "allow"). */
  approval?: string;
}

/**
 * What an `ask` with `remember` asks to keep once a person says yes: the rule, the scope, and the call it was
 * about (tool and the hash of its normalized input, approval-key.ts; `display` is a short, redacted text).
 */
export interface RememberRequest {
  rule: string;
  source: string;
  scope: RememberScope;
  tool: string;
  inputHash: string;
  display: string;
}

export interface Decision {
  action: DecisionAction;
  reason?: string;
  input?: Record<string, unknown>;
  /**
   * tool_result: the output the model gets instead of the tool's (a `redact` rule fired); message_end: the
   * message text with its secrets masked, for an agent that can replace a finished message (pi). `structured`
   * is the event's `result.structured` (an agent's structured tool output) with the same redaction.
   */
  result?: { text: string; structured?: unknown };
  /** With `result`: how many secrets of each kind were replaced (never the values). */
  redacted?: Record<string, number>;
  notify: string[];
  steer: string[];
  fired: Fired[];
  /** On a block from a rule with `terminate`: the agent should stop after this batch. */
  terminate?: boolean;
  /** On an ask: the `remember` rules that asked, for the face to keep once the person approves. */
  remember?: RememberRequest[];
  /** Set by the stdio face on an ask with `remember`: the client sends it back with `shepherd/approve` on a "yes". */
  approvalToken?: string;
}

