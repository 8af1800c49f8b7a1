/**
 * @module warming a sidecar before its first request. A pi session is hundreds of tool calls: left cold,
 * its first few thousand requests run the evaluation in Bun's interpreter and baseline tiers and build
 * the prefilter's indexes and compile rules on the way, which is where the stdio p99 over a session's start
 * went (3x the echo's). Ordinary events of each kind, evaluated at start on a scratch session store
 * (Workspace.warm), move that work before `initialize` is answered.
 */
import type { HookEvent } from "../engine/schema.ts";
import type { Workspace } from "../rules/workspace.ts";

/** Evaluations at start (~20 rounds of warmEvents): a few tens of ms once per process at 1,000 rules. */
export const WARM_EVALUATIONS = 1_000;

const COMMANDS = [
  "git status",
  "git diff --stat HEAD~1",
  "git log --oneline -5",
  "git add -A && git commit -m 'wip'",
  "ls -la",
  "cat README.md | head -50",
  "grep -rn 'export function' src --include=*.ts",
  "find . -name '*.test.ts' -not -path './node_modules/*'",
  "npm run build && npm test",
  "bun test tests/unit.test.ts",
  "python3 -m pytest -q tests/",
  "rm -rf dist build",
  "mkdir -p out && cp a.txt out/",
  "echo done > status.txt",
  "curl -s https://example.com/api | jq .",
  "cd packages/core && npx tsc --noEmit",
  "sed -n 1,40p src/main.ts",
];

/** Ordinary events of each kind a session sends, in a folder of the project, for a session nobody else uses. */
export function warmEvents(cwd: string): HookEvent[] {
  const session = { id: "shepherd-prewarm", cwd, agent: "prewarm" };
  const events: HookEvent[] = [{ hook: "session_start", session }];
  for (const command of COMMANDS) {
    events.push({ hook: "tool_call", session, tool: { name: "bash", input: { command } } });
    events.push({ hook: "tool_result", session, tool: { name: "bash", input: { command } }, result: { text: `ran ${command}\nok\n`, isError: false } });
  }
  const file = "src/module.ts";
  events.push(
    { hook: "tool_call", session, tool: { name: "read", input: { path: file } } },
    { hook: "tool_call", session, tool: { name: "edit", input: { path: file, oldText: "let a = 1;", newText: "const a = 1;" } } },
    { hook: "tool_call", session, tool: { name: "write", input: { path: "docs/changes.md", content: "# Changes\n\n- a line of notes\n".repeat(20) } } },
    { hook: "tool_result", session, tool: { name: "read", input: { path: file } }, result: { text: "export const a = 1;\n".repeat(30), isError: false } },
    { hook: "tool_result", session, tool: { name: "edit", input: { path: file } }, result: { text: "edited", isError: true } },
    { hook: "input", session, prompt: "rename the helper and run the tests" },
    { hook: "message_end", session, message: { text: "I renamed the helper and the tests pass; the docs are updated too." } },
  );
  return events;
}

/** Warms the project's evaluation; never fails the start (a warm-up is an optimisation). */
export function prewarm(workspace: Workspace, cwd: string, evaluations = WARM_EVALUATIONS): void {
  const events = warmEvents(cwd);
  try {
    workspace.warm(cwd, events, Math.max(1, Math.round(evaluations / events.length)));
  } catch {
    // A rule set that throws here throws on a real event too, and is reported there.
  }
}
