/** @module `shepherd http`: the hono app on Bun.serve, loopback by default; a wider bind needs a token. */
import { createGcPolicy } from "../rpc/gc-policy.ts";
import { decisionSinks } from "../audit/decision-sinks.ts";
import { AuditLog } from "../audit/audit-log.ts";
import type { Logger } from "../log.ts";
import type { Env } from "../rules/paths.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";
import { TelemetrySink } from "../telemetry/telemetry-sink.ts";
import { telemetryStatusFile, telemetrySummary } from "../telemetry/telemetry-status.ts";
import { createApp } from "./app.ts";
import { DecisionFeed } from "./decision-feed.ts";

export const DEFAULT_HTTP_PORT = 7373;
/**
 * Seconds a keep-alive connection may sit idle, or a request body take, before Bun closes it (Bun allows
 * 1-255). Bun.serve has no header timeout option: it closes a connection whose request headers are not
 * complete after about 10 s by itself, trickled or not (measured in tests/http-bounds.test.ts).
 */
export const DEFAULT_IDLE_TIMEOUT_S = 30;
const MAX_HEARTBEAT_MS = 15_000;
/** How long a stopping server waits for the last decision spans to be exported. */
const TELEMETRY_EXIT_MS = 1_000;

export interface HttpOptions {
  cwd: string;
  env: Env;
  version: string;
  log: Logger;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  token?: string;
  plugins?: PluginProvider;
  /** An existing workspace (shares sessions with another face); otherwise one is made and watched. */
  workspace?: Workspace;
  /** Seconds without traffic before a connection is closed (1-255). */
  idleTimeoutS?: number;
}

export interface HttpServer {
  url: string;
  port: number;
  host: string;
  feed: DecisionFeed;
  workspace: Workspace;
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

export class HttpOptionsError extends Error {
  override readonly name = "HttpOptionsError";
}

/** Starts the server; throws HttpOptionsError for a non-loopback bind without a token. */
export function runHttp(opts: HttpOptions): HttpServer {
  const host = opts.host ?? "127.0.0.1";
  const token = opts.token ?? opts.env.SHEPHERD_HTTP_TOKEN;
  if (!isLoopback(host) && !token) {
    throw new HttpOptionsError(`binding to ${host} exposes Shepherd beyond this machine: pass --token <secret> (or set SHEPHERD_HTTP_TOKEN)`);
  }
  if (token !== undefined && token.length < 16) throw new HttpOptionsError("--token must be at least 16 characters");
  const idleTimeoutS = opts.idleTimeoutS ?? DEFAULT_IDLE_TIMEOUT_S;
  if (!Number.isInteger(idleTimeoutS) || idleTimeoutS < 1 || idleTimeoutS > 255) throw new HttpOptionsError(`--idle-timeout must be an integer 1-255 (seconds), not ${idleTimeoutS}`);
  const audit = new AuditLog({ env: opts.env, log: opts.log, settingFor: (cwd): unknown => workspace.host(cwd).settings.audit });
  const telemetry = new TelemetrySink({ env: opts.env, face: "http", version: opts.version, log: opts.log, threaded: true, statusFile: telemetryStatusFile(opts.env) });
  const workspace =
    opts.workspace ??
    new Workspace(
      {
        env: opts.env,
        cwd: opts.cwd,
        watch: true,
        onDecision: decisionSinks(audit, telemetry),
        ...(opts.plugins ? { plugins: opts.plugins } : {}),
      },
      opts.version,
    );
  workspace.host(opts.cwd);
  const feed = new DecisionFeed();
  const gc = createGcPolicy();
  // A heartbeat at half the idle timeout lets a dashboard (and any proxy between) see the stream is alive.
  const heartbeatMs = Math.min(MAX_HEARTBEAT_MS, (idleTimeoutS * 1000) / 2);
  let server: ReturnType<typeof Bun.serve> | undefined;
  const streamTimeout = (req: Request, live: boolean) => server?.timeout(req, live ? 0 : idleTimeoutS);
  const app = createApp({ workspace, feed, version: opts.version, log: opts.log, heartbeatMs, streamTimeout, telemetry: (settings) => ({ ...telemetrySummary(settings.telemetry, opts.env), ...telemetry.status() }), ...(token !== undefined ? { token } : {}), loopbackOnly: isLoopback(host) && token === undefined });
  const bun = Bun.serve({
    hostname: host,
    port: opts.port ?? DEFAULT_HTTP_PORT,
    // Idle keep-alive connections are let go; a live event stream lifts it (and drops a reader that stalls).
    idleTimeout: idleTimeoutS,
    // The sidecar's collection policy (lib/rpc/gc-policy.ts), large bodies included: a long-running face.
    fetch: async (req, srv) => {
      const res = await app.fetch(req, srv);
      gc.input(Number(req.headers.get("content-length")) || 0);
      gc.request();
      return res;
    },
  });
  server = bun;
  const port = bun.port ?? opts.port ?? DEFAULT_HTTP_PORT;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  opts.log.info(`http listening on ${url} (dashboard: ${url}/${token ? "?token=…" : ""})`);
  return {
    url,
    port,
    host,
    feed,
    workspace,
    close: async () => {
      await bun.stop(true);
      if (!opts.workspace) workspace.close();
      audit.close();
      await telemetry.close(TELEMETRY_EXIT_MS);
    },
  };
}
