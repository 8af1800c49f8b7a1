/** @module argv -> one face of the binary; wires dependencies; the only place that exits the process. */
import { writeAllSync } from "./lib/cli/write-fd.ts";
import type { CliIO } from "./lib/cli/format.ts";
import type { HttpServer } from "./lib/http/serve.ts";
import type { createPluginProvider, WorkspacePlugins } from "./lib/plugins/provider.ts";
import { log } from "./lib/log.ts";
import { VERSION } from "./lib/version.ts";
import { normalJitPolicy } from "./lib/jit-policy.ts";

// The binary starts with a hook's JIT policy (lib/jit-policy.ts); the faces here run long or work hard.
normalJitPolicy();

// Faces are imported when chosen: a hook process is timed from spawn to answer, and evaluating the
// modules of every other face (hono, the schema generator, embedded texts) would cost it several ms.

const HELP = `shepherd ${VERSION}: a rule-driven guard for AI coding agents

Usage:
  shepherd serve                          stdio sidecar (JSON-RPC 2.0, one message a line)
  shepherd http [--port N] [--host H] [--token T] [--idle-timeout S]
                                          the same engine over HTTP, with a live dashboard
  shepherd hook <claude-code|codex|gemini|copilot>
                                          one-shot adapter for agents whose hooks spawn a command
  shepherd rules list [--json]            the merged rule set, with layers, files and skipped rules
  shepherd rules check [files...]         validate rule files (exit 1 on errors)
  shepherd rules explain --tool T --command C | --path P | --event file.json
                                          why each rule fired or not
  shepherd rules test                     run the rules' inline tests
  shepherd schema                         JSON Schema of a rules file
  shepherd replay <session.jsonl>...      which rules would have fired over recorded pi sessions
  shepherd pack add <spec>|update|verify  rule packs (npm or git at a commit) and their lock file
  shepherd init <pi|claude-code|codex|gemini|copilot|opencode> [--uninstall]
  shepherd trust [dir] | --list | --revoke [dir]
  shepherd approvals list [--project P] [--json] | revoke <id>... | --all
                                          remembered approvals of "ask" rules with "remember"
  shepherd doctor [agent] [--json]        are the agents' hooks installed, complete and answering? (exit 1 if not)
  shepherd --version | --help

Rules: the managed policy (/etc/shepherd/managed-rules.json, locked), built-in, then
~/.pi/agent/shepherd-rules.json, then <cwd>/.pi/shepherd-rules*.json.
Example: shepherd rules explain --tool bash --command "git checkout -- a.ts"
`;

function out(text: string): void {
  writeFd(1, text.endsWith("\n") ? text : `${text}\n`);
}

/** Writes to a file descriptor; a reader that went away (`shepherd rules list | head`) ends output quietly. */
function writeFd(fd: number, s: string): void {
  try {
    writeAllSync(fd, s);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EPIPE") process.exit(0);
    throw err;
  }
}

function cliIO(env: Record<string, string | undefined>, cwd: string): CliIO {
  return {
    stdout: (s) => writeFd(1, s),
    stderr: (s) => writeFd(2, s),
    cwd,
    env,
    isTTY: Boolean(process.stdout.isTTY),
  };
}

async function rules(sub: string | undefined, argv: string[], io: CliIO): Promise<number> {
  const run = async (fn: (argv: string[], io: CliIO, deps: { plugins: WorkspacePlugins }) => Promise<number>) => {
    // The authoring commands see exactly what the sidecar sees, plugin actions included.
    const plugins = await pluginProvider(io.env);
    await plugins.ready(io.cwd);
    try {
      return await fn(argv, io, { plugins });
    } finally {
      plugins.close?.();
    }
  };
  switch (sub) {
    case "list":
      return run((await import("./lib/cli/rules-list.ts")).runRulesList);
    case "check":
      return run((await import("./lib/cli/rules-check.ts")).runRulesCheck);
    case "explain":
      return run((await import("./lib/cli/rules-explain.ts")).runRulesExplain);
    case "test":
      return run((await import("./lib/cli/rules-test.ts")).runRulesTest);
    default:
      io.stderr(`shepherd rules: expected list, check, explain or test${sub ? `, not "${sub}"` : ""}\n`);
      return 2;
  }
}

type PluginReport = (level: "error" | "warning", message: string) => void;

