/** @module variables whose value is a command another program runs (a pager, an editor, a runner), and the shell line each value runs. */

/** Variables holding a command that git or a shell runs: `GIT_PAGER='rm -rf ~' git log`. */
const COMMAND_VARS = new Set(["GIT_PROXY_COMMAND", "SYSTEMD_PAGER", "GIT_PAGER", "GIT_EDITOR", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_SEQUENCE_EDITOR", "PAGER", "EDITOR", "VISUAL", "PS4", "PROMPT_COMMAND", "BASH_ENV", "ENV", "LESSOPEN", "LESSCLOSE", "MANPAGER"]);

/** Whether the variable holds a command: the named ones, and cargo's per-target runner (`CARGO_TARGET_<TRIPLE>_RUNNER`). */
export function runsValue(name: string): boolean {
  return COMMAND_VARS.has(name) || /^CARGO_TARGET_\w+_RUNNER$/.test(name);
}

/** The shell line a command variable's value runs: LESSOPEN's `|cmd %s` pipes through cmd with the file's name for %s. */
export function commandOfVar(name: string, value: string): string {
  return name === "LESSOPEN" || name === "LESSCLOSE" ? value.replace(/^\|{1,2}-?/, "").replaceAll("%s", "file") : value;
}
