/**
 * @module TEST-ONLY pi extension standing in for "another extension" that emits ephemeral hints:
 * after a bash call whose command contains HINT_ME it emits `ephemeral:hint` on pi's event bus.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function hintEmitter(pi: ExtensionAPI): void {
  pi.on("tool_result", (event) => {
    const command = event.input.command;
    if (event.toolName === "bash" && typeof command === "string" && command.includes("HINT_ME")) {
      pi.events.emit("ephemeral:hint", { text: "EPHEMERAL-HINT: the docs are in docs/", source: "hint-emitter" });
    }
  });
}
