/** @module the messages between a face and its telemetry export thread (export-worker.ts). */
import type { DecisionRecord } from "./decision-record.ts";

export interface ExportRequest {
  id: number;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  serviceVersion: string;
  records: readonly DecisionRecord[];
}

export interface ExportReply {
  id: number;
  /** Set when the export failed. */
  problem?: string;
}

export function isExportReply(x: unknown): x is ExportReply {
  if (x === null || typeof x !== "object") return false;
  const r = x as Record<string, unknown>;
  return typeof r.id === "number" && (r.problem === undefined || typeof r.problem === "string");
}
