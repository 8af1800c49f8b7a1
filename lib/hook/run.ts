/**
 * @module `shepherd hook <agent>`: one hook invocation of Claude Code, Codex, Gemini CLI or Copilot CLI, answered once.
 * Each hook is a fresh process, so the session's counters travel through a state file (session-state.ts).
 * This path is timed (spawn to answer < 15 ms with 1,000 rules): keep imports light, write with writeSync.
 */
import { decisionSinks } from "../audit/decision-sinks.ts";
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
import { KNOWN_CLAUDE_EVENTS } from "../adapters/claude-code.ts";
import { KNOWN_COPILOT_EVENTS } from "../adapters/copilot.ts";
import { adapterFor, type AgentName, AGENTS } from "../adapters/index.ts";
import { pruneStateFiles, sessionStateDir, withSessionState } from "./session-state.ts";
import { AuditLog } from "../audit/audit-log.ts";
import { observeHook } from "../approvals/observe-hook.ts";
import { ApprovalStore, approvalsFile } from "../approvals/approval-store.ts";
import type { RememberRequest } from "../engine/schema.ts";
import { needsPlugins } from "../engine/merge.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { FailMode, LoadIssue, Settings } from "../engine/schema-core.ts";
import type { Env } from "../rules/paths.ts";
import type { RuleSnapshots } from "../rules/hook-snapshot.ts";
import type { RuleLoadCache } from "../rules/load-cache.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";
import type { TelemetrySink } from "../telemetry/telemetry-sink.ts";
import { HookLayers } from "./layers.ts";
import { VERSION } from "../version.ts";
import { HookDeadline } from "./deadline.ts";
import { readHookInput, sniffEventName } from "./input.ts";
import type { Watchdog } from "./watchdog.ts";

/** The largest hook input read; a Write of a big file travels in one JSON (DESIGN section 2 caps lines at 4 MiB too). */
export const MAX_HOOK_INPUT = 8 * 1024 * 1024;
const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;
/** An input this large is parsed and analysed for long: the watchdog starts at once (deadline.ts). */
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
  /** Starts the watchdog thread that answers when the main thread is stuck (watchdog.ts); none in tests. */
  watchdog?: () => Watchdog | undefined;
  /** The agent's own timeout for this hook in ms, if its settings set one (agent-timeout.ts by default). */
  agentTimeoutMs?: (agent: AgentName, event: string, projectDir: string, env: Env) => number | undefined;
  writeOut?: (text: string) => void;
  writeErr?: (text: string) => void;
  /** Called with every decision (tests, audit). */
  onDecision?: (parsed: ParsedHook, decision: Decision) => void;
  /** Queues a span per decision; the caller exports what it holds once the answer is written (hook-face.ts). */
  telemetry?: TelemetrySink;
}

/** At most this many problems are written per hook call; the rest are counted. */
const MAX_REPORTED_ERRORS = 10;

/**
 * Every standing error of the rules and settings, on stderr at each call until it is fixed: a hook has no
 * other channel, and a skipped block rule is a guard that is off. Warnings are left to `rules check`.
 */
