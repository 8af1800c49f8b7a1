/**
 * @module `npm run demo`: a real pi session, offline, with a scripted model, guarded by Shepherd,
 * narrated for a person. Shows a block, a rewrite, a notify, a steer after repeated errors, a
 * message_end steer, a hot reload mid-session and a wrap-up reminder, then `/shepherd` status.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PiProject, SHEPHERD_BIN, type ScriptStep } from "../tests/helpers/pi-harness.ts";
import { PiRpc } from "../tests/helpers/pi-rpc.ts";

const tty = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const paint = (code: string) => (text: string) => (tty ? `\u001b[${code}m${text}\u001b[0m` : text);
const bold = paint("1");
const dim = paint("2");
const red = paint("31");
const green = paint("32");
const yellow = paint("33");
const cyan = paint("36");

function say(text = ""): void {
  process.stdout.write(`${text}\n`);
}

function indent(text: string, prefix = "    ", max = 8): string {
  const lines = text.trimEnd().split("\n").filter((line) => line.trim() !== "");
  const shown = lines.length > max ? [...lines.slice(0, max), `... (${lines.length - max} more lines)`] : lines;
  return shown.map((line) => `${prefix}${line}`).join("\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (!isRecord(value)) return "";
  const content = value.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => (isRecord(p) && p.type === "text" && typeof p.text === "string" ? p.text : "")).join("\n");
}

function git(cwd: string, ...args: string[]): void {
  spawnSync("git", ["-c", "user.name=Demo", "-c", "user.email=demo@example.com", ...args], { cwd, stdio: "ignore" });
}

// ---- the project the agent works in ------------------------------------------------------

if (!existsSync(SHEPHERD_BIN)) {
  say(red(`dist/shepherd is missing: run \`npm run demo\` (it builds first).`));
  process.exit(1);
}

const project = new PiProject();
project.trust(); // rewrites from a project's own rules need trust (DESIGN section 6)
project.write("build/app.js", "// build output the agent must not wipe\n");
project.write("check.sh", '#!/bin/sh\nif [ "$CHECK_MODE" = ci ]; then echo "check: all 12 tests pass"; exit 0; fi\necho "check: FAILED (run with CHECK_MODE=ci, see the comment in this file)" >&2\nexit 1\n');
project.write("long-task.sh", '#!/bin/sh\n# Stands in for a slow build: it waits until the demo has saved the new rule file.\nwhile [ ! -f .pi/.demo-continue ]; do sleep 0.1; done\necho "long task finished"\n');
spawnSync("chmod", ["+x", project.path("check.sh"), project.path("long-task.sh")]);
git(project.dir, "init", "-q");
git(project.dir, "add", "check.sh", "long-task.sh");
git(project.dir, "commit", "-q", "-m", "initial import");
git(project.dir, "commit", "-q", "--allow-empty", "-m", "add the check script");

const rules = [
  { name: "no-rm-rf", tool: "bash", action: "block", pattern: "rm -rf", reason: "`{{command}}` deletes files for good. Say what you want removed and why, and let the user do it." },
  { name: "short-git-log", tool: "bash", action: "rewrite", pattern: "^git log$", rewrite: { replace: "git log --oneline -5" } },
  { name: "changelog", hook: "tool_result", tool: "bash", action: "notify", pattern: "^git commit", reason: "You committed: remember to add a CHANGELOG.md entry." },
  { name: "three-strikes", hook: "tool_result", tool: "bash", action: "steer", state: { countKind: "errors", gte: 3 }, reason: "Three failures in a row. Stop retrying: read the script and the error message first." },
  { name: "wrap-up-uncommitted", hook: "agent_end", action: "notify", check: "has_edits", stopReason: ["stop"], reason: "You changed files in this run. Before you finish, run the check (CHECK_MODE=ci ./check.sh) and summarize what changed." },
];
project.rules(rules);

const lateRule = [{ name: "use-npm-ci", tool: "bash", action: "block", pattern: "^npm (i|install)\\b", reason: "Team rule: do not add dependencies with `{{command}}`; ask first, and use `npm ci` for installs." }];

const steps: ScriptStep[] = [
  { text: "I'll start by clearing out the build folder.", toolCalls: [{ name: "bash", arguments: { command: "rm -rf build" } }] },
  { text: "Let me look at the history instead.", toolCalls: [{ name: "bash", arguments: { command: "git log" } }] },
  { toolCalls: [{ name: "bash", arguments: { command: "git commit -q --allow-empty -m 'wip: tidy up' && echo committed" } }] },
  { text: "Now the check.", toolCalls: [{ name: "bash", arguments: { command: "./check.sh" } }] },
  { toolCalls: [{ name: "bash", arguments: { command: "./check.sh" } }] },
  { toolCalls: [{ name: "bash", arguments: { command: "./check.sh" } }] },
  { text: "This looks like a bug in the framework.", toolCalls: [{ name: "bash", arguments: { command: "cat check.sh" } }] },
  { text: "Running the slow build while I think.", toolCalls: [{ name: "bash", arguments: { command: "./long-task.sh" } }] },
  { text: "I'll add a helper library.", toolCalls: [{ name: "bash", arguments: { command: "npm install left-pad" } }] },
  { toolCalls: [{ name: "write", arguments: { path: "NOTES.md", content: "The check needs CHECK_MODE=ci.\n" } }] },
  { text: "All done: the project is tidy." },
  { toolCalls: [{ name: "bash", arguments: { command: "CHECK_MODE=ci ./check.sh" } }] },
  { text: "The check passes. Summary: I wrote NOTES.md explaining that the check needs CHECK_MODE=ci; nothing else changed." },
];
project.script(steps);

/** What to tell the person before the agent's n-th tool call. */
const chapters: Record<number, string> = {
  0: "1. A block. The agent wants to wipe build/. The project rule `no-rm-rf` stops the call before it runs; the model gets the rule's reason as the tool result.",
  1: "2. A rewrite. `git log` would flood the context. The rule `short-git-log` rewrites the command in place, so what runs is `git log --oneline -5`.",
  2: "3. A notify. After a commit, the rule `changelog` reminds: the user sees it in pi, and the model finds it appended to the tool result.",
  3: "4. A steer after repeated errors. The check fails; the rule `three-strikes` counts errors in this session and, at the third, steers the model (the user is not shown it).",
  6: "5. A message_end steer. The model's text blames the framework; the built-in rule `framework-blame` answers with a steer before the next model call.",
  7: "6. A hot reload. While the agent waits on a slow task, you save a new rule file. No restart, no command.",
  9: "7. A wrap-up reminder. The agent edits a file and says it is done. The rule `wrap-up-uncommitted` fires at agent_end, once, and the agent acts on it.",
};

