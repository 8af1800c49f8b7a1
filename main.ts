/** @module argv -> one face of the binary; wires dependencies; the only place that exits the process. */
import { writeSync } from "node:fs";
import { runServe } from "./lib/cli/serve.ts";
import { log } from "./lib/log.ts";
import { VERSION } from "./lib/version.ts";

const HELP = `shepherd ${VERSION}: a rule-driven guard for AI coding agents

Usage:
  shepherd serve                          stdio sidecar (JSON-RPC 2.0, one message a line)
  shepherd http [--port N] [--host H] [--token T]
                                          the same engine over HTTP, with a live dashboard
  shepherd hook <claude-code|codex|gemini>
                                          one-shot adapter for agents whose hooks spawn a command
  shepherd rules list [--json]            the merged rule set, with layers, files and skipped rules
  shepherd rules check [files...]         validate rule files (exit 1 on errors)
  shepherd rules explain --tool T --command C | --path P | --event file.json
                                          why each rule fired or not
  shepherd rules test                     run the rules' inline tests
  shepherd schema                         JSON Schema of a rules file
  shepherd replay <session.jsonl>...      which rules would have fired over recorded pi sessions
  shepherd init <pi|claude-code|codex|gemini> [--uninstall]
  shepherd trust [dir] | --list | --revoke [dir]
  shepherd --version | --help

Rules: built-in, then ~/.pi/agent/shepherd-rules.json, then <cwd>/.pi/shepherd-rules*.json.
Example: shepherd rules explain --tool bash --command "git checkout -- a.ts"
`;

function out(text: string): void {
  writeSync(1, text.endsWith("\n") ? text : `${text}\n`);
}

async function stdinChunks(): Promise<AsyncIterable<Uint8Array>> {
  return process.stdin as AsyncIterable<Uint8Array>;
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const env = process.env;
  const cwd = process.cwd();
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
      const server = await runServe({
        cwd,
        env,
        version: VERSION,
        log,
        input: await stdinChunks(),
        write: (line) => process.stdout.write(line),
      });
      const stop = () => {
        server.close();
        process.exit(0);
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
      return server.done;
    }
    default:
      process.stderr.write(`shepherd: unknown command "${cmd}"\n\n${HELP}`);
      void rest;
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Give stdout a chance to drain before leaving (pipes are async in Bun and Node).
    if (process.stdout.writableLength > 0) process.stdout.once("drain", () => process.exit(code));
    else process.exit(code);
  },
  (err: unknown) => {
    log.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(70);
  },
);
