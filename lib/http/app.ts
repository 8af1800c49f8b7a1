/**
 * @module the HTTP face as a hono app: agent hook routes (Claude Code's `http` hook type), a generic evaluate
 * route, health, status for the dashboard, and a server-sent-events feed of live decisions. Routes translate
 * only; every decision comes from the same Workspace the stdio sidecar uses.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import * as v from "valibot";
import { AdapterInputError, type AgentAdapter, mergeDecisions, type ParsedHook } from "../adapters/agent-adapter.ts";
import { adapterFor } from "../adapters/index.ts";
import { fileIo } from "../hook/run.ts";
import { sniffEventName } from "../hook/input.ts";
import { decideWithin, effectiveDeadline } from "../deadline.ts";
import { isHookEvent } from "../engine/event-guard.ts";
import { guardedParse } from "../engine/guard-kit.ts";
import { type Decision, type HookEvent, HookEventSchema, type LayerName } from "../engine/schema.ts";
import type { Settings } from "../engine/schema-core.ts";
import type { Logger } from "../log.ts";
import type { Workspace } from "../rules/workspace.ts";
import { trustSideBySide, type TrustSideBySide } from "../rules/pi-trust.ts";
import { dashboardPage } from "./dashboard-page.ts";
import type { DecisionFeed } from "./decision-feed.ts";

export const MAX_BODY_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;
const STALL_MS = 30_000;

export interface AppDeps {
  workspace: Workspace;
  /** Decision telemetry as the dashboard shows it: the config in force for a project's settings, counts, last problem. */
  telemetry?: (settings: Settings) => unknown;
  feed: DecisionFeed;
  version: string;
  log: Logger;
  /** When set, every route but /health needs `Authorization: Bearer <token>` or `?token=`. */
  token?: string;
  /** Bound to loopback without a token: only local Host names are answered (blocks DNS rebinding). */
  loopbackOnly: boolean;
  /** How often an idle event stream is pinged. */
  heartbeatMs?: number;
  /** A write to an event stream that takes longer than this means its reader stopped: it is dropped. */
  stallMs?: number;
  /**
   * Lifts the server's idle timeout off a live event stream (true) or puts it back (false). Bun counts
   * only reads as activity, so a stream that only writes would be cut at the idle timeout otherwise.
   */
  streamTimeout?: (req: Request, live: boolean) => void;
}

const RevokeBodySchema = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/, "an approval id is 12 hex digits")) });
const HintBodySchema = v.looseObject({ session: v.looseObject({ id: v.pipe(v.string(), v.minLength(1)) }), text: v.pipe(v.string(), v.minLength(1)) });

function sameSecret(a: string, b: string): boolean {
  // Constant time in the length of the expected token, so a timing probe learns nothing.
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i % Math.max(1, a.length)) || 0) ^ b.charCodeAt(i);
  return diff === 0;
}

const LOCAL_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

function issueBody(issues: readonly v.BaseIssue<unknown>[]): { error: string; path: string } {
  const first = issues[0];
  return { error: first?.message ?? "invalid body", path: first ? (v.getDotPath(first) ?? "") : "" };
}

/**
 * The HTTP hook answer to a call that could not be read: an HTTP hook has no exit code, so the block is
 * the agent's JSON deny for a tool call (or an unknown event), given with status 200.
 */
