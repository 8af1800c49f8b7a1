/**
 * @module `shepherd replay <session.jsonl>...`: a dry run of the rules over recorded pi sessions. A session
 * file (pi docs/session-format.md) is turned back into the hook events pi would have sent, in file order,
 * and each is evaluated by the real engine with a fresh per-session state.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { type EvalContext, evaluate } from "../engine/evaluate.ts";
import type { RuleSet } from "../engine/merge.ts";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { SessionStore } from "../engine/state.ts";
import { clip, type CliIO, displayPath, parseArgv, plural, progress, strList, styleFor, table, usageError, writeJson } from "./format.ts";
import { type CliDeps, loadProject } from "./rule-files.ts";
import { formatBytes, readBounded } from "../fs/bounded-read.ts";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "../json-depth.ts";

/** A pi session file: long sessions with large tool outputs run to tens of MB. */
export const MAX_SESSION_FILE_BYTES = 128 * 1024 * 1024;
/** One entry (line) of a session file: what one hook input may hold (MAX_HOOK_INPUT). */
export const MAX_SESSION_LINE_BYTES = 8 * 1024 * 1024;

const TextBlock = v.looseObject({ type: v.literal("text"), text: v.string() });
const ToolCallBlock = v.looseObject({ type: v.literal("toolCall"), id: v.string(), name: v.string(), arguments: v.optional(v.record(v.string(), v.unknown())) });
const AnyBlock = v.looseObject({ type: v.string() });
const Content = v.union([v.string(), v.array(AnyBlock)]);

const HeaderSchema = v.looseObject({ type: v.literal("session"), id: v.optional(v.string()), cwd: v.optional(v.string()), version: v.optional(v.number()) });
const MessageEntrySchema = v.looseObject({
  type: v.literal("message"),
  id: v.optional(v.string()),
  message: v.looseObject({
    role: v.string(),
    content: v.optional(Content),
    stopReason: v.optional(v.string()),
    toolCallId: v.optional(v.string()),
    toolName: v.optional(v.string()),
    isError: v.optional(v.boolean()),
  }),
});

/** One hook event rebuilt from a session, with where it came from. */
export interface ReplayStep {
  /** 1-based line of the session file. */
  line: number;
  entryId?: string;
  event: HookEvent;
}

export interface ParsedSession {
  id: string;
  cwd: string;
  steps: ReplayStep[];
  /** Lines that were not JSON or not a known entry shape (the replay goes on without them). */
  problems: { line: number; message: string }[];
  /** Entries that produce no hook event (model changes, labels, user `!` commands, ...). */
  ignored: number;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    const t = v.safeParse(TextBlock, block);
    if (t.success) parts.push(t.output.text);
  }
  return parts.join("\n");
}

/**
 * Rebuilds the hook events of a pi session file. Entries are taken in file order, which is the order
 * they happened, branches included (an abandoned branch's tool calls did run). Per assistant message:
 * message_end (its text), then one tool_call per tool call; a toolResult message becomes tool_result
 * with the input of its call; an assistant message that ends the turn (stopReason other than toolUse)
 * is followed by agent_end. The file starts with session_start and ends with session_shutdown.
 */
