/** @module black-box tests of `shepherd rules list|check|explain|test` and `shepherd schema` against dist/shepherd. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./helpers/sidecar-client.ts";

const BROKEN = join(import.meta.dir, "fixtures", "broken-rules");

let root = "";
let project = "";
let agent = "";

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-cli-rules-"));
  project = join(root, "project");
  agent = join(root, "agent");
  mkdirSync(join(project, ".pi"), { recursive: true });
  mkdirSync(agent, { recursive: true });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function shepherd(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: root, PI_CODING_AGENT_DIR: agent, ...opts.env };
  const res = spawnSync(BINARY, args, { cwd: opts.cwd ?? project, env, encoding: "utf8" });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

function writeProjectRules(name: string, rules: unknown): void {
  writeFileSync(join(project, ".pi", name), typeof rules === "string" ? rules : JSON.stringify(rules, null, 2));
}

describe("shepherd rules check <file>", () => {
  it.each([
    ["syntax-missing-comma.json", 1, ["syntax-missing-comma.json:3:3", "JSON syntax error: CommaExpected"]],
    ["empty.json", 1, ["empty.json:1:1", "empty file"]],
    ["comment-only.json", 1, ["empty file"]],
    ["binary-garbage.json", 1, ["binary-garbage.json:1:1", "JSON syntax error"]],
    ["wrong-top-level.json", 1, ["expected a JSON array of rules"]],
    ["unknown-key.json", 1, ["unknown-key.json:3:42  rules[0].patern", 'did you mean "pattern"?']],
    ["unknown-hook.json", 1, ["unknown-hook.json:4:5  [0].hook", 'did you mean "tool_call"?']],
    ["invalid-regex.json", 1, ["[0].pattern", "[1].conditions[0].pattern", "invalid regular expression"]],
    ["invalid-flags.json", 1, ["[0].flags", "flags may only contain"]],
    ["wrong-types.json", 1, ["[0].enabled", "[0].tool", "Expected boolean"]],
    ["rewrite-without-rewrite.json", 1, ["[0].rewrite", 'needs a "rewrite"']],
    ["output-on-tool-call.json", 1, ["[0].conditions[0].field", '"output" only exists on tool_result']],
    ["duplicate-name.json", 1, ["duplicate-name.json:3:5  [1].name", 'duplicate rule name "same"']],
    ["bad-state.json", 1, ["[0].state.gte", "Expected >=1"]],
    ["bad-test-expect.json", 1, ["[0].tests[0].expect", 'did you mean "block"?']],
    ["block-on-message-end.json", 1, ["[0].action", "cannot stop anything on message_end"]],
    ["no-action.json", 1, ["[0]", 'needs an "action"']],
    ["patch-of-nothing.json", 0, ["warning", "no earlier layer defines it"]],
    ["warn-unknown-tool.json", 0, ["warn-unknown-tool.json:2:37  [0].tool  warning", 'did you mean "bash"?']],
    ["warn-shadowed.json", 0, ["[1]  warning: shadowed", '"all-push"']],
    ["warn-failing-test.json", 0, ["[0].tests[0]  warning", "expected block, got allow"]],
    ["warn-unreachable.json", 0, ["[0].pattern  warning: never fires"]],
  ])("should report %s with exit %p", (file, exit, needles) => {
    const res = shepherd(["rules", "check", file], { cwd: BROKEN });
    expect(res.code).toBe(exit);
    for (const n of needles) expect(res.stdout).toContain(n);
  });

  it("should exit 0 with no problems on a clean file", () => {
    writeProjectRules("shepherd-rules.json", [{ name: "ok", action: "block", pattern: "^rm ", tests: [{ command: "rm x", expect: "block" }] }]);
    const res = shepherd(["rules", "check", ".pi/shepherd-rules.json"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("no problems");
  });

  it("should still analyse the valid rules of a file that has an error", () => {
    writeProjectRules("shepherd-rules.json", '[\n  { "name": "a", "tool": "bsh", "action": "block", "pattern": "x" },\n  { "name": "b", "action": "block", "pattern": "(" }\n]\n');
    const res = shepherd(["rules", "check", ".pi/shepherd-rules.json", "--no-tests"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('[0].tool  warning: unknown tool "bsh"; did you mean "bash"?');
    expect(res.stdout).toContain("[1].pattern  error");
  });

  it("should report a missing file as an error", () => {
    const res = shepherd(["rules", "check", "nope.json"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain("nope.json  (file)  error: file not found");
  });

  it("should give every issue with file, line, column, path and severity in --json", () => {
    const res = shepherd(["rules", "check", "--json", "invalid-regex.json", "warn-unknown-tool.json"], { cwd: BROKEN });
    expect(res.code).toBe(1);
    const out = JSON.parse(res.stdout) as { ok: boolean; errors: number; warnings: number; issues: { file: string; path: string; line: number; column: number; severity: string }[] };
    // Each broken rule: its cause, and an error that says it is skipped (at the rule itself).
    expect(out).toMatchObject({ ok: false, errors: 4, warnings: 1 });
    expect(out.issues.map((i) => `${i.path} ${i.line}:${i.column} ${i.severity}`)).toEqual([
      "[0] 2:3 error",
      "[0].pattern 2:45 error",
      "[1] 3:3 error",
      "[1].conditions[0].pattern 3:78 error",
      "[0].tool 2:37 warning",
    ]);
  });
});

describe("shepherd rules check (project layers)", () => {
  it("should check every layer of the project and point into the broken project file", () => {
    writeFileSync(join(agent, "shepherd-rules.json"), JSON.stringify([{ name: "g", action: "notify", tool: "wirte", pattern: "x" }]));
    writeProjectRules("shepherd-rules-extra.json", '[\n  { "name": "p", "action": "block", "pattern": "(" }\n]\n');
    const res = shepherd(["rules", "check", "--no-tests"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(".pi/shepherd-rules-extra.json:2:37  [0].pattern  error");
    expect(res.stdout).toContain(`${join(agent, "shepherd-rules.json")}:1:32  [0].tool  warning: unknown tool "wirte"; did you mean "write"?`);
  });

  it("should pass on the built-in rules alone", () => {
    const res = shepherd(["rules", "check"]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
  });
});

describe("shepherd rules list", () => {
  it("should show layer, file, overrides and skipped rules with the reason", () => {
    writeFileSync(join(agent, "shepherd-rules.json"), JSON.stringify([{ name: "no-checkout-discard", action: "notify", pattern: "checkout" }]));
    writeProjectRules("shepherd-rules.json", [
      { name: "rw", action: "rewrite", pattern: "^npm ", rewrite: { replace: "pnpm " } },
      { name: "off", action: "block", pattern: "x", enabled: false },
    ]);
    writeProjectRules("shepherd-rules-broken.json", "[");
    const res = shepherd(["rules", "list"]);
    expect(res.code).toBe(0);
    const line = (name: string, status: string) => res.stdout.split("\n").find((l) => l.startsWith(`${name} `) && l.includes(status)) ?? "";
    expect(line("no-checkout-discard", "overridden")).toContain("by global");
    expect(line("no-checkout-discard", "active")).toContain("overrides builtin rules/defaults.json");
    expect(line("rw", "skipped")).toContain("untrusted project may not rewrite");
    expect(line("rw", "skipped")).toContain("project .pi/shepherd-rules.json:2");
    expect(line("off", "disabled")).not.toBe("");
    expect(res.stdout).toContain("not trusted");
    expect(res.stdout).toContain(".pi/shepherd-rules-broken.json:1:2  (file)  error");
  });

  it("should give machine-readable rules with status in --json", () => {
    writeProjectRules("shepherd-rules.json", [{ name: "mine", action: "block", pattern: "x" }]);
    const res = shepherd(["rules", "list", "--json"]);
    const out = JSON.parse(res.stdout) as { trusted: boolean; rules: { name: string; status: string; source: string; line?: number }[] };
    expect(out.trusted).toBe(false);
    expect(out.rules.find((r) => r.name === "mine")).toMatchObject({ status: "active", source: "project", line: 2 });
    expect(out.rules.find((r) => r.name === "no-checkout-discard")).toMatchObject({ status: "active", source: "builtin" });
  });
});

describe("shepherd rules explain", () => {
  it("should show which rule fired and the final decision", () => {
    const res = shepherd(["rules", "explain", "--tool", "bash", "--command", "git checkout -- a.ts"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/✓ no-checkout-discard\s+block/);
    expect(res.stdout).toContain("decision: block");
  });

  it("should give the first failed condition of a rule that did not fire", () => {
    writeProjectRules("shepherd-rules.json", [{ name: "env-files", action: "block", tool: "write", conditions: [{ field: "path", pattern: "\\.env$" }] }]);
    const res = shepherd(["rules", "explain", "--tool", "write", "--path", "src/a.ts", "--text", "x"]);
    expect(res.stdout).toMatch(/env-files\s+condition path does not match \/\\\.env\$\/: "src\/a\.ts"/);
    expect(res.stdout).toContain("decision: allow");
  });

  it("should report a command that is not valid shell and fell back to plain matching", () => {
    const res = shepherd(["rules", "explain", "--command", 'echo "unterminated']);
    expect(res.stdout).toContain("could not parse the command");
    expect(res.stdout).toContain('"pattern" rules match the raw text');
  });

  it("should read a whole event from --event, filling in the session", () => {
    writeFileSync(join(root, "event.json"), JSON.stringify({ hook: "message_end", message: { text: "This is a bug in the framework." } }));
    const res = shepherd(["rules", "explain", "--event", join(root, "event.json"), "--json"]);
    const out = JSON.parse(res.stdout) as { rules: { name: string; fired: boolean }[]; decision: { steer: string[] } };
    expect(out.rules.find((r) => r.name === "framework-blame")?.fired).toBe(true);
    expect(out.decision.steer.length).toBe(1);
  });

  it.each([
    [["--hook", "tool_cal", "--command", "x"], 'did you mean "tool_call"'],
    [["--frobnicate"], "Unknown option"],
    [[], "give --tool, --command, --path or --text"],
  ])("should exit 2 on bad usage %j", (args, message) => {
    const res = shepherd(["rules", "explain", ...args]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
  });
});

describe("shepherd rules test", () => {
  it("should pass on the built-in rules' inline tests", () => {
    const res = shepherd(["rules", "test"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/✓ \d+ rules, \d+ cases: \d+ passed/);
  });

  it("should exit 1 and show the failing case with its position", () => {
    writeProjectRules("shepherd-rules.json", {
      rules: [
        { name: "no-push", action: "block", pattern: "^git push", tests: [{ command: "git push", expect: "block" }, { command: "git pull", expect: "block" }] },
      ],
    });
    const res = shepherd(["rules", "test", ".pi/shepherd-rules.json"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('FAIL "git pull" -> expect block: expected block, got allow');
    expect(res.stdout).toContain(".pi/shepherd-rules.json:12:9 rules[0].tests[1]");
    expect(res.stdout).toContain("1 passed, 1 failed");
  });
});

describe("shepherd schema", () => {
  it("should print a JSON Schema that knows every rule field", () => {
    const res = shepherd(["schema"]);
    expect(res.code).toBe(0);
    const schema = JSON.parse(res.stdout) as { $schema: string; $defs: { rule: { properties: Record<string, { description?: string }>; additionalProperties: boolean } } };
    expect(schema.$schema).toContain("json-schema.org");
    const props = schema.$defs.rule.properties;
    for (const key of ["name", "hook", "tool", "action", "pattern", "conditions", "state", "check", "rewrite", "tests", "locked", "options"]) {
      expect(props[key]?.description).toBeString();
    }
    expect(schema.$defs.rule.additionalProperties).toBe(false);
  });

  it("should write the schema with --out", () => {
    const res = shepherd(["schema", "--out", ".pi/shepherd-rules.schema.json"]);
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, ".pi/shepherd-rules.schema.json"), "utf8"))).toHaveProperty("$defs.rule");
  });
});

describe("help and colour", () => {
  it.each(["rules list", "rules check", "rules explain", "rules test", "schema", "replay"])("should print help with an example for %s", (cmd) => {
    const res = shepherd([...cmd.split(" "), "--help"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Usage: shepherd");
    expect(res.stdout).toContain("Example");
  });

  it.each([
    [{ FORCE_COLOR: "1" }, true],
    [{ FORCE_COLOR: "1", NO_COLOR: "1" }, false],
    [{}, false],
  ])("should colour output only when asked (%j)", (env, coloured) => {
    const res = shepherd(["rules", "check", "unknown-key.json"], { cwd: BROKEN, env });
    expect(res.stdout.includes("\x1b[")).toBe(coloured);
  });
});
