/** @module `shepherd rules explain`: for one event, every rule's verdict (fired, or the first condition that failed). */
import { ApprovalStore, approvalsFile } from "../approvals/approval-store.ts";
import { canonicalDir } from "../rules/settings.ts";
import { readBounded } from "../fs/bounded-read.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../json-depth.ts";
import { resolve } from "node:path";
import * as v from "valibot";
import { evaluate, explain } from "../engine/evaluate.ts";
import { HOOK_NAMES, type Decision, type HookEvent, HookEventSchema, type HookName, issuePath, type Rule } from "../engine/schema.ts";
import { emptyState, SessionStore } from "../engine/state.ts";
import { commandOf, isPowerShellTool } from "../engine/tools.ts";
import { effectsOf, formatCommand, lineEffects, parseShell } from "../shell/index.ts";
import { suggestion } from "../engine/analyze.ts";
import { type CliIO, displayPath, parseArgv, plural, str, type Style, styleFor, usageError, writeJson } from "./format.ts";
import { type CliDeps, loadProject } from "./rule-files.ts";
import { protectedPathsFor } from "../rules/protected-guard.ts";

export const RULES_EXPLAIN_HELP = `Usage: shepherd rules explain [event flags | --event file.json] [--rules file]... [--all] [--json]

Builds one hook event and shows, for every rule of that hook, whether it fired and,
if not, the first condition that failed. Ends with the decision the agent would get.

Event flags:
  --hook H          tool_call (default), tool_result, message_end, agent_end, input, ...
  --tool T          tool name (default: bash with --command, write with --text, read with --path)
  --command C       the bash command
  --path P          the file path of an edit/write/read
  --text X          written text; the assistant message on message_end/agent_end; the prompt on input
  --output O        the tool result text (implies --hook tool_result)
  --error           the tool result is an error
  --stop-reason R   agent_end stop reason (default: stop)
  --subagent        the event comes from a sub-agent
  --event FILE      a whole HookEvent as JSON (see DESIGN section 2); "session" may be left out
Other options:
  --rules FILE      also load this rule file (a draft) on top of the project's rules
  --all             also list rules of other hooks
  --json            machine-readable output: {event, shell?, rules, decision}
  -h, --help        this help

When the command is not valid shell, explain says so: semantic "command" conditions then
ran on a plain whitespace split, and "pattern" rules matched the raw text.

Example:
  shepherd rules explain --tool bash --command "git checkout -- a.ts"
  ✓ no-checkout-discard  block  builtin rules/defaults.json
  decision: block: Blocked: \`git checkout -- a.ts\` would discard uncommitted changes ...
`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  all: { type: "boolean" },
  hook: { type: "string" },
  tool: { type: "string" },
  command: { type: "string" },
  path: { type: "string" },
  text: { type: "string" },
  output: { type: "string" },
  error: { type: "boolean" },
  "stop-reason": { type: "string" },
  subagent: { type: "boolean" },
  event: { type: "string" },
  rules: { type: "string", multiple: true },
} as const;

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** An event from flags; `undefined` + message when the flags do not describe one. */
export function eventFromFlags(values: Values, cwd: string): { event?: HookEvent; error?: string } {
  const hookFlag = str(values.hook);
  const output = str(values.output);
  const hook = (hookFlag ?? (output !== undefined || values.error === true ? "tool_result" : "tool_call")) as HookName;
  if (!(HOOK_NAMES as readonly string[]).includes(hook)) return { error: `unknown hook "${hookFlag}"${suggestion(hookFlag ?? "", HOOK_NAMES)}` };
  const command = str(values.command);
  const path = str(values.path);
  const text = str(values.text);
  const event: HookEvent = { hook, session: { id: "explain", cwd, ...(values.subagent === true ? { subagent: true } : {}) } };
  if (hook === "tool_call" || hook === "tool_result") {
    const tool = str(values.tool) ?? (command !== undefined ? "bash" : text !== undefined ? "write" : path !== undefined ? "read" : undefined);
    if (tool === undefined) return { error: "give --tool, --command, --path or --text (or --event file.json)" };
    const input: Record<string, unknown> = {};
    if (command !== undefined) input.command = command;
    if (path !== undefined) input.path = path;
    if (text !== undefined) input.content = text;
    event.tool = { name: tool, input };
    if (hook === "tool_result") event.result = { text: output ?? "", isError: values.error === true };
  } else if (hook === "message_end" || hook === "agent_end") {
    event.message = { text: text ?? "" };
    if (hook === "agent_end") event.stopReason = str(values["stop-reason"]) ?? "stop";
  } else if (hook === "input") {
    event.prompt = text ?? command ?? "";
  }
  return { event };
}

/** An event file holds what one hook input does: the same cap as `shepherd hook` (MAX_HOOK_INPUT). */
export const MAX_EVENT_FILE_BYTES = 8 * 1024 * 1024;

