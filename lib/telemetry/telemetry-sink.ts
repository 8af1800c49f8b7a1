/**
 * @module decision telemetry off the hot path: `record` (called once a decision is made) only builds a plain
 * record and queues it; a timer later loads the OpenTelemetry SDK (otlp-exporter.ts, on first use) and exports
 * batches. Each endpoint's queue is capped, the oldest record dropped first and counted; an export is bounded
 * by a timeout and failures are logged once per problem and minute. Nothing here can change, delay or lose a
 * decision: every path swallows its own errors.
 */
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Settings } from "../engine/schema-core.ts";
import type { Logger } from "../log.ts";
import type { Env } from "../rules/paths.ts";
import type { DecisionMeta } from "../rules/workspace.ts";
import { decisionRecord, type DecisionRecord, type RecordContext } from "./decision-record.ts";
import type { OtlpExporter, OtlpExportOptions } from "./otlp-exporter.ts";
import { loadOtlpExporter, loadWorkerExporter } from "./load-exporter.ts";
import { type TelemetryConfig, telemetryConfig } from "./telemetry-config.ts";
import { clearExportProblem, type ExportProblem, recordExportProblem, shownEndpoint } from "./telemetry-status.ts";

export interface TelemetrySinkOptions {
  env: Env;
  face: RecordContext["face"];
  version: string;
  log?: Logger;
  /** How long records wait to be exported together. */
  batchMs?: number;
  /** Records per export at most. */
  maxBatch?: number;
  /** Caps the `timeoutMs` setting: a one-shot hook's exports must end soon after its answer. */
  maxExportMs?: number;
  /**
   * A file whose mtime rate-limits problem reports across processes (one-shot hooks): a report is skipped
   * while it was touched in the last minute. Without it the limit is per process.
   */
  reportMarker?: string;
  /** Where the last export problem is kept for `rules list` and `doctor` (telemetry-status.ts); none in tests. */
  statusFile?: string;
  /** Export from a thread of its own (worker-exporter.ts): for the long-running faces, so the SDK's work never runs between two answers. */
  threaded?: boolean;
  /**
   * Build the spans later, on a timer (DEFER_MS), not inside `record`: a face that writes its answer in the
   * same task as the decision (the stdio sidecar) answers first, and the spans are built in one burst while
   * it waits for a request instead of after each answer. `flush`, `close` and `pending` take the deferred
   * ones into account, so none is lost.
   */
  deferred?: boolean;
  /** How long deferred decisions wait before they become spans (default DEFER_MS). */
  deferMs?: number;
  /** The exporter factory (tests); the SDK's, loaded on first use, otherwise. */
  load?: () => Promise<(opts: OtlpExportOptions) => OtlpExporter>;
}

export interface TelemetryStats {
  queued: number;
  exported: number;
  /** Dropped oldest-first because a queue was full. */
  dropped: number;
  /** Lost in exports that failed (endpoint down, slow or answering garbage). */
  failed: number;
}

/** Distinct endpoints one process exports to at most (a project's trusted settings may name its own). */
const MAX_PIPELINES = 8;
/** A problem already logged is logged again at most this often. */
const LOG_EVERY_MS = 60_000;
export const DEFAULT_BATCH_MS = 500;
export const DEFAULT_MAX_BATCH = 512;

interface Pipeline {
  config: TelemetryConfig;
  queue: DecisionRecord[];
  exporter?: OtlpExporter;
  /** Resolves when the running export loop ends. */
  running?: Promise<void>;
  timer?: ReturnType<typeof setTimeout>;
  /** Drops not yet announced in an exported span. */
  unreported: number;
  /** Records of the export under way. */
  inFlight: number;
}


const NONE = Symbol("off");

/** Deferred decisions kept at most before they are turned into spans at once (memory stays bounded under a flood). */
const MAX_DEFERRED = 512;
/**
 * How long a deferred decision waits to become a span. Built in a microtask (right after the answer, before
 * the sidecar reads its next line), the span's work ran on the critical path whenever the client shared
 * the sidecar's CPU: the client could only read the answer once the sidecar blocked again. Measured, client
 * and sidecar on one CPU, 1,000 rules, p50 with telemetry on vs off: 1.05-1.06x with the microtask,
 * 1.02-1.03x with a 25 ms timer (no export at all: 0.98-1.03x). A session's tool calls are seconds apart,
 * so there the timer fires while the sidecar is idle; a client that never pauses meets one burst of
 * ~25 ms worth of spans (a few hundred microseconds) per 25 ms.
 */
