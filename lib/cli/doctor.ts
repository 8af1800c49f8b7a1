/**
 * @module `shepherd doctor [agent] [--json]`: for each agent found, checks that Shepherd's hooks are where
 * the agent reads them (lib/adapters/hook-locations.ts), cover the tools that matter, outlast Shepherd's own
 * deadline, fail closed where the agent can, name a present binary of this version, and that the rule files
 * load; then sends a canary tool call through the agent's real hook command. Every problem comes with its fix.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { isShepherdCommand } from "../adapters/agent-timeout.ts";
import { COPILOT_EVENT_ENV } from "../adapters/copilot.ts";
import { AGENT_HOOKS, agentConfigDir, copilotHookSwitchFiles, hookSettingsFiles, opencodeConfigDir, opencodePluginDir, opencodePluginDirs } from "../adapters/hook-locations.ts";
import { type AgentName, agentName, AGENTS } from "../adapters/index.ts";
import { removeStateFile, sessionStateDir, stateFileName } from "../hook/session-state.ts";
import { clampDeadline, DEFAULT_HOOK_DEADLINE_MS, formatMs } from "../deadline.ts";
import type { LoadIssue } from "../engine/schema.ts";
import { isPlainRecord } from "../engine/guard-kit.ts";
import { agentDir, globalRulesFile } from "../rules/paths.ts";
import { readJsonc } from "../rules/settings.ts";
import { VERSION } from "../version.ts";
import { telemetryConfig } from "../telemetry/telemetry-config.ts";
import { probeEndpoint, shownEndpoint } from "../telemetry/telemetry-status.ts";
import { type CliIO, parseArgv, usageError, writeJson } from "./format.ts";
import { MAX_RULE_FILE_BYTES, readBounded } from "../fs/bounded-read.ts";
import { ENTRY_FILE, entryText, installFileIn } from "./init-opencode.ts";
import { piExtensionDir } from "./init-pi.ts";
import { type CliDeps, loadProject } from "./rule-files.ts";

export const DOCTOR_HELP = `Usage: shepherd doctor [pi|claude-code|codex|gemini|copilot|opencode] [--json]

Checks, for each agent found (or the one named), that Shepherd guards it:
  - the hooks are installed where the agent reads them, for every event
  - the tool matchers cover shell, PowerShell, edits, apply_patch and MCP tools
  - the agent waits longer than Shepherd's own deadline (hookDeadlineMs)
  - the agent's own fail-closed switch is on (Claude Code: onFailure "block")
  - nothing turns the hooks off (disableAllHooks: Claude Code's and Copilot CLI's settings, a repository's too)
  - the binary the hooks name is there, and of this version (${VERSION})
  - pi and OpenCode: the extension / plugin is installed, of this version, and names that binary
  - the rule files load, and the managed policy (/etc/shepherd/) parses
then sends a canary tool call (a command a locked built-in rule blocks; it is never
run) through the agent's real hook command and checks that it is blocked.
Every problem is printed with its fix. Exit 1 when there is one.

Options:
  --json      machine-readable output: {ok, rules, managed?, agents: [{agent, checks}]}
  -h, --help  this help
`;

const OPTIONS = { help: { type: "boolean", short: "h" }, json: { type: "boolean" } } as const;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** What to do about it, when not ok. */
  fix?: string;
}

export interface AgentReport {
  agent: string;
  checks: Check[];
}

/** What runs a hook command's binary with its arguments (no shell: see plainHookCommand). */
export type RunHook = (binary: string, args: string[], input: string, opts: { cwd: string; env: Record<string, string | undefined>; timeoutMs: number }) => { status: number | null; stdout: string; stderr: string };

export interface DoctorDeps extends CliDeps {
  runHook?: RunHook;
}

const defaultRunHook: RunHook = (binary, args, input, opts) => {
  const r = spawnSync(binary, args, { cwd: opts.cwd, env: opts.env, input, encoding: "utf8", timeout: opts.timeoutMs, maxBuffer: 1 << 20 });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.error ? `${r.stderr ?? ""}${r.error.message}` : (r.stderr ?? "") };
};

interface Handler {
  file: string;
  event: string;
  matcher: string | undefined;
  command: string;
  timeout?: unknown;
  onFailure?: unknown;
}

