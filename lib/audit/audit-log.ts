/**
 * @module the audit log: one JSON line per decision in which a rule fired, appended to a file per
 * UTC day. Off by default; the `audit` setting turns it on (a project can set it only once trusted).
 * Lines carry who/what/which rule, never tool inputs or outputs unless `includeContent` asks for them,
 * and then with secrets redacted.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { kindOf } from "../fs/bounded-read.ts";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { lazySchema } from "../lazy-schema.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Logger } from "../log.ts";
import { agentDir, type Env } from "../rules/paths.ts";
import { redactText, redactValue } from "./redact.ts";

export const AuditSettingSchema = lazySchema(() =>
  v.union([
    v.boolean(),
    v.strictObject({
      enabled: v.optional(v.boolean()),
      /** Folder of the daily files; default `<agent dir>/shepherd/audit`. */
      dir: v.optional(v.pipe(v.string(), v.minLength(1))),
      /** Adds the (redacted) tool input, output, message, reasons and rewritten input to each line. */
      includeContent: v.optional(v.boolean()),
      /** Daily files older than this many days are deleted when a new day starts; 0 keeps all. */
      retainDays: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    }),
  ]),
);

export interface AuditConfig {
  dir: string;
  includeContent: boolean;
  retainDays: number;
}

export const DEFAULT_RETAIN_DAYS = 30;

export function defaultAuditDir(env: Env): string {
  return join(agentDir(env), "shepherd", "audit");
}

/** The `audit` setting as a config, or undefined when auditing is off (the default) or the value is invalid. */
export function auditConfig(raw: unknown, env: Env): AuditConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  const parsed = v.safeParse(AuditSettingSchema(), raw);
  if (!parsed.success) return undefined;
  const s = parsed.output;
  if (s === false) return undefined;
  if (s === true) return { dir: defaultAuditDir(env), includeContent: false, retainDays: DEFAULT_RETAIN_DAYS };
  if (s.enabled === false) return undefined;
  return { dir: s.dir ? resolve(s.dir) : defaultAuditDir(env), includeContent: s.includeContent ?? false, retainDays: s.retainDays ?? DEFAULT_RETAIN_DAYS };
}

export interface AuditRecord {
  time: string;
  session: string;
  agent?: string;
  cwd: string;
  hook: string;
  tool: string | null;
  /** The decision's action (allow, block, rewrite, ask). */
  action: string;
  /** The rule that decided: the blocking or asking rule, else the first that fired. */
  rule: string;
  source: string;
  /** `shadow`: a rule in shadow mode that would have taken `action` (the decision did not). */
  fired: { rule: string; source: string; action: string; shadow?: true; approval?: string }[];
  input?: unknown;
  output?: string;
  message?: string;
  prompt?: string;
  reason?: string;
  notify?: string[];
  steer?: string[];
  rewritten?: unknown;
}

/** The line for one decision, or undefined when no rule fired (those are not audited). */
export function auditRecord(event: HookEvent, decision: Decision, includeContent: boolean, now: Date): AuditRecord | undefined {
  // A rule in shadow mode decides nothing: it is the deciding rule only of a line where nothing else fired.
  const real = decision.fired.find((f) => !f.shadow && (decision.action === "allow" || f.action === decision.action));
  const deciding = real ?? decision.fired.find((f) => !f.shadow) ?? decision.fired[0];
  if (!deciding) return undefined;
  const rec: AuditRecord = {
    time: now.toISOString(),
    session: event.session.id,
    ...(event.session.agent !== undefined ? { agent: event.session.agent } : {}),
    cwd: event.session.cwd,
    hook: event.hook,
    tool: event.tool?.name ?? null,
    action: decision.action,
    rule: deciding.rule,
    source: deciding.source,
    fired: decision.fired.map((f) => ({ rule: f.rule, source: f.source, action: f.action, ...(f.shadow ? { shadow: true as const } : {}), ...(f.approval ? { approval: f.approval } : {}) })),
  };
  if (!includeContent) return rec;
  if (event.tool) rec.input = redactValue(event.tool.input);
  if (event.result) rec.output = redactText(event.result.text);
  if (event.message) rec.message = redactText(event.message.text);
  if (event.prompt !== undefined) rec.prompt = redactText(event.prompt);
  if (decision.reason !== undefined) rec.reason = redactText(decision.reason);
  if (decision.notify.length > 0) rec.notify = decision.notify.map((n) => redactText(n));
  if (decision.steer.length > 0) rec.steer = decision.steer.map((s) => redactText(s));
  if (decision.input) rec.rewritten = redactValue(decision.input);
  return rec;
}

/** `audit-2025-01-31.jsonl`: UTC, so a file never depends on the machine's time zone. */
export function auditFileName(now: Date): string {
  return `audit-${now.toISOString().slice(0, 10)}.jsonl`;
}

const FILE_RE = /^audit-(\d{4}-\d{2}-\d{2})\.jsonl$/;

export interface AuditLogOptions {
  /** The raw `audit` setting in force for a project folder. */
  settingFor: (cwd: string) => unknown;
  env: Env;
  log?: Logger;
  now?: () => Date;
  /**
   * Write each line after the current task (a microtask), several in one write: a face that answers in the
   * same task as the decision (the stdio sidecar) then answers first. `flush` and `close` write what waits.
   */
  deferred?: boolean;
}

