/**
 * @module what `rules list`, `doctor` and the dashboard say about telemetry: the config in force and the last
 * export problem any Shepherd process of this user met, kept in one small file (`<agent dir>/shepherd/
 * telemetry-status.json`) that a failing export writes (at most once a minute per process) and a succeeding one
 * removes. Reading it never fails a command.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isPlainRecord } from "../engine/guard-kit.ts";
import { readBounded } from "../fs/bounded-read.ts";
import { agentDir, type Env } from "../rules/paths.ts";
import { type TelemetryConfig, telemetryConfig, tracesUrl } from "./telemetry-config.ts";

export interface ExportProblem {
  /** ISO time of the failure. */
  time: string;
  /** The endpoint, without credentials. */
  endpoint: string;
  problem: string;
}

export function telemetryStatusFile(env: Env): string {
  return join(agentDir(env), "shepherd", "telemetry-status.json");
}

/** The endpoint as shown and logged: no user or password a URL may carry. */
export function shownEndpoint(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

export function recordExportProblem(file: string, p: ExportProblem): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ ...p, problem: p.problem.slice(0, 500) })}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // A status that cannot be written leaves the log line as the only report.
  }
}

export function clearExportProblem(file: string): void {
  try {
    if (existsSync(file)) rmSync(file, { force: true });
  } catch {
    // Left in place: it is shown with its time, so a stale one reads as what it is.
  }
}

export function lastExportProblem(env: Env): ExportProblem | undefined {
  const read = readBounded(telemetryStatusFile(env), 4_096);
  if (!read.ok) return undefined;
  try {
    const data: unknown = JSON.parse(read.text);
    if (!isPlainRecord(data) || typeof data.time !== "string" || typeof data.endpoint !== "string" || typeof data.problem !== "string") return undefined;
    return { time: data.time, endpoint: data.endpoint, problem: data.problem };
  } catch {
    return undefined;
  }
}

export interface TelemetrySummary {
  on: boolean;
  /** An OTLP endpoint variable that is set but is no http(s) URL: it turns nothing on, and says so. */
  envProblem?: string;
  endpoint?: string;
  includeContent?: boolean;
  lastProblem?: ExportProblem;
}

function envProblem(env: Env): string | undefined {
  for (const key of ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"] as const) {
    const value = env[key]?.trim();
    if (value && tracesUrl(value) === undefined) return `${key} is set but is not an http:// or https:// URL`;
    if (value) return undefined;
  }
  return undefined;
}

export function telemetrySummary(setting: unknown, env: Env): TelemetrySummary {
  const config: TelemetryConfig | undefined = telemetryConfig(setting, env);
  const lastProblem = lastExportProblem(env);
  const bad = envProblem(env);
  if (!config) return { on: false, ...(bad ? { envProblem: bad } : {}), ...(lastProblem ? { lastProblem } : {}) };
  return { on: true, endpoint: shownEndpoint(config.url), includeContent: config.includeContent, ...(lastProblem ? { lastProblem } : {}) };
}

/** One line for a person: where decisions go, and the last problem if there is one. */
export function telemetryLine(s: TelemetrySummary): string {
  const head = s.on ? `on, one span per decision to ${s.endpoint} (${s.includeContent ? "with redacted content" : "safe attributes only"})` : `off (${s.envProblem ?? "no OTLP endpoint set"})`;
  return s.lastProblem ? `${head}; last export failed at ${s.lastProblem.time} to ${s.lastProblem.endpoint}: ${s.lastProblem.problem} (decisions are not affected)` : head;
}

/**
 * Sends an empty OTLP/HTTP JSON export to the endpoint in force (`doctor`): undefined when it answers 2xx,
 * else what went wrong. Bounded by `timeoutMs`; carries no decision and no content.
 */
export async function probeEndpoint(config: TelemetryConfig, timeoutMs = 3_000): Promise<string | undefined> {
  try {
    const res = await fetch(config.url, {
      method: "POST",
      headers: { ...config.headers, "content-type": "application/json" },
      body: '{"resourceSpans":[]}',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? undefined : `answers HTTP ${res.status} to an empty export`;
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    return e.name === "TimeoutError" ? `gives no answer within ${timeoutMs} ms` : `cannot be reached (${e.message})`;
  }
}
