/** @module Unit tests of the hand-written checks on the sidecar's answers. */
import { describe, expect, it } from "bun:test";
import { formatStatus, parseAnnotations, parseDecision, parseToolCallResult } from "./wire.ts";

describe("parseDecision", () => {
  it("should accept a full decision and fill in missing lists", () => {
    expect(parseDecision({ action: "rewrite", input: { command: "x" }, fired: [{ rule: "r", source: "project", action: "rewrite" }] })).toEqual({
      action: "rewrite",
      input: { command: "x" },
      notify: [],
      steer: [],
      fired: [{ rule: "r", source: "project", action: "rewrite" }],
    });
  });

  it("should name the field that is wrong", () => {
    expect(parseDecision(null)).toBe("decision is not an object");
    expect(parseDecision({ action: "explode" })).toContain("decision.action");
    expect(parseDecision({ action: "rewrite" })).toContain("decision.input");
    expect(parseDecision({ action: "allow", notify: [1] })).toContain("decision.notify");
    expect(parseDecision({ action: "block", reason: 3 })).toContain("decision.reason");
    expect(parseDecision({ action: "block", terminate: "yes" })).toContain("decision.terminate");
  });

  it.each([
    ["a block", "block", true],
    ["an allow (only a block stops the run)", "allow", undefined],
  ] as const)("should keep terminate on %s", (_what, action, expected) => {
    const decision = parseDecision({ action, terminate: true });
    expect(typeof decision === "string" ? decision : decision.terminate).toBe(expected);
  });
});

describe("parseDecision approvalToken", () => {
  it.each([
    ["an ask with a token", { action: "ask", approvalToken: "ab12" }, "ab12"],
    ["an allow (only an ask is approved)", { action: "allow", approvalToken: "ab12" }, undefined],
    ["an empty token", { action: "ask", approvalToken: "" }, "decision.approvalToken is not a token"],
    ["a token that is not a string", { action: "ask", approvalToken: 7 }, "decision.approvalToken is not a token"],
    ["an over-long token", { action: "ask", approvalToken: "x".repeat(129) }, "decision.approvalToken is not a token"],
  ] as const)("should read %s", (_what, value, expected) => {
    const decision = parseDecision(value);
    expect(typeof decision === "string" ? decision : decision.approvalToken).toBe(expected);
  });
});

describe("parseAnnotations", () => {
  it.each([
    ["boolean hints", { destructiveHint: true, readOnlyHint: false, title: "x" }, { destructiveHint: true, readOnlyHint: false }],
    ["hints that are not booleans", { destructiveHint: "yes" }, undefined],
    ["no annotations", undefined, undefined],
    ["a list", [true], undefined],
  ] as const)("should keep only the boolean hints of %s", (_what, value, expected) => {
    expect(parseAnnotations(value)).toEqual(expected);
  });
});

describe("parseToolCallResult", () => {
  it("should join the text parts and keep the error flag", () => {
    expect(parseToolCallResult({ content: [{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }], isError: true })).toEqual({
      text: "a\nb",
      isError: true,
    });
    expect(parseToolCallResult({ content: "nope" })).toContain("not a list");
  });

  const ask = { required: true, summary: "allow?", digest: "ab12" };
  it.each([
    ["a refusal with a whole consent request", { isError: true, _meta: { "shepherd/consent": ask } }, { summary: "allow?", digest: "ab12" }],
    ["a success (only a refusal can ask)", { isError: false, _meta: { "shepherd/consent": ask } }, undefined],
    ["a request without a digest", { isError: true, _meta: { "shepherd/consent": { required: true, summary: "allow?" } } }, undefined],
    ["a request that is not required", { isError: true, _meta: { "shepherd/consent": { ...ask, required: "yes" } } }, undefined],
    ["an empty summary", { isError: true, _meta: { "shepherd/consent": { ...ask, summary: "" } } }, undefined],
    ["no _meta", { isError: true }, undefined],
  ])("should read the consent request of %s", (_label, fields, consent) => {
    const result = parseToolCallResult({ content: [{ type: "text", text: "t" }], ...fields });
    expect(typeof result === "string" ? result : result.consent).toEqual(consent);
  });
});

describe("formatStatus", () => {
  it("should put the extension's own lines first and render nested status one line per entry", () => {
    const text = formatStatus(
      { version: "1.2.3", rules: { builtin: 3, project: 1 }, issues: [], files: [{ source: "project", file: "a.json", ok: true }], session: { callsByTool: { bash: 2 } } },
      { binary: "/bin/shepherd" },
    );
    expect(text.split("\n")).toEqual([
      "binary: /bin/shepherd",
      "version: 1.2.3",
      "rules:",
      "  builtin: 3",
      "  project: 1",
      "issues: none",
      "files:",
      "  - source=project file=a.json ok=true",
      "session:",
      "  callsByTool: bash=2",
    ]);
  });
});
