/** @module shell-aware matching seam used by the engine: compile a `command` condition into a matcher. */
import type { CommandCondition } from "./command-condition-schema.ts";

export interface ShellContext {
  /** The session's working directory (relative paths resolve against it). */
  cwd: string;
  /** The project root (paths inside it are "inside_project"). */
  projectRoot: string;
  home: string;
}

/** undefined when the condition holds; otherwise why it did not (for `rules explain`). */
export type CommandMatcher = (command: string, ctx: ShellContext) => string | undefined;

/** PLACEHOLDER until the shell parser lands: whitespace split, no unwrapping. */
export function compileCommandCondition(cond: CommandCondition): CommandMatcher {
  const programs = Array.isArray(cond.program) ? cond.program : [cond.program];
  return (command) => {
    const words = command.trim().split(/\s+/);
    const prog = (words[0] ?? "").split("/").pop() ?? "";
    return programs.includes(prog) ? undefined : `program is not ${programs.join("/")}`;
  };
}
