/** @module the hand-written event guard against the valibot schema it mirrors: same verdicts, same value. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import * as v from "valibot";
import { anyValue, expectGuardAgrees, expectOddTwinsAgree, mostly } from "../../tests/helpers/guard-agreement.ts";
import { isHookEvent } from "./event-guard.ts";
import { HOOK_NAMES } from "./schema-core.ts";
import { HookEventSchema } from "./schema.ts";

// Mostly right: with eight fields, an even mix would almost never build a valid event.
const maybe = mostly;
const input = fc.oneof(
  fc.dictionary(fc.constantFrom("command", "path", "__proto__", "constructor", "prototype", "x"), anyValue, { noNullPrototype: true, maxKeys: 3 }),
  fc.constant(JSON.parse('{"__proto__":{"a":1},"command":"ls"}') as unknown),
  anyValue,
);
const event = fc.record(
  {
    hook: maybe(fc.constantFrom(...HOOK_NAMES, "Tool_Call")),
    session: maybe(
      fc.record(
        { id: maybe(fc.string({ minLength: 1, maxLength: 8 })), cwd: maybe(fc.constant("/p")), agent: maybe(fc.constant("pi")), subagent: maybe(fc.boolean()) },
        { noNullPrototype: true, requiredKeys: [] },
      ).chain((session) => fc.oneof({ arbitrary: fc.constant(session), weight: 8 }, { arbitrary: fc.constant({ ...session, ...(JSON.parse('{"__proto__":{"x":1}}') as object) }), weight: 1 })),
    ),
    tool: maybe(fc.record({ name: maybe(fc.constantFrom("bash", "edit")), callId: maybe(fc.constant("c1")), parentCallId: maybe(fc.constantFrom("c0", 7)), annotations: maybe(fc.record({ destructiveHint: maybe(fc.constantFrom(true, "yes")), readOnlyHint: maybe(fc.boolean()) }, { noNullPrototype: true, requiredKeys: [] })), input }, { noNullPrototype: true, requiredKeys: [] })),
    result: maybe(fc.record({ text: maybe(fc.constant("ok")), isError: maybe(fc.boolean()) }, { noNullPrototype: true, requiredKeys: [] })),
    message: maybe(fc.record({ text: maybe(fc.constant("hi")) }, { noNullPrototype: true, requiredKeys: [] })),
    stopReason: maybe(fc.constantFrom("stop", "")),
    prompt: maybe(fc.string({ maxLength: 5 })),
    availableTools: maybe(fc.array(maybe(fc.constantFrom("bash", "read")), { maxLength: 3 })),
    extra: anyValue,
  },
  { noNullPrototype: true, requiredKeys: [] },
);

describe("isHookEvent", () => {
  it("should accept exactly what HookEventSchema returns unchanged", () => {
    // An own "__proto__" key (JSON.parse makes one) is dropped by the schema: such events go to valibot.
    const withProtoKey = event.map((e) => ({ ...e, ...(JSON.parse('{"__proto__":{"x":1}}') as object) }));
    expectGuardAgrees(isHookEvent, HookEventSchema, fc.oneof(event, anyValue, withProtoKey), 20, 12000);
  });

  it("should agree with the schema on every odd twin of a full event (NaN, holes, prototype keys, null prototypes)", () => {
    expectOddTwinsAgree(isHookEvent, HookEventSchema, {
      hook: "tool_call",
      session: { id: "s", cwd: "/p", agent: "pi", subagent: false },
      tool: { name: "bash", callId: "c1", input: { command: "ls", timeout: 5, args: ["-l", 2] } },
      result: { text: "ok", isError: false },
      message: { text: "hi" },
      stopReason: "stop",
      prompt: "p",
      availableTools: ["bash", "read"],
      extra: { n: 1 },
    });
  });

  it.each([
    ["a minimal tool call", { hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "bash", input: { command: "ls" } } }, true],
    ["an array as tool input", { hook: "tool_call", session: { id: "s", cwd: "/p" }, tool: { name: "bash", input: [] } }, false],
    ["an empty session id", { hook: "input", session: { id: "", cwd: "/p" } }, false],
    ["a 513-character session id", { hook: "input", session: { id: "s".repeat(513), cwd: "/p" } }, false],
    ["an unknown hook", { hook: "before_tool", session: { id: "s", cwd: "/p" } }, false],
    ["a non-string available tool", { hook: "input", session: { id: "s", cwd: "/p" }, availableTools: ["bash", 3] }, false],
  ])("should judge %s", (_name, x, ok) => {
    expect(isHookEvent(x)).toBe(ok);
    expect(v.safeParse(HookEventSchema, x).success).toBe(ok);
  });
});
