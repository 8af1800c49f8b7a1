/**
 * @module the hot path's check of a hook event: the same constraints as `HookEventSchema`, written out so
 * a valid event costs no copies and no pipeline walk. valibot stays the contract: a property test holds the
 * two to the same verdict, and anything this guard refuses is parsed by the schema for its error message.
 */
import { isLooseObject, isStringArray, optString, stringWithin } from "./guard-kit.ts";
import { HOOK_NAMES } from "./schema-core.ts";
import type { HookEvent } from "./schema.ts";

const HOOKS: ReadonlySet<string> = new Set(HOOK_NAMES);
const ANNOTATION_KEYS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

const optLoose = (x: unknown): x is Record<string, unknown> | undefined => x === undefined || isLooseObject(x);

/** True when `x` passes `HookEventSchema` unchanged (it is then used as is). */
export function isHookEvent(x: unknown): x is HookEvent {
  if (!isLooseObject(x) || typeof x.hook !== "string" || !HOOKS.has(x.hook)) return false;
  const s = x.session;
  if (!isLooseObject(s) || !stringWithin(s.id, 1, 512) || typeof s.cwd !== "string") return false;
  if (!optString(s.agent) || (s.subagent !== undefined && typeof s.subagent !== "boolean")) return false;
  const t = x.tool;
  if (!optLoose(t)) return false;
  if (t) {
    // The input's schema is a record: plain (not an array), and without the keys a record drops.
    if (!stringWithin(t.name, 1) || !optString(t.callId) || !optString(t.parentCallId) || !isLooseObject(t.input)) return false;
    const a = t.annotations;
    if (!optLoose(a) || (a && !ANNOTATION_KEYS.every((k) => a[k] === undefined || typeof a[k] === "boolean"))) return false;
  }
  const r = x.result;
  if (!optLoose(r) || (r && (typeof r.text !== "string" || typeof r.isError !== "boolean"))) return false;
  const m = x.message;
  if (!optLoose(m) || (m && typeof m.text !== "string")) return false;
  if (!optString(x.stopReason) || !optString(x.prompt)) return false;
  const tools = x.availableTools;
  return tools === undefined || isStringArray(tools);
}
