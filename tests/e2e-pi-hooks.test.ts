/** @module End-to-end: the real pi CLI, the scripted model, the Shepherd extension and dist/shepherd, one hook timing per test. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { contextText, PiProject, toolResults } from "./helpers/pi-harness.ts";

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
  });

  it("should pick up a rule file written during the session on the next tool call", async () => {
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
