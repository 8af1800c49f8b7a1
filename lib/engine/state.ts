/** @module per-session counters, edit tracking, warning caps and ephemeral hints (plain data, serializable). */
import * as v from "valibot";
import { lazySchema } from "../lazy-schema.ts";
import { isDenseArray, isNumber, isNumberRecord, isPlainRecord, isStringArray, onlyKeys } from "./guard-kit.ts";
import { redactSecrets } from "../secrets/redact.ts";
import type { SecretPrint } from "./secret-flow.ts";
import type { RememberRequest } from "./schema.ts";
import { REMEMBER_SCOPES } from "./schema-core.ts";

/**
 * An agent that tells a person's yes only by running the call (Claude Code: its PostToolUse of the same
 * tool_use_id): the ask with `remember` it is waiting on (lib/approvals/observe-hook.ts).
 */
export interface PendingAsk {
  callId: string;
  /** When it asked (ms): an answer much later is no longer taken for this ask. */
  at: number;
  remember: RememberRequest[];
}

export interface CommandRecord {
  command: string;
  /** The tool result was not an error. */
  ok: boolean;
}

export const MAX_COMMANDS_SINCE_EDIT = 64;
const MAX_RECORDED_COMMAND_LENGTH = 2_048;

export interface SessionState {
  calls: number;
  errors: number;
  callsByTool: Record<string, number>;
  errorsByTool: Record<string, number>;
  /** An edit or write succeeded since the last agent_end. */
  hasEdits: boolean;
  /** Successful edit/write tool results this session (plugins: "was anything ever edited?"). */
  edits: number;
  /**
   * Shell commands that completed since the last successful edit, oldest first, capped at
   * MAX_COMMANDS_SINCE_EDIT; lets a check such as `tests_ran` ask "did tests run after the last edit?"
   * with its own idea of what a test command is.
   */
  commandsSinceEdit: CommandRecord[];
  /** Per rule: the counter value at which it last fired (for `state.reset`). */
  baselines: Record<string, number>;
  /** Per rule: how many times it notified (for `maxWarnings`). */
  warnings: Record<string, number>;
  /** Ephemeral hints waiting for the next before_provider_request. */
  hints: string[];
  /** agent_end rules already delivered since the last user input (wrap-up never loops). */
  wrapUpDelivered: string[];
  lastSeen: number;
  /** Data-flow guard (secret-flow.ts): the session's random salt and the fingerprints of secrets its tools printed. */
  secretSalt?: string;
  secretPrints?: SecretPrint[];
  /** Loop rules (loops.ts): the hash of the last tool call, how often it came in a row, failures per call hash. */
  lastCall: string;
  repeats: number;
  failedCalls: Record<string, number>;
  /** When the session's first event came (ms; 0 = not known yet): the wall-time budget counts from here. */
  startedAt: number;
  pendingAsk?: PendingAsk;
}

export function emptyState(now = 0): SessionState {
  return {
    calls: 0,
    errors: 0,
    callsByTool: {},
    errorsByTool: {},
    hasEdits: false,
    edits: 0,
    commandsSinceEdit: [],
    baselines: {},
    warnings: {},
    hints: [],
    wrapUpDelivered: [],
    lastSeen: now,
    lastCall: "",
    repeats: 0,
    failedCalls: {},
    startedAt: now,
  };
}