async function pluginProvider(env: Record<string, string | undefined>, report?: PluginReport): Promise<WorkspacePlugins> {
  return pluginProviderWith((await import("./lib/plugins/provider.ts")).createPluginProvider, env, report);
}

function pluginProviderWith(
  create: typeof createPluginProvider,
  env: Record<string, string | undefined>,
  report?: PluginReport,
): WorkspacePlugins {
  return create({
    env,
    onIssue: (_cwd, issue) => {
      const level = issue.severity === "error" ? "error" : "warning";
      const message = `plugin ${issue.file}${issue.path ? ` ${issue.path}` : ""}: ${issue.message}`;
      if (report) report(level, message);
      else log[level](message);
    },
  });
}

/** `shepherd <face> --help` for the faces whose options main.ts parses itself. */
const FACE_HELP: Record<string, string> = {
  serve: `Usage: shepherd serve [--hook-tool]

The stdio sidecar: JSON-RPC 2.0, one message a line (MCP lifecycle, shepherd/evaluate, shepherd/hint,
the shepherd_rules tool). Rules come from the current folder's layers. Exits 0 on stdin EOF or SIGTERM.
--hook-tool: also the shepherd_hook tool, for Claude Code's mcp_tool hooks (shepherd init claude-code --mcp).
Example: printf '{"jsonrpc":"2.0","id":1,"method":"ping"}\\n' | shepherd serve
`,
  http: `Usage: shepherd http [--port N] [--host H] [--token T] [--idle-timeout S]

Serves the engine over HTTP (hono): Claude Code http hooks at POST /v1/hooks/claude-code, POST /v1/evaluate,
GET /health, and a live dashboard at /. Binds 127.0.0.1 by default; a non-loopback --host requires --token.
--idle-timeout: seconds a connection may stay silent before it is closed (1-255, default 30).
Example: shepherd http --port 7373
`,
  hook: `Usage: shepherd hook [--agent] <claude-code|codex|gemini|copilot>

Reads one hook call of that agent on stdin and answers in its contract (deny, ask, rewrite, context,
wrap-up). Counters survive across hook processes in a per-session state file.
Example: echo '{"session_id":"s","cwd":".","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git checkout -- a.ts"}}' | shepherd hook claude-code
`,
  init: `Usage: shepherd init <pi|claude-code|codex|gemini|copilot|opencode> [--user|--global] [--mcp] [--project] [--uninstall]

pi: installs the thin extension into ~/.pi/agent/extensions/ (PI_CODING_AGENT_DIR honoured).
claude-code, codex, gemini: merges Shepherd's hooks into the project's settings file (--user: the
user's), keeping everything else; copilot: .github/hooks/shepherd.json (--user: ~/.copilot/settings.json).
--uninstall removes only what Shepherd added.
claude-code --mcp: hooks of type mcp_tool answered by one \`shepherd serve\` per session (no process per
hook), with the MCP server entry in .mcp.json (--user: ~/.claude.json).
opencode: writes the thin plugin into ~/.config/opencode/plugin/ (--global, the default; XDG_CONFIG_HOME
honoured) or the project's .opencode/plugin/ (--project); it talks to one \`shepherd serve\` per OpenCode.
Example: shepherd init claude-code --user
`,
};

function wantsHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

