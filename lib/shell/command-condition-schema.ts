/** @module valibot schema of the semantic `command` condition of a rule (owned by the shell layer). */
import * as v from "valibot";

const StringOrList = v.union([v.pipe(v.string(), v.minLength(1)), v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1))]);

/**
 * Matches the simple commands a shell line really runs (after unwrapping sudo, env, sh -c, ...).
 * Every given key must hold for one and the same simple command.
 */
export const CommandConditionSchema = v.strictObject({
  /** Program name(s), basename compared: "rm", ["git"]. */
  program: StringOrList,
  /** First non-flag argument(s), e.g. "reset" for git. */
  subcommand: v.optional(StringOrList),
  /** Every one of these flags must be present, in any order or combined form (-rf = -r -f). */
  flags: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  /** At least one of these flags must be present. */
  anyFlags: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  /** None of these flags may be present. */
  notFlags: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  /** Regex that at least one positional argument must match. */
  args: v.optional(v.string()),
  /** Where a path argument must point for the condition to hold. */
  paths: v.optional(v.picklist(["outside_project", "inside_project", "home_or_root", "any"])),
});
export type CommandCondition = v.InferOutput<typeof CommandConditionSchema>;
