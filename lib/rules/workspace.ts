/** @module the service behind every face: rule hosts per project, sessions, hints; evaluate/hint/status/reload. */
import type { ManagedPolicy } from "./managed.ts";
import { type ShadowCount, ShadowTally } from "../engine/shadow-tally.ts";
import { resolve } from "node:path";
import { type EvalContext, type EvalHost, evaluate } from "../engine/evaluate.ts";
import type { Decision, HookEvent, LoadIssue } from "../engine/schema.ts";
import type { Settings } from "../engine/schema-core.ts";
import { addHint, SessionStore, type SessionState } from "../engine/state.ts";
import { inlineTestIssues } from "../engine/inline-tests.ts";
import { createGitCheck } from "./git.ts";
import { RuleHost, type ReloadReport, type RuleHostOptions } from "./host.ts";
import { type Env, homeDir } from "./paths.ts";
import { protectedPathsFor } from "./protected-guard.ts";
import { canonicalDir } from "./settings.ts";
import type { PatternFactsCache } from "./pattern-facts-cache.ts";
import { ApprovalStore, approvalsFile } from "../approvals/approval-store.ts";

export type NotifyLevel = "info" | "warning" | "error";
export type NotifyListener = (level: NotifyLevel, message: string, data?: unknown) => void;

export interface PluginDescription {
  file: string;
  source: string;
  name: string;
  actions: string[];
  checks: string[];
  status: string;
  reason?: string;
}

/** The plugin seam: the registry provides names for merging and a contained host for evaluation. */
export interface PluginProvider {
  names(cwd: string): { actions: ReadonlySet<string>; checks: ReadonlySet<string> };
  evalHost(cwd: string): EvalHost;
  /** Which plugin file provides which action and check (and which were skipped or failed), for `rules list`. */
  describe?(cwd: string): PluginDescription[];
  /** Resolves once a project's plugins are loaded (rules naming plugin actions merge correctly after it). */
  ready?(cwd: string): Promise<void>;
  /** Starts watching plugin folders for this project; calls back when they change. */
  watch?(cwd: string, onChange: () => void): void;
  close?(): void;
}

/** What a decision's listeners learn besides the event and the Decision. */
export interface DecisionMeta {
  /** Epoch ms when evaluation began. */
  startMs: number;
  durationMs: number;
  /** The settings of the project the event ran in (the managed policy already imposed). */
  settings: Settings;
}

export interface WorkspaceOptions {
  env: Env;
  /** The project the process started in; events with another cwd get their own host. */
  cwd: string;
  watch: boolean;
  plugins?: PluginProvider;
  builtin?: readonly { file: string; text: string }[];
  maxProjects?: number;
  /**
   * How a project's rules are loaded: a RuleHost with these options by default. A one-shot hook process
   * passes its own (lib/hook/layers.ts: disk caches, compile on first use, plugins decided after loading).
   */
  openHost?: (opts: RuleHostOptions) => RuleHost;
  /** Pattern facts across processes (lib/rules/pattern-facts-cache.ts), for every project's host. */
  patternFacts?: PatternFactsCache;
  /** Called after every decision (audit log, telemetry), with when it began, how long it took and the settings it ran under. */
  onDecision?: (event: HookEvent, decision: Decision, meta: DecisionMeta) => void;
  /** The remembered approvals (tests); else `~/.pi/agent/shepherd/approvals.json`, problems reported as warnings. */
  approvals?: ApprovalStore;
}

export interface Status {
  version: string;
  cwd: string;
  trusted: boolean;
  rules: Record<string, number>;
  skipped: { rule: string; source: string; file: string; reason: string }[];
  issues: LoadIssue[];
  files: { source: string; file: string; rules: number; ok: boolean }[];
  /** The managed policy in force (lib/rules/managed.ts): `broken` names a managed file read most restrictively. */
  managed: ManagedPolicy;
  /** "Would have" decisions of shadow-mode rules since this process started, per rule and action. */
  shadow: ShadowCount[];
  session?: Pick<SessionState, "calls" | "errors" | "callsByTool" | "errorsByTool" | "hasEdits" | "warnings">;
  sessions: number;
}

export class Workspace {
  readonly env: Env;
  readonly sessions = new SessionStore();
  #shadow = new ShadowTally();
  readonly defaultCwd: string;
  #opts: WorkspaceOptions;
  #hosts = new Map<string, RuleHost>();
  #contexts = new WeakMap<RuleHost, { generation: number; ctx: EvalContext }>();
  #lastHost: { asked: string; host: RuleHost } | undefined;
  /** Projects whose plugins are still loading: their first events wait for them. */
  #loading = new Map<string, Promise<void>>();
  #listeners = new Set<NotifyListener>();
  #gitCheck: (cwd: string) => Promise<boolean>;
  #version: string;
  #approvals: ApprovalStore | undefined;