/** Shepherd's handlers in every file the agent reads hooks from. */
function installedHandlers(agent: AgentName, cwd: string, env: CliIO["env"], issues: LoadIssue[]): { files: string[]; handlers: Handler[] } {
  const files: string[] = [];
  const handlers: Handler[] = [];
  for (const file of hookSettingsFiles(agent, cwd, env)) {
    const data = readJsonc(file, issues);
    if (data === undefined) continue;
    files.push(file);
    const hooks = isPlainRecord(data) && isPlainRecord(data.hooks) ? data.hooks : {};
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const g of groups) {
        if (!isPlainRecord(g) || !Array.isArray(g.hooks)) continue;
        for (const h of g.hooks) {
          if (!isPlainRecord(h) || !isShepherdCommand(h.command, agent)) continue;
          handlers.push({ file, event, matcher: typeof g.matcher === "string" ? g.matcher : undefined, command: String(h.command), timeout: h[AGENT_HOOKS[agent].timeoutKey ?? "timeout"], onFailure: h.onFailure });
        }
      }
    }
  }
  return { files, handlers };
}

/** Whether a hook matcher selects a tool name: absent, empty and `*` select all; otherwise a whole-name regex (as the agents read it). */
export function matcherCovers(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return matcher.split("|").includes(tool);
  }
}

/**
 * The binary of a hook command exactly as `shepherd init` writes it (`<path> hook <agent>`, the path bare or
 * single-quoted), else undefined. Doctor runs nothing else: a cloned repository's hook settings may hold any
 * shell command with "shepherd hook <agent>" at its end, and checking a project must not run it.
 */
export function plainHookCommand(command: string, agent: AgentName): string | undefined {
  const m = new RegExp(`^\\s*(?:'((?:[^']|'\\\\'')*)'|([\\w@%+=:,./-]+)) hook ${agent}\\s*$`).exec(command);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2];
}

/** Whether `file` (symlinks resolved) lies inside `dir`: a binary a repository could have put there is never run. */
function insideDir(file: string, dir: string): boolean {
  let real = file;
  let base = dir;
  try {
    real = realpathSync(file);
  } catch {
    // missing: compared as written
  }
  try {
    base = realpathSync(dir);
  } catch {
    // compared as written
  }
  return real === base || real.startsWith(`${base}/`);
}

function binaryCheck(binary: string, cwd: string, env: CliIO["env"], fixInit: string): Check {
  if (insideDir(binary, cwd)) return { name: "binary", ok: false, detail: `${binary} lies inside this project: a repository's binary is not run`, fix: fixInit };
  if (!binary.startsWith("/")) return { name: "binary", ok: false, detail: `the hook names "${binary}", not an absolute path: it depends on the agent's PATH`, fix: fixInit };
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    return { name: "binary", ok: false, detail: `${binary} is missing or not executable: every hook call fails`, fix: fixInit };
  }
  const r = spawnSync(binary, ["--version"], { env, encoding: "utf8", timeout: 10_000 });
  const version = (r.stdout ?? "").trim();
  if (!version.includes(VERSION)) return { name: "binary", ok: false, detail: `${binary} is version "${version || "unknown"}", this is ${VERSION}`, fix: fixInit };
  return { name: "binary", ok: true, detail: `${binary} (${VERSION})` };
}

const CANARY_SESSION = "shepherd-doctor-canary";

/** A tool call a locked built-in rule (safety-self-shell-write) blocks; the canary is never run. */
function canaryCommand(env: CliIO["env"]): string {
  return `rm -f ${globalRulesFile(env)}`;
}

function canaryInput(agent: AgentName, cwd: string, command: string): string {
  if (agent === "copilot") return JSON.stringify({ sessionId: CANARY_SESSION, timestamp: Date.now(), cwd, toolName: "bash", toolArgs: { command } });
  const tool = agent === "gemini" ? "run_shell_command" : "Bash";
  return JSON.stringify({ session_id: CANARY_SESSION, cwd, hook_event_name: AGENT_HOOKS[agent].toolEvent, tool_name: tool, tool_input: { command } });
}

