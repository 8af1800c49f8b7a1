/** @module messages between the plugin registry and the plugin worker; replies are validated, since plugin code shares the worker's global scope. */
import * as v from "valibot";

export const PLUGIN_NAME_RE = /^[A-Za-z_][\w-]*$/;

/** What the main thread asks the worker. */
export type WorkerRequest =
  | { type: "load-builtin"; id: number }
  | { type: "load"; id: number; file: string }
  | { type: "call"; id: number; file: string; kind: "action" | "check"; name: string; args: unknown };

const Names = v.array(v.string());

export const LoadedPluginSchema = v.object({
  file: v.string(),
  name: v.string(),
  actions: Names,
  checks: Names,
});
export type LoadedPlugin = v.InferOutput<typeof LoadedPluginSchema>;

export const WorkerReplySchema = v.variant("type", [
  v.object({ type: v.literal("ready") }),
  v.object({ type: v.literal("loaded"), id: v.number(), plugins: v.array(LoadedPluginSchema), errors: v.array(v.object({ file: v.string(), message: v.string() })) }),
  v.object({ type: v.literal("result"), id: v.number(), value: v.unknown() }),
  v.object({ type: v.literal("failed"), id: v.number(), message: v.string() }),
]);
export type WorkerReply = v.InferOutput<typeof WorkerReplySchema>;
