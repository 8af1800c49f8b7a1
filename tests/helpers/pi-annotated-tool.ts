/**
 * @module TEST-ONLY pi extension: a tool Shepherd has never heard of, `wipe_cache`, whose author calls it
 * destructive (pi 1.x's `annotations`; pi 0.73 has none and ignores the field). It writes WIPED.txt.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";

export default function annotatedTool(pi: ExtensionAPI): void {
  const tool = {
    name: "wipe_cache",
    label: "Wipe cache",
    description: "Deletes the cache (writes WIPED.txt in the working folder).",
    parameters: Type.Object({}),
    async execute(_id: string, _params: unknown, _signal: AbortSignal | undefined, _onUpdate: unknown, ctx: { cwd: string }) {
      writeFileSync(join(ctx.cwd, "WIPED.txt"), "wiped\n");
      return { content: [{ type: "text" as const, text: "cache wiped" }], details: {} };
    },
  };
  // Set apart from the literal: 0.73's ToolDefinition has no `annotations`, 1.x's does.
  Reflect.set(tool, "annotations", { destructiveHint: true, readOnlyHint: false });
  pi.registerTool(tool);
}