function reportErrors(issues: readonly LoadIssue[], write: (text: string) => void): void {
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length === 0) return;
  const lines = errors.slice(0, MAX_REPORTED_ERRORS).map((i) => `shepherd: ${i.file}${i.line ? `:${i.line}:${i.column ?? 1}` : ""} ${i.path || "(file)"}: ${i.message}\n`);
  if (errors.length > MAX_REPORTED_ERRORS) lines.push(`shepherd: ... and ${errors.length - MAX_REPORTED_ERRORS} more (\`shepherd rules check\` lists them all)\n`);
  write(lines.join(""));
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
  let parsed: ParsedHook | undefined;
  // Until the project's settings are read, a failure is answered as "closed".
  let failMode: FailMode = "closed";
  let head = (): string => "";
  // The event of an input that could not be read: from its first bytes, or (Copilot) from the handler's env.
  const sniffed = (): string | undefined => sniffEventName(head()) ?? adapter.eventFromEnv?.(deps.env);
  const failureNow = (message: string): AgentAnswer => (parsed ? adapter.failure(parsed, message, failMode) : unparsedFailure(adapter, sniffed(), message));
  const clock = new HookDeadline({
    agent: adapter.agent,
    startedAt: deps.startedAt ?? Date.now(),
    failure: failureNow,
    write: (a) => {
      if (a.stderr) err(a.stderr);
      if (a.stdout) out(a.stdout);
    },
    ...(deps.watchdog ? { watchdog: deps.watchdog } : {}),
  });
  const answer = (a: AgentAnswer): number => clock.answer(a);
  const unparsed = (message: string): number => answer(unparsedFailure(adapter, sniffed(), message));

  const work = async (): Promise<number> => {
    try {
      let text: string;
      if (deps.readStdin) text = await deps.readStdin();
      else {
        // A large input is parsed and analysed for long: its watchdog starts at once.
        const reader = readHookInput(MAX_HOOK_INPUT, { onProgress: (total) => total > WATCHDOG_INPUT_BYTES && clock.startWatchdog() });
        head = reader.head;
        const input = await reader.result;
        if (!input.ok) return unparsed(`hook input of ${input.bytes} bytes exceeds the ${MAX_HOOK_INPUT}-byte limit`);
        text = input.text;
      }
      clock.inputRead();
      if (deps.readStdin) {
        head = () => text.slice(0, 64 * 1024);
        if (text.length > WATCHDOG_INPUT_BYTES) clock.startWatchdog();
      }
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (e) {
        return unparsed(`hook input is not JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
      try {
        parsed = adapter.parse(raw, deps.env, fileIo);
      } catch (e) {
        if (!(e instanceof AdapterInputError)) throw e;
        return unparsed(e.message);
      }
      const p = parsed;
      const known = adapter.agent === "claude-code" ? KNOWN_CLAUDE_EVENTS : adapter.agent === "copilot" ? KNOWN_COPILOT_EVENTS : undefined;
      if (known && !known.has(p.agentEvent)) {
        err(`shepherd hook ${adapter.agent}: hook event "${p.agentEvent.slice(0, 100)}" is unknown to Shepherd: no opinion\n`);
      }
      const first = p.events[0];
      clock.parsed(first ? (deps.agentTimeoutMs ?? agentHookTimeoutMs)(adapter.agent, p.agentEvent, first.session.cwd || deps.cwd, deps.env) : undefined);
      const decision = await decide(
        adapter,
        p,
        deps,
        () => clock.startWatchdog(),
        (settings) => {
          const changed = settings.failMode !== failMode;
          failMode = settings.failMode;
          clock.settings(settings.hookDeadlineMs, changed);
        },
      );
      deps.onDecision?.(p, decision);
      return answer(adapter.answer(p, decision));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const a = failureNow(message);
      return answer({ ...a, stderr: a.stderr ?? `shepherd hook ${adapter.agent}: ${message}\n` });
    }
  };
  try {
    return await Promise.race([work(), clock.late]);
  } finally {
    clock.close();
  }
}

async function decide(adapter: AgentAdapter, parsed: ParsedHook, deps: HookDeps, beforePlugins: () => void, onSettings: (settings: Settings) => void): Promise<Decision> {
  const first = parsed.events[0];
  if (!first) return emptyDecision();
  const cwd = first.session.cwd || deps.cwd;
  const audit = new AuditLog({ env: deps.env, settingFor: (c): unknown => ws.host(c).settings.audit });
  const onDecision = decisionSinks(audit, deps.telemetry);
  const writeErr = deps.writeErr ?? ((t: string) => void writeSync(2, t));
  // A hook has no channel but stderr: an approvals file that cannot be read is said there (once: it is moved aside).
  const approvals = new ApprovalStore({ file: approvalsFile(deps.env), report: (m) => writeErr(`shepherd: ${m}\n`) });
  // A snapshot holds no plugin-provided rules: with plugins given up front the rules are loaded and merged in full.
  const snapshots = deps.plugins ? undefined : deps.snapshots?.(parsed.events);
  const layers = new HookLayers(deps.env, { ...(deps.loadCache ? { loadCache: deps.loadCache } : {}), ...(snapshots ? { snapshots } : {}), ...(deps.plugins ? { plugins: deps.plugins } : {}) });
  // The project is loaded once; only a rule set that names plugin actions or checks pays for the plugin host.
  if (!layers.plugins && deps.loadPlugins && needsPlugins(layers.host(cwd).ruleSet)) {
    beforePlugins();
    layers.usePlugins(await deps.loadPlugins());
  }
  const plugins = layers.plugins;
  const ws = new Workspace({ env: deps.env, cwd, watch: false, openHost: layers.open, approvals, onDecision, ...(plugins ? { plugins } : {}) }, VERSION);
  try {
    const host = ws.host(cwd);
    reportErrors(host.issues, deps.writeErr ?? ((t: string) => void writeSync(2, t)));
    onSettings(host.settings);
    const dir = sessionStateDir(deps.env);
    const ending = parsed.events.some((e) => e.hook === "session_shutdown");
    if (parsed.events.some((e) => e.hook === "session_start")) pruneStateFiles(dir, PRUNE_AFTER_MS);
    let approved: RememberRequest[] | undefined;
    const decision = await withSessionState(
      dir,
      adapter.agent,
      parsed.sessionId,
      async (state) => {
        // An event that re-asks about a counted call is evaluated on a copy, so it counts once.
        ws.sessions.set(first.session.id, parsed.dryRun ? structuredClone(state) : state);
        const decisions: Decision[] = [];
        for (const event of parsed.events) decisions.push(await ws.evaluate(event));
        // evaluate mutates the stored object in place; copy back in case the store replaced it.
        if (!parsed.dryRun) Object.assign(state, ws.sessions.get(first.session.id));
        const merged = mergeDecisions(decisions);
        // Claude Code shows a person's yes to an ask only by running the call (observe-hook.ts).
        if (adapter.agent === "claude-code") approved = observeHook(state, parsed, merged, Date.now());
        return merged;
      },
      { remove: ending },
    );
    if (approved) {
      const kept = await ws.approvals.grant({ project: ws.projectIdentity(cwd), session: first.session, remember: approved });
      if (!kept.ok) writeErr(`shepherd: the approval was not remembered (${kept.reason}); Shepherd will ask again\n`);
    }
    if (ending) await ws.approvals.endSession(first.session);
    return decision;
  } finally {
    ws.close();
    audit.close();
  }
}