/** Whether a hook's answer blocks the tool call, and with which reason. */
function blockedBy(out: { status: number | null; stdout: string; stderr: string }): { blocked: boolean; reason: string } {
  if (out.status === 2) return { blocked: true, reason: out.stderr.trim() };
  try {
    const data: unknown = JSON.parse(out.stdout);
    if (!isPlainRecord(data)) return { blocked: false, reason: "" };
    const hso = isPlainRecord(data.hookSpecificOutput) ? data.hookSpecificOutput : {};
    if (hso.permissionDecision === "deny") return { blocked: true, reason: String(hso.permissionDecisionReason ?? "") };
    // Copilot CLI reads its answer at the top level.
    if (data.permissionDecision === "deny") return { blocked: true, reason: String(data.permissionDecisionReason ?? "") };
    if (data.decision === "deny" || data.decision === "block") return { blocked: true, reason: String(data.reason ?? "") };
  } catch {
    // not JSON: not a block
  }
  return { blocked: false, reason: "" };
}

function canaryCheck(agent: AgentName, handler: Handler, binary: string, cwd: string, env: CliIO["env"], deadlineMs: number, run: RunHook, fixInit: string): Check {
  const command = canaryCommand(env);
  // Copilot's handlers name their event in the env (shepherd init copilot writes it there).
  const hookEnv = agent === "copilot" ? { ...env, [COPILOT_EVENT_ENV]: handler.event } : env;
  const out = run(binary, ["hook", agent], canaryInput(agent, cwd, command), { cwd, env: hookEnv, timeoutMs: deadlineMs + 10_000 });
  // The canary's session leaves nothing behind (a one-shot hook keeps a state file per session).
  removeStateFile(join(sessionStateDir(env), stateFileName(agent, CANARY_SESSION)));
  const { blocked, reason } = blockedBy(out);
  if (blocked && reason.includes("self-protection")) return { name: "canary", ok: true, detail: `\`${command}\` sent through ${handler.file} (${handler.event}) was blocked by the built-in rule` };
  if (blocked) return { name: "canary", ok: false, detail: `the canary was blocked, but not by its rule (${reason.slice(0, 300) || "no reason"}): Shepherd is failing closed`, fix: "run `shepherd rules check` and the hook command by hand to see why" };
  const said = `${out.stdout}${out.stderr}`.trim().slice(0, 300);
  return { name: "canary", ok: false, detail: `the canary \`${command}\` was NOT blocked by \`${handler.command}\` (exit ${out.status ?? "killed"}${said ? `: ${said}` : ""}): tool calls are not guarded`, fix: fixInit };
}

