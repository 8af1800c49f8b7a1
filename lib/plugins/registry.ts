/**
 * @module one project's plugins: finds the files of the three plugin folders, loads them into a
 * worker, resolves name clashes, and runs actions and checks contained (time budget, validated
 * results, failures reported with the plugin's file).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { EvalHost, PartialDecision, PluginCallArgs } from "../engine/evaluate.ts";
import { BUILTIN_ACTIONS, BUILTIN_CHECKS, type LoadIssue } from "../engine/schema-core.ts";
import { type DirWatch, watchDir } from "../rules/watch.ts";
import { checkActionResult, checkCheckResult, clampBudget, type FailMode, failedActionDecision } from "./containment.ts";
import type { LoadedPlugin } from "./protocol.ts";
import { type HostReply, type LoadStep, WorkerHost } from "./worker-host.ts";

export type PluginSource = "builtin" | "global" | "project";

/** A folder of plugins; the `builtin` entry stands for the plugins embedded in the binary (its `dir` is informational). */
export interface PluginDir {
  dir: string;
  source: PluginSource;
}

export interface PluginInfo {
  file: string;
  source: PluginSource;
  /** The definition's `name`, or the file name. */
  name: string;
  actions: string[];
  checks: string[];
  status: "loaded" | "skipped" | "failed";
  /** Why it is skipped or failed. */
  reason?: string;
  /** Runtime failures (throws, timeouts, malformed results) since it was loaded. */
  failures: number;
  lastError?: string;
}

export interface PluginLoadResult {
  actions: Set<string>;
  checks: Set<string>;
  issues: LoadIssue[];
}

export interface RegistryOptions {
  /** Time budget of one action or check call (setting `pluginTimeoutMs`). */
  timeoutMs?: number;
  /** Time budget of importing one plugin file (setting `pluginLoadTimeoutMs`). */
  loadTimeoutMs?: number;
  failMode?: FailMode;
  /** Called for every runtime failure of a plugin, so the host can log and notify. */
  onIssue?: (issue: LoadIssue) => void;
  /** Overrides where the worker code is (tests). */
  workerUrl?: string;
}

const PLUGIN_FILE = /^[^.].*\.(?:ts|mts|js|mjs)$/;
const NOT_PLUGIN = /\.(?:d|test|spec)\.[mc]?[jt]s$/;
const RESERVED_ACTIONS: ReadonlySet<string> = new Set(BUILTIN_ACTIONS);
const RESERVED_CHECKS: ReadonlySet<string> = new Set(BUILTIN_CHECKS);
const WATCH_DEBOUNCE_MS = 30;

/** Plugin files of a folder, sorted; sub-folders are left alone so plugins can keep helpers there. */
export function pluginFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => PLUGIN_FILE.test(n) && !NOT_PLUGIN.test(n))
    .sort()
    .map((n) => join(dir, n));
}

interface Route {
  file: string;
  info: PluginInfo;
}

interface Loaded {
  host: WorkerHost;
  infos: PluginInfo[];
  actions: Map<string, Route>;
  checks: Map<string, Route>;
}

