/** @module shared shapes of the shell layer: parsed simple commands and parse results. */
import type { CommandMemo } from "./memo.ts";

export interface RedirectInfo {
  op: string;
  fd: string;
  /** Expanded target (file name, fd number, or herestring text). */
  target: string;
  /** Heredoc body. */
  body?: string;
}

/** One command that really runs, after unwrapping sudo/env/sh -c/... and following assignments and cd. */
export interface SimpleCommand {
  /** Expanded words: quotes removed, known variables and literal `$(echo ..)` substituted. */
  argv: string[];
  /** Per word: true when it still holds something unresolvable ($UNKNOWN, $(date), ...). */
  dynamic: boolean[];
  /** Basename of argv[0] ("" for a bare redirection such as `> file`). */
  program: string;
  /** Working directory it runs in; "" when a `cd` went somewhere unknowable. */
  cwd: string;
  redirects: RedirectInfo[];
  /** Programs that consume its standard output (later stages of its pipeline, or a shell running its output). */
  pipeTo: string[];
  /** Wrappers it was found inside, outermost first, e.g. ["sudo", "bash -c"]. */
  via: string[];
  /** True when it was derived rather than written: interpreter one-liner calls, `find -delete`. */
  synthetic: boolean;
  /** Set when its arguments also come from standard input (xargs). */
  stdinArgs: boolean;
  /** Set on a shell or interpreter that runs code from elsewhere (-c, a script file, -m module), not from stdin. */
  ignoresStdinCode?: boolean;
  /** Set on a later pipeline stage whose input comes from `env`/`printenv` (the environment, secrets included). */
  pipeFrom?: "env";
  /** Set on a command inside `$(...)` whose output is assigned to a variable named as a secret (`export GH_TOKEN=$(gh auth token)`). */
  captured?: boolean;
  /** Set on a call that spawns copies of itself without bound: a function calling itself in a pipe or the background, `while true; do x & done`. */
  selfSpawn?: boolean;
  /**
   * Set on a wrapper (`env`, `nice -n 5`, `timeout 60`, `eval`, `script -qc`): its words from this index on are the
   * command or code it runs, judged in the command recorded for it, not file names it opens itself.
   */
  wrapsFrom?: number;
  /**
   * The literal text fed into it: what the previous pipeline stage prints (`echo 'x' | tee -a f`) when that stage is a
   * plain echo, printf or heredoc cat; for the bare redirection after a group (`{ echo a; } >> f`), what the group prints.
   */
  stdinText?: string;
  /** A make or just whose recipes were read from a file written on the line: what it does is what they do, not what its target is named. */
  recipesRead?: boolean;
  /** What the analyses derived from it (memo.ts); not part of what the command is. */
  memo?: CommandMemo;
}

export interface ParseOptions {
  cwd: string;
  home: string;
  /** The line is PowerShell (the pi `powershell` / Claude Code `PowerShell` tool), not POSIX shell. */
  dialect?: "powershell";
}

export interface ParseResult {
  commands: SimpleCommand[];
  /** Why the line could not be parsed; the commands then come from the fallback splitter. */
  error?: string;
  /** True when the commands come from the whitespace/operator fallback split, not the parser. */
  fallback: boolean;
  /**
   * Set when the line is over an analysis cap (limits.ts): it is judged too complex to analyse, and
   * `commands` holds only what was read before the cap. Rules can ask on it (`tooComplex`).
   */
  limit?: string;
}
