/** @module valibot schema of the semantic `command` condition of a rule (owned by the shell layer). */
import * as v from "valibot";
import { EFFECT_DATA, EFFECT_KINDS } from "./effects/types.ts";
import { PATH_CLASSES } from "./paths.ts";

const StringOrList = v.union([v.pipe(v.string(), v.minLength(1)), v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1))]);
function isRegex(s: string): boolean {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}
const RegexString = v.pipe(v.string(), v.check(isRegex, "invalid regular expression"));
const FlagList = v.array(v.pipe(v.string(), v.minLength(1), v.regex(/^-/, "a flag starts with '-'")));

/**
 * Matches the simple commands a shell line really runs (after unwrapping sudo, env, sh -c, xargs, find -exec,
 * interpreter one-liners, `X=rm; $X`, `cd DIR &&`). Every given key must hold for one and the same simple command.
 */
export const CommandConditionSchema = v.strictObject({
  /** Program name(s), basename compared: "rm", ["git"]. `*` is a wildcard: "mkfs.*", "*" (any, even a bare redirection). Default "*" when `effect` is given. */
  program: v.optional(StringOrList),
  /**
   * What the command does, derived from its parsed words whatever program does it (lib/shell/effects.ts):
   * delete, truncate, move-away, discard-work, destroy-history, remote-branch, network-send, remote-code,
   * decoded-code, device-write, permissions, spawn-unbounded, publish, secret-read, system-write, power-off, remote-delete, service-stop, process-kill, uninstall,
   * unguarded-agent (an agent started with its hooks or extensions off), local-request (HTTP to a loopback address). With `effect`, `paths`,
   * `exceptPaths` and `branch` are checked against the effect's own paths and branches.
   */
  effect: v.optional(v.union([v.picklist(EFFECT_KINDS), v.pipe(v.array(v.picklist(EFFECT_KINDS)), v.minLength(1))])),
  /**
   * With `effect`: names the effect must reach. process-kill: process names and command lines (`shepherd`,
   * `shepherd serve`), met by a pkill pattern, a killall name, a PowerShell wildcard or a looked-up pid as those
   * programs would; uninstall: package, extension or MCP server names (`@scope/name`, versions and `npm:` dropped);
   * local-request: URL paths (`/v1/hooks`), met by a loopback request whose path holds one.
   */
  target: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1))),
  /** With `effect`: an effect one of whose targets reaches one of these names does not count (unguarded-agent: `pi -ne -e <this extension>`). */
  exceptTarget: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1))),
  /**
   * With `effect`: true counts only effects whose reach the line does not show (a kill pattern, port or pid list
   * computed at run time, an agent given a settings file or run as another user); false only those whose reach it shows.
   */
  unknownTarget: v.optional(v.boolean()),
  /** With `effect`: the effect reaches whole trees (rm -r, rsync --delete, chmod -R). */
  recursive: v.optional(v.boolean()),
  /** With `effect: "network-send"`: what is sent (the environment, a secret, a file). */
  data: v.optional(v.union([v.picklist(EFFECT_DATA), v.array(v.picklist(EFFECT_DATA))])),
  /** First operand after the program's global options, e.g. "reset" for git (`git -C dir reset` too). */
  subcommand: v.optional(StringOrList),
  /** Every one of these flags must be present, in any order or combined form (-rf = -r -f = --recursive --force). */
  flags: v.optional(FlagList),
  /** At least one of these flags must be present. */
  anyFlags: v.optional(FlagList),
  /** None of these flags may be present ("--" stands for the end-of-options marker). */
  notFlags: v.optional(FlagList),
  /** Regex that at least one argument must match: operands, option values (`-d @.env`), input redirection targets (`< .env`). */
  args: v.optional(RegexString),
  /** Regex that no argument may match (same arguments as `args`), e.g. to spare `.env.example`. */
  notArgs: v.optional(RegexString),
  /**
   * Where at least one operand, resolved against the cwd (with ~, $HOME, `..`, `cd` followed), must point.
   * home_or_root: /, the home directory, a system directory (/usr, /etc, ...), or a bare glob in one (`/*`).
   * project_root: the project root itself, a bare glob in it (`./*`), or one of its ancestors.
   * shepherd_state: Shepherd's rule files, settings (trust list), plugins, audit, state and binary, and the
   * agents' hook settings (`.claude/settings.json`, ...), or a folder holding them.
   * startup_files: what runs or is trusted on its own later (lib/shell/startup-files.ts): `~/.bashrc`, ssh keys,
   * autostart, the folders agents load extensions from.
   * unknown: the operand starts with something unresolvable (`$DIR`, `"$X"/*`, `$(cat list)`): it may be anything.
   * Operands that cannot be resolved ($UNKNOWN) match only "any" and "unknown"; `~user` counts as home_or_root
   * and outside_project.
   */
  paths: v.optional(v.picklist(PATH_CLASSES)),
  /**
   * Where at least one path the command changes must point (same classes as `paths`): output redirections,
   * tee, sed -i, mv, rm, cp/install/rsync destinations, ln, chmod/chown, truncate, dd of=, curl -o,
   * git checkout/restore of paths. Reading (cat, grep, cp's sources) is not a change.
   */
  writes: v.optional(v.picklist(PATH_CLASSES)),
  /**
   * Where a path named in the command's arguments or heredoc must point (same classes): meant for
   * interpreters (`python3 -c "open('~/.x', 'w')"`), whose code names paths the shell never sees as operands.
   */
  mentions: v.optional(v.picklist(PATH_CLASSES)),
  /**
   * Path prefixes (absolute or ~/...) whose contents never count for `paths`, e.g. ["/tmp", "/var/tmp"]; an
   * entry ending in "/" spares the directory itself too ("~/.cache/"). With `effect` and no `paths`, an effect
   * all of whose paths are spared does not count.
   */
  exceptPaths: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  /**
   * Regex on the destination branches of `git push` (`+main`, `HEAD:main`, `refs/heads/main` all give "main");
   * a push naming no refspec has the branch "HEAD" (the current branch, which a parser cannot know).
   */
  branch: v.optional(RegexString),
  /** The command's output feeds one of these programs (later in its pipeline, or `sh -c "$(curl ...)"`). */
  pipeTo: v.optional(StringOrList),
  /** Regex on the target of an output redirection (`>`, `>>`, `&>`), resolved like a path. */
  writesTo: v.optional(RegexString),
  /**
   * true: holds only for a line over the shell analysis caps (length, words, commands, nesting, wrappers:
   * lib/shell/limits.ts), which is judged too complex to analyse. With `"program": "*"` and no other key it
   * holds for every such line, even one of which no command could be read; otherwise the other keys are
   * checked against the commands read before the cap.
   */
  tooComplex: v.optional(v.literal(true)),
});
export type CommandCondition = v.InferOutput<typeof CommandConditionSchema>;
