/**
 * @module loads the OpenTelemetry exporters by path, on first export. A bundled `import()` would put the SDK
 * in the hook's bundle, and the runtime modules it imports (node:zlib, node:stream, node:util) would be
 * evaluated at every hook's start (~2 ms) though most hooks export nothing. build.ts makes both entry points.
 */
import { bundledModule } from "../bundled-module.ts";

export function loadOtlpExporter(): Promise<typeof import("./otlp-exporter.ts")> {
  return import(bundledModule(import.meta.url, "lib/telemetry/otlp-exporter.ts", "./otlp-exporter.ts"));
}

export function loadWorkerExporter(): Promise<typeof import("./worker-exporter.ts")> {
  return import(bundledModule(import.meta.url, "lib/telemetry/worker-exporter.ts", "./worker-exporter.ts"));
}
