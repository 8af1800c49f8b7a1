/**
 * @module warming a sidecar before its first request. A pi session is hundreds of tool calls: left cold,
 * its first few thousand requests run the evaluation in Bun's interpreter and baseline tiers and build
 * the prefilter's indexes and compile rules on the way, which is where the stdio p99 over a session's start
 * went (3x the echo's). Ordinary events of each kind, sent at start as request lines through the sidecar's
 * own transport and dispatcher and decided on a scratch session store (Workspace.scratch), move that work
 * before the client's first line is read. The warm-up waits for the project's plugins: until they are
 * loaded its rules are not final (and, before this waited, the warm-up of a sidecar with plugins, i.e.
 * every `shepherd serve`, evaluated nothing).
 */
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Logger } from "../log.ts";
import type { Workspace } from "../rules/workspace.ts";
import { compilerTicks, listThreads } from "./compiler-threads.ts";
import type { Dispatcher } from "./dispatch.ts";
import { serveStdio } from "./transport.ts";

/**
 * Evaluations at start (~100 rounds of warmEvents). 1,000 left the client's first 5,000 requests in the
 * JIT's lower tiers: their p50 was 2.3x the echo's (one CPU, 1,000 rules) against ~1.6x once warm; at 4,000
 * it was 2.0x and the p99 over them 2.0x -> 1.8x (5 alternated starts each). The price is ~0.2 s of CPU at
 * start, before `initialize` is answered (bounded by WARM_BUDGET_MS on a loaded host).
 */
export const WARM_EVALUATIONS = 4_000;

const COMMANDS = [
  "git status",
  "git diff --stat HEAD~1",
  "git log --oneline -5",
  "git add -A && git commit -m 'wip'",
  "ls -la",
  "cat README.md | head -50",
  "grep -rn 'export function' src --include=*.ts",
  "find . -name '*.test.ts' -not -path './node_modules/*'",
  "npm run build && npm test",
  "bun test tests/unit.test.ts",
  "python3 -m pytest -q tests/",
  "rm -rf dist build",
  "mkdir -p out && cp a.txt out/",
  "echo done > status.txt",
  "curl -s https://example.com/api | jq .",
  "cd packages/core && npx tsc --noEmit",
  "sed -n 1,40p src/main.ts",
];

/** Ordinary events of each kind a session sends, in a folder of the project, for a session nobody else uses. */
export function warmEvents(cwd: string): HookEvent[] {
  const session = { id: "shepherd-prewarm", cwd, agent: "prewarm" };
  const events: HookEvent[] = [{ hook: "session_start", session }];
  for (const command of COMMANDS) {
    events.push({ hook: "tool_call", session, tool: { name: "bash", input: { command } } });
    events.push({ hook: "tool_result", session, tool: { name: "bash", input: { command } }, result: { text: `ran ${command}\nok\n`, isError: false } });
  }
  const file = "src/module.ts";
  events.push(
    { hook: "tool_call", session, tool: { name: "read", input: { path: file } } },
    { hook: "tool_call", session, tool: { name: "edit", input: { path: file, oldText: "let a = 1;", newText: "const a = 1;" } } },
    { hook: "tool_call", session, tool: { name: "write", input: { path: "docs/changes.md", content: "# Changes\n\n- a line of notes\n".repeat(20) } } },
    { hook: "tool_result", session, tool: { name: "read", input: { path: file } }, result: { text: "export const a = 1;\n".repeat(30), isError: false } },
    { hook: "tool_result", session, tool: { name: "edit", input: { path: file } }, result: { text: "edited", isError: true } },
    { hook: "input", session, prompt: "rename the helper and run the tests" },
    { hook: "message_end", session, message: { text: "I renamed the helper and the tests pass; the docs are updated too." } },
  );
  return events;
}

/** The warm events as the client sends them: request lines, one a chunk, as stdin delivers them. */
export function warmLines(events: readonly HookEvent[], rounds: number): Uint8Array[] {
  const bodies = events.map((event) => JSON.stringify({ method: "shepherd/evaluate", params: { event } }).slice(1));
  const encoder = new TextEncoder();
  const out: Uint8Array[] = [];
  let id = 0;
  for (let r = 0; r < rounds; r++) for (const body of bodies) out.push(encoder.encode(`{"jsonrpc":"2.0","id":${++id},${body}\n`));
  return out;
}

