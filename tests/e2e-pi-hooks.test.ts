/** @module End-to-end: the real pi CLI, the scripted model, the Shepherd extension and dist/shepherd, one hook timing per test. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { contextText, PiProject, ROOT, toolResults } from "./helpers/pi-harness.ts";

let project: PiProject;
beforeEach(() => {
  project = new PiProject();
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