export const DEFER_MS = 25;

export class TelemetrySink {
  readonly #opts: TelemetrySinkOptions;
  readonly #configs = new WeakMap<object, TelemetryConfig | typeof NONE>();
  readonly #pipelines = new Map<string, Pipeline>();
  /** A pipeline's key per config object (configs are cached per settings object): no key string per decision. */
  readonly #keys = new WeakMap<TelemetryConfig, string>();
  /** Deferred decisions, flat (event, decision, meta, event, ...): no object per decision on the hot path. */
  #deferred: (HookEvent | Decision | DecisionMeta)[] = [];
  /** The array `#deferred` swaps with at each drain, so draining allocates nothing either. */
  #spare: (HookEvent | Decision | DecisionMeta)[] = [];
  #drainTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #drainNow = () => this.#drain();
  readonly #stats: TelemetryStats = { queued: 0, exported: 0, dropped: 0, failed: 0 };
  readonly #logged = new Map<string, number>();
  #factory: Promise<((opts: OtlpExportOptions) => OtlpExporter) | undefined> | undefined;
  #closed = false;
  #lastProblem = "";
  #lastFailure: ExportProblem | undefined;
  /** When this process last made sure no stale problem is on record after a good export. */
  #clearedAt = 0;

  constructor(opts: TelemetrySinkOptions) {
    this.#opts = opts;
  }

