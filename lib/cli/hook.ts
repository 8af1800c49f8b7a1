/**
 * @module `shepherd hook <agent>`: one hook invocation of Claude Code, Codex or Gemini CLI, answered once.
 * Each hook is a fresh process, so the session's counters travel through a state file (session-state-file.ts).
 * This path is timed (spawn to answer < 15 ms with 1,000 rules): keep imports light, write with writeSync.
 */
import { closeSync, openSync, readFileSync, readSync, fstatSync, writeSync } from "node:fs";
import { AdapterInputError, type AdapterIo, type AgentAdapter, emptyDecision, mergeDecisions, type ParsedHook } from "../adapters/agent-adapter.ts";
import { adapterFor, AGENTS } from "../adapters/index.ts";
import { pruneStateFiles, sessionStateDir, withSessionState } from "../adapters/session-state-file.ts";
import { AuditLog } from "../audit/audit-log.ts";
import { needsPlugins } from "../engine/merge.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Env } from "../rules/paths.ts";
import type { RuleSnapshots } from "../rules/hook-snapshot.ts";
import type { RuleLoadCache } from "../rules/load-cache.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";
import { VERSION } from "../version.ts";

/** The largest hook input read; a Write of a big file travels in one JSON (DESIGN section 2 caps lines at 4 MiB too). */
export const MAX_HOOK_INPUT = 8 * 1024 * 1024;
const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;

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
  readStdin?: () => string;
  writeOut?: (text: string) => void;
  writeErr?: (text: string) => void;
  /** Called with every decision (tests, audit). */
  onDecision?: (parsed: ParsedHook, decision: Decision) => void;
}

/** Plain typed arrays and a TextDecoder: a hook's first use of Buffer costs it ~0.1 ms of start-up. */
function readAllStdin(): string {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(1 << 16);
  let total = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") continue; // a non-blocking pipe: retry until data or EOF
      if (code === "EOF") break;
      throw err;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_HOOK_INPUT) throw new AdapterInputError(`hook input exceeds ${MAX_HOOK_INPUT} bytes`);
    chunks.push(buf.slice(0, n));
  }
  let all = chunks[0] ?? new Uint8Array(0);
  if (chunks.length > 1) {
    all = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
  }
  return new TextDecoder().decode(all);
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
  let failClosed = true;
  try {
    const text = (deps.readStdin ?? readAllStdin)();
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new AdapterInputError(`hook input is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    parsed = adapter.parse(raw, deps.env, fileIo);
    const decision = await decide(adapter, parsed, deps, (closed) => {
      failClosed = closed;
    });
    deps.onDecision?.(parsed, decision);
    const answer = adapter.answer(parsed, decision);
    if (answer.stdout) out(answer.stdout);
    return answer.exitCode;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    err(`shepherd hook ${adapter.agent}: ${message}\n`);
    const answer = adapter.failure(parsed, message, failClosed);
    if (answer.stdout) out(answer.stdout);
    return answer.exitCode;
  }
}

async function decide(adapter: AgentAdapter, parsed: ParsedHook, deps: HookDeps, setFailMode: (closed: boolean) => void): Promise<Decision> {
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
      ws.close();
      ws = new Workspace({ env: deps.env, cwd, watch: false, lazyCompile: true, ...(deps.loadCache ? { loadCache: deps.loadCache } : {}), onDecision, plugins: await deps.loadPlugins() }, VERSION);
      host = ws.host(cwd);
    }
    setFailMode(host.settings.failMode !== "open");
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