/** Reads a HookEvent file; a missing `session` is filled in so a hand-written event stays short. */
export function eventFromFile(file: string, cwd: string): { event?: HookEvent; error?: string } {
  const read = readBounded(file, MAX_EVENT_FILE_BYTES);
  if (!read.ok) return { error: `cannot read event ${file}: ${read.message}` };
  const deep = jsonDepthProblem(read.text, MAX_JSON_DEPTH);
  if (deep) return { error: `cannot read event ${file}:${deep.line}:${deep.column}: ${deep.message}` };
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (err) {
    return { error: `cannot read event ${file}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (raw && typeof raw === "object" && !Array.isArray(raw) && !("session" in raw)) raw = { ...raw, session: { id: "explain", cwd } };
  const parsed = v.safeParse(HookEventSchema, raw);
  if (!parsed.success) {
    const first = parsed.issues[0];
    return { error: `invalid event in ${file}: ${first ? `${issuePath(first) || "(root)"}: ${first.message}` : "invalid"}` };
  }
  return { event: parsed.output };
}

export interface ShellReport {
  command: string;
  commands: string[];
  /** Set when the line was not valid shell and the fallback split was used. */
  error?: string;
  fallback: boolean;
  /** Set when the line is over a shell analysis cap: judged too complex, only what came before was read. */
  limit?: string;
  /** What each command that has effects does (the effect model, lib/shell/effects.ts). */
  effects: EffectReport[];
}

export interface EffectReport {
  command: string;
  kind: string;
  detail: string;
  paths: string[];
  recursive: boolean;
  data?: string;
  branches?: string[];
  /** Rules that fired on this effect (their `command.effect` names its kind). */
  consumedBy: string[];
}

export function shellReport(command: string, cwd: string, home: string, dialect?: "powershell"): ShellReport {
  const res = parseShell(command, { cwd, home, ...(dialect ? { dialect } : {}) });
  const line = lineEffects(res.commands);
  const effects: EffectReport[] = [];
  for (const c of res.commands) {
    for (const e of [...effectsOf(c), ...(line.get(c) ?? [])]) {
      effects.push({ command: formatCommand(c), kind: e.kind, detail: e.detail, paths: e.paths, recursive: e.recursive, ...(e.data ? { data: e.data } : {}), ...(e.branches ? { branches: e.branches } : {}), consumedBy: [] });
    }
  }
  return {
    command,
    effects,
    commands: res.commands.map(formatCommand),
    fallback: res.fallback,
    ...(res.error !== undefined ? { error: res.error } : {}),
    ...(res.limit !== undefined ? { limit: res.limit } : {}),
  };
}

interface Verdict {
  rule: Rule;
  fired: boolean;
  why?: string;
}

function decisionLine(d: Decision, style: Style): string {
  const head = d.action === "block" ? style.red("block") : d.action === "ask" ? style.yellow("ask") : d.action === "rewrite" ? style.magenta("rewrite") : style.green("allow");
  const parts = [`${style.bold("decision:")} ${head}${d.reason ? `: ${d.reason}` : ""}`];
  if (d.input) parts.push(`  input: ${JSON.stringify(d.input)}`);
  for (const n of d.notify) parts.push(`  notify: ${n}`);
  for (const s of d.steer) parts.push(`  steer: ${s}`);
  return `${parts.join("\n")}\n`;
}

export async function runRulesExplain(argv: string[], io: CliIO, deps: CliDeps = {}): Promise<number> {
  const parsed = parseArgv(argv, OPTIONS, false);
  if (!parsed.ok) return usageError(io, "rules explain", parsed.message);
  const values = parsed.values;
  if (values.help) {
    io.stdout(RULES_EXPLAIN_HELP);
    return 0;
  }
  const eventFile = str(values.event);
  const built = eventFile !== undefined ? eventFromFile(resolve(io.cwd, eventFile), io.cwd) : eventFromFlags(values, io.cwd);
  if (!built.event) return usageError(io, "rules explain", built.error ?? "no event");
  const event = built.event;

  const drafts = Array.isArray(values.rules) ? values.rules.filter((x): x is string => typeof x === "string") : [];
  const project = loadProject(event.session.cwd || io.cwd, io.env, deps, { extra: drafts });
  const style = styleFor(io);
  for (const issue of project.issues.filter((i) => i.severity === "error")) {
    io.stderr(`${style.yellow("warning")}: ${displayPath(issue.file, io.cwd)}${issue.line ? `:${issue.line}:${issue.column ?? 1}` : ""} ${issue.path || "(file)"}: ${issue.message} (file ignored)\n`);
  }

  const ctx = {
    rules: project.set,
    sessions: new SessionStore(4),
    maxWarnings: 0,
    projectRoot: project.cwd,
    home: project.home,
    // The sidecar's `shepherd_state` set (agent folders from the environment), so the verdict is the sidecar's.
    guard: protectedPathsFor(io.env, project.cwd, project.settings, process.execPath),
    ...(project.evalHost ? { host: project.evalHost } : {}),
    // Remembered approvals, read only: an ask that one of them answers is explained as allowed.
    approvals: new ApprovalStore({ file: approvalsFile(io.env), report: (m) => io.stderr(`${style.yellow("warning")}: ${m}\n`) }).lookupFor(canonicalDir(project.cwd)),
  };
  const verdicts: Verdict[] = explain(ctx, event, emptyState());
  let decision: Decision;
  try {
    decision = await evaluate(ctx, structuredClone(event));
  } catch (err) {
    // What every face answers when the evaluation cannot finish: the fail mode.
    const closed = project.settings.failMode !== "open";
    const reason = `Shepherd could not evaluate this call (${err instanceof Error ? err.message : String(err)}); failMode is "${closed ? "closed" : "open"}"`;
    decision = { action: closed ? "block" : "allow", reason, notify: [], steer: [], fired: [] };
  }
  const command = event.tool ? commandOf(event.tool.input) : undefined;
  const shell = command !== undefined ? shellReport(command, event.session.cwd || project.cwd, project.home, event.tool && isPowerShellTool(event.tool.name) ? "powershell" : undefined) : undefined;
  if (shell) {
    for (const e of shell.effects) {
      for (const x of verdicts) {
        const kinds = x.rule.command?.effect;
        if (x.fired && kinds !== undefined && (Array.isArray(kinds) ? kinds.includes(e.kind as never) : kinds === e.kind)) e.consumedBy.push(x.rule.name);
      }
    }
  }
  const shown = values.all ? verdicts : verdicts.filter((x) => x.rule.hook === event.hook);

  if (values.json) {
    writeJson(io, {
      event,
      ...(shell ? { shell } : {}),
      rules: shown.map((x) => ({ name: x.rule.name, hook: x.rule.hook, action: x.rule.action, source: x.rule.source, file: x.rule.file, fired: x.fired, ...(x.why !== undefined ? { why: x.why } : {}) })),
      decision,
    });
    return 0;
  }

  const what = event.tool ? `${event.hook} ${event.tool.name} ${JSON.stringify(event.tool.input)}` : event.hook;
  io.stdout(`${style.bold("event:")} ${what}\n`);
  if (shell) {
    if (shell.limit !== undefined) {
      io.stdout(`${style.yellow("shell:")} judged unparsable, ${shell.limit}; "command" conditions saw only what came before: ${shell.commands.length} command(s)\n`);
    } else if (shell.error !== undefined) {
      io.stdout(
        `${style.yellow("shell:")} could not parse the command (${shell.error}); "command" conditions used a plain split: ${shell.commands.join(" ; ") || "(nothing)"}; "pattern" rules match the raw text\n`,
      );
    } else if (shell.commands.length > 0) {
      io.stdout(`${style.dim("shell:")} runs ${shell.commands.join(" ; ")}\n`);
    }
    for (const e of shell.effects) {
      const by = e.consumedBy.length > 0 ? ` -> ${style.bold(e.consumedBy.join(", "))}` : style.dim(" (no rule consumed it)");
      io.stdout(`${style.dim("effect:")} ${e.kind}: ${e.detail}  ${style.dim(`[${e.command}]`)}${by}\n`);
    }
    if (shell.effects.length === 0 && shell.commands.length > 0) io.stdout(`${style.dim("effect:")} none derived\n`);
  }
  io.stdout("\n");
  const nameWidth = Math.max(0, ...shown.map((x) => x.rule.name.length));
  let blockedBy: string | undefined;
  for (const x of shown) {
    const where = style.dim(`${x.rule.source} ${displayPath(x.rule.file, project.cwd)}`);
    if (x.fired) {
      // explain judges each rule alone; the real evaluation stops at the first block.
      const note = blockedBy !== undefined && x.rule.hook === event.hook ? `no effect: "${blockedBy}" blocks first` : x.why;
      io.stdout(`${style.green("✓")} ${style.bold(x.rule.name.padEnd(nameWidth))}  ${x.rule.action}  ${where}${note ? `  ${style.dim(`(${note})`)}` : ""}\n`);
      if (x.rule.action === "block" && x.rule.hook === event.hook && blockedBy === undefined) blockedBy = x.rule.name;
    } else {
      io.stdout(`${style.dim("·")} ${x.rule.name.padEnd(nameWidth)}  ${x.why ?? "did not fire"}  ${where}\n`);
    }
  }
  const hidden = verdicts.length - shown.length;
  if (shown.length === 0) io.stdout(style.dim(`no rules on ${event.hook}\n`));
  if (hidden > 0) io.stdout(style.dim(`(${plural(hidden, "rule")} on other hooks not shown; --all lists them)\n`));
  const skipped = project.set.skipped.length;
  if (skipped > 0) io.stdout(style.dim(`(${plural(skipped, "rule")} skipped and not evaluated; see \`shepherd rules list\`)\n`));
  io.stdout(`\n${decisionLine(decision, style)}`);
  return 0;
}
