/** @module End-to-end: the real pi CLI, the scripted model, the Shepherd extension and dist/shepherd, one hook timing per test. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assistantStops, contextText, PiProject, ROOT, toolResults } from "./helpers/pi-harness.ts";
import type { PiVersion } from "./helpers/pi1-install.ts";
import { piVersions } from "./helpers/pi1-install.ts";

// Every scenario runs on each pi line the extension serves (pi 1.x is installed on first use).
describe.each(piVersions().map((pi) => [pi.version, pi] as const))("pi %s", (_version, pi) => {
  let project: PiProject;
  beforeEach(() => {
    project = new PiProject(pi.bin);
  });
  afterEach(() => {
    project.cleanup();
  });

  describe("tool_call", () => {
    it("should block a matching bash call with the rule's reason, so the files survive", async () => {
      project.write("victim/keep.txt", "precious\n");
      project.rules([{ name: "no-rm", tool: "bash", action: "block", pattern: "rm -rf", reason: "no: {{command}}" }]);
      project.script([
        { text: "Cleaning up.", toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] },
        { text: "FINAL {{toolResults}}" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(project.read("victim/keep.txt")).toBe("precious\n");
      const [result] = toolResults(run);
      expect(result?.isError).toBe(true);
      expect(result?.text).toContain("no: rm -rf victim");
      expect(contextText(run, 1)).toContain("no: rm -rf victim");
    });

    it("should stop the agent after a block from a terminate rule, instead of letting it try again", async () => {
      project.rules([{ name: "no-prod", tool: "bash", action: "block", pattern: "deploy prod", reason: "never deploy prod", terminate: true }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "echo deploy prod > deployed.txt" } }] }, { text: "SHOULD NOT BE REACHED" }]);
      const run = await project.run();
      expect(project.exists("deployed.txt")).toBe(false);
      const [result] = toolResults(run);
      expect(result?.isError).toBe(true);
      expect(result?.text).toContain("never deploy prod");
      // The model is never asked again: pi 1.x stops after the batch; on pi 0.73 the next call is aborted before it answers.
      expect(assistantStops(run)).toEqual(pi.modern ? ["toolUse"] : ["toolUse", "aborted"]);
      expect(run.stdout).not.toContain("SHOULD NOT BE REACHED");
    });

    it("should judge a tool Shepherd never heard of by its author's annotations (pi 1.x reports them)", async () => {
      project.rules([{ name: "ask-destructive", tool: "*", action: "ask", conditions: [{ field: "annotations.destructiveHint", pattern: "^true$" }], reason: "{{tool}} may destroy data" }]);
      project.script([{ toolCalls: [{ name: "wipe_cache", arguments: {} }] }, { text: "done" }]);
      const run = await project.run({ extraExtensions: [join(ROOT, "tests", "helpers", "pi-annotated-tool.ts")], tools: "bash,read,edit,write,shepherd_rules,wipe_cache" });
      expect(run.code).toBe(0);
      const [result] = toolResults(run);
      // No UI in -p: the ask becomes a block. pi 0.73 reports no annotations, so there the rule cannot see the hint.
      expect(result?.text).toContain(pi.modern ? "wipe_cache may destroy data" : "cache wiped");
      expect(project.exists("WIPED.txt")).toBe(!pi.modern);
    });

    it("should run the rewritten command when a rule rewrites it, while the transcript keeps the original", async () => {
      project.trust();
      project.write("notes.txt", "the notes\n");
      project.rules([{ name: "tag-cat", tool: "bash", action: "rewrite", pattern: "^cat notes", rewrite: { prefix: "echo REWRITTEN &&" } }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "cat notes.txt" } }] }, { text: "done" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [result] = toolResults(run);
      expect(result?.isError).toBe(false);
      expect(result?.text).toBe("REWRITTEN\nthe notes\n");
      expect(contextText(run, 1)).toContain("REWRITTEN");
      const start = run.events.find((e) => e.type === "tool_execution_start");
      expect(JSON.stringify(start?.args)).toContain('"command":"cat notes.txt"');
    });

    it("should block an ask rule when pi has no UI to ask (pi -p)", async () => {
      project.rules([{ name: "ask-touch", tool: "bash", action: "ask", pattern: "^touch asked", reason: "may I touch?" }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "touch asked.txt" } }] }, { text: "done" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(project.exists("asked.txt")).toBe(false);
      expect(toolResults(run)[0]?.text).toContain("may I touch?");
    });

    it("should block the model's own write of a rule file (locked self-protection), so the file never appears", async () => {
      const rule = JSON.stringify([{ name: "late", tool: "bash", action: "block", pattern: "touch late", reason: "late rule says no" }]);
      project.script([{ toolCalls: [{ name: "write", arguments: { path: ".pi/shepherd-rules.json", content: rule } }] }, { text: "done {{toolResults}}" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(project.exists(".pi/shepherd-rules.json")).toBe(false);
      expect(toolResults(run)[0]?.text).toContain("Shepherd's self-protection");
    });

    it("should pick up a rule file written during the session on the next tool call", async () => {
      // The model may write rule files only once the user unlocked and disabled the self-protection rule by hand.
      project.settings({ unlockBuiltins: ["safety-self-write-tool"] });
      project.globalRules([{ name: "safety-self-write-tool", enabled: false }]);
      const rule = JSON.stringify([{ name: "late", tool: "bash", action: "block", pattern: "touch late", reason: "late rule says no" }]);
      project.script([
        { toolCalls: [{ name: "write", arguments: { path: ".pi/shepherd-rules.json", content: rule } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "touch late.txt" } }] },
        { text: "done {{toolResults}}" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(project.exists("late.txt")).toBe(false);
      expect(contextText(run, 2)).toContain("late rule says no");
    });
  });

  describe("tool_result", () => {
    it("should append a notify to the tool result for the model and show it to the user", async () => {
      project.rules([{ name: "changelog", hook: "tool_result", tool: "bash", action: "notify", pattern: "deploy", reason: "remember the changelog for {{command}}" }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "echo deploy" } }] }, { text: "done" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [result] = toolResults(run);
      expect(result?.text).toContain("deploy\n");
      expect(result?.text).toContain("[Shepherd] remember the changelog for echo deploy");
      expect(contextText(run, 1)).toContain("remember the changelog for echo deploy");
      expect(run.stderr).toContain("remember the changelog for echo deploy");
    });

    it("should steer the model, and only the model, once errors reach the rule's count", async () => {
      project.rules([
        { name: "three-errors", hook: "tool_result", tool: "bash", action: "steer", state: { countKind: "errors", gte: 3 }, reason: "three failures: stop and think" },
      ]);
      // Three different failing commands: one command failing again would bring the built-in loop rule's steer too.
      const fail = (n: number) => ({ toolCalls: [{ name: "bash", arguments: { command: `echo failing ${n}; exit 1` } }] });
      project.script([fail(1), fail(2), fail(3), { text: "done" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(run.contexts.length).toBe(4);
      expect(contextText(run, 2)).not.toContain("three failures");
      expect(contextText(run, 3)).toContain("three failures: stop and think");
      for (const result of toolResults(run)) expect(result.text).not.toContain("three failures");
      expect(run.stderr).not.toContain("three failures");
    });
    it("should keep the result's structuredContent when a note is added to it", async () => {
      project.rules([{ name: "status-note", hook: "tool_result", tool: "bash", action: "notify", pattern: "STRUCTURED_PROBE", reason: "noted {{command}}" }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "echo STRUCTURED_PROBE" } }] }, { text: "done" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      const [result] = toolResults(run);
      expect(result?.text).toContain("[Shepherd] noted echo STRUCTURED_PROBE");
      // pi 0.73 has no structuredContent; pi 1.x keeps bash's {output, exit_code, ...} beside the note.
      expect(structuredKeys(result?.structuredContent)).toEqual(pi.modern ? expect.arrayContaining(["output", "exit_code"]) : []);
    });
  });

  describe("message_end", () => {
    it("should steer the next turn when the assistant's text matches", async () => {
      project.rules([{ name: "blame", hook: "message_end", action: "steer", pattern: "bug in the framework", reason: "show evidence first" }]);
      project.script([
        { text: "This is a bug in the framework.", toolCalls: [{ name: "bash", arguments: { command: "echo looking" } }] },
        { text: "done" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(contextText(run, 0)).not.toContain("show evidence first");
      expect(contextText(run, 1)).toContain("show evidence first");
      expect(toolResults(run)[0]?.text).not.toContain("show evidence first");
    });

    it("should deliver a steer from the final message in a follow-up turn the agent acts on", async () => {
      project.rules([{ name: "blame", hook: "message_end", action: "steer", pattern: "bug in the framework", reason: "show evidence first" }]);
      project.script([{ text: "It must be a bug in the framework." }, { text: "Here is the evidence." }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(run.contexts.length).toBe(2);
      expect(contextText(run, 1)).toContain("show evidence first");
    });
  });

  describe("agent_end", () => {
    it("should deliver a wrap-up reminder the agent acts on, once per prompt", async () => {
      project.rules([{ name: "wrap-up", hook: "agent_end", action: "notify", check: "has_edits", reason: "run the tests" }]);
      project.script([
        { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "changed\n" } }] },
        { text: "All done." },
        { toolCalls: [{ name: "bash", arguments: { command: "echo tests-ran > ran.txt" } }] },
        { text: "Tests ran." },
        { text: "SHOULD NOT BE REACHED" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(contextText(run, 1)).not.toContain("run the tests");
      expect(contextText(run, 2)).toContain("run the tests");
      expect(project.read("ran.txt")).toBe("tests-ran\n");
      expect(run.contexts.length).toBe(4);
    });

    it("should wrap up exactly once when pi retries a failed provider call, counting the edits made before it", async () => {
      project.piSettings({ retry: { enabled: true, maxRetries: 2, baseDelayMs: 10 } });
      project.rules([{ name: "wrap-up", hook: "agent_end", action: "notify", check: "has_edits", reason: "run the tests" }]);
      project.script([
        { toolCalls: [{ name: "write", arguments: { path: "b.txt", content: "hello\n" } }] },
        { error: "503 Service Unavailable" },
        { text: "Done." },
        { text: "WRAPUP-ACK" },
        { text: "SHOULD NOT BE REACHED" },
      ]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(project.read("b.txt")).toBe("hello\n");
      expect(run.contexts.length).toBe(4);
      for (const index of [0, 1, 2]) expect(contextText(run, index)).not.toContain("run the tests");
      // One reminder (the rule's line, and the built-in wrap-up's beside it), never a second follow-up.
      expect(contextText(run, 3).match(/^\[Shepherd\] run the tests$/gm)?.length).toBe(1);
    });

    it("should not remind when the stop reason is not one the rule names", async () => {
      project.rules([{ name: "only-on-length", hook: "agent_end", action: "notify", check: "always", stopReason: ["length"], reason: "you ran out of room" }]);
      project.script([{ text: "Finished." }, { text: "SHOULD NOT BE REACHED" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(run.contexts.length).toBe(1);
    });
  });

  describe("input", () => {
    it("should keep a blocked prompt from ever reaching the model", async () => {
      project.rules([{ name: "no-prompt", hook: "input", action: "block", pattern: "forbidden-prompt", reason: "not this prompt" }]);
      project.script([{ text: "SHOULD NOT BE REACHED" }]);
      const run = await project.run({ prompt: "forbidden-prompt please" });
      expect(run.code).toBe(0);
      expect(run.contexts.length).toBe(0);
      expect(run.stderr).toContain("not this prompt");
    });
  });

  describe("session_shutdown", () => {
    it("should evaluate shutdown rules and leave no sidecar behind", async () => {
      project.rules([{ name: "bye", hook: "session_shutdown", action: "notify", check: "always", reason: "bye from shepherd" }]);
      project.script([{ text: "hello" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("bye from shepherd");
      const { stdout } = Bun.spawnSync(["pgrep", "-f", project.shepherdBin]);
      expect(stdout.toString()).toBe("");
    });
  });

  describe("hooks this pi lacks", () => {
    it("should name, in one line, a hook this pi does not have, and keep working", async () => {
      project.rules([{ name: "no-rm", tool: "bash", action: "block", pattern: "rm -rf", reason: "no: {{command}}" }]);
      project.script([{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] }, { text: "done" }]);
      const run = await project.run();
      expect(run.code).toBe(0);
      expect(toolResults(run)[0]?.text).toContain("no: rm -rf victim");
      const notices = run.stderr.split("\n").filter((line) => line.includes("this pi has no"));
      // pi 0.73 lacks the settle hooks (wrap-ups then run on agent_end); pi 1.x has every hook used.
      expect(notices).toEqual(pi.modern ? [] : ["[Shepherd] this pi has no agent_before_settle/agent_settled hook: wrap-ups are judged at each agent_end instead"]);
    });
  });

  describe("ephemeral hints", () => {
    it("should relay ephemeral:hint to the next provider request only, without storing it in the session", async () => {
      const sessions = join(project.root, "sessions");
      project.script([
        { toolCalls: [{ name: "bash", arguments: { command: "echo HINT_ME" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "echo second" } }] },
        { text: "done" },
      ]);
      const run = await project.run({ sessionDir: sessions, extraExtensions: [join(ROOT, "tests", "helpers", "pi-hint-emitter.ts")] });
      expect(run.code).toBe(0);
      expect(contextText(run, 0)).not.toContain("EPHEMERAL-HINT");
      expect(contextText(run, 1)).toContain("EPHEMERAL-HINT: the docs are in docs/");
      expect(contextText(run, 2)).not.toContain("EPHEMERAL-HINT");
      const files = readdirSync(sessions, { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
      expect(files.length).toBe(1);
      const stored = readFileSync(join(sessions, files[0] ?? ""), "utf8");
      expect(stored).toContain("HINT_ME");
      expect(stored).not.toContain("EPHEMERAL-HINT");
    });
  });
});

/** The keys of a structuredContent object, sorted; none when there is none. */
function structuredKeys(value: unknown): string[] {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value).sort() : [];
}

