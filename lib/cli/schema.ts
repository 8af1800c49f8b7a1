/**
 * @module `shepherd schema`: the JSON Schema of a rule file, generated from the valibot RuleSchema so the
 * editor's view can never drift from what the loader accepts; plus helpers `shepherd init` uses to
 * write the schema next to rule files and point their `$schema` at it.
 */
import { dirname, join, relative, resolve } from "node:path";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { isPlainRecord } from "../engine/guard-kit.ts";
import { BUILTIN_ACTIONS, BUILTIN_CHECKS, RuleSchema } from "../engine/schema.ts";
import { KNOWN_TOOLS } from "../engine/tools.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { type CliIO, parseArgv, str, usageError } from "./format.ts";
import { VERSION } from "../version.ts";

/** File name the schema is written under, beside the rule files it describes. */
export const SCHEMA_FILE_NAME = "shepherd-rules.schema.json";
/** `$schema` value for a rule file in the same folder as the schema (e.g. both in `.pi/`). */
export const SCHEMA_URL = `./${SCHEMA_FILE_NAME}`;
export const SCHEMA_ID = "urn:shepherd:rules-file:v1";

/** The shape editors should see: strict at the top level too, so a misspelt "rule" key is flagged. */
const EditorRuleFileSchema = v.union([
  v.array(RuleSchema),
  v.strictObject({
    $schema: v.optional(v.string()),
    $comment: v.optional(v.string()),
    mode: v.optional(v.picklist(["enforce", "shadow"])),
    // Rule packs (lib/rules/packs/): an npm name or git+https://...#<commit>, optionally with the pack's mode.
    extends: v.optional(v.array(v.union([v.string(), v.strictObject({ pack: v.string(), mode: v.optional(v.picklist(["enforce", "shadow"])) })]))),
    rules: v.optional(v.array(RuleSchema)),
  }),
]);

/** Hover text per rule field (DESIGN section 3); valibot carries no descriptions, so they are added here. */
const FIELD_DOCS: Record<string, string> = {
  $comment: "A note for humans; ignored.",
  name: "Unique id, used to override or patch the rule from a later layer. Derived from `comment` when absent.",
  comment: "What the rule is for.",
  hook: "When the rule is evaluated. Default: tool_call.",
  tool: 'Tool name or list (pi names; Claude Code Bash/Edit/Write/Read are normalized; powershell is its own tool, not bash). A `*` inside a name is a glob: "mcp__github__*" = every tool of the github MCP server. Default: "bash" on tool hooks; "*" = any tool.',
  action: "block, ask, notify, steer, rewrite, or a plugin action. Absent = a patch of the earlier rule with this name.",
  pattern: "Regular expression on the command (bash) or main text; on message_end the assistant text; on input the prompt.",
  flags: "Regular expression flags, e.g. \"i\".",
  command:
    "Semantic shell condition: matches the simple commands a line really runs (after unwrapping sudo, env, sh -c, ...). Its paths/writes/mentions keys take a path class: outside_project, inside_project, home_or_root, project_root, shepherd_state, startup_files, any.",
  paths:
    "Path class the tool's path (write/edit/read path or file_path, a patch's files) must fall in, resolved against the session cwd: outside_project, inside_project, home_or_root, project_root, shepherd_state (Shepherd's own rules, settings, plugins, audit, state, binary and the agents' hook settings), startup_files (a shell's startup files, ssh keys, autostart, the folders agents load extensions from), any.",
  conditions: "All must hold. field: path, text, command, output (tool_result), or a dotted path into the tool input.",
  reason: "What the model (and for notify, the user) is told. {{command}}, {{path}}, {{tool}} are filled in.",
  state: "Per-session counter: fires when the count of errors or calls reaches gte (the current event counts). Resets after firing unless reset: false.",
  check: "agent_end / session_shutdown only: has_edits, git_uncommitted, always, or a plugin check.",
  stopReason: "agent_end only: fire only for these stop reasons (stop, length, toolUse, error, aborted).",
  subagent: "false: never fires inside a sub-agent. Default true.",
  requireSuccess: "tool_result only: fire only when the tool succeeded.",
  terminate: "A block on tool_call only: the agent stops after this batch of calls instead of trying again (pi 1.x; on pi 0.73 the run is aborted).",
  remember:
    'An ask on tool_call only: "session" or "project". When a person approves the ask, that exact call (same rule, tool and input; for a shell, the exact command) is allowed without asking again in this session or this project. `shepherd approvals list|revoke`.',
  requiresTools: "Fire only when these tools are available to the agent.",
  rewrite: 'For action "rewrite": {"prefix": "..."} or {"replace": "..."} ($1 captures from pattern).',
  enabled: "Default true. false keeps the rule listed but not in force.",
  locked:
    "Built-in and global rules only: no later layer or tool call may override or disable it. A locked built-in is unlocked only by its name in `unlockBuiltins` of the global settings.",
  tests: 'Inline cases run by `shepherd rules test` and reported at load: [{"command": "...", "expect": "block"}].',
  options: "Free-form object handed to a plugin action or check.",
};

