/** @module `shepherd serve`: the stdio sidecar (JSON-RPC 2.0 lines), exits 0 on stdin EOF or SIGTERM. */
import { decisionSinks } from "../audit/decision-sinks.ts";
import { AuditLog } from "../audit/audit-log.ts";
import type { Logger } from "../log.ts";
import { codePageDropper, rateLimitedDropper } from "../rpc/code-pages.ts";
import { keepCompilerThreadsYielding } from "../rpc/compiler-threads.ts";
import { Dispatcher, type DispatcherOptions } from "../rpc/dispatch.ts";
import { createGcPolicy, runtimeCollector, runtimeShrinker } from "../rpc/gc-policy.ts";
import { prewarm } from "../rpc/prewarm.ts";
import { inputAfter, serveStdio, type TransportIO } from "../rpc/transport.ts";
import type { Env } from "../rules/paths.ts";
import { type PatternFactsCache, processPatternFacts } from "../rules/pattern-facts-cache.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";
import { TelemetrySink } from "../telemetry/telemetry-sink.ts";
import { telemetryStatusFile } from "../telemetry/telemetry-status.ts";

export interface ServeOptions {
  cwd: string;
  env: Env;
  version: string;
  log: Logger;
  input: TransportIO["input"];
  write: (line: string) => void;
  plugins?: PluginProvider;
  maxLineBytes?: number;
  /** Offer the `shepherd_hook` tool (Claude Code's mcp_tool hooks): only where a client's hooks call it. */
  hookTool?: boolean;
  /** Warm the evaluation before the first request (lib/rpc/prewarm.ts); on unless false. */
  prewarm?: boolean;
  /** Lower the JIT's compiler threads once warm (lib/rpc/compiler-threads.ts); on unless false. */
  yieldCompiler?: boolean;
}

const SILENT: Logger = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };

/** How long the sidecar waits, after stdin ends, for the last decision spans to be exported. */
const TELEMETRY_EXIT_MS = 1_000;

/**
 * Before the warm-up, once the rules are final: the pattern facts the load found are written now rather
 * than a second later, then the load's code and garbage go (gc-policy.ts runtimeShrinker). Measured at
 * 10,000 rules (bench/sections/memory.ts, medians of 5 starts): RSS after start 154 -> 118 MB, after
 * 100,000 evaluations 118 -> 108 MB. The client's first line waits for it (one full collection).
 */
async function releaseLoad(facts: PatternFactsCache): Promise<void> {
  facts.writeNow();
  await runtimeShrinker()?.();
}

/** Resolves with the exit code once stdin ends and every request is answered. */
export async function runServe(
  opts: ServeOptions,
): Promise<{ done: Promise<number>; close: () => void; workspace: Workspace; telemetry: TelemetrySink; warmed: Promise<number> }> {
  const audit = new AuditLog({ env: opts.env, log: opts.log, deferred: true, settingFor: (cwd): unknown => workspace.host(cwd).settings.audit });
  const telemetry = new TelemetrySink({ env: opts.env, face: "serve", version: opts.version, log: opts.log, threaded: true, deferred: true, statusFile: telemetryStatusFile(opts.env) });
  // A start whose rule files were seen before parses none of their patterns (written a second after a load).
  const patternFacts = processPatternFacts(opts.env, opts.version, { deferMs: 1_000 });
  const workspace = new Workspace(
    {
      env: opts.env,
      cwd: opts.cwd,
      watch: true,
      // The audit line is written right after the answer (a microtask); the span is built on a timer, exports later.
      onDecision: decisionSinks(audit, telemetry),
      ...(opts.plugins ? { plugins: opts.plugins } : {}),
      patternFacts,
    },
    opts.version,
  );
  // The warm-up's dispatcher decides on a scratch store and stays quiet: what fails there fails, and is
  // reported, on the client's own request.
  const dispatcherFor = (evaluate?: DispatcherOptions["evaluate"]) =>
    new Dispatcher({ workspace, version: opts.version, log: evaluate ? SILENT : opts.log, ...(opts.hookTool ? { hookTool: true } : {}), ...(evaluate ? { evaluate } : {}) });
  // The binary's clean code pages go after the warm-up and then, at most once a second, with a collection
  // (lib/rpc/code-pages.ts): the load's code (~25 MB of the binary's ~48 MB) is not touched again.
  const dropCode = rateLimitedDropper(codePageDropper());
  const collectGarbage = runtimeCollector();
  const gc = createGcPolicy(
    collectGarbage &&
      (() => {
        collectGarbage();
        dropCode();
      }),
  );
  const write = (line: string) => {
    opts.write(line);
    gc.request();
  };
  // The client's first line is read once the warm-up is done (below): the two never interleave.
  let warmedUp: (n: number) => void = () => {};
  const warmed = new Promise<number>((resolve) => {
    warmedUp = resolve;
  });
  const transport = serveStdio({ input: inputAfter(warmed, opts.input), write, onInput: (n) => gc.input(n) }, dispatcherFor(), opts.log, opts.maxLineBytes);
  workspace.onNotify((level, message, data) => {
    // Notifications follow (re)loads: their garbage is collected once they are done.
    gc.loaded();
    opts.log[level](message);
    transport.notify("notifications/message", { level, logger: "shepherd", data: { message, ...(data && typeof data === "object" ? data : {}) } });
  });
  // Load the starting project now, so broken rule files are reported at start, not at the first event.
  workspace.host(opts.cwd);
  // ...and run its hot paths, so a session's first requests do not pay for the JIT's warm-up; then the
  // compilations still to come run on CPU time the requests do not need.
  let closed = false;
  let stopYielding = () => {};
  let released = false;
  const release = () => {
    released = true;
    return releaseLoad(patternFacts);
  };
  // The warm-up's garbage goes before the client's first line is read (a few ms at 10,000 rules).
  let collected = false;
  let dropped = false;
  const collect = (warmedUp: boolean) => {
    collected = true;
    if (warmedUp) gc.warmed();
    else gc.loaded(true);
  };
  const warm =
    opts.prewarm === false
      ? Promise.resolve(0)
      : prewarm(workspace, opts.cwd, {
          dispatcherFor,
          log: SILENT,
          beforeWarm: release,
          afterWarm: () => collect(true),
          // After the compiler threads settled: their code and the load's leave the resident set, and one
          // more warm round brings back the serving path's pages before the client's first line.
          afterSettle: () => {
            dropped = true;
            dropCode(true);
          },
        });
  void warm.then((n) => {
    try {
      // A warm-up that warmed nothing (plugins slower than it waits) released nothing either: done once
      // the rules are final (they are merged again when the plugins come), without holding the client.
      if (!released && opts.prewarm !== false) void workspace.ready(opts.cwd).then(release);
      if (!collected) collect(false);
      // A warm-up that warmed nothing dropped nothing either.
      if (!dropped) dropCode(true);
      if (opts.yieldCompiler !== false && !closed) stopYielding = keepCompilerThreadsYielding();
    } finally {
      // Whatever happens here, the client's lines are read.
      warmedUp(n);
    }
  });
  opts.log.debug(`serving ${opts.cwd}`);
  return {
    done: transport.done.then(async () => {
      stopYielding();
      workspace.close();
      audit.close();
      // Every request is answered: what telemetry still holds gets a short, bounded chance to leave.
      await telemetry.close(TELEMETRY_EXIT_MS);
      return 0;
    }),
    close: () => {
      closed = true;
      stopYielding();
      workspace.close();
      audit.close();
      void telemetry.close(0);
    },
    telemetry,
    workspace,
    warmed,
  };
}
