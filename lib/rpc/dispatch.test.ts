/** @module unit tests: the dispatcher decides `shepherd/evaluate` with the evaluator it was given. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Decision, HookEvent } from "../engine/schema.ts";
import type { Logger } from "../log.ts";
import { Workspace } from "../rules/workspace.ts";
import { Dispatcher } from "./dispatch.ts";

const quiet: Logger = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };
let root = "";
let decisions: Decision[] = [];
let workspace: Workspace;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-dispatch-"));
  decisions = [];
  workspace = new Workspace(
    { env: { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") }, cwd: root, watch: false, builtin: [], onDecision: (_e, d) => decisions.push(d) },
    "test",
  );
});
afterEach(() => {
  workspace.close();
  rmSync(root, { recursive: true, force: true });
});

const line = () =>
  JSON.stringify({ jsonrpc: "2.0", id: 3, method: "shepherd/evaluate", params: { event: { hook: "tool_call", session: { id: "s", cwd: root }, tool: { name: "bash", input: { command: "ls" } } } } });

describe("Dispatcher", () => {
  it("should evaluate through the workspace (audited, counted) by default", async () => {
    const answer = await new Dispatcher({ workspace, version: "test", log: quiet }).handleLine(line());
    expect(answer).toMatchObject({ id: 3, result: { action: "allow" } });
    expect(decisions.length).toBe(1);
    expect(workspace.status(root, "s").session?.calls).toBe(1);
  });

  it("should decide with a given evaluator, leaving the workspace untouched", async () => {
    const seen: HookEvent[] = [];
    const evaluate = (event: HookEvent): Decision => (seen.push(event), { action: "block", reason: "stub", notify: [], steer: [], fired: [] });
    const answer = await new Dispatcher({ workspace, version: "test", log: quiet, evaluate }).handleLine(line());
    expect(answer).toMatchObject({ id: 3, result: { action: "block", reason: "stub" } });
    expect(seen.map((e) => e.tool?.input)).toEqual([{ command: "ls" }]);
    expect(decisions).toEqual([]);
    expect(workspace.status(root).sessions).toBe(0);
  });
});
