/** @module JSON-RPC 2.0 method table: the one place where failures become wire errors. */
import * as v from "valibot";
import { decideWithin, deadlineWithin } from "../deadline.ts";
import { isHookEvent } from "../engine/event-guard.ts";
import { guardedParse } from "../engine/guard-kit.ts";
import { HookEventSchema, issuePath } from "../engine/schema.ts";
import type { Logger } from "../log.ts";
import { HOOK_TOOL_DEFINITION, HOOK_TOOL_NAME } from "../adapters/claude-code-mcp.ts";
import { runHookTool } from "../rules/hook-tool.ts";
import { RULES_TOOL_DEFINITION, RULES_TOOL_NAME, runRulesTool } from "../rules/rules-tool.ts";
import { CONSENT_META_KEY } from "../rules/rules-tool-consent.ts";
import type { Workspace } from "../rules/workspace.ts";
import { EnvelopeSchema, isEnvelope } from "./envelope.ts";
import { PendingOffers } from "../approvals/pending-offers.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";

export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

export const MCP_PROTOCOL_VERSION = "2025-06-18";

type Id = string | number | null;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcResponse = { jsonrpc: "2.0"; id: Id; result: unknown } | { jsonrpc: "2.0"; id: Id; error: RpcError };

/** Thrown by handlers for a bad argument; carries the offending path into `data`. */
export class InvalidParams extends Error {
  readonly path: string;
  constructor(message: string, path: string) {
    super(message);
    this.path = path;
  }
}

const EvaluateParams = v.object({ event: HookEventSchema });
const HintParams = v.object({ session: v.looseObject({ id: v.pipe(v.string(), v.minLength(1)) }), text: v.pipe(v.string(), v.minLength(1)), source: v.optional(v.string()) });
/**
 * A person's consent to a `shepherd_rules` change rides in the request's `_meta`, which the client sets
 * and the model cannot: the model writes only `arguments`.
 */
const ToolCallParams = v.object({
  name: v.string(),
  arguments: v.optional(v.unknown()),
  _meta: v.optional(v.looseObject({ [CONSENT_META_KEY]: v.optional(v.pipe(v.string(), v.maxLength(128))) })),
});
/** A person's yes to an ask, sent by the client that showed the dialog; the token is the sidecar's own. */
const ApproveParams = v.object({ token: v.pipe(v.string(), v.minLength(1), v.maxLength(128)) });
const StatusParams = v.optional(v.object({ cwd: v.optional(v.string()), session: v.optional(v.looseObject({ id: v.string() })) }));

function parseParams<const S extends v.GenericSchema>(schema: S, params: unknown): v.InferOutput<S> {
  const res = v.safeParse(schema, params);
  if (res.success) return res.output;
  const first = res.issues[0];
  const path = first ? issuePath(first) : "";
  throw new InvalidParams(`invalid params${path ? ` at ${path}` : ""}: ${first?.message ?? "unknown"}`, path);
}

export interface DispatcherOptions {
  workspace: Workspace;
  version: string;
  log: Logger;
  /**
   * Offer `shepherd_hook` (`shepherd serve --hook-tool`, which `init claude-code --mcp` writes). Off by
   * default: a client that shows a server's tools to its model would let the model feed Shepherd invented
   * hook events; Claude Code's hooks are the one caller it is for, and Shepherd denies the model's own call.
   */
  hookTool?: boolean;
  /**
   * How `shepherd/evaluate` decides (default: the workspace's own evaluation, audited and counted). The
   * warm-up passes a scratch evaluator, so its requests run the serving path and leave no trace.
   */
  evaluate?: (event: HookEvent) => Decision | Promise<Decision>;
}

type Handler = (params: unknown) => unknown;

/**
 * An ask with `remember` gets a token for the client to send back on a "yes" (`shepherd/approve`); an ended
 * session's approvals go before the answer, so a sidecar stopped right after it does not keep them.
 */
function withApprovals(workspace: Workspace, offers: PendingOffers, event: HookEvent, decision: Decision): Decision | Promise<Decision> {
  if (event.hook === "session_shutdown") return workspace.approvals.endSession(event.session).then(() => decision);
  if (decision.action !== "ask" || !decision.remember || decision.remember.length === 0) return decision;
  const token = offers.offer({ project: workspace.projectIdentity(event.session.cwd), session: event.session, remember: decision.remember });
  return { ...decision, approvalToken: token };
}

export class Dispatcher {
  #methods: Map<string, Handler>;
  #log: Logger;

