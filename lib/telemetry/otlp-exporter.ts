/**
 * @module the only module that loads the OpenTelemetry SDK: decision records become spans of a tracer
 * and leave through the OTLP/HTTP trace exporter. Imported on demand (telemetry-sink.ts), never on a
 * hook's start-up path, so a process with telemetry off never pays for it.
 */
import { SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { type ReadableSpan, type SpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { DecisionRecord } from "./decision-record.ts";

export interface OtlpExportOptions {
  url: string;
  headers: Record<string, string>;
  /** The exporter's own bound on one export, retries included. */
  timeoutMs: number;
  serviceVersion: string;
}

export interface OtlpExporter {
  /** Resolves (never rejects) with undefined on success, else the problem. */
  export(records: readonly DecisionRecord[]): Promise<string | undefined>;
  shutdown(): Promise<void>;
}

/** Keeps the spans a batch ends, for the one export that follows: the batching and its bounds are the sink's. */
class Collect implements SpanProcessor {
  spans: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.spans.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export function createOtlpExporter(opts: OtlpExportOptions): OtlpExporter {
  const collect = new Collect();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: "shepherd", [ATTR_SERVICE_VERSION]: opts.serviceVersion }),
    spanProcessors: [collect],
  });
  const tracer = provider.getTracer("shepherd", opts.serviceVersion);
  // One export at a time (the sink waits for each): a second concurrent one would only be refused.
  const exporter = new OTLPTraceExporter({ url: opts.url, headers: opts.headers, timeoutMillis: opts.timeoutMs, concurrencyLimit: 1 });
  return {
    export(records) {
      collect.spans = [];
      for (const r of records) {
        const span = tracer.startSpan(r.name, { kind: SpanKind.INTERNAL, startTime: r.startMs, attributes: r.attributes });
        span.end(r.startMs + r.durationMs);
      }
      const spans = collect.spans;
      collect.spans = [];
      return new Promise<string | undefined>((resolve) => {
        try {
          exporter.export(spans, (result) => resolve(result.error ? result.error.message || String(result.error) : result.code === 0 ? undefined : "export failed"));
        } catch (err) {
          resolve(err instanceof Error ? err.message : String(err));
        }
      });
    },
    async shutdown() {
      await Promise.allSettled([exporter.shutdown(), provider.shutdown()]);
    },
  };
}