function checkHookAgent(agent: AgentName, io: CliIO, deadlineMs: number, run: RunHook): AgentReport {
  const spec = AGENT_HOOKS[agent];
  const issues: LoadIssue[] = [];
  const { files, handlers } = installedHandlers(agent, io.cwd, io.env, issues);
  const checks: Check[] = [];
  const fixInit = `run \`shepherd init ${agent} --user\` (or \`shepherd init ${agent}\` in the project)`;
  for (const i of issues) checks.push({ name: "settings", ok: false, detail: `${i.file}: ${i.message}: the agent may ignore its hooks`, fix: `fix ${i.file} by hand` });
  const tool = handlers.filter((h) => h.event === spec.toolEvent);
  if (tool.length === 0) {
    checks.push({ name: "installed", ok: false, detail: `no Shepherd ${spec.toolEvent} hook in ${files.length > 0 ? files.join(", ") : hookSettingsFiles(agent, io.cwd, io.env).join(" or ")}`, fix: fixInit });
    return { agent, checks };
  }
  checks.push({ name: "installed", ok: true, detail: [...new Set(tool.map((h) => h.file))].join(", ") });
  const missing = spec.events.filter((e) => !handlers.some((h) => h.event === e.event)).map((e) => e.event);
  checks.push(missing.length === 0 ? { name: "events", ok: true, detail: spec.events.map((e) => e.event).join(", ") } : { name: "events", ok: false, detail: `no Shepherd hook for ${missing.join(", ")}`, fix: fixInit });
  const uncovered = spec.mustCover.filter((t) => !tool.some((h) => matcherCovers(h.matcher, t)));
  checks.push(
    uncovered.length === 0
      ? { name: "matchers", ok: true, detail: `${spec.toolEvent} sees ${spec.mustCover.join(", ")}` }
      : { name: "matchers", ok: false, detail: `the ${spec.toolEvent} matcher${tool.length > 1 ? "s" : ""} (${tool.map((h) => JSON.stringify(h.matcher ?? "")).join(", ")}) miss ${uncovered.join(", ")}: those calls are never guarded`, fix: agent === "copilot" ? `remove the matcher of Shepherd's ${spec.toolEvent} hook (or ${fixInit})` : `set the matcher of Shepherd's ${spec.toolEvent} hook to "${agent === "gemini" ? ".*" : "*"}" (or ${fixInit})` },
  );
  const timeouts = tool.map((h) => (typeof h.timeout === "number" && h.timeout > 0 ? h.timeout * spec.timeoutUnitMs : undefined));
  const shortest = Math.min(...timeouts.map((t) => t ?? Number.POSITIVE_INFINITY));
  const want = Math.ceil((deadlineMs * 2) / spec.timeoutUnitMs);
  checks.push(
    shortest > deadlineMs
      ? { name: "timeout", ok: true, detail: `${Number.isFinite(shortest) ? formatMs(shortest) : "the agent's default"} > Shepherd's deadline ${formatMs(deadlineMs)}` }
      : { name: "timeout", ok: false, detail: `the agent waits ${formatMs(shortest)}, not longer than Shepherd's deadline ${formatMs(deadlineMs)}: a slow decision is cut short`, fix: `set "timeout": ${want} on Shepherd's ${spec.toolEvent} hook (or lower shepherd.hookDeadlineMs)` },
  );
  if (agent === "claude-code") {
    const open = tool.filter((h) => h.onFailure !== "block");
    checks.push(
      open.length === 0
        ? { name: "fail-closed", ok: true, detail: 'onFailure "block" on PreToolUse' }
        : { name: "fail-closed", ok: false, detail: `Shepherd's PreToolUse hook in ${open.map((h) => h.file).join(", ")} lacks onFailure "block": if the hook dies, Claude Code runs the tool`, fix: `add "onFailure": "block" to it (or ${fixInit})` },
    );
  }
  if (agent === "copilot") checks.push(hooksSwitchCheck("Copilot", copilotHookSwitchFiles(io.cwd, io.env)));
  if (agent === "claude-code") checks.push(hooksSwitchCheck("Claude Code", hookSettingsFiles("claude-code", io.cwd, io.env)));
  const first = tool[0] as Handler;
  const binary = plainHookCommand(first.command, agent);
  if (binary === undefined) {
    checks.push({ name: "binary", ok: false, detail: `the hook command \`${first.command.slice(0, 200)}\` in ${first.file} is not the plain \`<binary> hook ${agent}\` shepherd init writes: not run`, fix: fixInit });
    return { agent, checks };
  }
  const bin = binaryCheck(binary, io.cwd, io.env, fixInit);
  checks.push(bin);
  // A binary that is not there, or not to be run, gets no canary: the check above says why.
  if (bin.ok) checks.push(canaryCheck(agent, first, binary, io.cwd, io.env, deadlineMs, run, fixInit));
  else checks.push({ name: "canary", ok: false, detail: "not sent: the hook's binary cannot be run (see binary): tool calls are not guarded", fix: fixInit });
  return { agent, checks };
}

/**
 * Copilot CLI runs no hook at all, the user's included, when its settings or a trusted repository's
 * `.github/copilot/settings*.json` say `disableAllHooks: true` (1.0.102). It has no fail-closed switch: it
 * denies a tool call whose hook exits non-zero by itself, and runs it when the hook times out. Claude Code
 * reads the same key in its user, project and local settings; a branch checked out can bring a project's.
 */
function hooksSwitchCheck(label: string, files: readonly string[]): Check {
  const off: string[] = [];
  for (const file of files) {
    const data = readJsonc(file, []);
    if (isPlainRecord(data) && data.disableAllHooks === true) off.push(file);
  }
  return off.length === 0
    ? { name: "hooks-enabled", ok: true, detail: `no disableAllHooks in ${label}'s settings or this repository's` }
    : { name: "hooks-enabled", ok: false, detail: `disableAllHooks is true in ${off.join(", ")}: ${label} runs none of its hooks, tool calls are not guarded`, fix: `remove "disableAllHooks" from ${off.join(", ")} (a repository's is read once the folder is trusted)` };
}

