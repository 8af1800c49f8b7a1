/**
 * @module the `telemetry` setting and the standard OTLP environment as one config: where decision spans go
 * (OTLP/HTTP, JSON), whether they carry redacted content, how many may wait. Off unless a setting or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` names an endpoint. No SDK here.
 */
import * as v from "valibot";
import { isPlainRecord } from "../engine/guard-kit.ts";
import { lazySchema } from "../lazy-schema.ts";

/** Decisions kept waiting for the exporter by default; past it the oldest are dropped (and counted). */
export const DEFAULT_MAX_QUEUE = 2_048;
export const MAX_MAX_QUEUE = 100_000;
export const DEFAULT_EXPORT_TIMEOUT_MS = 10_000;
/** The collector's default OTLP/HTTP port, for `"telemetry": true` with no endpoint anywhere. */
export const DEFAULT_ENDPOINT = "http://localhost:4318";
const TRACES_PATH = "v1/traces";

const endpointSchema = () =>
  v.pipe(
    v.string(),
    v.check((s) => httpUrl(s) !== undefined, "must be an http:// or https:// URL"),
  );

export const TelemetrySettingSchema = lazySchema(() =>
  v.union([
    v.boolean(),
    endpointSchema(),
    v.strictObject({
      enabled: v.optional(v.boolean()),
      /** Base URL (`/v1/traces` is appended) or the full traces URL. */
      endpoint: v.optional(endpointSchema()),
      /** Adds the (redacted) tool input, output, prompt, message and reasons to each span. */
      includeContent: v.optional(v.boolean()),
      /** Decisions waiting for export at most; the oldest are dropped past it. */
      maxQueue: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_MAX_QUEUE))),
      /** One export's bound in ms, the exporter's retries included (default 10 s). */
      timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(50), v.maxValue(60_000))),
      /** Sent with every export (a collector's API key): settings files are the user's, never a project's untrusted. */
      headers: v.optional(v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,64}$/, "must be a header name")), v.string())),
    }),
  ]),
);

export interface TelemetryConfig {
  /** The full OTLP/HTTP traces URL. */
  url: string;
  includeContent: boolean;
  maxQueue: number;
  timeoutMs: number;
  headers: Record<string, string>;
}

function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A base endpoint with `v1/traces` appended (as the SDK does for OTEL_EXPORTER_OTLP_ENDPOINT), unless it names it already. */
export function tracesUrl(base: string): string | undefined {
  const url = httpUrl(base);
  if (!url) return undefined;
  if (url.pathname.replace(/\/+$/, "").endsWith(`/${TRACES_PATH}`)) return url.href;
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${TRACES_PATH}`;
  return url.href;
}

/** The traces URL the standard environment names, if any: the signal-specific variable is taken as is. */
export function envTracesUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return httpUrl(traces)?.href;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? tracesUrl(base) : undefined;
}

/** `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`: the environment's own off switch. */
function envDisabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true" || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none";
}

/**
 * The config in force, or undefined when telemetry is off. `setting` is the merged `telemetry` setting with
 * the managed policy already imposed (a managed value replaces every lower one). With no setting the
 * standard environment decides (an endpoint turns it on, `OTEL_SDK_DISABLED=true` keeps it off); a setting
 * decides over the environment: `false` (or `enabled: false`) is off whatever the environment says, and an
 * endpoint in the setting wins over the environment's. An invalid value was reported and dropped by the
 * settings loader; here it counts as no setting, and never as content.
 */
export function telemetryConfig(setting: unknown, env: Readonly<Record<string, string | undefined>>): TelemetryConfig | undefined {
  const fromEnv = envTracesUrl(env);
  const byEnv = fromEnv && !envDisabled(env) ? { url: fromEnv, includeContent: false, maxQueue: DEFAULT_MAX_QUEUE, timeoutMs: DEFAULT_EXPORT_TIMEOUT_MS, headers: {} } : undefined;
  if (setting === undefined || setting === null) return byEnv;
  if (setting === false) return undefined;
  const parsed = v.safeParse(TelemetrySettingSchema(), setting);
  if (!parsed.success) return byEnv;
  const s = parsed.output;
  if (s === true) return { url: fromEnv ?? (tracesUrl(DEFAULT_ENDPOINT) as string), includeContent: false, maxQueue: DEFAULT_MAX_QUEUE, timeoutMs: DEFAULT_EXPORT_TIMEOUT_MS, headers: {} };
  if (typeof s === "string") return { url: tracesUrl(s) as string, includeContent: false, maxQueue: DEFAULT_MAX_QUEUE, timeoutMs: DEFAULT_EXPORT_TIMEOUT_MS, headers: {} };
  if (s === false || s.enabled === false) return undefined;
  // An object with nothing but `includeContent` etc. and no endpoint anywhere: on only if the environment names one.
  const url = s.endpoint !== undefined ? tracesUrl(s.endpoint) : (fromEnv ?? (s.enabled === true ? tracesUrl(DEFAULT_ENDPOINT) : undefined));
  if (!url) return undefined;
  return { url, includeContent: s.includeContent ?? false, maxQueue: s.maxQueue ?? DEFAULT_MAX_QUEUE, timeoutMs: s.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS, headers: s.headers ?? {} };
}

/** The problems of a `telemetry` value, as messages with the key path they are about; none when valid. */
export function telemetryProblems(setting: unknown): { path: string; message: string }[] {
  if (setting === undefined || setting === null) return [];
  const schema = TelemetrySettingSchema();
  // An object is checked against the object form alone, so the message names the bad key, not the union.
  const res = isPlainRecord(setting) ? v.safeParse(schema.options[2], setting) : v.safeParse(schema, setting);
  if (res.success) return [];
  return res.issues.map((issue) => {
    const keys = (issue.path ?? []).map((p) => String(p.key));
    const unknownKey = issue.type === "strict_object" && keys.length > 0;
    const message = unknownKey ? `unknown key "${keys.at(-1)}"` : typeof setting === "string" || issue.type === "check" ? `${issue.message} (got ${JSON.stringify(String(issue.input).slice(0, 100))})` : issue.message;
    return { path: keys.join("."), message };
  });
}