  constructor(opts: WorkspaceOptions, version: string) {
    this.env = opts.env;
    this.defaultCwd = resolve(opts.cwd);
    this.#opts = opts;
    this.#version = version;
    this.#gitCheck = createGitCheck(() => this.host(this.defaultCwd).settings.gitTimeoutMs);
  }

  /** The remembered approvals every face reads (and the faces that see a person's yes write). */
  get approvals(): ApprovalStore {
    this.#approvals ??= this.#opts.approvals ?? new ApprovalStore({ file: approvalsFile(this.env), report: (m) => this.#notify("warning", m) });
    return this.#approvals;
  }

  /** The identity approvals are kept under: the real path of the project root of a folder. */
  projectIdentity(cwd: string): string {
    return canonicalDir(this.host(cwd).cwd);
  }

  onNotify(listener: NotifyListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reports to every listener (stderr log and `notifications/message` in serve). */
  notify(level: NotifyLevel, message: string, data?: unknown): void {
    this.#notify(level, message, data);
  }

  #notify(level: NotifyLevel, message: string, data?: unknown): void {
    for (const l of this.#listeners) l(level, message, data);
  }

  /** The rule host of a project folder, created (and watched) on first use. */
  host(cwd: string): RuleHost {
    // Every event names its cwd: skip path.resolve when it is the one asked last (still not evicted).
    const last = this.#lastHost;
    if (last && cwd === last.asked && this.#hosts.get(last.host.cwd) === last.host) return last.host;
    const h = this.#hostFor(cwd);
    this.#lastHost = { asked: cwd, host: h };
    return h;
  }

  #hostFor(cwd: string): RuleHost {
    const key = resolve(cwd || this.defaultCwd);
    let h = this.#hosts.get(key);
    if (h) return h;
    const max = this.#opts.maxProjects ?? 64;
    if (this.#hosts.size >= max) {
      // Evict the oldest non-default project so a client inventing cwds cannot exhaust watchers.
      for (const [k, old] of this.#hosts) {
        if (k !== this.defaultCwd) {
          old.close();
          this.#hosts.delete(k);
          break;
        }
      }
    }
    const plugins = this.#opts.plugins;
    const hostOpts: RuleHostOptions = {
      cwd: key,
      env: this.env,
      ...(this.#opts.builtin ? { builtin: this.#opts.builtin } : {}),
      ...(this.#opts.patternFacts ? { patternFacts: this.#opts.patternFacts } : {}),
      ...(plugins ? { plugins: () => plugins.names(key) } : {}),
      onReload: (report) => this.#reported(key, report),
    };
    h = this.#opts.openHost ? this.#opts.openHost(hostOpts) : new RuleHost(hostOpts);
    this.#hosts.set(key, h);
    const ready = plugins?.ready?.(key);
    if (ready) {
      const created = h;
      const p = ready.then(() => {
        this.#loading.delete(key);
        created.reload();
      });
      this.#loading.set(key, p);
    }
    this.#announce(key, h.issues, "loaded");
    this.#checkInlineTests(key, h);
    if (this.#opts.watch) {
      h.watch();
      plugins?.watch?.(key, () => this.#reported(key, h?.reload() ?? { changed: [], issues: [], ruleCount: 0 }));
    }
    return h;
  }

  #announce(cwd: string, issues: LoadIssue[], verb: string): void {
    const errors = issues.filter((i) => i.severity === "error");
    for (const i of errors) {
      this.#notify("error", `rule file ${i.file}${i.line ? `:${i.line}:${i.column ?? 1}` : ""} ${i.path || "(file)"}: ${i.message}${i.path === "" ? "; its last good rules stay in force" : ""}`, { cwd, issue: i });
    }
    if (verb !== "loaded" || errors.length > 0) this.#notify(errors.length > 0 ? "warning" : "info", `rules ${verb} for ${cwd}`, { cwd, errors: errors.length });
  }

  /**
   * Runs the rules' inline tests and reports failing cases as warnings (DESIGN: reported at load, never
   * enforced). Only long-running faces do this: a one-shot hook process must not pay for it.
   */
  #checkInlineTests(cwd: string, host: RuleHost): void {
    if (!this.#opts.watch) return;
    const names = this.#opts.plugins?.names(cwd);
    const opts = { host: this.#evalHost(cwd), trusted: host.trusted, ...(names ? { pluginActions: names.actions, pluginChecks: names.checks } : {}) };
    inlineTestIssues(host.ruleSet, opts).then(
      (issues) => {
        for (const i of issues) this.#notify("warning", `${i.file} ${i.path}: ${i.message}`, { cwd, issue: i });
      },
      (err: unknown) => this.#notify("warning", `inline tests could not run: ${err instanceof Error ? err.message : String(err)}`, { cwd }),
    );
  }

  #reported(cwd: string, report: ReloadReport): void {
    this.#announce(cwd, report.issues, `reloaded (${report.ruleCount} active; changed: ${report.changed.join(", ") || "none"})`);
    const host = this.#hosts.get(cwd);
    if (host && report.changed.length > 0) this.#checkInlineTests(cwd, host);
  }

  /**
   * `uncounted`: the event re-asks about a call already counted (Claude Code's PermissionRequest after its
   * PreToolUse): it is evaluated on a copy of the session, which is then dropped.
   */
  evaluate(event: HookEvent, opts?: { uncounted?: boolean }): Promise<Decision> | Decision {
    const host = this.host(event.session.cwd);
    host.flush();
    const loading = this.#loading.get(host.cwd);
    if (loading) return loading.then(() => this.evaluate(event, opts));
    const ctx = this.#contextFor(host);
    let sessions: SessionStore | undefined;
    if (opts?.uncounted) {
      sessions = new SessionStore(1);
      const live = this.sessions.peek(event.session.id);
      if (live) sessions.set(event.session.id, structuredClone(live));
    }
    const startMs = Date.now();
    const t0 = performance.now();
    const decision = evaluate(sessions ? { ...ctx, sessions } : ctx, event);
    const after = this.#opts.onDecision;
    const meta = (): DecisionMeta => ({ startMs, durationMs: performance.now() - t0, settings: host.settings });
    if (decision instanceof Promise) return decision.then((d) => (this.#shadow.add(d.fired), after?.(event, d, meta()), d));
    this.#shadow.add(decision.fired);
    after?.(event, decision, meta());
    return decision;
  }

  /** The evaluation context of a project, rebuilt only when its rules reload (not on every event). */
  #contextFor(host: RuleHost): EvalContext {
    const hit = this.#contexts.get(host);
    if (hit && hit.generation === host.generation) return hit.ctx;
    const ctx: EvalContext = {
      rules: host.ruleSet,
      sessions: this.sessions,
      maxWarnings: host.settings.maxWarnings,
      projectRoot: host.cwd,
      home: homeDir(this.env),
      guard: protectedPathsFor(this.env, host.cwd, host.settings, process.execPath),
      host: this.#evalHost(host.cwd),
      ...(host.settings.budgets ? { budgets: host.settings.budgets } : {}),
      approvals: this.approvals.lookupFor(canonicalDir(host.cwd)),
    };
    this.#contexts.set(host, { generation: host.generation, ctx });
    return ctx;
  }

  #evalHost(cwd: string): EvalHost {
    const pluginHost = this.#opts.plugins?.evalHost(cwd);
    return { ...pluginHost, gitUncommitted: this.#gitCheck };
  }

  /** Resolves once the project's plugins are loaded (at once when none are loading): its rules are final then. */
  ready(cwd: string): Promise<void> {
    return this.#loading.get(this.host(cwd).cwd) ?? Promise.resolve();
  }

  /**
   * An evaluator on a scratch session store with no host (no git, no plugin call), no audit and no shadow
   * tally: a long-running face warms the evaluation's code and the prefilter's indexes with it before its
   * first request (lib/rpc/prewarm.ts). Undefined while the project's plugins are still loading (its rules
   * are not final then: await `ready` first).
   */
  scratch(cwd: string): ((event: HookEvent) => Decision | Promise<Decision>) | undefined {
    const host = this.host(cwd);
    if (this.#loading.has(host.cwd)) return undefined;
    const ctx: EvalContext = { ...this.#contextFor(host), sessions: new SessionStore(4), host: {} };
    return (event) => evaluate(ctx, event);
  }

  hint(sessionId: string, text: string): void {
    addHint(this.sessions.get(sessionId), text);
  }

  reload(cwd?: string): Status {
    const h = this.host(cwd ?? this.defaultCwd);
    this.#reported(h.cwd, h.reload());
    return this.status(cwd);
  }

  /** "Would have" decisions of shadow-mode rules since this process started. */
  shadowCounts(): ShadowCount[] {
    return this.#shadow.list();
  }

  status(cwd?: string, sessionId?: string): Status {
    const h = this.host(cwd ?? this.defaultCwd);
    const rules: Record<string, number> = { managed: 0, builtin: 0, global: 0, project: 0 };
    for (const r of h.ruleSet.rules) rules[r.source] = (rules[r.source] ?? 0) + 1;
    const s = sessionId ? this.sessions.peek(sessionId) : undefined;
    return {
      version: this.#version,
      cwd: h.cwd,
      trusted: h.trusted,
      rules,
      skipped: h.ruleSet.skipped.map((k) => ({ rule: k.rule.name, source: k.rule.source, file: k.rule.file, reason: k.reason })),
      issues: h.issues,
      files: h.layerFiles(),
      managed: h.managed,
      shadow: this.#shadow.list(),
      ...(s
        ? { session: { calls: s.calls, errors: s.errors, callsByTool: s.callsByTool, errorsByTool: s.errorsByTool, hasEdits: s.hasEdits, warnings: s.warnings } }
        : {}),
      sessions: this.sessions.size,
    };
  }

  close(): void {
    for (const h of this.#hosts.values()) h.close();
    this.#hosts.clear();
    this.#opts.plugins?.close?.();
  }
}
