/**
 * @module exporters backed by one export thread (export-worker.ts), for the long-running faces: the main
 * thread only posts a batch of plain records and waits for its outcome. Where no worker can be started,
 * the SDK is loaded on this thread instead (otlp-exporter.ts). The thread never keeps the process alive.
 */
import type { OtlpExporter, OtlpExportOptions } from "./otlp-exporter.ts";
import { bundledModule } from "../bundled-module.ts";
import { type ExportRequest, isExportReply } from "./export-protocol.ts";
import { loadOtlpExporter } from "./load-exporter.ts";

type Factory = (opts: OtlpExportOptions) => OtlpExporter;

/** A factory whose exporters share one export thread, started on the first export. */
export async function workerExporterFactory(): Promise<Factory> {
  if (typeof Worker !== "function") return (await loadOtlpExporter()).createOtlpExporter;
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, (problem: string | undefined) => void>();
  const failAll = (why: string) => {
    for (const done of pending.values()) done(why);
    pending.clear();
  };
  const start = (): Worker => {
    const w = new Worker(bundledModule(import.meta.url, "lib/telemetry/export-worker.ts", "./export-worker.ts"), { type: "module" });
    (w as { unref?: () => void }).unref?.();
    w.onmessage = (e: MessageEvent) => {
      if (!isExportReply(e.data)) return;
      const done = pending.get(e.data.id);
      pending.delete(e.data.id);
      done?.(e.data.problem);
    };
    w.onerror = (e: ErrorEvent) => {
      // A thread that failed is replaced on the next export; what it held is reported as failed.
      worker = undefined;
      failAll(`export thread failed: ${e.message}`);
      w.terminate();
    };
    return w;
  };
  return (opts) => ({
    export(records) {
      return new Promise<string | undefined>((resolve) => {
        try {
          worker ??= start();
          const id = ++nextId;
          // Never an entry left behind: a reply that does not come in time is a failed export.
          const timer = setTimeout(() => {
            pending.delete(id);
            resolve(`no answer from the export thread within ${opts.timeoutMs + 1_000} ms`);
          }, opts.timeoutMs + 1_000);
          (timer as { unref?: () => void }).unref?.();
          pending.set(id, (problem) => {
            clearTimeout(timer);
            resolve(problem);
          });
          const msg: ExportRequest = { id, url: opts.url, headers: opts.headers, timeoutMs: opts.timeoutMs, serviceVersion: opts.serviceVersion, records };
          worker.postMessage(msg);
        } catch (err) {
          resolve(err instanceof Error ? err.message : String(err));
        }
      });
    },
    async shutdown() {
      failAll("shut down");
      worker?.terminate();
      worker = undefined;
    },
  });
}