async function http(argv: string[], env: Record<string, string | undefined>, cwd: string): Promise<number> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const { DEFAULT_HTTP_PORT, HttpOptionsError, runHttp } = await import("./lib/http/serve.ts");
  const portText = flag("--port");
  const port = portText === undefined ? DEFAULT_HTTP_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`shepherd http: --port must be an integer 0-65535, not "${portText}"\n`);
    return 2;
  }
  const host = flag("--host");
  const token = flag("--token");
  const idleText = flag("--idle-timeout");
  const idleTimeoutS = idleText === undefined ? undefined : Number(idleText);
  let server: HttpServer | undefined;
  const plugins = await pluginProvider(env, (level, message) => (server ? server.workspace.notify(level, message) : log[level](message)));
  await plugins.ready(cwd);
  try {
    server = runHttp({ cwd, env, version: VERSION, log, plugins, port, ...(host ? { host } : {}), ...(token ? { token } : {}), ...(idleTimeoutS !== undefined ? { idleTimeoutS } : {}) });
  } catch (err) {
    if (err instanceof HttpOptionsError) {
      process.stderr.write(`shepherd http: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const running = server;
  return new Promise<number>((resolve) => {
    const stop = () => void running.close().then(() => resolve(0));
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  // Bun loads these on first use (lazy-deps.ts); elsewhere they must be loaded before anything runs.
  if (typeof require !== "function") await (await import("./lib/lazy-deps.ts")).preloadLazyDeps();
  const env = process.env;
  const cwd = process.cwd();
  const faceHelp = cmd === undefined ? undefined : FACE_HELP[cmd];
  if (faceHelp && wantsHelp(rest)) {
    out(faceHelp);
    return 0;
  }
  switch (cmd) {
    case undefined:
    case "--help":
    case "-h":
    case "help":
      out(HELP);
      return cmd === undefined ? 1 : 0;
    case "--version":
    case "-v":
    case "version":
      out(VERSION);
      return 0;
    case "serve": {
      const { runServe } = await import("./lib/cli/serve.ts");
      const { createStdoutWriter, stdinChunks } = await import("./lib/rpc/stdio-io.ts");
      const writeLine = createStdoutWriter((chunk) => {
        stdoutUsed = true;
        process.stdout.write(chunk);
      });
      let server: Awaited<ReturnType<typeof runServe>> | undefined;
      // Plugin problems go to stderr and, once the sidecar runs, to the client as notifications/message.
      const plugins = await pluginProvider(env, (level, message) => (server ? server.workspace.notify(level, message) : log[level](message)));
      // Rules naming plugin actions are merged once the plugins are known, so the first event already sees them.
      await plugins.ready(cwd);
      server = await runServe({
        cwd,
        env,
        version: VERSION,
        log,
        plugins,
        input: stdinChunks(),
        write: writeLine,
        hookTool: rest.includes("--hook-tool"),
      });
      const running = server;
      const stop = () => {
        running.close();
        process.exit(0);
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
      return running.done;
    }
    case "hook":
      // The binary enters hooks through lib/hook/entry.ts; this serves `bun main.ts hook` and Deno.
      return (await import("./lib/hook/face.ts")).runHookFace((rest[0] === "--agent" ? rest[1] : rest[0]) ?? "", env, cwd);
    case "http":
      return http(rest, env, cwd);
    case "rules":
      return rules(rest[0], rest.slice(1), cliIO(env, cwd));
    case "trust":
      return (await import("./lib/cli/trust.ts")).runTrust(rest, cliIO(env, cwd));
    case "approvals":
      return (await import("./lib/cli/approvals.ts")).runApprovals(rest, cliIO(env, cwd));
    case "schema":
      return (await import("./lib/cli/schema.ts")).runSchema(rest, cliIO(env, cwd));
    case "replay":
      return (await import("./lib/cli/replay.ts")).runReplay(rest, cliIO(env, cwd));
    case "doctor":
      return (await import("./lib/cli/doctor.ts")).runDoctor(rest, cliIO(env, cwd));
    case "pack":
      return (await import("./lib/cli/pack.ts")).runPack(rest, cliIO(env, cwd));
    case "init": {
      const [agent, ...flags] = rest;
      if (agent === "pi") return (await import("./lib/cli/init-pi.ts")).runInitPi({ uninstall: flags.includes("--uninstall"), binaryPath: process.execPath, env });
      if (agent === "opencode") {
        return (await import("./lib/cli/init-opencode.ts")).runInitOpenCode({
          uninstall: flags.includes("--uninstall"),
          scope: flags.includes("--project") ? "project" : "global",
          cwd,
          binaryPath: process.execPath,
          env,
        });
      }
      return (await import("./lib/cli/init-agents.ts")).runInitAgent(agent ?? "", {
        cwd,
        env,
        scope: flags.includes("--user") || flags.includes("--global") ? "user" : "project",
        uninstall: flags.includes("--uninstall"),
        mcp: flags.includes("--mcp"),
        binary: process.execPath,
      });
    }
    default:
      process.stderr.write(`shepherd: unknown command "${cmd}"\n\n${HELP}`);
      return 2;
  }
}

/** Set once process.stdout is written: its first use costs ms in a compiled binary, so hooks never touch it. */
let stdoutUsed = false;

main(process.argv.slice(2)).then(
  (code) => {
    // Give stdout a chance to drain before leaving (pipes are async in Bun and Node).
    if (stdoutUsed && process.stdout.writableLength > 0) process.stdout.once("drain", () => process.exit(code));
    else process.exit(code);
  },
  (err: unknown) => {
    log.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(70);
  },
);