function checkPi(io: CliIO): AgentReport {
  const dir = piExtensionDir(io.env);
  const fixInit = "run `shepherd init pi`";
  const installFile = join(dir, "install.json");
  const issues: LoadIssue[] = [];
  const install = readJsonc(installFile, issues);
  if (!isPlainRecord(install)) return { agent: "pi", checks: [{ name: "installed", ok: false, detail: `no Shepherd pi extension in ${dir}${issues[0] ? ` (${issues[0].message})` : ""}`, fix: fixInit }] };
  const checks: Check[] = [{ name: "installed", ok: true, detail: dir }];
  checks.push(install.version === VERSION ? { name: "extension", ok: true, detail: `version ${VERSION}` } : { name: "extension", ok: false, detail: `the extension is version ${String(install.version)}, this is ${VERSION}`, fix: fixInit });
  checks.push(binaryCheck(typeof install.binary === "string" ? install.binary : "", io.cwd, io.env, fixInit));
  return { agent: "pi", checks };
}

/** The OpenCode plugin in the folders OpenCode loads plugins from (user level, then the project's). */
function checkOpenCode(io: CliIO): AgentReport {
  const fixInit = "run `shepherd init opencode` (or `shepherd init opencode --project`)";
  const dirs = opencodePluginDirs(io.cwd, io.env).filter((dir) => existsSync(installFileIn(dir)));
  const dir = dirs[0];
  if (dir === undefined) {
    return { agent: "opencode", checks: [{ name: "installed", ok: false, detail: `no Shepherd plugin in ${opencodePluginDirs(io.cwd, io.env).join(" or ")}`, fix: fixInit }] };
  }
  const checks: Check[] = [{ name: "installed", ok: true, detail: dirs.join(", ") }];
  if (dirs.length > 1) checks.push({ name: "once", ok: false, detail: `installed in both ${dirs.join(" and ")}: OpenCode loads both, and every tool call is judged twice`, fix: "run `shepherd init opencode --project --uninstall` (or drop the global one)" });
  const issues: LoadIssue[] = [];
  const install = readJsonc(installFileIn(dir), issues);
  const entry = readBounded(join(dir, ENTRY_FILE), MAX_RULE_FILE_BYTES);
  checks.push(entry.ok && entry.text === entryText() ? { name: "entry", ok: true, detail: join(dir, ENTRY_FILE) } : { name: "entry", ok: false, detail: `${join(dir, ENTRY_FILE)} is missing or not Shepherd's: OpenCode does not load the plugin`, fix: fixInit });
  if (!isPlainRecord(install)) {
    checks.push({ name: "plugin", ok: false, detail: `${installFileIn(dir)} is unreadable${issues[0] ? ` (${issues[0].message})` : ""}`, fix: fixInit });
    return { agent: "opencode", checks };
  }
  checks.push(install.version === VERSION ? { name: "plugin", ok: true, detail: `version ${VERSION}` } : { name: "plugin", ok: false, detail: `the plugin is version ${String(install.version)}, this is ${VERSION}`, fix: fixInit });
  checks.push(binaryCheck(typeof install.binary === "string" ? install.binary : "", io.cwd, io.env, fixInit));
  return { agent: "opencode", checks };
}

/**
 * An agent is found when its config folder or one of its hook files is there; pi when its extensions
 * folder is (Shepherd itself writes state and trust under pi's agent folder, so that alone says nothing);
 * OpenCode when its user config folder or the project's `.opencode/plugin/` is.
 */
function found(agent: AgentName | "pi" | "opencode", io: CliIO): boolean {
  if (agent === "pi") return existsSync(join(agentDir(io.env), "extensions"));
  if (agent === "opencode") return existsSync(opencodeConfigDir(io.env)) || existsSync(opencodePluginDir("project", io.cwd, io.env));
  return existsSync(agentConfigDir(agent, io.env)) || hookSettingsFiles(agent, io.cwd, io.env).some((f) => existsSync(f));
}