export function parseSession(text: string, fallbackId: string, fallbackCwd: string): ParsedSession {
  const lines = text.split("\n");
  let id = fallbackId;
  let cwd = fallbackCwd;
  const steps: ReplayStep[] = [];
  const problems: { line: number; message: string }[] = [];
  let ignored = 0;
  const inputs = new Map<string, { name: string; input: Record<string, unknown> }>();
  const session = () => ({ id, cwd });
  let sawHeader = false;

  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    // UTF-16 length: within a factor of 3 of the bytes, enough for a cap that only keeps the parse bounded.
    if (raw.length > MAX_SESSION_LINE_BYTES) {
      problems.push({ line, message: `entry longer than ${formatBytes(MAX_SESSION_LINE_BYTES)}: skipped` });
      return;
    }
    const deep = jsonDepthProblem(raw, MAX_JSON_DEPTH);
    if (deep) {
      problems.push({ line, message: `entry nested deeper than ${MAX_JSON_DEPTH} levels${deep.path ? ` at ${deep.path}` : ""}: skipped` });
      return;
    }
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      problems.push({ line, message: "not JSON" });
      return;
    }
    const header = v.safeParse(HeaderSchema, entry);
    if (header.success) {
      if (header.output.id) id = header.output.id;
      if (header.output.cwd) cwd = header.output.cwd;
      sawHeader = true;
      steps.push({ line, event: { hook: "session_start", session: session() } });
      return;
    }
    const parsed = v.safeParse(MessageEntrySchema, entry);
    if (!parsed.success) {
      if (entry && typeof entry === "object" && typeof (entry as { type?: unknown }).type === "string") ignored++;
      else problems.push({ line, message: "not a session entry (no \"type\")" });
      return;
    }
    const { message } = parsed.output;
    const entryId = parsed.output.id;
    const at = (event: HookEvent) => steps.push({ line, ...(entryId !== undefined ? { entryId } : {}), event });
    switch (message.role) {
      case "user":
        at({ hook: "input", session: session(), prompt: textOf(message.content) });
        return;
      case "assistant": {
        const text = textOf(message.content);
        at({ hook: "message_end", session: session(), message: { text } });
        const blocks = Array.isArray(message.content) ? message.content : [];
        for (const block of blocks) {
          const call = v.safeParse(ToolCallBlock, block);
          if (!call.success) continue;
          const input = call.output.arguments ?? {};
          inputs.set(call.output.id, { name: call.output.name, input });
          at({ hook: "tool_call", session: session(), tool: { name: call.output.name, callId: call.output.id, input } });
        }
        if (message.stopReason !== undefined && message.stopReason !== "toolUse") {
          at({ hook: "agent_end", session: session(), stopReason: message.stopReason, message: { text } });
        }
        return;
      }
      case "toolResult": {
        const callId = message.toolCallId ?? "";
        const call = inputs.get(callId);
        const name = message.toolName ?? call?.name ?? "unknown";
        at({
          hook: "tool_result",
          session: session(),
          tool: { name, callId, input: call?.input ?? {} },
          result: { text: textOf(message.content), isError: message.isError ?? false },
        });
        return;
      }
      default:
        ignored++;
    }
  });
  if (!sawHeader && steps.length > 0) problems.push({ line: 1, message: "no session header; using the file name as the session id" });
  steps.push({ line: lines.length, event: { hook: "session_shutdown", session: session() } });
  return { id, cwd, steps, problems, ignored };
}

export interface ReplayHit {
  file: string;
  line: number;
  entryId?: string;
  hook: string;
  tool?: string;
  /** The command, path or text the event was about, clipped for display. */
  subject: string;
  decision: Decision;
}

export interface ReplayResult {
  files: { file: string; session: string; events: number; problems: { line: number; message: string }[] }[];
  hits: ReplayHit[];
  /** Per rule: how often it fired, by action. */
  counts: Map<string, { rule: string; action: string; source: string; count: number; shadow?: true }>;
  events: number;
}

function subjectOf(event: HookEvent): string {
  const input = event.tool?.input;
  const main = input ? (input.command ?? input.path ?? input.file_path) : undefined;
  if (typeof main === "string") return main;
  if (event.hook === "input") return event.prompt ?? "";
  if (event.message) return event.message.text;
  return "";
}