// pi 1.x alone has built-in codemode and MCP: nested calls and MCP tools go through the same hooks.
describe.each(piVersions().filter((pi: PiVersion) => pi.modern).map((pi) => [pi.version, pi] as const))("pi %s codemode and MCP", (_version, pi) => {
  let project: PiProject;
  beforeEach(() => {
    project = new PiProject(pi.bin);
  });
  afterEach(() => {
    project.cleanup();
  });

  it("should hand a codemode script bash's structured result even when a rule adds a note", async () => {
    project.rules([{ name: "status-note", hook: "tool_result", tool: "bash", action: "notify", pattern: "STRUCTURED_PROBE", reason: "noted {{command}}" }]);
    const code =
      "const s = await tools.bash({ command: 'echo STRUCTURED_PROBE' }); text('TYPE=' + typeof s + ' KEYS=' + (s && typeof s === 'object' ? Object.keys(s).sort().join(',') : '-'));";
    project.script([{ toolCalls: [{ name: "codemode", arguments: { code } }] }, { text: "FINAL {{toolResults}}" }]);
    const run = await project.run({ builtins: true, tools: "bash,read,edit,write,shepherd_rules,codemode" });
    expect(run.code).toBe(0);
    const script = toolResults(run).find((r) => r.toolName === "codemode");
    expect(script?.text).toContain("TYPE=object");
    expect(script?.text).toMatch(/KEYS=[^ ]*exit_code/);
    expect(run.stderr).toContain("noted echo STRUCTURED_PROBE");
  });

  it("should evaluate a codemode script's nested calls, carrying the parent call's id", async () => {
    project.write("victim/keep.txt", "precious\n");
    project.rules([{ name: "no-nested-rm", tool: "bash", action: "block", pattern: "rm -rf", conditions: [{ field: "parentCallId", pattern: "^call_0_0$" }], reason: "not from a script: {{command}}" }]);
    const code = "try { await tools.bash({ command: 'rm -rf victim' }); text('RAN'); } catch (e) { text('REJECTED: ' + e.message); }";
    project.script([{ toolCalls: [{ name: "codemode", arguments: { code } }] }, { toolCalls: [{ name: "bash", arguments: { command: "rm -rf victim && echo top-level-ran" } }] }, { text: "done" }]);
    const run = await project.run({ builtins: true, tools: "bash,read,edit,write,shepherd_rules,codemode" });
    expect(run.code).toBe(0);
    const results = toolResults(run);
    const nested = results.find((r) => r.parentToolCallId === "call_0_0");
    expect(nested?.isError).toBe(true);
    expect(nested?.text).toContain("not from a script: rm -rf victim");
    expect(results.find((r) => r.toolName === "codemode")?.text).toContain("not from a script");
    // The same command from the model itself has no parent: the rule leaves it alone.
    expect(results.find((r) => r.toolName === "bash" && r.parentToolCallId === undefined)?.text).toContain("top-level-ran");
    expect(project.exists("victim")).toBe(false);
  });

  it("should match an MCP tool from pi's MCP client by a tool glob and a condition on its input", async () => {
    writeFileSync(
      join(project.agentDir, "mcp.json"),
      JSON.stringify({ mcpServers: { shepherd: { command: project.shepherdBin, args: ["serve"], exposure: "direct", description: "Shepherd guard rules" } } }),
    );
    project.rules([{ name: "no-mcp-list", tool: "mcp__shepherd__*", action: "block", conditions: [{ field: "action", pattern: "^list$" }], reason: "no listing via {{tool}}" }]);
    project.script([
      { toolCalls: [{ name: "mcp__shepherd__shepherd_rules", arguments: { action: "list" } }] },
      { toolCalls: [{ name: "mcp__shepherd__shepherd_rules", arguments: { action: "remove", name: "no-such-rule" } }] },
      { text: "done" },
    ]);
    const run = await project.run({ builtins: true, tools: "bash,read,edit,write,shepherd_rules,mcp__shepherd__shepherd_rules" });
    expect(run.code).toBe(0);
    const [listed, removed] = toolResults(run);
    expect(listed?.toolName).toBe("mcp__shepherd__shepherd_rules");
    expect(listed?.isError).toBe(true);
    expect(listed?.text).toContain("no listing via mcp__shepherd__shepherd_rules");
    // Another action of the same tool reaches the MCP server, which answers for itself.
    expect(removed?.text).toContain("no-such-rule");
    expect(removed?.text).not.toContain("no listing");
  });
});
