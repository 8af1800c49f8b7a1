/**
 * @module what the analyses derived from one parsed command, kept on the command itself. Every rule asks about
 * the same commands: a field read costs less than a WeakMap lookup per analysis (three a command, several times
 * an evaluation). A copy made by spreading a command (`{ ...cmd, argv }`) carries its original's memo, whose
 * `owner` then is not the copy: it is ignored and the copy gets its own.
 */
import type { Analysis } from "./flags.ts";
import type { Effect } from "./effects/types.ts";
import type { SimpleCommand } from "./types.ts";

export interface CommandMemo {
  readonly owner: SimpleCommand;
  help: boolean | undefined;
  analysis: Analysis | undefined;
  effects: Effect[] | undefined;
}

/** The command's own memo, made on first use. */
export function memoOf(cmd: SimpleCommand): CommandMemo {
  const m = cmd.memo;
  if (m !== undefined && m.owner === cmd) return m;
  const fresh: CommandMemo = { owner: cmd, help: undefined, analysis: undefined, effects: undefined };
  cmd.memo = fresh;
  return fresh;
}