  constructor(opts: DispatcherOptions) {
    const { workspace, version } = opts;
    const evaluate = opts.evaluate ?? ((event: HookEvent) => workspace.evaluate(event));
    this.#log = opts.log;
    const offers = new PendingOffers();
    this.#methods = new Map<string, Handler>([
      [
        "initialize",
        () => ({
          protocolVersion: MCP_PROTOCOL_VERSION,
          capabilities: { tools: { listChanged: true }, logging: {}, experimental: { shepherd: { version: 1 } } },
          serverInfo: { name: "shepherd", version },
        }),
      ],
      ["ping", () => ({})],
      ["logging/setLevel", () => ({})],
      ["tools/list", () => ({ tools: opts.hookTool ? [RULES_TOOL_DEFINITION, HOOK_TOOL_DEFINITION] : [RULES_TOOL_DEFINITION] })],
      [
        "tools/call",
        async (params) => {
          const p = parseParams(ToolCallParams, params);
          if (p.name === HOOK_TOOL_NAME && opts.hookTool) {
            const res = await runHookTool(workspace, p.arguments ?? {});
            return { content: [{ type: "text", text: res.text }], isError: res.isError };
          }
          if (p.name !== RULES_TOOL_NAME) throw new InvalidParams(`unknown tool "${p.name}"`, "name");
          const consent = p._meta?.[CONSENT_META_KEY];
          const res = await runRulesTool(workspace, p.arguments ?? {}, consent === undefined ? {} : { consent });
          const answer = { content: [{ type: "text", text: res.text }], isError: res.isError };
          return res.consent ? { ...answer, _meta: { [CONSENT_META_KEY]: res.consent } } : answer;
        },
      ],
      [
        "shepherd/evaluate",
        (params) => {
          // The hot path: a valid event is used as it came; anything else gets the schema's error message.
          const given = (params as { event?: unknown } | undefined)?.event;
          const event = isHookEvent(given) ? given : parseParams(EvaluateParams, params).event;
          const decision = evaluate(event);
          if (!(decision instanceof Promise)) return withApprovals(workspace, offers, event, decision);
          // Pending work (a plugin, a git check) is answered by the deadline, before the client's own timeout.
          const { settings } = workspace.host(event.session.cwd);
          const timed = decideWithin([event.hook], decision, deadlineWithin(settings.timeoutMs), settings.failMode);
          return timed instanceof Promise ? timed.then((d) => withApprovals(workspace, offers, event, d)) : withApprovals(workspace, offers, event, timed);
        },
      ],
      [
        // Not an MCP tool (tools/list never offers it): only the client that showed the person the dialog sends it.
        "shepherd/approve",
        async (params) => {
          const p = parseParams(ApproveParams, params);
          const grant = offers.take(p.token);
          if (!grant) return { approved: [] };
          const r = await workspace.approvals.grant(grant);
          if (!r.ok) throw new Error(`approval not kept: ${r.reason}`);
          return { approved: r.value.map((a) => ({ id: a.id, scope: a.scope, rule: a.rule })) };
        },
      ],
      [
        "shepherd/hint",
        (params) => {
          const p = parseParams(HintParams, params);
          workspace.hint(p.session.id, p.text);
          return {};
        },
      ],
      [
        "shepherd/status",
        (params) => {
          const p = parseParams(StatusParams, params);
          return workspace.status(p?.cwd, p?.session?.id);
        },
      ],
      ["shepherd/reload", (params) => workspace.reload(parseParams(StatusParams, params)?.cwd)],
    ]);
  }

  /**
   * Handles one line; gives the response to write, or undefined for a notification. Synchronous when the
   * handler is (ping, evaluate without a plugin or git check): a promise per line costs the sidecar's
   * round-trip microseconds. Never throws or rejects: every failure becomes a JSON-RPC error.
   */
  handleLine(line: string): Answer {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return errorResponse(null, ErrorCodes.ParseError, "parse error: not valid JSON");
    }
    return this.handleMessage(msg);
  }

  handleMessage(msg: unknown): Answer {
    const env = guardedParse(isEnvelope, EnvelopeSchema, msg);
    if (!env.success) {
      const first = env.issues[0];
      return errorResponse(idOf(msg), ErrorCodes.InvalidRequest, `invalid request${first ? `: ${issuePath(first) || "(message)"} ${first.message}` : ""}`);
    }
    const envelope = env.output;
    const { method, params } = envelope;
    const isNotification = !("id" in (msg as object));
    const id = envelope.id ?? null;
    if (method.startsWith("notifications/")) return undefined;
    const handler = this.#methods.get(method);
    if (!handler) return isNotification ? undefined : errorResponse(id, ErrorCodes.MethodNotFound, `method not found: ${method}`);
    const ok = (result: unknown): RpcResponse | undefined => (isNotification ? undefined : { jsonrpc: "2.0", id, result });
    const failed = (err: unknown): RpcResponse | undefined => {
      if (err instanceof InvalidParams) return isNotification ? undefined : errorResponse(id, ErrorCodes.InvalidParams, err.message, { path: err.path });
      this.#log.error(`${method} failed: ${err instanceof Error ? err.message : String(err)}`);
      return isNotification ? undefined : errorResponse(id, ErrorCodes.InternalError, `internal error in ${method}`);
    };
    let result: unknown;
    try {
      result = handler(params);
    } catch (err) {
      return failed(err);
    }
    return result instanceof Promise ? result.then(ok, failed) : ok(result);
  }
}

/** A response now, one later, or none (a notification). */
export type Answer = RpcResponse | undefined | Promise<RpcResponse | undefined>;

function idOf(msg: unknown): Id {
  if (msg && typeof msg === "object" && "id" in msg) {
    const id = (msg as { id: unknown }).id;
    if (typeof id === "string" || typeof id === "number") return id;
  }
  return null;
}

export function errorResponse(id: Id, code: number, message: string, data?: unknown): RpcResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}
