/**
 * @module what each stage of a PowerShell or cmd.exe pipeline feeds (`pipeTo`), in time linear in the stages: the
 * next stage's programs first, then every later distinct program, at most `maxPipeTo` of them.
 */
import type { SimpleCommand } from "./types.ts";
import { limitNote, SHELL_LIMITS } from "./limits.ts";

/**
 * Sets `pipeTo` on every command of every stage but the last. Walked from the end: a stage whose next stage's
 * programs already lead the list shares that list (`a | a | ... | a` is one array), otherwise it gets a new one of
 * at most `maxPipeTo` names; so a pipeline of n stages costs O(n * maxPipeTo), never n². Past the cap the line is
 * noted too complex (through `note`), since a program far down the pipe (`iwr x | ... | iex`) would be lost.
 * Returns how many lists were made, for tests that count work.
 */
export function feedStages(stages: readonly (readonly SimpleCommand[])[], note: (why: string) => void): number {
  const max = SHELL_LIMITS.maxPipeTo;
  let later: string[] = [];
  let made = 0;
  let noted = false;
  for (let k = stages.length - 1; k >= 0; k--) {
    const cmds = stages[k] ?? [];
    if (later.length > 0) for (const c of cmds) c.pipeTo = c.pipeTo.length === 0 ? later : mergeFront(c.pipeTo, later, max);
    const front: string[] = [];
    for (const c of cmds) if (!front.includes(c.program) && front.length < max) front.push(c.program);
    if (front.every((p, i) => later[i] === p)) continue;
    const rest = later.filter((p) => !front.includes(p));
    if (front.length + rest.length > max && !noted) {
      note(limitNote(`a pipeline feeds more than ${max} distinct programs`));
      noted = true;
    }
    later = [...front, ...rest].slice(0, max);
    made++;
  }
  return made;
}

/** `own` (what the command already feeds) followed by what `later` adds, distinct and capped. */
function mergeFront(own: readonly string[], later: readonly string[], max: number): string[] {
  const out = [...own];
  for (const p of later) {
    if (out.length >= max) break;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}