/** A successful answer's start (`send` writes the members in this order). */
const ANSWERED = /^\{"jsonrpc":"2\.0","id":\d+,"result":/;

export interface PrewarmOptions {
  /** A dispatcher like the sidecar's, deciding with `evaluate` instead of the workspace's audited evaluation. */
  dispatcherFor: (evaluate: (event: HookEvent) => Decision | Promise<Decision>) => Dispatcher;
  log: Logger;
  evaluations?: number;
  /** At most this long, wait for the JIT's compiler threads to finish what the warm-up gave them. */
  settleMs?: number;
  /**
   * Awaited once the project's rules are final (its plugins loaded, its rule set merged again for them),
   * before the first warm evaluation: where the sidecar lets the load's code and garbage go (gc-policy.ts).
   */
  beforeWarm?: () => void | Promise<void>;
  /**
   * Called when the warm evaluations are done, before the wait for the compiler threads: a collection here
   * frees the warm-up's garbage while the process is idle anyway, and the allocator hands the pages back
   * during that wait (freed pages go back after an idle moment, not at the collection itself).
   */
  afterWarm?: () => void;
  /**
   * Called once the compiler threads have settled; one more round of warm lines follows it, so what it
   * lets go (the binary's code pages, lib/rpc/code-pages.ts) and the serving path needs again comes back
   * before the client's first line, not during it.
   */
  afterSettle?: () => void;
  /** How long to wait for the project's plugins before giving up on the warm-up. */
  readyWaitMs?: number;
  /** Past this long, the warm-up stops after the round it is in (a loaded host must not delay `initialize` much). */
  budgetMs?: number;
}

/** The longest wait for the project's plugins (default of `readyWaitMs`): the client's first line waits for it. */
export const READY_WAIT_MS = 1_000;

/**
 * The longest the warm-up's rounds run (default of `budgetMs`). 300 ms cut the rounds short on a loaded host
 * (two sessions' test suites on the 2 CPUs), which is where the first requests then paid for the JIT.
 */
export const WARM_BUDGET_MS = 800;

/** The longest wait for the compiler threads at start (default of `settleMs`). */
export const SETTLE_MS = 400;
const SETTLE_POLL_MS = 10;

/**
 * Waits until the compiler threads spent no CPU tick over two polls in a row, or `maxMs` passed: what the
 * warm-up made hot is then compiled before the first request instead of beside it. Nothing to wait for
 * where the threads cannot be seen (no /proc).
 */
export async function settleCompiler(maxMs: number, ticks: () => number = compilerTicks, sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms))): Promise<void> {
  if (maxMs <= 0 || listThreads().length === 0) return;
  const end = performance.now() + maxMs;
  let last = ticks();
  let quiet = 0;
  while (quiet < 2 && performance.now() < end) {
    await sleep(SETTLE_POLL_MS);
    const now = ticks();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/**
 * Warms the project's evaluation and the serving path around it (framing, the envelope and event guards,
 * the dispatch, the answer's serialization): warm request lines run through the sidecar's own transport
 * code, answered by a scratch evaluator. Resolves with the evaluations answered (0 when the project could
 * not be warmed); never rejects (a warm-up is an optimisation).
 */
export async function prewarm(workspace: Workspace, cwd: string, opts: PrewarmOptions): Promise<number> {
  try {
    // Rules naming plugin actions are final only once the project's plugins are loaded (the binary loads
    // them before it serves; a provider that takes longer is not waited for past READY_WAIT_MS).
    let waited: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([workspace.ready(cwd), new Promise<void>((resolve) => (waited = setTimeout(resolve, opts.readyWaitMs ?? READY_WAIT_MS)))]);
    clearTimeout(waited);
    const evaluate = workspace.scratch(cwd);
    if (!evaluate) return 0;
    await opts.beforeWarm?.();
    const events = warmEvents(cwd);
    const chunks = warmLines(events, Math.max(1, Math.round((opts.evaluations ?? WARM_EVALUATIONS) / events.length)));
    const deadline = performance.now() + (opts.budgetMs ?? WARM_BUDGET_MS);
    let next = 0;
    let answered = 0;
    // At least the first round; then whole rounds while the budget lasts.
    const more = () => next < chunks.length && (next < events.length || next % events.length !== 0 || performance.now() < deadline);
    const input = { read: async () => (more() ? { done: false, value: chunks[next++] } : { done: true }) };
    const dispatcher = opts.dispatcherFor(evaluate);
    const write = (line: string) => void (ANSWERED.test(line) && answered++);
    await serveStdio({ input, write }, dispatcher, opts.log).done;
    opts.afterWarm?.();
    await settleCompiler(opts.settleMs ?? SETTLE_MS);
    if (opts.afterSettle) {
      opts.afterSettle();
      let k = 0;
      const again = { read: async () => (k < events.length ? { done: false, value: chunks[k++] } : { done: true }) };
      await serveStdio({ input: again, write }, dispatcher, opts.log).done;
    }
    return answered;
  } catch {
    // A rule set that throws here throws on a real event too, and is reported there.
    return 0;
  }
}