function hookFailure(adapter: AgentAdapter, event: string | undefined, message: string): Response {
  const blocks = event === undefined || event === adapter.preToolEvent;
  const pending: ParsedHook = { agentEvent: adapter.preToolEvent, events: [], stopHookActive: false, preTool: true, sessionId: "" };
  const body = blocks ? adapter.failure(pending, message, "closed").stdout : "{}";
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

export function createApp(deps: AppDeps): Hono {
  const { workspace, feed } = deps;
  const app = new Hono();

  app.onError((err, c) => {
    deps.log.error(`http ${c.req.method} ${c.req.path}: ${err.message}`);
    return c.json({ error: "internal error" }, 500);
  });

  app.use("*", async (c, next) => {
    if (deps.loopbackOnly && !LOCAL_HOST.test(c.req.header("host") ?? "")) return c.json({ error: "forbidden host" }, 403);
    if (deps.token !== undefined && c.req.path !== "/health") {
      const auth = c.req.header("authorization") ?? "";
      const given = auth.startsWith("Bearer ") ? auth.slice(7) : (c.req.query("token") ?? "");
      if (!sameSecret(given, deps.token)) return c.json({ error: "unauthorized" }, 401);
    }
    if (c.req.method === "POST" && !(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) {
      // A cross-site page can only send simple content types without a preflight we never answer.
      return c.json({ error: "content-type must be application/json" }, 415);
    }
    return next();
  });
  app.use(
    "/v1/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => {
        const message = `body exceeds ${MAX_BODY_BYTES} bytes`;
        // A hook call too large to read may be a tool call: blocked, not refused (an agent runs a refused one).
        const adapter = c.req.path.startsWith("/v1/hooks/") ? adapterFor(c.req.path.slice("/v1/hooks/".length)) : undefined;
        return adapter ? hookFailure(adapter, undefined, message) : c.json({ error: message }, 413);
      },
    }),
  );

  async function evaluateAll(events: readonly HookEvent[], dryRun = false): Promise<Decision> {
    const decisions: Decision[] = [];
    for (const event of events) {
      const d = await workspace.evaluate(event, { uncounted: dryRun });
      feed.publish(event, d);
      decisions.push(d);
      // The server keeps sessions in memory; an ended one need not wait for eviction.
      if (event.hook === "session_shutdown") workspace.sessions.delete(event.session.id);
    }
    return mergeDecisions(decisions);
  }

  /** evaluateAll answered by the deadline (`hookDeadlineMs`): an agent's HTTP hook times out too. */
  function evaluateWithin(events: readonly HookEvent[], dryRun = false): Decision | Promise<Decision> {
    const first = events[0];
    if (!first) return evaluateAll(events, dryRun);
    const { settings } = workspace.host(first.session.cwd);
    const ms = effectiveDeadline(settings.hookDeadlineMs, undefined);
    return decideWithin(
      events.map((e) => e.hook),
      evaluateAll(events, dryRun),
      ms,
      settings.failMode,
    );
  }

  async function readJson(c: { req: { json: () => Promise<unknown> } }): Promise<{ ok: true; value: unknown } | { ok: false }> {
    try {
      return { ok: true, value: await c.req.json() };
    } catch {
      return { ok: false };
    }
  }

  app.get("/health", (c) => c.json({ ok: true, name: "shepherd", version: deps.version }));

  app.post("/v1/evaluate", async (c) => {
    const body = await readJson(c);
    if (!body.ok) return c.json({ error: "body is not JSON", path: "" }, 400);
    // Both `{event: HookEvent}` (like the stdio method's params) and a bare HookEvent are accepted.
    const wrapped = body.value !== null && typeof body.value === "object" && "event" in body.value;
    const raw: unknown = wrapped ? (body.value as { event: unknown }).event : body.value;
    const parsed = guardedParse(isHookEvent, HookEventSchema, raw);
    if (!parsed.success) {
      const issue = issueBody(parsed.issues);
      return c.json({ ...issue, path: wrapped ? `event${issue.path ? `.${issue.path}` : ""}` : issue.path }, 400);
    }
    const event: HookEvent = parsed.output;
    return c.json(await evaluateWithin([event]));
  });

  app.post("/v1/hint", async (c) => {
    const body = await readJson(c);
    if (!body.ok) return c.json({ error: "body is not JSON", path: "" }, 400);
    const parsed = v.safeParse(HintBodySchema, body.value);
    if (!parsed.success) return c.json(issueBody(parsed.issues), 400);
    workspace.hint(parsed.output.session.id, parsed.output.text);
    return c.json({});
  });

  // Claude Code's `http` hook type posts its hook JSON here; Codex and Gemini JSON work too (e.g. via curl).
  app.post("/v1/hooks/:agent", async (c) => {
    const adapter = adapterFor(c.req.param("agent"));
    if (!adapter) return c.json({ error: `unknown agent ${c.req.param("agent")}` }, 404);
    // An agent reads a 4xx as "no opinion" and runs the tool: what cannot be parsed is answered as
    // `shepherd hook` answers it, a block unless the event is known to have nothing pending.
    const unreadable = (message: string, event: string | undefined) => hookFailure(adapter, event, message);
    const text = await c.req.text();
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return unreadable("body is not JSON", sniffEventName(text.slice(0, 64 * 1024)));
    }
    let parsed: ParsedHook;
    try {
      parsed = adapter.parse(raw, {}, deps.loopbackOnly ? fileIo : undefined);
    } catch (e) {
      if (e instanceof AdapterInputError) return unreadable(e.message, sniffEventName(text.slice(0, 64 * 1024)));
      throw e;
    }
    let decision: Decision;
    try {
      decision = await evaluateWithin(parsed.events, parsed.dryRun === true);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      deps.log.error(`http hook ${adapter.agent}: ${message}`);
      const failMode = parsed.events[0] ? workspace.host(parsed.events[0].session.cwd).settings.failMode : "closed";
      const failure = adapter.failure(parsed, message, failMode);
      return c.body(failure.stdout || "{}", 200, { "content-type": "application/json" });
    }
    const answer = adapter.answer(parsed, decision);
    return c.body(answer.stdout || "{}", 200, { "content-type": "application/json" });
  });

  app.get("/v1/status", (c) => {
    const status = statusOf(workspace, c.req.query("cwd"), deps.version);
    return c.json(deps.telemetry ? { ...status, telemetry: deps.telemetry(workspace.host(status.cwd).settings) } : status);
  });

  // Remembered approvals (lib/approvals/): listed, and revoked one at a time; none is ever created here.
  app.get("/v1/approvals", (c) => c.json({ file: workspace.approvals.file, approvals: workspace.approvals.all() }));

  app.post("/v1/approvals/revoke", async (c) => {
    const body = await readJson(c);
    if (!body.ok) return c.json({ error: "body is not JSON", path: "" }, 400);
    const parsed = v.safeParse(RevokeBodySchema, body.value);
    if (!parsed.success) return c.json(issueBody(parsed.issues), 400);
    const r = await workspace.approvals.revoke((a) => a.id === parsed.output.id);
    if (!r.ok) return c.json({ error: r.reason }, 500);
    return c.json({ revoked: r.value.map((a) => a.id) }, r.value.length > 0 ? 200 : 404);
  });

  app.get("/v1/events", (c) =>
    streamSSE(c, async (stream) => {
      const sub = feed.subscribe();
      deps.streamTimeout?.(c.req.raw, true);
      let closed = false;
      let signalClosed: () => void = () => undefined;
      const whenClosed = new Promise<void>((resolve) => {
        signalClosed = resolve;
      });
      stream.onAbort(() => {
        closed = true;
        signalClosed();
        sub.poke();
      });
      const beat = setInterval(() => sub.poke(), deps.heartbeatMs ?? HEARTBEAT_MS);
      // A reader that stopped reading blocks the write; the drop (its queue overflowed) ends the wait.
      const stallMs = deps.stallMs ?? STALL_MS;
      const send = async (message: { event: string; data: string; id?: string }): Promise<boolean> => {
        // A reader that stopped while no decisions come overflows nothing: the stalled write itself drops it.
        const stall = setTimeout(() => sub.drop(`did not read for ${stallMs} ms`), stallMs);
        try {
          const outcome = await Promise.race([stream.writeSSE(message).then(() => "sent" as const), sub.whenDropped.then(() => "dropped" as const), whenClosed.then(() => "closed" as const)]);
          return outcome === "sent";
        } finally {
          clearTimeout(stall);
        }
      };
      try {
        if (!(await send({ event: "hello", data: JSON.stringify({ version: deps.version }) }))) return;
        while (!closed && !sub.dropped) {
          const next = sub.take();
          if (next) {
            if (!(await send({ event: "decision", id: next.id, data: next.data }))) break;
            continue;
          }
          await sub.wait();
          if (!closed && !sub.dropped && sub.queued.entries === 0 && !(await send({ event: "ping", data: "" }))) break;
        }
        const dropped = sub.dropped;
        // Told, not awaited: the notice queues behind a blocked write (write() queues it at once, before the
        // stream is closed after it). The reader that comes back sees why; an EventSource reconnects.
        if (dropped && !closed) void stream.write(`event: dropped\ndata: ${JSON.stringify(dropped)}\n\n`);
      } finally {
        // From here the idle timeout applies again: a reader that never reads what is left is cut off.
        deps.streamTimeout?.(c.req.raw, false);
        clearInterval(beat);
        feed.unsubscribe(sub);
      }
    }),
  );

  app.get("/", (c) => {
    c.header("content-security-policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:");
    c.header("x-content-type-options", "nosniff");
    return c.html(dashboardPage(deps.version));
  });

  app.notFound((c) => c.json({ error: "not found" }, 404));
  return app;
}

