/**
 * @module `shepherd hook <agent>`: one hook invocation of Claude Code, Codex or Gemini CLI, answered once.
 * Each hook is a fresh process, so the session's counters travel through a state file (session-state-file.ts).
 * This path is timed (spawn to answer < 15 ms with 1,000 rules): keep imports light, write with writeSync.
 */
import { closeSync, openSync, readFileSync, readSync, fstatSync, writeSync } from "node:fs";
import {
  AdapterInputError,
  type AdapterIo,
  type AgentAdapter,
  type AgentAnswer,
  emptyDecision,
  mergeDecisions,
  type ParsedHook,
  unparsedFailure,
} from "../adapters/agent-adapter.ts";
import { agentHookTimeoutMs } from "../adapters/agent-timeout.ts";
import { adapterFor, type AgentName, AGENTS } from "../adapters/index.ts";
import { pruneStateFiles, sessionStateDir, withSessionState } from "../adapters/session-state-file.ts";
import { AuditLog } from "../audit/audit-log.ts";
import { needsPlugins } from "../engine/merge.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Settings } from "../engine/schema-core.ts";
import { deadlineMessage, effectiveDeadline, formatMs } from "../deadline.ts";
import type { Env } from "../rules/paths.ts";
import type { RuleSnapshots } from "../rules/hook-snapshot.ts";
import type { RuleLoadCache } from "../rules/load-cache.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";
import { VERSION } from "../version.ts";
import { readHookInput, sniffEventName } from "./hook-input.ts";
import type { Watchdog } from "./hook-watchdog.ts";

/** The largest hook input read; a Write of a big file travels in one JSON (DESIGN section 2 caps lines at 4 MiB too). */
export const MAX_HOOK_INPUT = 8 * 1024 * 1024;
const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;
/** The watchdog answers this long after the main thread's deadline, which answers first if it can. */
const WATCHDOG_GRACE_MS = 150;
/** A hook still running this long after it started is on a slow path: its watchdog starts then. */
const WATCHDOG_LAZY_MS = 25;
/** An input this large is parsed and analysed for long: its watchdog starts at once. */
const WATCHDOG_INPUT_BYTES = 64 * 1024;

export interface HookDeps {
  env: Env;
  /** The process cwd: the project when the hook JSON names none. */
  cwd: string;
  plugins?: PluginProvider;
  /**
   * Makes the plugin provider on demand: loading plugins starts a worker, so a hook process only pays for
   * it when an enabled rule names an action or check no built-in provides.
   */
  loadPlugins?: () => PluginProvider | Promise<PluginProvider>;
  /** Loaded rule files kept across hook processes (load-cache.ts); none in tests. */
  loadCache?: RuleLoadCache;
  /** Merged rule sets kept across hook processes, narrowed to these events (hook-snapshot.ts). */
  snapshots?: (events: readonly HookEvent[]) => RuleSnapshots;
  /** The hook input (tests); stdin, read without blocking and with a cap, otherwise. */
  readStdin?: () => string | Promise<string>;
  /** When the process started: the deadline counts from here (defaults to when runHook was called). */
  startedAt?: number;
  /** Starts the watchdog thread that answers when the main thread is stuck (hook-watchdog.ts); none in tests. */
  watchdog?: () => Watchdog | undefined;
  /** The agent's own timeout for this hook in ms, if its settings set one (agent-timeout.ts by default). */
  agentTimeoutMs?: (agent: AgentName, event: string, projectDir: string, env: Env) => number | undefined;
  writeOut?: (text: string) => void;
  writeErr?: (text: string) => void;
  /** Called with every decision (tests, audit). */
  onDecision?: (parsed: ParsedHook, decision: Decision) => void;
}