  /** The hot path: a lookup, a plain object, a push. Never throws. */
  record(event: HookEvent, decision: Decision, meta: DecisionMeta): void {
    if (this.#closed) return;
    if (this.#opts.deferred) {
      // Telemetry off (the default) costs a lookup here, as before; on, the span waits for the answer.
      try {
        if (!this.#configFor(meta.settings)) return;
      } catch (err) {
        this.#problem("record", `telemetry: a decision could not be recorded: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      this.#deferred.push(event, decision, meta);
      if (this.#deferred.length >= MAX_DEFERRED * 3) this.#drain();
      else if (this.#drainTimer === undefined) {
        this.#drainTimer = setTimeout(this.#drainNow, this.#opts.deferMs ?? DEFER_MS);
        // Deferred spans never keep a process alive: the faces flush (and so drain) on their way out.
        this.#drainTimer.unref?.();
      }
      return;
    }
    this.#recordNow(event, decision, meta);
  }

  /** Turns the deferred decisions into queued spans, in the order they were decided. */
  #drain(): void {
    if (this.#drainTimer !== undefined) clearTimeout(this.#drainTimer);
    this.#drainTimer = undefined;
    if (this.#deferred.length === 0) return;
    const batch = this.#deferred;
    this.#deferred = this.#spare;
    for (let i = 0; i < batch.length; i += 3) this.#recordNow(batch[i] as HookEvent, batch[i + 1] as Decision, batch[i + 2] as DecisionMeta);
    batch.length = 0;
    this.#spare = batch;
  }

  #recordNow(event: HookEvent, decision: Decision, meta: DecisionMeta): void {
    if (this.#closed) return;
    try {
      const config = this.#configFor(meta.settings);
      if (!config) return;
      const pipe = this.#pipeline(config);
      if (!pipe) {
        this.#drop(1, config);
        return;
      }
      const rec = decisionRecord(event, decision, { face: this.#opts.face, failMode: meta.settings.failMode, includeContent: config.includeContent, startMs: meta.startMs, durationMs: meta.durationMs });
      if (pipe.queue.length >= config.maxQueue) {
        pipe.queue.shift();
        pipe.unreported++;
        this.#drop(1, config);
      }
      pipe.queue.push(rec);
      this.#stats.queued++;
      this.#schedule(pipe);
    } catch (err) {
      this.#problem("record", `telemetry: a decision could not be recorded: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Whether any record waits for export (a hook flushes only then, so telemetry off costs it nothing). */
  get pending(): boolean {
    if (this.#deferred.length > 0) return true;
    for (const p of this.#pipelines.values()) if (p.queue.length > 0 || p.running) return true;
    return false;
  }

  stats(): TelemetryStats {
    return { ...this.#stats };
  }

  /** For the dashboard: the endpoints in use, the counts, and the last failure unless an export succeeded since. */
  status(): TelemetryStats & { endpoints: string[]; lastProblem?: ExportProblem } {
    const endpoints = [...this.#pipelines.values()].map((p) => shownEndpoint(p.config.url));
    return { ...this.#stats, endpoints, ...(this.#lastFailure ? { lastProblem: this.#lastFailure } : {}) };
  }

  /** Exports what is queued now, giving up at `deadlineMs` (what is left then is counted as failed). */
  async flush(deadlineMs: number): Promise<void> {
    this.#drain();
    const work = [...this.#pipelines.values()].map((p) => {
      if (p.timer) clearTimeout(p.timer);
      p.timer = undefined;
      return this.#run(p);
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadlineMs));
    });
    await Promise.race([Promise.allSettled(work), late]);
    if (timer) clearTimeout(timer);
  }

  /** Flushes within `deadlineMs`, then stops: later decisions are not recorded. */
  async close(deadlineMs = 1_000): Promise<void> {
    if (this.#closed) return;
    await this.flush(deadlineMs);
    this.#closed = true;
    let left = 0;
    for (const p of this.#pipelines.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.timer = undefined;
      left += p.queue.length + p.inFlight;
      this.#stats.failed += p.queue.length + p.inFlight;
      p.queue.length = 0;
      void p.exporter?.shutdown().catch(() => undefined);
    }
    // Once, on the way out: spans that never left are said, not lost in silence.
    const { failed, exported, dropped } = this.#stats;
    if (left > 0 || failed > 0 || dropped > 0) {
      const why = left > 0 ? `${left} still unsent after ${deadlineMs} ms` : `last problem: ${this.#lastProblem || "queue full"}`;
      this.#say(`telemetry: ${exported} decision span(s) exported, ${failed} not exported, ${dropped} dropped (${why}); decisions were not affected`);
    }
  }

  /** Writes a report unless another process (sharing the marker) made one in the last minute. */
  #say(message: string): void {
    const marker = this.#opts.reportMarker;
    try {
      if (marker) {
        let recent = false;
        try {
          recent = Date.now() - statSync(marker).mtimeMs < LOG_EVERY_MS;
        } catch {
          // No marker yet: nothing reported lately.
        }
        if (recent) return;
        try {
          const now = new Date();
          utimesSync(marker, now, now);
        } catch {
          mkdirSync(dirname(marker), { recursive: true, mode: 0o700 });
          writeFileSync(marker, "", { mode: 0o600 });
        }
      }
      this.#opts.log?.warning(message);
    } catch {
      // A report that cannot be written (or rate-limited) changes nothing here.
    }
  }

  #configFor(settings: Settings): TelemetryConfig | undefined {
    const hit = this.#configs.get(settings);
    if (hit !== undefined) return hit === NONE ? undefined : hit;
    const config = telemetryConfig(settings.telemetry, this.#opts.env);
    this.#configs.set(settings, config ?? NONE);
    return config;
  }

  #pipeline(config: TelemetryConfig): Pipeline | undefined {
    let key = this.#keys.get(config);
    if (key === undefined) {
      key = `${config.url}\n${JSON.stringify(config.headers)}`;
      this.#keys.set(config, key);
    }
    const hit = this.#pipelines.get(key);
    if (hit) {
      // A reload may change the cap or the content switch of the same endpoint: the latest wins.
      hit.config = config;
      return hit;
    }
    if (this.#pipelines.size >= MAX_PIPELINES) return undefined;
    const pipe: Pipeline = { config, queue: [], unreported: 0, inFlight: 0 };
    this.#pipelines.set(key, pipe);
    return pipe;
  }

  #schedule(pipe: Pipeline): void {
    if (pipe.timer || pipe.running) return;
    const batchMs = pipe.queue.length >= (this.#opts.maxBatch ?? DEFAULT_MAX_BATCH) ? 0 : (this.#opts.batchMs ?? DEFAULT_BATCH_MS);
    pipe.timer = setTimeout(() => {
      pipe.timer = undefined;
      void this.#run(pipe);
    }, batchMs);
    // A pending export never keeps a process alive: the faces flush on their way out.
    pipe.timer.unref?.();
  }

  /** Runs the pipeline's export loop if it is not running; resolves when the loop ends. */
  #run(pipe: Pipeline): Promise<void> {
    pipe.running ??= this.#loop(pipe).finally(() => {
      pipe.running = undefined;
      if (pipe.queue.length > 0 && !this.#closed) this.#schedule(pipe);
    });
    return pipe.running;
  }

  async #loop(pipe: Pipeline): Promise<void> {
    const maxBatch = this.#opts.maxBatch ?? DEFAULT_MAX_BATCH;
    while (pipe.queue.length > 0) {
      const exporter = await this.#exporter(pipe);
      const batch = pipe.queue.splice(0, maxBatch);
      if (!exporter) {
        this.#stats.failed += batch.length;
        return;
      }
      const first = batch[0];
      if (first && pipe.unreported > 0) {
        // The receiver learns of the gap too: the next exported span says how many came before it unsent.
        first.attributes["shepherd.telemetry.dropped"] = pipe.unreported;
        pipe.unreported = 0;
      }
      pipe.inFlight = batch.length;
      const problem = await this.#exportBounded(exporter, batch, this.#timeoutMs(pipe.config));
      pipe.inFlight = 0;
      if (problem === undefined) {
        this.#stats.exported += batch.length;
        this.#lastFailure = undefined;
        const file = this.#opts.statusFile;
        if (file && Date.now() - this.#clearedAt > LOG_EVERY_MS) {
          this.#clearedAt = Date.now();
          clearExportProblem(file);
        }
        continue;
      }
      this.#stats.failed += batch.length;
      this.#lastProblem = problem;
      this.#lastFailure = { time: new Date().toISOString(), endpoint: shownEndpoint(pipe.config.url), problem };
      const reported = this.#problem(`export ${pipe.config.url}`, `telemetry: export to ${shownEndpoint(pipe.config.url)} failed (${problem}); ${this.#stats.failed} span(s) lost so far; decisions are not affected`);
      if (reported && this.#opts.statusFile) {
        recordExportProblem(this.#opts.statusFile, this.#lastFailure);
        this.#clearedAt = 0;
      }
      // The endpoint is down or slow: what waits goes with the next batch, not in a tight loop now.
      return;
    }
  }

  #timeoutMs(config: TelemetryConfig): number {
    return Math.min(config.timeoutMs, this.#opts.maxExportMs ?? config.timeoutMs);
  }

  async #exportBounded(exporter: OtlpExporter, batch: DecisionRecord[], ms: number): Promise<string | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The exporter bounds itself; this bounds it again, whatever a bug in it or in the network stack does.
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${ms} ms`), ms + 250);
    });
    try {
      return await Promise.race([exporter.export(batch), late]);
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  async #exporter(pipe: Pipeline): Promise<OtlpExporter | undefined> {
    if (pipe.exporter) return pipe.exporter;
    const inProcess = async () => (await loadOtlpExporter()).createOtlpExporter;
    const threaded = async () => (await loadWorkerExporter()).workerExporterFactory();
    this.#factory ??= (this.#opts.load ?? (this.#opts.threaded ? threaded : inProcess))().catch((err: unknown) => {
      this.#problem("load", `telemetry: the OpenTelemetry exporter could not be loaded (${err instanceof Error ? err.message : String(err)}); decisions are not affected`);
      return undefined;
    });
    const factory = await this.#factory;
    if (!factory) return undefined;
    try {
      pipe.exporter = factory({ url: pipe.config.url, headers: pipe.config.headers, timeoutMs: this.#timeoutMs(pipe.config), serviceVersion: this.#opts.version });
    } catch (err) {
      this.#problem("create", `telemetry: exporter for ${shownEndpoint(pipe.config.url)} could not be made (${err instanceof Error ? err.message : String(err)})`);
      return undefined;
    }
    return pipe.exporter;
  }

  #drop(n: number, config: TelemetryConfig): void {
    this.#stats.dropped += n;
    this.#problem(`drop ${config.url}`, `telemetry: queue for ${shownEndpoint(config.url)} is full (maxQueue ${config.maxQueue}): oldest decision dropped; ${this.#stats.dropped} dropped so far`);
  }

  /** Logs `message` unless the same kind of problem was logged in the last minute; true when it was. */
  #problem(kind: string, message: string): boolean {
    const now = Date.now();
    const last = this.#logged.get(kind);
    if (last !== undefined && now - last < LOG_EVERY_MS) return false;
    if (this.#logged.size > 64) this.#logged.clear();
    this.#logged.set(kind, now);
    this.#say(message);
    return true;
  }
}