export const SessionStateSchema = lazySchema(() => {
  const Counts = v.record(v.string(), v.number());
  return v.object({
    calls: v.number(),
    errors: v.number(),
    callsByTool: Counts,
    errorsByTool: Counts,
    hasEdits: v.boolean(),
    // Defaults keep session files written before these fields existed readable.
    edits: v.optional(v.number(), 0),
    commandsSinceEdit: v.optional(v.array(v.object({ command: v.string(), ok: v.boolean() })), []),
    baselines: Counts,
    warnings: Counts,
    hints: v.array(v.string()),
    wrapUpDelivered: v.array(v.string()),
    lastSeen: v.number(),
    secretSalt: v.optional(v.string()),
    secretPrints: v.optional(v.array(v.object({ h: v.string(), len: v.number(), kind: v.string(), source: v.string() }))),
    lastCall: v.optional(v.pipe(v.string(), v.maxLength(64)), ""),
    repeats: v.optional(v.number(), 0),
    failedCalls: v.optional(Counts, {}),
    startedAt: v.optional(v.number(), 0),
    pendingAsk: v.optional(
      v.object({
        callId: v.pipe(v.string(), v.maxLength(512)),
        at: v.number(),
        remember: v.pipe(
          v.array(
            v.object({
              rule: v.pipe(v.string(), v.maxLength(200)),
              source: v.pipe(v.string(), v.maxLength(32)),
              scope: v.picklist(REMEMBER_SCOPES),
              tool: v.pipe(v.string(), v.maxLength(256)),
              inputHash: v.pipe(v.string(), v.maxLength(64)),
              display: v.pipe(v.string(), v.maxLength(256)),
            }),
          ),
          v.maxLength(MAX_PENDING_REMEMBER),
        ),
      }),
    ),
  });
});

/** At most this many `remember` rules are kept for one pending ask. */
export const MAX_PENDING_REMEMBER = 16;
const PENDING_KEYS: ReadonlySet<string> = new Set(["callId", "at", "remember"]);
const REMEMBER_KEYS: ReadonlySet<string> = new Set(["rule", "source", "scope", "tool", "inputHash", "display"]);
const SCOPE_SET: ReadonlySet<string> = new Set(REMEMBER_SCOPES);
const within = (x: unknown, max: number): boolean => typeof x === "string" && x.length <= max;

function isPendingAsk(x: unknown): boolean {
  if (!isPlainRecord(x) || !onlyKeys(x, PENDING_KEYS) || !within(x.callId, 512) || !isNumber(x.at) || !isDenseArray(x.remember)) return false;
  if (x.remember.length > MAX_PENDING_REMEMBER) return false;
  for (const r of x.remember) {
    if (!isPlainRecord(r) || !onlyKeys(r, REMEMBER_KEYS) || typeof r.scope !== "string" || !SCOPE_SET.has(r.scope)) return false;
    if (!within(r.rule, 200) || !within(r.source, 32) || !within(r.tool, 256) || !within(r.inputHash, 64) || !within(r.display, 256)) return false;
  }
  return true;
}

const STATE_KEYS: ReadonlySet<string> = new Set(["calls", "errors", "callsByTool", "errorsByTool", "hasEdits", "edits", "commandsSinceEdit", "baselines", "warnings", "hints", "wrapUpDelivered", "lastSeen", "secretSalt", "secretPrints", "lastCall", "repeats", "failedCalls", "startedAt", "pendingAsk"]);
const PRINT_KEYS: ReadonlySet<string> = new Set(["h", "len", "kind", "source"]);
const RECORD_KEYS: ReadonlySet<string> = new Set(["command", "ok"]);

/**
 * True when `SessionStateSchema` returns `x` unchanged (no defaults to fill, no keys to drop): each hook
 * process reads the session's state file, and valibot's first run in a cold process costs more than the read.
 * A property test holds the two together; a file this refuses is parsed by the schema.
 */