/** Evaluates the rebuilt events of each session against one rule set; `onStep` lets a caller show progress. */
export async function replaySessions(
  sessions: { file: string; parsed: ParsedSession }[],
  set: RuleSet,
  opts: { maxWarnings: number; home: string; projectRoot?: string; host?: EvalContext["host"]; onStep?: (done: number, total: number, file: string) => void },
): Promise<ReplayResult> {
  const hits: ReplayHit[] = [];
  const counts: ReplayResult["counts"] = new Map();
  const total = sessions.reduce((n, s) => n + s.parsed.steps.length, 0);
  let done = 0;
  for (const { file, parsed } of sessions) {
    // Git state and plugin checks of the past cannot be known; a recorded run never asks the real repo.
    const host = { ...opts.host, gitUncommitted: async () => false };
    // Every rule that would fire is listed, not only the first block: a replay is for seeing what a rule set does.
    const ctx: EvalContext = { rules: set, sessions: new SessionStore(4), maxWarnings: opts.maxWarnings, projectRoot: opts.projectRoot ?? parsed.cwd, home: opts.home, host, listAll: true };
    for (const step of parsed.steps) {
      const decision = await evaluate(ctx, step.event);
      done++;
      opts.onStep?.(done, total, file);
      if (decision.fired.length === 0) continue;
      hits.push({
        file,
        line: step.line,
        ...(step.entryId !== undefined ? { entryId: step.entryId } : {}),
        hook: step.event.hook,
        ...(step.event.tool ? { tool: step.event.tool.name } : {}),
        subject: subjectOf(step.event),
        decision,
      });
      for (const f of decision.fired) {
        // A shadow rule's "would have" is counted apart from what rules did.
        const key = `${f.rule}\0${f.action}${f.shadow ? "\0shadow" : ""}`;
        const c = counts.get(key) ?? { rule: f.rule, action: f.action, source: f.source, count: 0, ...(f.shadow ? { shadow: true as const } : {}) };
        c.count++;
        counts.set(key, c);
      }
    }
  }
  return { files: sessions.map((s) => ({ file: s.file, session: s.parsed.id, events: s.parsed.steps.length, problems: s.parsed.problems })), hits, counts, events: total };
}

/** Session files named on the command line; a folder means every `.jsonl` under it (pi's sessions dir). */
export function expandSessionPaths(paths: string[], cwd: string): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (name.endsWith(".jsonl")) files.push(p);
    }
  };
  for (const p of paths) {
    const abs = resolve(cwd, p);
    try {
      if (statSync(abs).isDirectory()) walk(abs);
      else files.push(abs);
    } catch {
      missing.push(p);
    }
  }
  return { files, missing };
}

export const REPLAY_HELP = `Usage: shepherd replay <session.jsonl | dir>... [--rules FILE]... [--only] [--events] [--json]

A dry run over recorded pi sessions: rebuilds the hook events pi sent (prompt, assistant
message, tool calls and results, end of turn) from each session file and shows which
rules would have fired where, with counts per rule. Nothing is executed or blocked.
A folder means every .jsonl under it, e.g. ~/.pi/agent/sessions/--home-me-project--/.

The rules are the current project's (run it in the project folder), plus:
  --rules FILE   a draft rule file to try against history before enabling it
                 (repeatable; loaded on top as a trusted project file)
  --only         use only the --rules files, not the project's layers
Output:
  --events       list every event where a rule fired (default: up to 50)
  --json         machine-readable output: {files, events, hits, counts}
  -h, --help     this help

Notes: events are replayed in file order (every branch of the session tree). git_uncommitted
checks count as false (the past repository state is unknown). Every rule that matches an
event is listed, the blocking one first, also those a live guard never reaches after a block.
A block in the replay does not remove the recorded tool result that followed it.

Example:
  shepherd replay ~/.pi/agent/sessions/--home-me-app--/ --rules draft-rules.json
`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  rules: { type: "string", multiple: true },
  only: { type: "boolean" },
  events: { type: "boolean" },
} as const;

const DEFAULT_EVENT_LIMIT = 50;

