/**
 * @module Where every face sends a decision once it is made: the audit line, then the telemetry span
 * (queued; exported later). One callback for the sidecar, `http` and the one-shot hook.
 */
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { DecisionMeta } from "../rules/workspace.ts";
import type { TelemetrySink } from "../telemetry/telemetry-sink.ts";
import type { AuditLog } from "./audit-log.ts";

export function decisionSinks(audit: AuditLog, telemetry: TelemetrySink | undefined): (event: HookEvent, decision: Decision, meta: DecisionMeta) => void {
  return (event, decision, meta) => {
    audit.record(event, decision);
    telemetry?.record(event, decision, meta);
  };
}