/** The tail of a file without reading it whole (Codex rollouts grow with the session). */
export const fileIo: AdapterIo = {
  readFileTail(path: string, maxBytes: number): string | undefined {
    let fd: number | undefined;
    try {
      fd = openSync(path, "r");
      const size = fstatSync(fd).size;
      const start = Math.max(0, size - maxBytes);
      if (start === 0) return readFileSync(fd, "utf8");
      const buf = Buffer.alloc(size - start);
      readSync(fd, buf, 0, buf.length, start);
      return buf.toString("utf8");
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
};

/** Runs one hook: returns the exit code; the answer is already written to stdout. */
export async function runHook(agent: string, deps: HookDeps): Promise<number> {
  const out = deps.writeOut ?? ((t: string) => void writeSync(1, t));
  const err = deps.writeErr ?? ((t: string) => void writeSync(2, t));
  const adapter = adapterFor(agent);
  if (!adapter) {
    err(`shepherd hook: unknown agent "${agent}" (one of: ${AGENTS.join(", ")})\n`);
    return 2;
  }
  const startedAt = deps.startedAt ?? Date.now();
  // The watchdog thread costs a hook ~3 ms of CPU, as much as a fifth of its usual run: it is started only
  // where synchronous work can grow long (a large input; plugins) or once the hook runs slower than usual.
  let watchdog: Watchdog | undefined;
  let watchdogStarted = false;
  const startWatchdog = (): void => {
    if (watchdogStarted || !deps.watchdog) return;
    watchdogStarted = true;
    watchdog = deps.watchdog();
    postToWatchdog();
  };
  let parsed: ParsedHook | undefined;
  let failClosed = true;
  let head = (): string => "";
  let answered = false;
  /** Exactly one answer leaves the process: the evaluation's, the deadline's or the watchdog's. */
  const answer = (a: AgentAnswer, note?: string): number => {
    if (answered) return a.exitCode;
    if (watchdog && !watchdog.claim()) watchdog.yieldToWatchdog();
    answered = true;
    if (a.stderr) err(a.stderr);
    else if (note) err(note);
    if (a.stdout) out(a.stdout);
    return a.exitCode;
  };
  const failureNow = (message: string): AgentAnswer => (parsed ? adapter.failure(parsed, message, failClosed) : unparsedFailure(adapter, sniffEventName(head()), message));

  // The deadline: the main thread's timer answers whenever the event loop turns; the watchdog thread,
  // a little later, when it does not (stuck in synchronous work).
  let deadlineMs = effectiveDeadline(undefined, undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onLate: () => void = () => {};
  let inputRead = false;
  const lateMessage = (): string => (inputRead ? deadlineMessage(deadlineMs) : `the hook input did not end within ${formatMs(deadlineMs)}`);
  const late = new Promise<number>((resolve) => {
    onLate = () => {
      const message = lateMessage();
      resolve(answer(failureNow(message), `shepherd hook ${adapter.agent}: ${message}\n`));
    };
  });
  const postToWatchdog = (): void => {
    if (!watchdog) return;
    const message = lateMessage();
    const a = failureNow(message);
    watchdog.arm(startedAt + deadlineMs + WATCHDOG_GRACE_MS, { stdout: a.stdout, exitCode: a.exitCode, stderr: a.stderr ?? `shepherd hook ${adapter.agent}: ${message} (watchdog)\n` });
  };
  const arm = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(onLate, Math.max(0, startedAt + deadlineMs - Date.now()));
    postToWatchdog();
  };
  /**
   * Moves the deadline once the agent's timeout and the settings are known: `hookDeadlineMs` may move it
   * either way (a project may set it only once trusted), the agent's timeout always caps it.
   */
  let agentTimeoutMs: number | undefined;
  const narrow = (settingMs: unknown, rearm = false): void => {
    const next = effectiveDeadline(settingMs, agentTimeoutMs);
    if (next === deadlineMs && !rearm) return;
    deadlineMs = next;
    arm();
  };
  arm();
  const slow = setTimeout(startWatchdog, Math.max(0, startedAt + WATCHDOG_LAZY_MS - Date.now()));

  const work = async (): Promise<number> => {
    try {
      let text: string;
      if (deps.readStdin) text = await deps.readStdin();
      else {
        const reader = readHookInput(MAX_HOOK_INPUT, { onProgress: (total) => total > WATCHDOG_INPUT_BYTES && startWatchdog() });
        head = reader.head;
        const input = await reader.result;
        if (!input.ok) {
          const message = `hook input of ${input.bytes} bytes exceeds the ${MAX_HOOK_INPUT}-byte limit`;
          return answer(unparsedFailure(adapter, sniffEventName(head()), message));
        }
        text = input.text;
      }
      inputRead = true;
      if (deps.readStdin) {
        head = () => text.slice(0, 64 * 1024);
        if (text.length > WATCHDOG_INPUT_BYTES) startWatchdog();
      }
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (e) {
        return answer(unparsedFailure(adapter, sniffEventName(head()), `hook input is not JSON: ${e instanceof Error ? e.message : String(e)}`));
      }
      try {
        parsed = adapter.parse(raw, deps.env, fileIo);
      } catch (e) {
        if (!(e instanceof AdapterInputError)) throw e;
        return answer(unparsedFailure(adapter, sniffEventName(head()), e.message));
      }
      const first = parsed.events[0];
      if (first) {
        agentTimeoutMs = (deps.agentTimeoutMs ?? agentHookTimeoutMs)(adapter.agent, parsed.agentEvent, first.session.cwd || deps.cwd, deps.env);
      }
      // The watchdog's answer is now this event's (and the deadline the agent's timeout allows).
      narrow(undefined, true);
      const p = parsed;
      const decision = await decide(adapter, p, deps, startWatchdog, (settings) => {
        const closed = settings.failMode !== "open";
        const changed = closed !== failClosed;
        failClosed = closed;
        narrow(settings.hookDeadlineMs, changed);
      });
      deps.onDecision?.(p, decision);
      return answer(adapter.answer(p, decision));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return answer(failureNow(message), `shepherd hook ${adapter.agent}: ${message}\n`);
    }
  };
  try {
    return await Promise.race([work(), late]);
  } finally {
    if (timer) clearTimeout(timer);
    clearTimeout(slow);
  }
}

async function decide(adapter: AgentAdapter, parsed: ParsedHook, deps: HookDeps, beforePlugins: () => void, onSettings: (settings: Settings) => void): Promise<Decision> {
  const first = parsed.events[0];
  if (!first) return emptyDecision();
  const cwd = first.session.cwd || deps.cwd;
  const audit = new AuditLog({ env: deps.env, settingFor: (c): unknown => ws.host(c).settings.audit });
  const onDecision = (event: HookEvent, decision: Decision): void => audit.record(event, decision);
  // A snapshot holds no plugin-provided rules: with plugins the rules are loaded and merged in full.
  const snapshots = deps.plugins ? undefined : deps.snapshots?.(parsed.events);
  let ws = new Workspace(
    { env: deps.env, cwd, watch: false, lazyCompile: true, ...(deps.loadCache ? { loadCache: deps.loadCache } : {}), ...(snapshots ? { snapshots } : {}), onDecision, ...(deps.plugins ? { plugins: deps.plugins } : {}) },
    VERSION,
  );
  try {
    let host = ws.host(cwd);
    if (!deps.plugins && deps.loadPlugins && needsPlugins(host.ruleSet)) {
      beforePlugins();
      ws.close();
      ws = new Workspace({ env: deps.env, cwd, watch: false, lazyCompile: true, ...(deps.loadCache ? { loadCache: deps.loadCache } : {}), onDecision, plugins: await deps.loadPlugins() }, VERSION);
      host = ws.host(cwd);
    }
    onSettings(host.settings);
    const dir = sessionStateDir(deps.env);
    const ending = parsed.events.some((e) => e.hook === "session_shutdown");
    if (parsed.events.some((e) => e.hook === "session_start")) pruneStateFiles(dir, PRUNE_AFTER_MS);
    return await withSessionState(
      dir,
      adapter.agent,
      parsed.sessionId,
      async (state) => {
        ws.sessions.set(first.session.id, state);
        const decisions: Decision[] = [];
        for (const event of parsed.events) decisions.push(await ws.evaluate(event));
        // evaluate mutates the stored object in place; copy back in case the store replaced it.
        Object.assign(state, ws.sessions.get(first.session.id));
        return mergeDecisions(decisions);
      },
      { remove: ending },
    );
  } finally {
    ws.close();
    audit.close();
  }
}
