/**
 * @module The sub-agent marker: a pi started by a process that pi itself started is a sub-agent.
 *
 * The first Shepherd extension in a pi process records whether the marker was already set (then
 * this pi is a sub-agent), and sets it so every child (bash, a nested `pi`) inherits it.
 */

export const SUBAGENT_ENV = "SHEPHERD_SUBAGENT";

// Kept on globalThis: pi re-imports extensions on /reload and /new, and by then this process has
// set the marker itself, which must not turn the parent agent into a sub-agent.
const KEY = Symbol.for("shepherd.pi.subagentAtStart");

/** Whether this pi process was started with the marker set. Call before `markChildren`. */
export function startedAsSubagent(env: Record<string, string | undefined> = process.env): boolean {
  const recorded: unknown = Reflect.get(globalThis, KEY);
  if (typeof recorded === "boolean") return recorded;
  const value = isSet(env[SUBAGENT_ENV]);
  Reflect.set(globalThis, KEY, value);
  return value;
}

/** Sets the marker in this process's environment, which child processes inherit. */
export function markChildren(env: Record<string, string | undefined> = process.env): void {
  startedAsSubagent(env);
  env[SUBAGENT_ENV] = "1";
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}
