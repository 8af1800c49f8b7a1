import { describe, expect, it } from "bun:test";
import { bashCall, makeEvaluator, ruleSetOf, toolResult } from "./test-helpers.ts";

describe("evaluate", () => {
  it("should block with the rule's reason and fill {{command}}", async () => {
    const { run } = makeEvaluator(ruleSetOf({ project: [{ name: "no-rm", action: "block", pattern: "rm -rf", reason: "no: {{command}} via {{tool}}" }] }));
    const d = await run(bashCall("rm -rf /tmp/x"));
    expect(d.action).toBe("block");
    expect(d.reason).toBe("no: rm -rf /tmp/x via bash");
    expect(d.fired).toEqual([{ rule: "no-rm", source: "project", action: "block" }]);
  });

  it.each([
    ["git status", "allow"],
    ["rm -rf x", "block"],
    ["echo rm -rf", "block"],
  ] as const)("should decide %p as %p", async (command, expected) => {
    const { run } = makeEvaluator(ruleSetOf({ builtin: [{ name: "r", action: "block", pattern: "rm -rf" }] }));
    expect((await run(bashCall(command))).action).toBe(expected);
  });

  it("should let block win over rewrite and notify regardless of order", async () => {
    const rules = ruleSetOf({
      builtin: [
        { name: "rw", action: "rewrite", pattern: "^git", rewrite: { prefix: "rtk" } },
        { name: "n", action: "notify", pattern: "git", reason: "careful" },
        { name: "b", action: "block", pattern: "push --force", reason: "no force" },
      ],
    });
    const d = await makeEvaluator(rules).run(bashCall("git push --force"));
    expect(d).toMatchObject({ action: "block", reason: "no force", notify: [], steer: [] });
  });

  describe("listAll (a dry run)", () => {
    const list = [
      { name: "n", action: "notify", pattern: "git", reason: "careful" },
      { name: "b1", action: "block", pattern: "push", reason: "first" },
      { name: "b2", action: "block", pattern: "--force", reason: "second" },
      { name: "s", action: "steer", pattern: "git", reason: "hint" },
      { name: "quiet", action: "block", pattern: "nothing-like-it" },
    ];
    const rules = () => ruleSetOf({ builtin: list });
    it.each([
      ["sync", false],
      ["async: a plugin action needs the host", true],
    ])("should list every rule that would fire after a block, the blocker first, with no other effect (%s)", async (_path, plugin) => {
      let ran = 0;
      const set = plugin ? ruleSetOf({ builtin: [...list, { name: "p", action: "custom_guard", pattern: "git" }] }, { trusted: true, pluginActions: new Set(["custom_guard"]) }) : rules();
      const host = { runAction: async () => (ran++, { action: "block" as const, reason: "plugin" }) };
      const d = await makeEvaluator(set, { listAll: true, ...(plugin ? { host } : {}) }).run(bashCall("git push --force"));
      expect(d).toMatchObject({ action: "block", reason: "first", notify: [], steer: [] });
      expect(d.fired.map((f) => `${f.rule}:${f.action}`)).toEqual(["b1:block", "n:notify", "b2:block", "s:steer", ...(plugin ? ["p:custom_guard"] : [])]);
      // Listed, not run: a plugin action after the block takes no effect.
      expect(ran).toBe(0);
    });

    it("should stop at the first block without it, as every live face does", async () => {
      const d = await makeEvaluator(rules()).run(bashCall("git push --force"));
      expect(d.fired.map((f) => f.rule)).toEqual(["b1"]);
    });
  });

  it("should chain rewrites in definition order, each seeing the previous output", async () => {
    const rules = ruleSetOf({
      builtin: [{ name: "a", action: "rewrite", pattern: "^git status", rewrite: { prefix: "rtk" } }],
      global: [{ name: "b", action: "rewrite", pattern: "^rtk (.*)$", rewrite: { replace: "time rtk $1" } }],
    });
    const d = await makeEvaluator(rules).run(bashCall("git status"));
    expect(d.action).toBe("rewrite");
    expect(d.input).toEqual({ command: "time rtk git status" });
    expect(d.fired.map((f) => f.rule)).toEqual(["a", "b"]);
  });

  it("should not prefix a command twice", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "a", action: "rewrite", pattern: "git status", rewrite: { prefix: "rtk" } }] });
    const d = await makeEvaluator(rules).run(bashCall("rtk git status"));
    expect(d.action).toBe("allow");
  });

  it("should block a command a rewrite produced when a block rule matches it", async () => {
    const rules = ruleSetOf({
      builtin: [
        { name: "b", action: "block", pattern: "danger" },
        { name: "rw", action: "rewrite", pattern: "^safe", rewrite: { replace: "danger" } },
      ],
    });
    expect((await makeEvaluator(rules).run(bashCall("safe"))).action).toBe("block");
  });

  it("should prefer ask over rewrite but after block", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "a", action: "ask", pattern: "deploy", reason: "really deploy?" }] });
    const d = await makeEvaluator(rules).run(bashCall("npm run deploy"));
    expect(d).toMatchObject({ action: "ask", reason: "really deploy?" });
  });

  it("should deduplicate notify and steer texts", async () => {
    const rules = ruleSetOf({
      builtin: [
        { name: "a", action: "steer", pattern: "x", reason: "same" },
        { name: "b", action: "steer", pattern: "x", reason: "same" },
        { name: "c", action: "notify", pattern: "x", reason: "n" },
      ],
    });
    const d = await makeEvaluator(rules).run(bashCall("x"));
    expect(d.steer).toEqual(["same"]);
    expect(d.notify).toEqual(["n"]);
    expect(d.action).toBe("allow");
  });

  it("should count the current error before evaluating, fire on the 3rd, then reset", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "e3", hook: "tool_result", tool: "*", action: "steer", state: { countKind: "errors", gte: 3 }, reason: "stop" }] });
    const { run } = makeEvaluator(rules);
    const results: number[] = [];
    for (let i = 0; i < 6; i++) results.push((await run(toolResult("bash", { command: "false" }, true))).steer.length);
    expect(results).toEqual([0, 0, 1, 0, 0, 1]);
  });

  it("should keep firing after the threshold when reset is false", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "c", hook: "tool_call", action: "notify", state: { countKind: "calls", gte: 2, reset: false }, reason: "many" }] });
    const { run } = makeEvaluator(rules);
    const out: number[] = [];
    for (let i = 0; i < 4; i++) out.push((await run(bashCall("ls"))).notify.length);
    expect(out).toEqual([0, 1, 1, 1]);
  });

  it("should count per tool when perTool is set", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "c", hook: "tool_result", tool: "*", action: "steer", state: { countKind: "errors", gte: 2, perTool: true }, reason: "again" }] });
    const { run } = makeEvaluator(rules);
    expect((await run(toolResult("bash", { command: "x" }, true))).steer).toEqual([]);
    expect((await run(toolResult("read", { path: "a" }, true))).steer).toEqual([]);
    expect((await run(toolResult("Bash", { command: "y" }, true))).steer).toEqual(["again"]);
  });

  it("should fire has_edits wrap-ups once per prompt and only after an edit", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "w", hook: "agent_end", action: "notify", check: "has_edits", reason: "run tests" }] });
    const { run } = makeEvaluator(rules);
    const end = { hook: "agent_end" as const, session: { id: "s1", cwd: "/proj" }, stopReason: "stop" };
    expect((await run(end)).notify).toEqual([]);
    await run(toolResult("edit", { path: "a.ts", newText: "x" }, false));
    expect((await run(end)).notify).toEqual(["run tests"]);
    await run(toolResult("write", { path: "b.ts", content: "x" }, false));
    expect((await run(end)).notify).toEqual([]);
    await run({ hook: "input", session: { id: "s1", cwd: "/proj" }, prompt: "next" });
    await run(toolResult("write", { path: "b.ts", content: "x" }, false));
    expect((await run(end)).notify).toEqual(["run tests"]);
  });

  it("should honour stopReason on agent_end", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "w", hook: "agent_end", action: "steer", check: "always", stopReason: ["stop"], reason: "wrap" }] });
    const { run } = makeEvaluator(rules);
    expect((await run({ hook: "agent_end", session: { id: "a", cwd: "/" }, stopReason: "aborted" })).steer).toEqual([]);
    expect((await run({ hook: "agent_end", session: { id: "a", cwd: "/" }, stopReason: "stop" })).steer).toEqual(["wrap"]);
  });

  it("should ask the host for git_uncommitted", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "g", hook: "agent_end", action: "notify", check: "git_uncommitted", reason: "commit" }] });
    let dirty = false;
    const { run } = makeEvaluator(rules, { host: { gitUncommitted: async () => dirty } });
    expect((await run({ hook: "agent_end", session: { id: "a", cwd: "/" } })).notify).toEqual([]);
    dirty = true;
    await run({ hook: "input", session: { id: "a", cwd: "/" }, prompt: "again" });
    expect((await run({ hook: "agent_end", session: { id: "a", cwd: "/" } })).notify).toEqual(["commit"]);
  });

  it("should stay quiet inside sub-agents for subagent: false rules", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "x", action: "block", pattern: "x", subagent: false }] });
    const { run } = makeEvaluator(rules);
    expect((await run({ ...bashCall("x"), session: { id: "c", cwd: "/", subagent: true } })).action).toBe("allow");
    expect((await run(bashCall("x"))).action).toBe("block");
  });

  it("should apply requireSuccess, requiresTools and output conditions", async () => {
    const rules = ruleSetOf({
      builtin: [
        { name: "ok", hook: "tool_result", action: "steer", requireSuccess: true, reason: "ok" },
        { name: "tools", hook: "tool_result", action: "steer", requiresTools: ["grep"], reason: "grep" },
        { name: "out", hook: "tool_result", action: "notify", conditions: [{ field: "output", pattern: "FAIL" }], reason: "failed" },
      ],
    });
    const { run } = makeEvaluator(rules);
    const ev = { ...toolResult("bash", { command: "t" }, false, "1 FAIL"), availableTools: ["bash", "read"] };
    const d = await run(ev);
    expect(d.steer).toEqual(["ok"]);
    expect(d.notify).toEqual(["failed"]);
    const e2 = { ...toolResult("bash", { command: "t" }, true, "fine"), availableTools: ["Grep"] };
    expect((await run(e2)).steer).toEqual(["grep"]);
  });

  it("should normalize Claude Code tool names and fields", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "env", tool: ["write", "edit"], action: "block", conditions: [{ field: "path", pattern: "\\.env$" }], reason: "no {{path}}" }] });
    const { run } = makeEvaluator(rules);
    const d = await run({ hook: "tool_call", session: { id: "x", cwd: "/" }, tool: { name: "Write", input: { file_path: "/p/.env", content: "A=1" } } });
    expect(d).toMatchObject({ action: "block", reason: "no /p/.env" });
  });

  it("should cap notify per rule with maxWarnings", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "n", action: "notify", pattern: "ls", reason: "hi" }] });
    const { run } = makeEvaluator(rules, { maxWarnings: 2 });
    const got: number[] = [];
    for (let i = 0; i < 4; i++) got.push((await run(bashCall("ls"))).notify.length);
    expect(got).toEqual([1, 1, 0, 0]);
  });

  it("should return an ephemeral hint once at the next before_provider_request", async () => {
    const { run, sessions } = makeEvaluator(ruleSetOf({}));
    sessions.get("h").hints.push("look at memory");
    const ev = { hook: "before_provider_request" as const, session: { id: "h", cwd: "/" } };
    expect((await run(ev)).steer).toEqual(["look at memory"]);
    expect((await run(ev)).steer).toEqual([]);
  });

  it("should match message_end and input patterns against the text", async () => {
    const rules = ruleSetOf({
      builtin: [
        { name: "m", hook: "message_end", action: "steer", pattern: "framework bug", flags: "i", reason: "evidence?" },
        { name: "i", hook: "input", action: "notify", pattern: "deploy", reason: "deploying" },
      ],
    });
    const { run } = makeEvaluator(rules);
    expect((await run({ hook: "message_end", session: { id: "m", cwd: "/" }, message: { text: "A Framework Bug!" } })).steer).toEqual(["evidence?"]);
    expect((await run({ hook: "input", session: { id: "m", cwd: "/" }, prompt: "please deploy" })).notify).toEqual(["deploying"]);
  });

  it("should hand a plugin action the input an earlier rewrite produced", async () => {
    const rules = ruleSetOf(
      { builtin: [{ name: "rw", action: "rewrite", pattern: "^git status", rewrite: { prefix: "rtk" } }, { name: "p", action: "seen", tool: "bash" }] },
      { trusted: true, pluginActions: new Set(["seen"]) },
    );
    let seen: unknown;
    const { run } = makeEvaluator(rules, { host: { runAction: async (_n, args) => ((seen = args.event.tool?.input.command), undefined) } });
    expect((await run(bashCall("git status"))).input).toEqual({ command: "rtk git status" });
    expect(seen).toBe("rtk git status");
  });

  it("should let requiresTools hold when the agent does not say which tools it has", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "g", action: "notify", pattern: "x", requiresTools: ["grep"], reason: "use grep" }] });
    const { run } = makeEvaluator(rules);
    expect((await run(bashCall("x"))).notify).toEqual(["use grep"]);
    expect((await run({ ...bashCall("x"), availableTools: ["bash"] })).notify).toEqual([]);
  });

  it("should run plugin actions through the host and keep their partial decision", async () => {
    const rules = ruleSetOf({ builtin: [{ name: "p", action: "custom_guard", options: { max: 1 } }] }, { trusted: true, pluginActions: new Set(["custom_guard"]) });
    const { run } = makeEvaluator(rules, {
      host: { runAction: async (_name, args) => (args.options.max === 1 ? { action: "block", reason: "plugin says no" } : undefined) },
    });
    expect(await run(bashCall("anything"))).toMatchObject({ action: "block", reason: "plugin says no", fired: [{ rule: "p" }] });
  });
});
