/** @module `shepherd serve`: the stdio sidecar (JSON-RPC 2.0 lines), exits 0 on stdin EOF or SIGTERM. */
import { AuditLog } from "../audit/audit-log.ts";
import type { Logger } from "../log.ts";
import { Dispatcher } from "../rpc/dispatch.ts";
import { createGcPolicy } from "../rpc/gc-policy.ts";
import { prewarm } from "../rpc/prewarm.ts";
import { serveStdio, type TransportIO } from "../rpc/transport.ts";
import type { Env } from "../rules/paths.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";

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
}

/** Resolves with the exit code once stdin ends and every request is answered. */
export async function runServe(opts: ServeOptions): Promise<{ done: Promise<number>; close: () => void; workspace: Workspace }> {
  const audit = new AuditLog({ env: opts.env, log: opts.log, settingFor: (cwd): unknown => workspace.host(cwd).settings.audit });
  const workspace = new Workspace(
    { env: opts.env, cwd: opts.cwd, watch: true, onDecision: (event, decision) => audit.record(event, decision), ...(opts.plugins ? { plugins: opts.plugins } : {}) },
    opts.version,
  );
  const dispatcher = new Dispatcher({ workspace, version: opts.version, log: opts.log, ...(opts.hookTool ? { hookTool: true } : {}) });
  const gc = createGcPolicy();
  const write = (line: string) => {
    opts.write(line);
    gc.request();
  };
  const transport = serveStdio({ input: opts.input, write }, dispatcher, opts.log, opts.maxLineBytes);
  workspace.onNotify((level, message, data) => {
    // Notifications follow (re)loads: their garbage is collected once they are done.
    gc.loaded();
    opts.log[level](message);
    transport.notify("notifications/message", { level, logger: "shepherd", data: { message, ...(data && typeof data === "object" ? data : {}) } });
  });
  // Load the starting project now, so broken rule files are reported at start, not at the first event.
  workspace.host(opts.cwd);
  // ...and run its hot paths once, so a session's first requests do not pay for the JIT's warm-up.
  if (opts.prewarm !== false) prewarm(workspace, opts.cwd);
  gc.loaded();
  opts.log.debug(`serving ${opts.cwd}`);
  return {
    done: transport.done.then(() => {
      workspace.close();
      audit.close();
      return 0;
    }),
    close: () => {
      workspace.close();
      audit.close();
    },
    workspace,
  };
}
