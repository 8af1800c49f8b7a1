/** @module `shepherd trust [dir] | --list | --revoke [dir]`: the user's decision to let a project rewrite, override and run plugins. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { listTrusted, revokeDir, trustDir } from "../rules/trust.ts";
import { type CliIO, parseArgv, usageError, writeJson } from "./format.ts";

const HELP = `Usage: shepherd trust [dir]          trust a project (default: the current folder)
       shepherd trust --list [--json]   the trusted projects
       shepherd trust --revoke [dir]    stop trusting a project

A trusted project's rules may rewrite commands and override or disable global and
built-in rules, and its plugins (.pi/shepherd/plugins/) run. Locked global rules stay
out of reach. The list lives in the global settings (~/.pi/agent/settings.json,
key shepherd.trustedProjects; PI_CODING_AGENT_DIR moves it).

Example:
  shepherd trust ~/src/app
`;

export async function runTrust(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseArgv(argv, {
    list: { type: "boolean" },
    revoke: { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (!parsed.ok) return usageError(io, "trust", parsed.message);
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(HELP);
    return 0;
  }
  if (positionals.length > 1) return usageError(io, "trust", `expected at most one folder, got ${positionals.length}`);
  if (values.list === true && values.revoke === true) return usageError(io, "trust", "--list and --revoke do not go together");
  if (values.json === true && values.list !== true) return usageError(io, "trust", "--json only goes with --list");

  if (values.list === true) {
    if (positionals.length > 0) return usageError(io, "trust", "--list takes no folder");
    const r = listTrusted(io.env);
    if (!r.ok) {
      io.stderr(`shepherd trust: ${r.message}\n`);
      return 1;
    }
    if (values.json === true) {
      writeJson(io, r.value.list.map((dir) => ({ dir, exists: existsSync(dir) })));
      return 0;
    }
    if (r.value.list.length === 0) io.stderr(`no trusted projects (${r.value.file})\n`);
    for (const dir of r.value.list) io.stdout(`${dir}${existsSync(dir) ? "" : "  (missing)"}\n`);
    return 0;
  }

  const dir = resolve(io.cwd, positionals[0] ?? ".");
  if (values.revoke === true) {
    const r = await revokeDir(dir, io.env);
    if (!r.ok) {
      io.stderr(`shepherd trust: ${r.message}\n`);
      return 1;
    }
    io.stdout(r.value.changed ? `no longer trusted: ${r.value.dir} (${r.value.file})\n` : `was not trusted: ${r.value.dir}\n`);
    return 0;
  }
  const r = await trustDir(dir, io.env);
  if (!r.ok) {
    io.stderr(`shepherd trust: ${r.message}\n`);
    return 1;
  }
  io.stdout(
    r.value.changed
      ? `trusted: ${r.value.dir} (${r.value.file})\nIts rewrite rules, overrides of global and built-in rules, and plugins now apply; a running sidecar picks this up by itself.\n`
      : `already trusted: ${r.value.dir}\n`,
  );
  return 0;
}