/** With telemetry on, whether its endpoint takes an (empty) OTLP export; nothing to check with it off. */
async function telemetryCheck(setting: unknown, env: CliIO["env"]): Promise<Check | undefined> {
  const config = telemetryConfig(setting, env);
  if (!config) return undefined;
  const where = `${shownEndpoint(config.url)} (${config.includeContent ? "with redacted content" : "safe attributes only"})`;
  const problem = await probeEndpoint(config);
  if (!problem) return { name: "telemetry", ok: true, detail: `one span per decision to ${where}; the endpoint answers` };
  return {
    name: "telemetry",
    ok: false,
    detail: `spans go to ${where}, but the endpoint ${problem}; decisions are not affected, their spans are lost`,
    fix: "start the OTLP/HTTP collector there (JSON on /v1/traces), or correct the endpoint (the `telemetry` setting or OTEL_EXPORTER_OTLP_ENDPOINT)",
  };
}

export async function runDoctor(argv: string[], io: CliIO, deps: DoctorDeps = {}): Promise<number> {
  const parsed = parseArgv(argv, OPTIONS, true);
  if (!parsed.ok) return usageError(io, "doctor", parsed.message);
  if (parsed.values.help) {
    io.stdout(DOCTOR_HELP);
    return 0;
  }
  const named = parsed.positionals[0];
  let agents: (AgentName | "pi" | "opencode")[];
  if (named !== undefined) {
    const a = named === "pi" || named === "opencode" ? named : agentName(named);
    if (!a) return usageError(io, "doctor", `unknown agent "${named}" (one of: pi, ${AGENTS.join(", ")}, opencode)`);
    agents = [a];
  } else agents = (["pi", ...AGENTS, "opencode"] as const).filter((a) => found(a, io));

  const project = loadProject(io.cwd, io.env, deps);
  const deadlineMs = clampDeadline(project.settings.hookDeadlineMs, DEFAULT_HOOK_DEADLINE_MS);
  const errors = project.issues.filter((i) => i.severity === "error");
  const rules: Check =
    errors.length === 0
      ? { name: "rules", ok: true, detail: `${project.set.rules.length} active rules load` }
      : { name: "rules", ok: false, detail: `${errors.length} error(s): ${errors.slice(0, 3).map((i) => `${i.file}${i.path ? ` ${i.path}` : ""}: ${i.message}`).join("; ")}`, fix: "run `shepherd rules check` and fix what it names (a file with errors contributes no rules)" };
  const managed: Check | undefined = project.managed.broken
    ? { name: "managed policy", ok: false, detail: `unreadable, read most restrictively (failMode "closed", project rules off): ${project.managed.broken}`, fix: "ask whoever manages this machine to fix the managed policy file (it must parse as JSON)" }
    : undefined;
  const telemetry = await telemetryCheck(project.settings.telemetry, io.env);
  const run = deps.runHook ?? defaultRunHook;
  const reports = agents.map((a) => (a === "pi" ? checkPi(io) : a === "opencode" ? checkOpenCode(io) : checkHookAgent(a, io, deadlineMs, run)));
  const none: Check | undefined = agents.length === 0 ? { name: "agents", ok: false, detail: "no agent found (pi, Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode)", fix: "run `shepherd init <agent>` for the agent you use" } : undefined;
  const all = [rules, ...(managed ? [managed] : []), ...(telemetry ? [telemetry] : []), ...(none ? [none] : []), ...reports.flatMap((r) => r.checks)];
  const ok = all.every((c) => c.ok);

  if (parsed.values.json) {
    writeJson(io, { ok, version: VERSION, deadlineMs, rules, ...(managed ? { managed } : {}), ...(telemetry ? { telemetry } : {}), ...(none ? { agents: [], problem: none } : { agents: reports }) });
    return ok ? 0 : 1;
  }
  const line = (c: Check) => {
    io.stdout(`  ${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}\n`);
    if (!c.ok && c.fix) io.stdout(`      fix: ${c.fix}\n`);
  };
  io.stdout(`Shepherd ${VERSION} (deadline ${formatMs(deadlineMs)})\n`);
  line(rules);
  if (managed) line(managed);
  if (telemetry) line(telemetry);
  if (none) line(none);
  for (const r of reports) {
    io.stdout(`${r.agent}:\n`);
    for (const c of r.checks) line(c);
  }
  const problems = all.filter((c) => !c.ok).length;
  io.stdout(ok ? "\nNo problems found.\n" : `\n${problems} problem${problems === 1 ? "" : "s"} found.\n`);
  return ok ? 0 : 1;
}
