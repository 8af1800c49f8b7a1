/** @module `shepherd approvals list [--project P] [--json]` and `shepherd approvals revoke <id> | --all [--project P]`. */
import { resolve } from "node:path";
import { type Approval, ApprovalStore, approvalsFile } from "../approvals/approval-store.ts";
import { canonicalDir } from "../rules/settings.ts";
import { type CliIO, parseArgv, usageError, writeJson } from "./format.ts";

const HELP = `Usage: shepherd approvals list [--project P] [--json]   the remembered approvals
       shepherd approvals revoke <id>... | --all [--project P]   forget approvals

An "ask" rule with "remember": "session" or "project" remembers a person's yes for that
exact call (same rule, tool and input; for a shell, the exact command): the next identical
call in that session or project runs without asking. Approvals are kept per project (its
real path) in ~/.pi/agent/shepherd/approvals.json (PI_CODING_AGENT_DIR moves it); only the
person's answer in the agent creates one. A session's approvals end with the session.

Example:
  shepherd approvals revoke 3f9c1a2b4d5e
`;

function line(a: Approval): string {
  const when = new Date(a.createdAt).toISOString().replace(/\.\d+Z$/, "Z");
  const scope = a.scope === "session" ? `session ${a.agent ? `${a.agent}:` : ""}${a.session}` : "project";
  return `${a.id}  ${when}  ${scope}  rule ${a.rule}  ${a.tool}: ${a.display}\n    in ${a.project}\n`;
}

export async function runApprovals(argv: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    io.stdout(HELP);
    return sub === undefined ? 2 : 0;
  }
  const parsed = parseArgv(rest, { project: { type: "string" }, json: { type: "boolean" }, all: { type: "boolean" }, help: { type: "boolean", short: "h" } });
  if (!parsed.ok) return usageError(io, "approvals", parsed.message);
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const problems: string[] = [];
  const store = new ApprovalStore({ file: approvalsFile(io.env), report: (m) => problems.push(m) });
  const project = typeof values.project === "string" ? canonicalDir(resolve(io.cwd, values.project)) : undefined;
  const inProject = (a: Approval) => project === undefined || a.project === project;
  const flush = () => {
    for (const p of problems) io.stderr(`shepherd approvals: ${p}\n`);
  };

  if (sub === "list") {
    if (positionals.length > 0 || values.all === true) return usageError(io, "approvals", "list takes only --project and --json");
    const list = store.all().filter(inProject);
    flush();
    if (values.json === true) {
      writeJson(io, list);
      return 0;
    }
    if (list.length === 0) io.stderr(`no remembered approvals${project ? ` for ${project}` : ""} (${store.file})\n`);
    for (const a of list) io.stdout(line(a));
    return 0;
  }
  if (sub === "revoke") {
    if (values.json === true) return usageError(io, "approvals", "--json only goes with list");
    if (values.all === true && positionals.length > 0) return usageError(io, "approvals", "give ids or --all, not both");
    if (values.all !== true && positionals.length === 0) return usageError(io, "approvals", "revoke needs an approval id (see `shepherd approvals list`) or --all");
    if (values.all !== true && project !== undefined) return usageError(io, "approvals", "--project goes with --all");
    const ids = new Set(positionals);
    const r = await store.revoke((a) => (values.all === true ? inProject(a) : ids.has(a.id)));
    flush();
    if (!r.ok) {
      io.stderr(`shepherd approvals: ${r.reason}\n`);
      return 1;
    }
    for (const a of r.value) io.stdout(`revoked ${a.id} (rule ${a.rule}, ${a.tool}: ${a.display})\n`);
    const missing = [...ids].filter((id) => !r.value.some((a) => a.id === id));
    for (const id of missing) io.stderr(`shepherd approvals: no approval ${id}\n`);
    if (values.all === true && r.value.length === 0) io.stderr("no remembered approvals to revoke\n");
    return missing.length > 0 ? 1 : 0;
  }
  return usageError(io, "approvals", `expected list or revoke, not "${sub}"`);
}