/** Deferred decisions kept at most before they are written at once (one task's worth of lines). */
const MAX_DEFERRED = 512;

// O_NONBLOCK: a FIFO planted where the day's file goes would block the open until a reader came (a hook
// hanging past every deadline); non-blocking it fails at once (ENXIO) or opens and is refused by fstat below.
// O_NOFOLLOW: a symlink in its place is not followed to some other file to append to.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NOCTTY ?? 0);

/** Opens a regular file for appending, or throws naming what is there instead. */
function openAppendRegular(path: string): number {
  const fd = openSync(path, APPEND_FLAGS, 0o600);
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw new Error(`${path} is ${kindOf(st)}, not a regular file: nothing is appended to it`);
  }
  return fd;
}

/**
 * Appends audit lines. Each line is one `write` on an O_APPEND descriptor, so concurrent Shepherd
 * processes (one-shot hooks) interleave whole lines. Failures are logged, never thrown: auditing must
 * not change a decision.
 */
export class AuditLog {
  #opts: AuditLogOptions;
  #fd: number | undefined;
  #path: string | undefined;
  #lastError = "";
  #deferred: { event: HookEvent; decision: Decision; now: Date }[] = [];
  #flushing = false;

  constructor(opts: AuditLogOptions) {
    this.#opts = opts;
  }

  record(event: HookEvent, decision: Decision): void {
    if (decision.fired.length === 0) return;
    // The time is the decision's, whenever the line is written.
    const now = this.#opts.now?.() ?? new Date();
    if (!this.#opts.deferred) {
      const line = this.#lineFor(event, decision, now);
      const fd = line ? this.#opened(line.config, now) : undefined;
      if (line && fd !== undefined) this.#write(fd, line.text);
      return;
    }
    this.#deferred.push({ event, decision, now });
    if (this.#deferred.length >= MAX_DEFERRED) this.flush();
    else if (!this.#flushing) {
      this.#flushing = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Writes the deferred lines now, in order, one write per run of lines bound for the same file. */
  flush(): void {
    this.#flushing = false;
    if (this.#deferred.length === 0) return;
    const batch = this.#deferred;
    this.#deferred = [];
    let text = "";
    for (const d of batch) {
      const line = this.#lineFor(d.event, d.decision, d.now);
      if (!line) continue;
      // Another file (a new day, another folder): what is bound for the open one goes before it is closed.
      if (text !== "" && this.#fd !== undefined && join(line.config.dir, auditFileName(d.now)) !== this.#path) {
        this.#write(this.#fd, text);
        text = "";
      }
      if (this.#opened(line.config, d.now) === undefined) continue;
      text += line.text;
    }
    if (text !== "" && this.#fd !== undefined) this.#write(this.#fd, text);
  }

  /** The line for a decision and the config it is written under, or undefined when it is not audited. */
  #lineFor(event: HookEvent, decision: Decision, now: Date): { config: AuditConfig; text: string } | undefined {
    let config: AuditConfig | undefined;
    try {
      config = auditConfig(this.#opts.settingFor(event.session.cwd), this.#opts.env);
    } catch {
      return undefined;
    }
    if (!config) return undefined;
    try {
      const rec = auditRecord(event, decision, config.includeContent, now);
      return rec ? { config, text: `${JSON.stringify(rec)}\n` } : undefined;
    } catch (err) {
      this.#fail(err);
      return undefined;
    }
  }

  /** The descriptor of the day's file, opened if need be; undefined (reported) when it cannot be. */
  #opened(config: AuditConfig, now: Date): number | undefined {
    try {
      return this.#open(config, now);
    } catch (err) {
      this.#fail(err);
      return undefined;
    }
  }

  #write(fd: number, text: string): void {
    try {
      writeSync(fd, text);
    } catch (err) {
      this.#fail(err);
    }
  }

  #open(config: AuditConfig, now: Date): number {
    const path = join(config.dir, auditFileName(now));
    if (this.#fd !== undefined && this.#path === path) return this.#fd;
    this.#closeFd();
    mkdirSync(config.dir, { recursive: true, mode: 0o700 });
    this.#fd = openAppendRegular(path);
    this.#path = path;
    this.#prune(config, now);
    return this.#fd;
  }

  /** Rotation: a new day's file was opened, so drop the ones past the retention. */
  #prune(config: AuditConfig, now: Date): void {
    if (config.retainDays <= 0) return;
    const cutoff = new Date(now.getTime() - config.retainDays * 86_400_000).toISOString().slice(0, 10);
    try {
      for (const name of readdirSync(config.dir)) {
        const day = FILE_RE.exec(name)?.[1];
        if (day !== undefined && day < cutoff) rmSync(join(config.dir, name), { force: true });
      }
    } catch (err) {
      this.#fail(err);
    }
  }

  #fail(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    // Once per distinct problem: a full disk must not turn every decision into a log line.
    if (message === this.#lastError) return;
    this.#lastError = message;
    this.#opts.log?.error(`audit log: ${message}`);
  }

  /** Writes what is deferred, then releases the file. */
  close(): void {
    this.flush();
    this.#closeFd();
  }

  #closeFd(): void {
    if (this.#fd !== undefined) {
      try {
        closeSync(this.#fd);
      } catch {
        // Already closed: nothing to release.
      }
    }
    this.#fd = undefined;
    this.#path = undefined;
  }
}
