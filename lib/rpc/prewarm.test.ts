/** @module unit tests: warming a sidecar at start evaluates on a scratch session store and leaves no trace. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { Workspace } from "../rules/workspace.ts";
import { prewarm, warmEvents } from "./prewarm.ts";

let root = "";
let cwd = "";
let env: Record<string, string> = {};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-prewarm-"));
  cwd = join(root, "p");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  // A shadow rule every warm-up command meets: a warm-up that counted would show in the shadow tally.
  writeFileSync(join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify([{ name: "shadow-all", mode: "shadow", action: "block", pattern: "." }]));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("prewarm", () => {
  it("should evaluate every warm event without a decision reaching the audit, a session or the shadow tally", async () => {
    const decisions: Decision[] = [];
    const ws = new Workspace({ env, cwd, watch: false, onDecision: (_e, d) => decisions.push(d) }, "test");
    try {
      expect(ws.host(cwd).issues).toEqual([]);
      prewarm(ws, cwd, 200);
      expect(decisions).toEqual([]);
      expect(ws.status(cwd).sessions).toBe(0);
      expect(ws.shadowCounts()).toEqual([]);
      const event: HookEvent = { hook: "tool_call", session: { id: "real", cwd }, tool: { name: "bash", input: { command: "git status" } } };
      await ws.evaluate(event);
      expect(decisions.length).toBe(1);
      expect(ws.status(cwd, "real").session?.calls).toBe(1);
      expect(ws.shadowCounts().length).toBe(1);
    } finally {
      ws.close();
    }
  });

  it("should warm each kind of event a session sends, in the project", () => {
    const events = warmEvents(cwd);
    const kinds = new Set(events.map((e) => `${e.hook}:${e.tool?.name ?? ""}`));
    for (const k of ["tool_call:bash", "tool_result:bash", "tool_call:read", "tool_call:edit", "tool_call:write", "tool_result:read", "input:", "message_end:"]) expect(kinds).toContain(k);
    expect(events.every((e) => e.session.cwd === cwd)).toBe(true);
  });
});
