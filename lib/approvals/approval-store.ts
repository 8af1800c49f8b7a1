/**
 * @module remembered approvals on disk: `~/.pi/agent/shepherd/approvals.json`, Shepherd's own file (the
 * self-protection pack guards the folder), keyed by the real path of the project so an approval never
 * crosses projects. Written under the lock, atomically; bounded in size and count (the oldest go first).
 * A file that is corrupt, too large or of the wrong shape allows nothing: its approvals are dropped (every
 * call asks again), it is moved aside to `approvals.corrupt.json`, and that is reported once.
 */
import { renameSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { type FileIdentity, identityKey, readBounded, statIdentity } from "../fs/bounded-read.ts";
import { acquireLock } from "../fs/lock.ts";
import type { ApprovalLookup, ApprovalQuery } from "../engine/evaluate.ts";
import { hasUnsafeKey, isNumber, isPlainRecord, onlyKeys, stringWithin } from "../engine/guard-kit.ts";
import { MAX_APPROVAL_DISPLAY } from "../engine/approval-key.ts";
import type { RememberRequest } from "../engine/schema.ts";
import { REMEMBER_SCOPES, type RememberScope } from "../engine/schema-core.ts";
import { jsonDepthProblem } from "../json-depth.ts";
import { agentDir, type Env } from "../rules/paths.ts";

/** At most this many approvals are kept, across projects; a new one past it evicts the oldest. */
export const MAX_APPROVALS = 500;
/** A file larger than this is not read (MAX_APPROVALS entries of the longest fields fit well within it). */
export const MAX_APPROVALS_BYTES = 1024 * 1024;
/** A session's approvals are dropped when it ends; these, of sessions that never said so, after a week. */
export const SESSION_APPROVAL_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const FILE_VERSION = 1;

export interface Approval {
  id: string;
  scope: RememberScope;
  /** The real path of the project root. */
  project: string;
  /** scope "session": the session (and agent) it holds in. */
  session?: string;
  agent?: string;
  rule: string;
  tool: string;
  inputHash: string;
  display: string;
  createdAt: number;
}

export function approvalsFile(env: Env): string {
  return join(agentDir(env), "shepherd", "approvals.json");
}

/** Where a file that could not be read is moved, once: evidence for the person, never read back. */
export function corruptApprovalsFile(file: string): string {
  return file.replace(/\.json$/, "") + ".corrupt.json";
}

const ENTRY_KEYS: ReadonlySet<string> = new Set(["id", "scope", "project", "session", "agent", "rule", "tool", "inputHash", "display", "createdAt"]);
const SCOPES: ReadonlySet<string> = new Set(REMEMBER_SCOPES);
const ID = /^[0-9a-f]{12}$/;
const HASH = /^[0-9a-f]{64}$/;

/** One entry exactly as this module writes it; anything else makes the whole file unreadable. */
export function isApproval(x: unknown): x is Approval {
  if (!isPlainRecord(x) || hasUnsafeKey(x) || !onlyKeys(x, ENTRY_KEYS)) return false;
  if (typeof x.id !== "string" || !ID.test(x.id) || typeof x.scope !== "string" || !SCOPES.has(x.scope)) return false;
  if (!stringWithin(x.project, 1, 4096) || (!x.project.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(x.project))) return false;
  if (!stringWithin(x.rule, 1, 200) || !stringWithin(x.tool, 1, 256) || typeof x.inputHash !== "string" || !HASH.test(x.inputHash)) return false;
  if (!stringWithin(x.display, 0, MAX_APPROVAL_DISPLAY) || !isNumber(x.createdAt) || !Number.isFinite(x.createdAt) || x.createdAt < 0) return false;
  if (x.scope === "session") {
    if (!stringWithin(x.session, 1, 512) || (x.agent !== undefined && !stringWithin(x.agent, 1, 64))) return false;
  } else if (x.session !== undefined || x.agent !== undefined) return false;
  return true;
}

export type ApprovalsRead = { ok: true; approvals: Approval[]; missing: boolean } | { ok: false; problem: string };

/** The approvals of `file`; a file that is missing holds none, one that cannot be trusted is a problem. */
export function readApprovals(file: string): ApprovalsRead {
  const read = readBounded(file, MAX_APPROVALS_BYTES);
  if (!read.ok) return read.reason === "missing" ? { ok: true, approvals: [], missing: true } : { ok: false, problem: read.message };
  const deep = jsonDepthProblem(read.text, 8);
  if (deep) return { ok: false, problem: `nested too deeply (${deep.message})` };
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch (err) {
    return { ok: false, problem: `not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (!isPlainRecord(data) || data.version !== FILE_VERSION || !Array.isArray(data.approvals) || !onlyKeys(data, new Set(["version", "approvals"]))) {
    return { ok: false, problem: `not an approvals file of version ${FILE_VERSION}` };
  }
  if (data.approvals.length > MAX_APPROVALS) return { ok: false, problem: `holds ${data.approvals.length} approvals, more than the ${MAX_APPROVALS} Shepherd keeps` };
  for (let i = 0; i < data.approvals.length; i++) {
    if (!isApproval(data.approvals[i])) return { ok: false, problem: `approvals[${i}] is not an approval Shepherd wrote` };
  }
  return { ok: true, approvals: data.approvals as Approval[], missing: false };
}

function newId(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether an approval answers a query of this project. */
export function approvalMatches(a: Approval, project: string, q: ApprovalQuery): boolean {
  if (a.project !== project || a.rule !== q.rule || a.scope !== q.scope || a.tool !== q.tool || a.inputHash !== q.inputHash) return false;
  return a.scope === "project" || (a.session === q.session.id && (a.agent ?? "") === (q.session.agent ?? ""));
}

export interface ApprovalStoreOptions {
  file: string;
  /** Told once per problem and process: a file that could not be read (its approvals are dropped). */
  report: (message: string) => void;
  now?: () => number;
  /** How long a write waits for the lock (a hook must never hang on Shepherd's bookkeeping). */
  lockWaitMs?: number;
}

export type ApprovalWrite = { ok: true; value: Approval[] } | { ok: false; reason: string };

/** What the session or project asked to keep, for a person's yes. */
export interface ApprovalGrant {
  project: string;
  session: { id: string; agent?: string };
  remember: readonly RememberRequest[];
}

export class ApprovalStore {
  readonly file: string;
  #report: (message: string) => void;
  #now: () => number;
  #lockWaitMs: number;
  #cache: { key: string; approvals: Approval[] } | undefined;
  #reported = new Set<string>();

  constructor(opts: ApprovalStoreOptions) {
    this.file = opts.file;
    this.#report = opts.report;
    this.#now = opts.now ?? Date.now;
    this.#lockWaitMs = opts.lockWaitMs ?? 2_000;
  }

  /** Every approval on disk (none when the file cannot be trusted). Cached by the file's identity. */
  all(): Approval[] {
    const id = statIdentity(this.file);
    if (!id) return [];
    const key = identityKey(id);
    if (this.#cache?.key === key) return this.#cache.approvals;
    const read = readApprovals(this.file);
    if (!read.ok) {
      this.#dropUnreadable(read.problem, id);
      return [];
    }
    this.#cache = { key, approvals: read.approvals };
    return read.approvals;
  }

  /** The engine's lookup for one project (its real path). */
  lookupFor(project: string): ApprovalLookup {
    return (q) => {
      for (const a of this.all()) if (approvalMatches(a, project, q)) return a.id;
      return undefined;
    };
  }

  /** Keeps what a person approved: one approval per remember request, replacing the same one kept before. */
  grant(g: ApprovalGrant): Promise<ApprovalWrite> {
    const now = this.#now();
    const added: Approval[] = g.remember.map((r) => ({
      id: newId(),
      scope: r.scope,
      project: g.project,
      ...(r.scope === "session" ? { session: g.session.id.slice(0, 512), ...(g.session.agent ? { agent: g.session.agent.slice(0, 64) } : {}) } : {}),
      rule: r.rule,
      tool: r.tool,
      inputHash: r.inputHash,
      display: r.display.slice(0, MAX_APPROVAL_DISPLAY),
      createdAt: now,
    }));
    const same = (a: Approval, b: Approval) =>
      a.project === b.project && a.scope === b.scope && a.rule === b.rule && a.tool === b.tool && a.inputHash === b.inputHash && a.session === b.session && a.agent === b.agent;
    return this.#update((list) => ({ next: [...list.filter((a) => !added.some((b) => same(a, b))), ...added], value: added }));
  }

  /** Removes the approvals `pick` chooses; the value is what was removed. */
  revoke(pick: (a: Approval) => boolean): Promise<ApprovalWrite> {
    return this.#update((list) => ({ next: list.filter((a) => !pick(a)), value: list.filter(pick) }));
  }

  /** A session ended: its session approvals go (nothing is written when it has none). */
  async endSession(session: { id: string; agent?: string }): Promise<void> {
    const mine = (a: Approval) => a.scope === "session" && a.session === session.id && (a.agent ?? "") === (session.agent ?? "");
    if (!this.all().some(mine)) return;
    const r = await this.revoke(mine);
    if (!r.ok) this.#report(`session approvals not removed: ${r.reason}`);
  }

  async #update(change: (list: Approval[]) => { next: Approval[]; value: Approval[] }): Promise<ApprovalWrite> {
    const lock = await acquireLock(this.file, { waitMs: this.#lockWaitMs });
    if (!lock.ok) return { ok: false, reason: lock.reason };
    try {
      const before = statIdentity(this.file);
      const read = readApprovals(this.file);
      if (!read.ok) this.#dropUnreadable(read.problem, before);
      const now = this.#now();
      const { next, value } = change(read.ok ? read.approvals : []);
      const kept = next
        .filter((a) => a.scope === "project" || now - a.createdAt <= SESSION_APPROVAL_MAX_AGE_MS)
        .sort((a, b) => a.createdAt - b.createdAt)
        .slice(-MAX_APPROVALS);
      if (read.ok && read.missing && kept.length === 0) return { ok: true, value };
      const written = writeFileAtomic(this.file, `${JSON.stringify({ version: FILE_VERSION, approvals: kept }, null, 1)}\n`, { mode: 0o600, dirMode: 0o700 });
      if (!written.ok) return { ok: false, reason: written.reason };
      this.#cache = undefined;
      return { ok: true, value };
    } finally {
      lock.release();
    }
  }

  /**
   * A file that cannot be trusted allows nothing. It is moved aside (so every later process does not report
   * it again, and the person can look at it) unless it changed since it was read; reported once per process.
   */
  #dropUnreadable(problem: string, before: FileIdentity | undefined): void {
    this.#cache = undefined;
    let moved = false;
    try {
      const now = statIdentity(this.file);
      if (before && now && identityKey(now) === identityKey(before)) {
        renameSync(this.file, corruptApprovalsFile(this.file));
        moved = true;
      }
    } catch {
      // Gone or replaced meanwhile: nothing to move.
    }
    const message = `remembered approvals in ${this.file} dropped, every call asks again: ${problem}${moved ? ` (moved to ${corruptApprovalsFile(this.file)})` : ""}`;
    if (this.#reported.has(problem)) return;
    this.#reported.add(problem);
    this.#report(message);
  }
}