const EXAMPLES: Record<string, readonly string[]> = {
  action: BUILTIN_ACTIONS,
  check: BUILTIN_CHECKS,
  tool: KNOWN_TOOLS,
  requiresTools: KNOWN_TOOLS.filter((t) => t !== "*"),
  stopReason: ["stop", "length", "toolUse", "error", "aborted"],
};

type Json = Record<string, unknown>;


/** The JSON Schema (draft-07) of a rule file, with descriptions and completion examples. */
export function ruleFileJsonSchema(): Json {
  const schema = toJsonSchema(EditorRuleFileSchema, { errorMode: "ignore", definitions: { rule: RuleSchema } }) as Json;
  const defs = schema.$defs;
  const rule = isPlainRecord(defs) ? defs.rule : undefined;
  const props = isPlainRecord(rule) ? rule.properties : undefined;
  if (isPlainRecord(rule)) {
    rule.description = "One Shepherd rule. See `shepherd rules check` for validation beyond this schema (regexes, hook/field fit).";
  }
  if (isPlainRecord(props)) {
    for (const [key, doc] of Object.entries(FIELD_DOCS)) {
      const p = props[key];
      if (isPlainRecord(p)) p.description = doc;
    }
    for (const [key, examples] of Object.entries(EXAMPLES)) {
      const p = props[key];
      if (isPlainRecord(p)) p.examples = [...examples];
    }
    const hook = props.hook;
    if (isPlainRecord(hook)) hook.default = "tool_call";
  }
  return {
    $schema: schema.$schema,
    $id: SCHEMA_ID,
    title: "Shepherd rules file",
    description: `Rules for Shepherd ${VERSION}: a JSON array of rules, or {"$schema": ..., "rules": [...]}. JSONC comments are accepted.`,
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$schema")),
  };
}

export function schemaText(): string {
  return `${JSON.stringify(ruleFileJsonSchema(), null, 2)}\n`;
}

/**
 * Writes the schema into `dir` (atomically) and returns its path and the `$schema` value a rule file
 * in `dir` should carry. `shepherd init` calls this for `.pi/` before writing a project rule file.
 */
export function writeSchemaFile(dir: string): { ok: true; path: string; ref: string } | { ok: false; reason: string } {
  const path = join(resolve(dir), SCHEMA_FILE_NAME);
  const written = writeFileAtomic(path, schemaText());
  return written.ok ? { ok: true, path, ref: SCHEMA_URL } : { ok: false, reason: written.reason };
}

/** The `$schema` value for a rule file at `ruleFile` pointing at a schema file elsewhere (relative, POSIX separators). */
export function schemaRef(ruleFile: string, schemaFile: string): string {
  const rel = relative(dirname(resolve(ruleFile)), resolve(schemaFile)).split("\\").join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

export const SCHEMA_HELP = `Usage: shepherd schema [--out FILE]

Prints the JSON Schema (draft-07) of a Shepherd rules file, generated from the same
valibot schema the loader validates with. Point a rule file's "$schema" at it and
editors (VS Code, JetBrains, Zed, Neovim with a JSON language server) validate the
file and complete field names and values as you type.

Options:
  --out FILE  write the schema to FILE (atomically) instead of printing it
  -h, --help  this help

Example:
  shepherd schema --out .pi/${SCHEMA_FILE_NAME}
  # then, in .pi/shepherd-rules.json:
  { "$schema": "${SCHEMA_URL}", "rules": [ ... ] }
`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  out: { type: "string", short: "o" },
} as const;

export async function runSchema(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseArgv(argv, OPTIONS, false);
  if (!parsed.ok) return usageError(io, "schema", parsed.message);
  if (parsed.values.help) {
    io.stdout(SCHEMA_HELP);
    return 0;
  }
  const out = str(parsed.values.out);
  if (out === undefined) {
    io.stdout(schemaText());
    return 0;
  }
  const path = resolve(io.cwd, out);
  const written = writeFileAtomic(path, schemaText());
  if (!written.ok) {
    io.stderr(`shepherd schema: ${written.reason}\n`);
    return 1;
  }
  io.stderr(`wrote ${path}\n`);
  return 0;
}
