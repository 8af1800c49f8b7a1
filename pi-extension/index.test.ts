/** @module The extension factory on a pi that lacks hooks: it names them in one line each, and never throws. */
import { afterEach, describe, expect, it, spyOn } from "bun:test";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import shepherd from "./index.ts";

/** A pi whose `on` refuses `refused` (as a future pi might) and, like 0.73, returns nothing otherwise. */
function fakePi(refused: readonly string[]): { api: ExtensionAPI; registered: string[] } {
  const registered: string[] = [];
  const api = {
    on(name: string) {
      if (refused.includes(name)) throw new Error("unknown event");
      registered.push(name);
    },
    registerTool() {},
    registerCommand() {},
    events: { on() {}, emit() {} },
  };
  return { api: api as unknown as ExtensionAPI, registered };
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

function captureStderr(): string[] {
  const lines: string[] = [];
  const spy = spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  restore = () => spy.mockRestore();
  return lines;
}

describe("shepherd extension factory", () => {
  it("should name the hooks this pi refuses, grouped by what is lost, without throwing", () => {
    const lines = captureStderr();
    const { api, registered } = fakePi(["session_start", "context"]);
    expect(() => shepherd(api)).not.toThrow();
    expect(registered).toContain("tool_call");
    expect(registered).not.toContain("context");
    expect(lines).toEqual(expect.arrayContaining([
      "[Shepherd] this pi has no agent_before_settle/agent_settled hook: wrap-ups are judged at each agent_end instead\n",
      "[Shepherd] this pi has no session_start/context hook: Shepherd cannot act on it (unknown event)\n",
    ]));
    expect(lines.length).toBe(2);
  });

  it("should say nothing at load time on a pi that has session_start (the notice waits for the session)", () => {
    const lines = captureStderr();
    shepherd(fakePi([]).api);
    expect(lines).toEqual([]);
  });
});