// ---- run it --------------------------------------------------------------------------------

say(bold("Shepherd demo: a real pi session (offline, scripted model) guarded by Shepherd"));
say(dim(`project: ${project.dir}`));
say(dim(`binary:  ${SHEPHERD_BIN}`));
const install = spawnSync(SHEPHERD_BIN, ["init", "pi"], { env: { ...process.env, PI_CODING_AGENT_DIR: project.agentDir }, encoding: "utf8" });
const installed = install.status === 0;
say(dim(installed ? `installed with: shepherd init pi  (${install.stdout.trim().split("\n")[0]})` : "loading the extension from pi-extension/index.ts"));
say();
say(`${bold("Rules")} in .pi/shepherd-rules.json: ${rules.map((r) => r.name).join(", ")}`);
say();

const pi = new PiRpc(project, installed ? { loadExtension: false, env: { SHEPHERD_BIN: undefined } } : {});
const watchdog = setTimeout(() => {
  say(red("The demo took too long; stopping it."));
  pi.child.kill("SIGKILL");
  project.cleanup();
  process.exit(1);
}, 120_000);

let toolIndex = 0;
let agentEnds = 0;
let statusShown = false;

const done = new Promise<void>((resolve) => {
  pi.onEvent((event) => {
    narrate(event);
    if (event.type === "agent_end") {
      agentEnds += 1;
      // The main run, then the wrap-up follow-up it triggered: then ask for the status.
      if (agentEnds === 2) {
        say();
        say(bold("8. /shepherd in pi: status, rule counts per layer, counters"));
        pi.send({ type: "prompt", message: "/shepherd" });
      }
    }
    if (statusShown) resolve();
  });
});

function narrate(event: Record<string, unknown>): void {
  const type = event.type;
  if (type === "tool_execution_start") {
    const args = isRecord(event.args) ? event.args : {};
    const shown = typeof args.command === "string" ? args.command : typeof args.path === "string" ? `${String(event.toolName)} ${args.path}` : JSON.stringify(args);
    say(`  ${cyan("agent runs")} ${shown}`);
    if (toolIndex === 7) hotReload();
    toolIndex += 1;
  } else if (type === "tool_execution_end") {
    const text = textOf(event.result);
    const blocked = event.isError === true && /Blocked|Team rule|deletes files/.test(text);
    const label = blocked ? red("blocked  ") : event.isError === true ? yellow("error    ") : green("result   ");
    say(`  ${label} ${indent(text, "           ").trimStart()}`);
  } else if (type === "message_end" && isRecord(event.message)) {
    const message = event.message;
    const text = textOf(message).trim();
    if (message.role === "assistant") {
      const callsTools = Array.isArray(message.content) && message.content.some((p) => isRecord(p) && p.type === "toolCall");
      const chapter = callsTools ? chapters[toolIndex] : undefined;
      if (chapter) {
        say();
        say(bold(chapter));
      }
      if (text !== "") say(`  ${dim("agent says")} ${text}`);
    }
    if (message.role === "custom" && message.customType === "shepherd") {
      const who = message.display === true ? "Shepherd reminds the agent (follow-up turn)" : "Shepherd steers the model (hidden from the user)";
      say(`  ${yellow(who)}`);
      say(indent(text, "           "));
    }
  } else if (type === "extension_ui_request" && event.method === "notify") {
    const text = String(event.message);
    if (text.includes("[Shepherd] status")) {
      say(indent(text, "    ", 40));
      statusShown = true;
    } else {
      say(`  ${yellow("pi shows the user")} ${text}`);
    }
  }
}

function hotReload(): void {
  const file = ".pi/shepherd-rules-team.json";
  project.write(file, `${JSON.stringify(lateRule, null, 2)}\n`);
  say(`  ${yellow("you save")} ${file}: block \`npm install\`  (the next tool call is checked against it)`);
  // The slow task ends a moment after your save, as it would for a person typing.
  setTimeout(() => writeFileSync(join(project.dir, ".pi", ".demo-continue"), ""), 500);
}

pi.send({ type: "prompt", message: "Tidy up this project and make the check pass." });
await done;
const code = await pi.close();
clearTimeout(watchdog);

say();
say(bold("What actually happened on disk"));
say(`  build/app.js still there:            ${existsSync(project.path("build", "app.js")) ? green("yes") : red("NO")}`);
say(`  npm install never ran (no node_modules): ${existsSync(project.path("node_modules")) ? red("it ran") : green("yes")}`);
say(`  NOTES.md written by the agent:       ${existsSync(project.path("NOTES.md")) ? green("yes") : red("no")}`);
say(`  pi exited with code ${String(code)}, and the sidecar with it.`);
project.cleanup();
process.exit(code === 0 ? 0 : 1);
