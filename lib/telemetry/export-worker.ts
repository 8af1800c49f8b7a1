/**
 * @module the export thread of a long-running face: it turns batches of decision records into spans and
 * sends them (otlp-exporter.ts), so the SDK's per-span work and the serialization never run on the thread
 * that answers decisions. One exporter per endpoint; each batch is answered with its outcome.
 */
import { createOtlpExporter, type OtlpExporter } from "./otlp-exporter.ts";
import type { ExportReply, ExportRequest } from "./export-protocol.ts";
import { normalJitPolicy } from "../jit-policy.ts";

// The export thread lives as long as its face: the normal JIT policy, not a hook's (lib/jit-policy.ts).
normalJitPolicy();

declare const self: { onmessage: ((e: MessageEvent) => void) | null; postMessage(msg: unknown): void };

const exporters = new Map<string, OtlpExporter>();

function exporterFor(req: ExportRequest): OtlpExporter {
  const key = `${req.url}\n${JSON.stringify(req.headers)}\n${req.timeoutMs}`;
  let e = exporters.get(key);
  if (!e) {
    e = createOtlpExporter({ url: req.url, headers: req.headers, timeoutMs: req.timeoutMs, serviceVersion: req.serviceVersion });
    exporters.set(key, e);
  }
  return e;
}

self.onmessage = (e: MessageEvent) => {
  const req = e.data as ExportRequest;
  const reply = (problem: string | undefined) => self.postMessage({ id: req.id, ...(problem !== undefined ? { problem } : {}) } satisfies ExportReply);
  try {
    exporterFor(req).export(req.records).then(reply, (err: unknown) => reply(err instanceof Error ? err.message : String(err)));
  } catch (err) {
    reply(err instanceof Error ? err.message : String(err));
  }
};