export interface RuleSummary {
  name: string;
  hook: string;
  tools: string[];
  action: string;
  file: string;
  locked: boolean;
  comment?: string;
}

export interface DashboardStatus {
  version: string;
  cwd: string;
  trusted: boolean;
  /** Shepherd's trust and pi 1.x's, side by side; pi's never counts for Shepherd. */
  trust: TrustSideBySide;
  layers: Record<LayerName, RuleSummary[]>;
  files: { source: string; file: string; rules: number; ok: boolean }[];
  issues: { file: string; path: string; message: string; severity: string; line?: number; column?: number }[];
  skipped: { rule: string; source: string; file: string; reason: string }[];
  /** "Would have" decisions of shadow-mode rules, per rule and action. */
  shadow: { rule: string; source: string; action: string; count: number }[];
  /** The managed policy in force; `broken` names a managed file read most restrictively. */
  managed: { failMode?: string; projectRules: boolean; broken?: string };
  sessions: { id: string; calls: number; errors: number; callsByTool: Record<string, number>; errorsByTool: Record<string, number>; hasEdits: boolean; lastSeen: number }[];
}

export function statusOf(workspace: Workspace, cwd: string | undefined, version: string): DashboardStatus {
  const host = workspace.host(cwd || workspace.defaultCwd);
  const layers: DashboardStatus["layers"] = { managed: [], builtin: [], global: [], project: [] };
  for (const r of host.ruleSet.rules) {
    layers[r.source].push({ name: r.name, hook: r.hook, tools: r.tools, action: r.action, file: r.file, locked: r.locked, ...(r.comment ? { comment: r.comment } : {}) });
  }
  const sessions: DashboardStatus["sessions"] = [];
  for (const id of workspace.sessions.ids()) {
    const s = workspace.sessions.peek(id);
    if (s) sessions.push({ id, calls: s.calls, errors: s.errors, callsByTool: s.callsByTool, errorsByTool: s.errorsByTool, hasEdits: s.hasEdits, lastSeen: s.lastSeen });
  }
  sessions.sort((a, b) => b.lastSeen - a.lastSeen);
  return {
    version,
    cwd: host.cwd,
    trusted: host.trusted,
    trust: trustSideBySide(host.cwd, host.trusted, workspace.env),
    layers,
    files: host.layerFiles(),
    issues: host.issues.map((i) => ({ file: i.file, path: i.path, message: i.message, severity: i.severity, ...(i.line !== undefined ? { line: i.line, column: i.column ?? 1 } : {}) })),
    skipped: host.ruleSet.skipped.map((k) => ({ rule: k.rule.name, source: k.rule.source, file: k.rule.file, reason: k.reason })),
    shadow: workspace.shadowCounts().slice(0, 200),
    managed: { ...(host.managed.failMode ? { failMode: host.managed.failMode } : {}), projectRules: host.managed.projectRules, ...(host.managed.broken ? { broken: host.managed.broken } : {}) },
    sessions: sessions.slice(0, 100),
  };
}