export class PluginRegistry {
  #timeoutMs: number;
  #loadTimeoutMs: number;
  #failMode: FailMode;
  #onIssue: (issue: LoadIssue) => void;
  #workerUrl: string | undefined;
  #current: Loaded | undefined;
  #lastLoad: { dirs: PluginDir[]; opts: { trusted: boolean; projectDir?: string } } | undefined;
  #loading: Promise<PluginLoadResult> = Promise.resolve({ actions: new Set(), checks: new Set(), issues: [] });
  #watches: DirWatch[] = [];
  #watchTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(opts: RegistryOptions = {}) {
    this.#timeoutMs = clampBudget(opts.timeoutMs, 1_000);
    this.#loadTimeoutMs = clampBudget(opts.loadTimeoutMs, 10_000, 120_000);
    this.#failMode = opts.failMode ?? "closed";
    this.#onIssue = opts.onIssue ?? (() => {});
    this.#workerUrl = opts.workerUrl;
  }

  /** Applies changed settings without reloading. */
  configure(opts: { timeoutMs?: number; failMode?: FailMode }): void {
    if (opts.timeoutMs !== undefined) this.#timeoutMs = clampBudget(opts.timeoutMs, this.#timeoutMs);
    if (opts.failMode !== undefined) this.#failMode = opts.failMode;
  }

  /** Action and check names of the plugins loaded now. */
  names(): { actions: Set<string>; checks: Set<string> } {
    return { actions: new Set(this.#current?.actions.keys()), checks: new Set(this.#current?.checks.keys()) };
  }

  /**
   * Loads the plugins of `dirs` (in order: builtin, global, project) into a fresh worker and swaps it in
   * once complete, so calls in flight finish on the old one. Project plugins load only when trusted.
   * Loads are serialized: a reload requested while one runs starts after it.
   */
  load(dirs: PluginDir[], opts: { trusted: boolean; projectDir?: string }): Promise<PluginLoadResult> {
    this.#lastLoad = { dirs, opts };
    this.#loading = this.#loading.then(() => this.#load(dirs, opts));
    return this.#loading;
  }

  async #load(dirs: PluginDir[], opts: { trusted: boolean; projectDir?: string }): Promise<PluginLoadResult> {
    const issues: LoadIssue[] = [];
    const log = (message: string) => this.#onIssue({ file: "(plugins)", path: "", message, severity: "warning" });
    const host = new WorkerHost({ loadTimeoutMs: this.#loadTimeoutMs, log, ...(this.#workerUrl ? { url: this.#workerUrl } : {}) });
    const next: Loaded = { host, infos: [], actions: new Map(), checks: new Map() };
    const plan: LoadStep[] = [];
    const order: Record<PluginSource, number> = { builtin: 0, global: 1, project: 2 };

    for (const d of [...dirs].sort((a, b) => order[a.source] - order[b.source])) {
      if (d.source === "builtin") {
        const reply = await host.request({ type: "load-builtin" }, this.#loadTimeoutMs);
        if (this.#absorb(next, reply, "builtin", d.dir, issues)) plan.push({ type: "load-builtin" });
        continue;
      }
      for (const file of pluginFiles(d.dir)) {
        if (d.source === "project" && !opts.trusted) {
          const hint = `run \`shepherd trust${opts.projectDir ? ` ${opts.projectDir}` : ""}\` to allow it`;
          next.infos.push({ file, source: d.source, name: file, actions: [], checks: [], status: "skipped", reason: `untrusted project: plugin not loaded; ${hint}`, failures: 0 });
          issues.push({ file, path: "", message: `project plugin not loaded because the project is not trusted; ${hint}`, severity: "warning" });
          continue;
        }
        // Every file is its own request so a file whose top level hangs is named, and the others still load.
        host.setPlan(plan);
        const reply = await host.request({ type: "load", file }, this.#loadTimeoutMs);
        if (this.#absorb(next, reply, d.source, file, issues)) plan.push({ type: "load", file });
      }
    }
    host.setPlan(plan);

    const old = this.#current;
    if (this.#closed) {
      host.close();
    } else {
      this.#current = next;
    }
    if (old) retire(old.host);
    return { actions: new Set(next.actions.keys()), checks: new Set(next.checks.keys()), issues };
  }

  /** Records one load reply; true when at least one plugin of it is usable. */
  #absorb(into: Loaded, reply: HostReply, source: PluginSource, file: string, issues: LoadIssue[]): boolean {
    if (reply.type !== "loaded") {
      const why =
        reply.type === "timeout"
          ? `did not finish loading within ${this.#loadTimeoutMs} ms (setting pluginLoadTimeoutMs)`
          : reply.type === "crashed" || reply.type === "failed"
            ? reply.message
            : "unexpected reply";
      into.infos.push({ file, source, name: file, actions: [], checks: [], status: "failed", reason: why, failures: 0 });
      issues.push({ file, path: "", message: `plugin failed to load: ${why}`, severity: "error" });
      return false;
    }
    for (const e of reply.errors) {
      into.infos.push({ file: e.file, source, name: e.file, actions: [], checks: [], status: "failed", reason: e.message, failures: 0 });
      issues.push({ file: e.file, path: "", message: `plugin ${e.message}`, severity: "error" });
    }
    let usable = false;
    for (const p of reply.plugins) {
      const info = this.#claim(into, p, source, issues);
      into.infos.push(info);
      if (info.status === "loaded") usable = true;
    }
    return usable;
  }

  /** Action and check names are global: the first file to define one keeps it; a later one is an error naming both. */
  #claim(into: Loaded, p: LoadedPlugin, source: PluginSource, issues: LoadIssue[]): PluginInfo {
    const info: PluginInfo = { file: p.file, source, name: p.name, actions: [], checks: [], status: "loaded", failures: 0 };
    const take = (kind: "action" | "check", name: string, table: Map<string, Route>, reserved: ReadonlySet<string>, list: string[]) => {
      const holder = table.get(name);
      if (reserved.has(name)) {
        issues.push({ file: p.file, path: `${kind}s.${name}`, message: `${kind} "${name}" is built into Shepherd and cannot be redefined by a plugin`, severity: "error" });
      } else if (holder) {
        issues.push({
          file: p.file,
          path: `${kind}s.${name}`,
          message: `${kind} "${name}" is already defined by ${holder.file}; plugin ${kind} names are global, rename one (this one is ignored)`,
          severity: "error",
        });
      } else {
        table.set(name, { file: p.file, info });
        list.push(name);
      }
    };
    for (const a of p.actions) take("action", a, into.actions, RESERVED_ACTIONS, info.actions);
    for (const c of p.checks) take("check", c, into.checks, RESERVED_CHECKS, info.checks);
    if (info.actions.length === 0 && info.checks.length === 0) {
      info.status = "failed";
      info.reason = "all of its names clash with other plugins or built-ins";
    }
    return info;
  }

  /** Which plugin file provides which action and check, and which plugins were skipped or failed (for `rules list`). */
  describe(): PluginInfo[] {
    return (this.#current?.infos ?? []).map((i) => ({ ...i, actions: [...i.actions], checks: [...i.checks] }));
  }

  /** The evaluation host: every call is contained, so it never throws and always settles within the budget. */
  host(): EvalHost {
    return {
      runAction: (name, args) => this.#runAction(name, args),
      runCheck: (name, args) => this.#runCheck(name, args),
    };
  }

  async #call(kind: "action" | "check", name: string, args: PluginCallArgs): Promise<{ route: Route; value: unknown } | { route?: Route; error: string }> {
    const loaded = this.#current;
    const route = (kind === "action" ? loaded?.actions : loaded?.checks)?.get(name);
    if (!loaded || !route) return { error: `no loaded plugin provides the ${kind} "${name}"` };
    const body = { type: "call" as const, file: route.file, kind, name, args };
    let reply = await loaded.host.request(body, this.#timeoutMs);
    // Another plugin's timeout restarted the worker under this call: it deserves one more try.
    if (reply.type === "crashed") reply = await loaded.host.request(body, this.#timeoutMs);
    if (reply.type === "result") return { route, value: reply.value };
    if (reply.type === "timeout") return { route, error: `ran past its time budget of ${this.#timeoutMs} ms (setting pluginTimeoutMs)` };
    if (reply.type === "failed" || reply.type === "crashed") return { route, error: reply.message };
    return { route, error: "unexpected reply from the plugin worker" };
  }

  #fail(kind: "action" | "check", name: string, route: Route | undefined, error: string): string {
    const file = route?.file ?? "(plugins)";
    const message = `plugin ${kind} "${name}" (${file}) ${error}`;
    if (route) {
      route.info.failures++;
      route.info.lastError = error;
    }
    this.#onIssue({ file, path: `${kind}s.${name}`, message, severity: "error" });
    return message;
  }

  async #runAction(name: string, args: PluginCallArgs): Promise<PartialDecision | undefined> {
    const res = await this.#call("action", name, args);
    if ("error" in res) return failedActionDecision(args.event.hook, this.#failMode, this.#fail("action", name, res.route, res.error));
    const checked = checkActionResult(res.value);
    if (!checked.ok) return failedActionDecision(args.event.hook, this.#failMode, this.#fail("action", name, res.route, checked.message));
    return checked.value;
  }

  async #runCheck(name: string, args: PluginCallArgs): Promise<boolean> {
    const res = await this.#call("check", name, args);
    // A broken check does not fire its rule: a false reminder is noise, and there is nothing to block.
    if ("error" in res) {
      this.#fail("check", name, res.route, res.error);
      return false;
    }
    const checked = checkCheckResult(res.value);
    if (!checked.ok) {
      this.#fail("check", name, res.route, checked.message);
      return false;
    }
    return checked.value;
  }

  /**
   * Reloads when a plugin file in a watched folder changes (folders that do not exist yet included),
   * then calls `onChange`. Helpers in sub-folders are not watched: touch the plugin file to reload them.
   */
  watch(onChange: (result: PluginLoadResult) => void): void {
    if (this.#watches.length > 0 || !this.#lastLoad) return;
    const schedule = (name: string | null) => {
      if (name !== null && !PLUGIN_FILE.test(name)) return;
      if (this.#watchTimer) clearTimeout(this.#watchTimer);
      this.#watchTimer = setTimeout(() => {
        this.#watchTimer = undefined;
        const last = this.#lastLoad;
        if (!last || this.#closed) return;
        this.load(last.dirs, last.opts).then(onChange, () => {});
      }, WATCH_DEBOUNCE_MS);
    };
    for (const d of this.#lastLoad.dirs) if (d.source !== "builtin") this.#watches.push(watchDir(d.dir, schedule));
  }

  /** Reloads with the last folders and a new trust decision (the user ran `shepherd trust`). */
  reload(opts?: { trusted: boolean; projectDir?: string }): Promise<PluginLoadResult> {
    const last = this.#lastLoad;
    if (!last) return Promise.resolve({ actions: new Set(), checks: new Set(), issues: [] });
    return this.load(last.dirs, opts ?? last.opts);
  }

  get trusted(): boolean | undefined {
    return this.#lastLoad?.opts.trusted;
  }

  close(): void {
    this.#closed = true;
    if (this.#watchTimer) clearTimeout(this.#watchTimer);
    for (const w of this.#watches) w.close();
    this.#watches = [];
    this.#current?.host.close();
    this.#current = undefined;
  }
}

/** Closes a replaced worker once its calls in flight have settled. */
function retire(host: WorkerHost): void {
  if (host.pending === 0) {
    host.close();
    return;
  }
  const timer = setInterval(() => {
    if (host.pending === 0) {
      clearInterval(timer);
      host.close();
    }
  }, 25);
  timer.unref?.();
}
