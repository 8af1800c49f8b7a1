/** @module agent-neutral tool names and input fields (Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode -> pi vocabulary). */

const TOOL_ALIASES: Record<string, string> = {
  bash: "bash",
  shell: "bash",
  exec_command: "bash",
  run_shell_command: "bash",
  local_shell: "bash",
  write_bash: "bash",
  write_powershell: "powershell",
  edit: "edit",
  multiedit: "edit",
  replace: "edit",
  apply_patch: "edit",
  // OpenCode's older patch tool; its `apply_patch` (GPT models) and `edit`/`write`/`read`/`grep`/`bash` match above.
  patch: "edit",
  write: "write",
  write_file: "write",
  create: "write",
  notebookedit: "edit",
  read: "read",
  read_file: "read",
  read_many_files: "read",
  view: "read",
  grep: "grep",
  search_file_content: "grep",
  // Gemini CLI's and OpenCode's file pattern search.
  glob: "find",
  find: "find",
  ls: "ls",
  list_directory: "ls",
  // OpenCode.
  list: "ls",
};

/** Lower-cases and maps agent-specific tool names onto pi's (`Bash` -> `bash`, `write_file` -> `write`). */
export function normalizeToolName(name: string): string {
  const lower = name.toLowerCase();
  return TOOL_ALIASES[lower] ?? lower;
}

/** A PowerShell tool (pi 1.x `powershell`, Claude Code `PowerShell`): its command is PowerShell, not POSIX shell. */
export function isPowerShellTool(name: string): boolean {
  return name.toLowerCase() === "powershell";
}

/**
 * Tool names Shepherd knows, for "did you mean" hints. `powershell` (pi 1.x `powershell`, Claude Code
 * `PowerShell`) is a tool of its own that a rule can name, and the `bash` rules judge it too (see
 * `ruleToolsFor`), its command read as PowerShell.
 */
export const KNOWN_TOOLS = ["bash", "powershell", "edit", "write", "read", "grep", "find", "ls", "*"] as const;

const POWERSHELL_RULE_TOOLS = ["powershell", "bash"] as const;

/**
 * The rule tool names whose rules judge a call of `tool` (normalized), in no particular order: itself, and
 * for PowerShell also `bash`, so the safety pack's effect rules hold on Windows shells too. The one place
 * both the sidecar's index (merge.ts) and the hook snapshot (hook-snapshot.ts) ask.
 */
export function ruleToolsFor(tool: string): readonly string[] {
  return tool === "powershell" ? POWERSHELL_RULE_TOOLS : [tool];
}

/** A rule's tool name with `*` in it (other than a lone `*`, which means every tool): `mcp__github__*`. */
export function isToolGlob(tool: string): boolean {
  return tool !== "*" && tool.includes("*");
}

/** The test for a tool glob: `*` is any run of characters, everything else is literal, whole name only. */
export function toolGlobTest(glob: string): (tool: string) => boolean {
  const re = new RegExp(`^${glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "s");
  return (tool) => re.test(tool);
}

const PATH_KEYS = ["path", "file_path", "filePath", "absolute_path", "notebook_path", "dir_path", "directory"] as const;
// `newString`: OpenCode's edit; `file_text`: Copilot CLI's create.
const TEXT_KEYS = ["newText", "new_string", "newString", "content", "new_str", "file_text", "text", "newContent"] as const;
const COMMAND_KEYS = ["command", "cmd"] as const;

function firstString(input: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const value = input[k];
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every((x) => typeof x === "string")) return value.join(" ");
  }
  return undefined;
}

export function commandOf(input: Record<string, unknown>): string | undefined {
  return firstString(input, COMMAND_KEYS);
}

export function pathOf(input: Record<string, unknown>): string | undefined {
  return firstString(input, PATH_KEYS);
}

/** The text a tool writes: `newText`/`new_string`/`content`, or the joined new texts of a multi-edit. */
export function textOf(input: Record<string, unknown>): string | undefined {
  const direct = firstString(input, TEXT_KEYS);
  if (direct !== undefined) return direct;
  const edits = input.edits;
  if (Array.isArray(edits)) {
    const parts: string[] = [];
    for (const e of edits) {
      if (e && typeof e === "object") {
        const t = firstString(e as Record<string, unknown>, TEXT_KEYS);
        if (t !== undefined) parts.push(t);
      }
    }
    if (parts.length > 0) return parts.join("\n");
  }
  return undefined;
}

const PATCH_FILE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

/**
 * The paths a tool writes: its path field, or the files a patch names (Codex `apply_patch` carries them
 * inside the patch text: `*** Update File: src/a.ts`).
 */
export function targetPathsOf(input: Record<string, unknown>): string[] {
  const direct = pathOf(input);
  if (direct !== undefined) return [direct];
  const out: string[] = [];
  // `patchText`: OpenCode's apply_patch.
  for (const key of ["patch", "patchText", "input", "command", "cmd"]) {
    const value = input[key];
    const text = typeof value === "string" ? value : Array.isArray(value) ? value.filter((x) => typeof x === "string").join("\n") : undefined;
    if (text === undefined || !text.includes("*** ")) continue;
    for (const m of text.matchAll(PATCH_FILE)) if (m[1] !== undefined) out.push(m[1].trim());
  }
  return out;
}

/** The key under which the command or path lives in this input, so a rewrite keeps the agent's own shape. */
export function mainKeyOf(input: Record<string, unknown>): string | undefined {
  for (const k of [...COMMAND_KEYS, ...PATH_KEYS]) if (typeof input[k] === "string") return k;
  return undefined;
}

/** Dotted path lookup into a tool input: `edits.0.newText`. */
export function getDotted(input: unknown, dotted: string): unknown {
  let cur: unknown = input;
  for (const part of dotted.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}