export function isExactSessionState(x: unknown): x is SessionState {
  if (!isPlainRecord(x) || !onlyKeys(x, STATE_KEYS)) return false;
  if (!isNumber(x.calls) || !isNumber(x.errors) || !isNumber(x.edits) || !isNumber(x.lastSeen) || typeof x.hasEdits !== "boolean") return false;
  if (typeof x.lastCall !== "string" || x.lastCall.length > 64 || !isNumber(x.repeats) || !isNumber(x.startedAt) || !isNumberRecord(x.failedCalls)) return false;
  if (!isNumberRecord(x.callsByTool) || !isNumberRecord(x.errorsByTool) || !isNumberRecord(x.baselines) || !isNumberRecord(x.warnings)) return false;
  if (!isStringArray(x.hints) || !isStringArray(x.wrapUpDelivered) || !isDenseArray(x.commandsSinceEdit)) return false;
  for (const c of x.commandsSinceEdit) if (!isPlainRecord(c) || !onlyKeys(c, RECORD_KEYS) || typeof c.command !== "string" || typeof c.ok !== "boolean") return false;
  if (x.secretSalt !== undefined && typeof x.secretSalt !== "string") return false;
  if (x.pendingAsk !== undefined && !isPendingAsk(x.pendingAsk)) return false;
  if (x.secretPrints !== undefined) {
    if (!isDenseArray(x.secretPrints)) return false;
    for (const p of x.secretPrints) {
      if (!isPlainRecord(p) || !onlyKeys(p, PRINT_KEYS) || typeof p.h !== "string" || !isNumber(p.len) || typeof p.kind !== "string" || typeof p.source !== "string") return false;
    }
  }
  return true;
}

/** Sessions in memory, bounded so a client inventing session ids cannot grow memory without limit. */
export class SessionStore {
  readonly #sessions = new Map<string, SessionState>();
  readonly #max: number;
  /** The id `get` put last in the Map's order, or undefined when that is not known: asking for it again moves nothing. */
  #last: string | undefined;

  constructor(max = 10_000) {
    this.#max = max;
  }

  get(id: string): SessionState {
    let s = this.#sessions.get(id);
    // One session's events in a row (the common case): it is already the most recently used.
    if (s && id === this.#last) return s;
    if (!s) {
      s = emptyState(Date.now());
      if (this.#sessions.size >= this.#max) this.#evictOldest();
    } else {
      // Re-inserting keeps the Map in least-recently-used order, so eviction takes the first key in
      // O(1): a scan for the oldest `lastSeen` cost 10,000 steps per new session id (found by the soak).
      this.#sessions.delete(id);
    }
    this.#sessions.set(id, s);
    this.#last = id;
    return s;
  }

  peek(id: string): SessionState | undefined {
    return this.#sessions.get(id);
  }

  set(id: string, state: SessionState): void {
    // A new id goes last in the order, an existing one stays where it is.
    if (!this.#sessions.has(id)) this.#last = undefined;
    this.#sessions.set(id, state);
  }

  delete(id: string): void {
    if (id === this.#last) this.#last = undefined;
    this.#sessions.delete(id);
  }

  ids(): string[] {
    return [...this.#sessions.keys()];
  }

  get size(): number {
    return this.#sessions.size;
  }

  #evictOldest(): void {
    const oldestId = this.#sessions.keys().next();
    if (!oldestId.done) this.#sessions.delete(oldestId.value);
  }

}

const MAX_HINTS = 32;
const MAX_HINT_LENGTH = 8_192;

export function addHint(state: SessionState, text: string): void {
  state.hints.push(text.length > MAX_HINT_LENGTH ? `${text.slice(0, MAX_HINT_LENGTH)}…` : text);
  if (state.hints.length > MAX_HINTS) state.hints.splice(0, state.hints.length - MAX_HINTS);
}

/** Records a completed shell command; a long command is cut so one event cannot grow the session much. */
export function recordCommand(state: SessionState, command: string, ok: boolean): void {
  const cut = command.length > MAX_RECORDED_COMMAND_LENGTH ? command.slice(0, MAX_RECORDED_COMMAND_LENGTH) : command;
  // The state may be a file on disk (hook processes): a token on a command line is not kept there in clear.
  const text = redactSecrets(cut).text;
  state.commandsSinceEdit.push({ command: text, ok });
  if (state.commandsSinceEdit.length > MAX_COMMANDS_SINCE_EDIT) state.commandsSinceEdit.splice(0, state.commandsSinceEdit.length - MAX_COMMANDS_SINCE_EDIT);
}

export function recordEdit(state: SessionState): void {
  state.hasEdits = true;
  state.edits++;
  state.commandsSinceEdit = [];
}