export async function runReplay(argv: string[], io: CliIO, deps: CliDeps = {}): Promise<number> {
  const parsed = parseArgv(argv, OPTIONS);
  if (!parsed.ok) return usageError(io, "replay", parsed.message);
  const values = parsed.values;
  if (values.help) {
    io.stdout(REPLAY_HELP);
    return 0;
  }
  if (parsed.positionals.length === 0) return usageError(io, "replay", "name at least one pi session file (.jsonl) or folder");
  const drafts = strList(values.rules);
  if (values.only && drafts.length === 0) return usageError(io, "replay", "--only needs at least one --rules file");
  const style = styleFor(io);

  const { files, missing } = expandSessionPaths(parsed.positionals, io.cwd);
  for (const m of missing) io.stderr(`shepherd replay: ${m}: no such file or folder\n`);
  if (files.length === 0) {
    io.stderr("shepherd replay: no session files to replay\n");
    return 1;
  }

  const project = loadProject(io.cwd, io.env, deps, { extra: drafts, only: values.only === true });
  const draftSet = new Set(drafts.map((d) => resolve(io.cwd, d)));
  let draftErrors = 0;
  for (const issue of project.issues.filter((i) => i.severity === "error")) {
    if (draftSet.has(issue.file)) draftErrors++;
    io.stderr(`${style.red("error")}: ${displayPath(issue.file, io.cwd)}${issue.line ? `:${issue.line}:${issue.column ?? 1}` : ""} ${issue.path || "(file)"}: ${issue.message}\n`);
  }
  if (draftErrors > 0) {
    io.stderr("shepherd replay: the --rules file has errors (see above); fix them first (`shepherd rules check FILE`)\n");
    return 1;
  }

  const sessions: { file: string; parsed: ParsedSession }[] = [];
  for (const file of files) {
    const read = readBounded(file, MAX_SESSION_FILE_BYTES);
    if (!read.ok) {
      io.stderr(`shepherd replay: cannot read ${file}: ${read.message}\n`);
      continue;
    }
    const text = read.text;
    const name = file.split("/").pop() ?? file;
    sessions.push({ file, parsed: parseSession(text, name.replace(/\.jsonl$/, ""), io.cwd) });
  }
  const bar = progress(io, "replaying", 200);
  const result = await replaySessions(sessions, project.set, {
    maxWarnings: project.settings.maxWarnings,
    home: project.home,
    ...(project.evalHost ? { host: project.evalHost } : {}),
    onStep: (done, total, file) => bar.update(done, total, displayPath(file, io.cwd)),
  });
  bar.done();
  const counts = [...result.counts.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));

  if (values.json) {
    writeJson(io, {
      files: result.files,
      events: result.events,
      hits: result.hits,
      counts,
      neverFired: draftRulesNeverFired(project.set, draftSet, result),
    });
    return 0;
  }

  for (const f of result.files) {
    for (const p of f.problems) io.stderr(`${style.yellow("warning")}: ${displayPath(f.file, io.cwd)}:${p.line}: ${p.message}\n`);
  }
  const limit = values.events ? Number.POSITIVE_INFINITY : DEFAULT_EVENT_LIMIT;
  const shown = result.hits.slice(0, limit);
  if (shown.length > 0) {
    const rows = shown.map((h) => [
      `${displayPath(h.file, io.cwd).split("/").pop() ?? h.file}:${h.line}`,
      h.hook,
      h.tool ?? "",
      clip(h.subject, 50),
      h.decision.fired.map((f) => `${f.rule} (${f.shadow ? "would " : ""}${actionCell(f.action, style)})`).join(", "),
    ]);
    io.stdout(table(["WHERE", "HOOK", "TOOL", "SUBJECT", "FIRED"], rows, style));
    if (result.hits.length > shown.length) io.stdout(style.dim(`... ${result.hits.length - shown.length} more (--events lists all)\n`));
    io.stdout("\n");
  }
  if (counts.length > 0) {
    io.stdout(table(["RULE", "ACTION", "SOURCE", "COUNT"], counts.map((c) => [c.rule, `${c.shadow ? "would " : ""}${actionCell(c.action, style)}`, c.source, String(c.count)]), style));
  }
  const never = draftRulesNeverFired(project.set, draftSet, result);
  if (never.length > 0) io.stdout(`${style.yellow("!")} draft rules that never fired: ${never.join(", ")}\n`);
  io.stdout(
    `\n${plural(result.files.length, "session")}, ${plural(result.events, "event")}: ${plural(result.hits.length, "event")} where rules fired, ${plural(counts.length, "rule")} fired\n`,
  );
  return 0;
}

function actionCell(action: string, style: ReturnType<typeof styleFor>): string {
  if (action === "block") return style.red(action);
  if (action === "ask") return style.yellow(action);
  if (action === "rewrite") return style.magenta(action);
  return style.cyan(action);
}

function draftRulesNeverFired(set: RuleSet, drafts: ReadonlySet<string>, result: ReplayResult): string[] {
  if (drafts.size === 0) return [];
  const fired = new Set([...result.counts.values()].map((c) => c.rule));
  return set.rules.filter((r) => drafts.has(r.file) && !fired.has(r.name)).map((r) => r.name);
}
