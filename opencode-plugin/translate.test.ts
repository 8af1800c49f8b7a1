/** @module Unit tests of the OpenCode <-> wire translation: verdicts, in-place rewrites, results, events. */
import { describe, expect, it } from "bun:test";
import type { Decision } from "../pi-extension/wire.ts";
import { applyResult, callVerdict, eventSession, failureVerdict, promptOf, replaceInPlace, resultOf, withheldResult } from "./translate.ts";

const decision = (over: Partial<Decision>): Decision => ({ action: "allow", notify: [], steer: [], fired: [], ...over });

describe("callVerdict", () => {
  it.each([
    ["allow", decision({ notify: ["n"], steer: ["s"] }), { kind: "allow", notes: ["n"], steer: ["s"] }],
    ["block", decision({ action: "block", reason: "no" }), { kind: "block", message: "[Shepherd] no", halt: false }],
    ["block that terminates", decision({ action: "block", reason: "no", terminate: true }), { kind: "block", message: "[Shepherd] no", halt: true }],
    ["rewrite", decision({ action: "rewrite", input: { command: "b" } }), { kind: "rewrite", args: { command: "b" }, notes: [], steer: [] }],
  ])("should turn a %s decision into what OpenCode can carry", (_what, d, expected) => {
    expect(callVerdict(d)).toEqual(expected as ReturnType<typeof callVerdict>);
  });

  it("should block an ask, since a plugin has no one to ask", () => {
    const v = callVerdict(decision({ action: "ask", reason: "sure?" }));
    expect(v.kind).toBe("block");
    expect(v.kind === "block" && v.message).toContain("sure?");
  });
});

describe("failureVerdict", () => {
  it.each([
    ["open", "allow"],
    ["closed", "block"],
    ["halt", "block"],
  ] as const)("should answer failMode %s with %s", (mode, kind) => {
    const v = failureVerdict(mode, "gone");
    expect(v.kind).toBe(kind);
    expect(v.kind === "block" && v.halt).toBe(mode === "halt");
  });
});

describe("replaceInPlace", () => {
  it("should make the same object hold exactly the new arguments", () => {
    const args: Record<string, unknown> = { command: "a", description: "d", timeout: 5 };
    replaceInPlace(args, { command: "b", description: "d" });
    expect(args).toEqual({ command: "b", description: "d" });
  });
});

describe("resultOf", () => {
  it.each([
    [{ output: "ok", metadata: { exit: 0 } }, { text: "ok", isError: false }],
    [{ output: "bad", metadata: { exit: 2 } }, { text: "bad", isError: true }],
    [{ output: "no exit", metadata: {} }, { text: "no exit", isError: false }],
    ["not an object", { text: "", isError: false }],
  ])("should read %j", (output, expected) => {
    expect(resultOf(output)).toEqual(expected);
  });
});

describe("applyResult and withheldResult", () => {
  it("should replace the output and bash's metadata copy with the redacted text, then add the notes", () => {
    const output = { output: "secret", metadata: { output: "secret", exit: 0 } };
    applyResult(output, decision({ result: { text: "[redacted]" }, notify: ["careful"] }), ["from the call"]);
    expect(output).toEqual({ output: "[redacted]\n[Shepherd] from the call\n[Shepherd] careful", metadata: { output: "[redacted]", exit: 0 } });
  });

  it("should leave no unchecked text behind when withheld", () => {
    const output = { output: "hunter2", metadata: { output: "hunter2" } };
    withheldResult(output, "timeout");
    expect(JSON.stringify(output)).not.toContain("hunter2");
  });
});

describe("promptOf and eventSession", () => {
  it("should read the person's text parts only", () => {
    expect(promptOf([{ type: "text", text: "a" }, { type: "file", url: "x" }, { type: "text", text: "b", synthetic: true }, { type: "text", text: "c" }])).toBe("a\nc");
  });

  it.each([
    [{ type: "session.created", properties: { sessionID: "s1", info: { id: "s1", parentID: "s0" } } }, { type: "session.created", sessionId: "s1", parentId: "s0" }],
    [{ type: "session.idle", properties: { sessionID: "s1" } }, { type: "session.idle", sessionId: "s1" }],
    [{ type: "message.updated", properties: { sessionID: "s1", info: { id: "msg_1", parentID: "msg_0" } } }, { type: "message.updated", sessionId: "s1" }],
    [{ type: "session.updated", properties: { info: { id: "s2" } } }, { type: "session.updated", sessionId: "s2" }],
    [null, { type: "" }],
  ])("should find the session of %j", (event, expected) => {
    expect(eventSession(event)).toEqual(expected);
  });
});
