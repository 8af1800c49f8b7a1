/** @module git effects: uncommitted work discarded, history destroyed, remote branches deleted or mirrored. */
import type { SimpleCommand } from "../types.ts";
import { pushBranches, type Analysis } from "../flags.ts";
import { effect, type Effect } from "./types.ts";
import { isSecretPath } from "./secrets.ts";

/** `gh repo delete`, `gh api -X DELETE .../git/refs/heads/main`: remote branches or whole repositories deleted. */
export function ghEffects(cmd: SimpleCommand, an: Analysis): Effect[] {
  const a = cmd.argv;
  if (an.sub === "repo" && an.positional[0] === "delete") return [effect("remote-branch", `deletes the repository ${an.positional[1] ?? ""}`, [], { branches: ["*"] })];
  if (an.sub !== "api") return [];
  const k = a.findIndex((w) => w === "-X" || w === "--method");
  const method = k > 0 ? (a[k + 1] ?? "") : (a.find((w) => w.startsWith("--method="))?.slice(9) ?? "");
  if (method.toUpperCase() !== "DELETE") return [];
  const path = a.find((w) => /^\/?repos\//.test(w)) ?? "";
  const ref = /\/git\/refs\/heads\/(.+)$/.exec(path);
  if (ref?.[1]) return [effect("remote-branch", `deletes remote branch ${ref[1]}`, [], { branches: [ref[1]] })];
  return /^\/?repos\/[^/]+\/[^/]+\/?$/.test(path) ? [effect("remote-branch", `deletes the repository ${path}`, [], { branches: ["*"] })] : [];
}

/**
 * The work tree a git command acts on, as a path word: its `--work-tree` (or `-c core.worktree=`), relative to its
 * `-C dir`, else that dir, else the cwd ("."). `--git-dir` alone names the repository, not the files: git then takes
 * the current directory as the work tree (`git --git-dir=/tmp/x/.git reset --hard` overwrites the files here).
 */
function repoDir(cmd: SimpleCommand): [string, boolean] {
  let dir = ".";
  let dyn = false;
  let tree: [string, boolean] | undefined;
  for (let i = 1; i < cmd.argv.length; i++) {
    const w = cmd.argv[i] ?? "";
    if (!w.startsWith("-")) break;
    const valued = w === "-C" || w === "--work-tree" || w === "--git-dir" || w === "-c";
    // `git -C/tmp/x ..`: the directory attached to its flag.
    const glued = !valued && w.startsWith("-C") && w.length > 2;
    const v = valued ? (cmd.argv[i + 1] ?? ".") : glued ? w.slice(2) : w.slice(w.indexOf("=") + 1);
    const vDyn = valued ? (cmd.dynamic[i + 1] ?? false) : (cmd.dynamic[i] ?? false);
    if (w === "-C" || glued) {
      dir = dir !== "." && !v.startsWith("/") ? `${dir}/${v}` : v;
      dyn = dyn || vDyn;
    } else if (w === "--work-tree" || w.startsWith("--work-tree=")) tree = [v, vDyn];
    else if (w === "-c" && /^core\.worktree=/i.test(v)) tree = tree ?? [v.slice(v.indexOf("=") + 1), vDyn];
    if (valued) i++;
  }
  if (tree === undefined) return [dir, dyn];
  return [joinDir(dir, tree[0]), dyn || tree[1]];
}

/** A path operand of a git command run in `dir` (its `-C`), as a path word the rules resolve against the cwd. */
function joinDir(dir: string, w: string): string {
  return dir === "." || w.startsWith("/") || w.startsWith("~") ? w : `${dir}/${w}`;
}

/** An expiry that still keeps recent entries: `90.days.ago`, `2.weeks`, `never`. */
const GRACE = /^(?:never|false|\d+[. ]?(?:days?|weeks?|months?|years?)(?:[. ]ago)?)$/i;

/** The expiry times a `reflog expire` is given, by option or by `-c gc.reflogExpire*=`. */
function expireValues(cmd: SimpleCommand): string[] {
  const out: string[] = [];
  cmd.argv.forEach((w, k) => {
    const opt = /^--expire(?:-unreachable)?(?:=(.*))?$/.exec(w);
    if (opt) out.push(opt[1] ?? cmd.argv[k + 1] ?? "");
    const conf = /^gc\.reflogexpire(?:unreachable)?=(.*)$/i.exec(w);
    if (conf && cmd.argv[k - 1] === "-c") out.push(conf[1] ?? "");
    if (cmd.dynamic[k] && (opt || conf)) out.push("");
  });
  return out;
}

const PATHSPEC_ALL = /^(?:\.|\*|:\/|\.\/|:\/\*|\.\/\*|:)$/;

export function gitEffects(cmd: SimpleCommand, an: Analysis): Effect[] {
  const f = an.flags;
  const [dir, dirDyn] = repoDir(cmd);
  const discard = (what: string) => [effect("discard-work", what, [dir], { dynamic: [dirDyn] })];
  const history = (what: string) => [effect("destroy-history", what, [dir], { dynamic: [dirDyn] })];
  const pos = an.positional;
  switch (an.sub) {
    case "reset":
      return f.has("--hard") || f.has("--merge") ? discard("discards every uncommitted change (reset --hard)") : [];
    case "checkout": {
      if (f.has("-b") || f.has("-B") || f.has("--orphan")) return f.has("-f") ? discard("overwrites uncommitted changes (checkout -f)") : [];
      if (f.has("-f")) return discard("overwrites uncommitted changes (checkout -f)");
      // `git checkout HEAD --pathspec-from-file=paths.txt`: the paths are in a file; their edits are overwritten.
      if (f.has("--pathspec-from-file")) return discard("overwrites uncommitted changes to the paths listed in a file");
      if (f.has("--")) {
        const after = cmd.argv.slice(cmd.argv.indexOf("--") + 1);
        return after.length > 0 ? discard(`overwrites uncommitted changes to ${after.join(" ")}`) : [];
      }
      if (pos.some((w) => PATHSPEC_ALL.test(w))) return discard("discards every unstaged change (checkout .)");
      // `git checkout <commit> <paths>`: past the first operand everything is a path whose edits are overwritten.
      if (pos.length >= 2) return discard(`overwrites uncommitted changes to ${pos.slice(1).join(" ")} with ${pos[0]}'s`);
      // `git checkout ./src`: a path, not a branch.
      if (pos.length === 1 && /^\.\.?\/|\/$/.test(pos[0] ?? "")) return discard(`discards unstaged changes under ${pos[0]}`);
      return [];
    }
    case "restore":
      // `git restore -p`: asks before each hunk it would throw away.
      if (f.has("-p") || f.has("--patch")) return [];
      return !f.has("-S") || f.has("-W") ? discard(`throws away uncommitted edits to ${pos.join(" ") || "the given paths"}`) : [];
    case "switch":
      return f.has("-f") ? discard("throws away uncommitted changes (switch --discard-changes)") : [];
    case "clean":
      return f.has("-f") && !f.has("-n") && !f.has("-i") ? discard(`deletes untracked files${f.has("-d") ? " and directories" : ""}${f.has("-x") ? ", ignored ones included" : ""}`) : [];
    case "stash":
      return pos[0] === "drop" || pos[0] === "clear" ? discard(`destroys stashed work (stash ${pos[0]})`) : [];
    case "read-tree":
      return (f.has("--reset") || f.has("-m")) && f.has("-u") ? discard("overwrites the work tree with a tree (read-tree -u --reset)") : [];
    case "checkout-index":
      return (f.has("-a") || f.has("--all")) && (f.has("-f") || f.has("--force")) ? discard("overwrites every tracked file with the index") : [];
    case "rm": {
      if (f.has("--cached") || f.has("-n") || f.has("--dry-run")) return [];
      const out = [effect("delete", `deletes tracked ${f.has("-r") ? "trees" : "files"} ${pos.join(" ")}`, pos, { dynamic: an.positionalDynamic, recursive: f.has("-r") })];
      if (f.has("-f") || f.has("--force")) out.push(...discard("deletes files even with uncommitted changes (rm -f)"));
      return out;
    }
    case "branch":
      if (f.has("-d") && f.has("-f")) return history(`force-deletes branch ${pos.join(" ")} with its unmerged commits`);
      if (f.has("-m") && f.has("-f")) return history(`force-renames a branch over ${pos[pos.length - 1] ?? "an existing one"}, whose commits are then unreferenced`);
      return f.has("-f") && pos.length >= 1 && !f.has("-c") ? history(`resets branch ${pos[0]} to ${pos[1] ?? "HEAD"}, dropping its commits`) : [];
    case "worktree":
      // The work lost is the removed worktree's, wherever it lives: a scratch one under /tmp is spared like a scratch clone.
      if (pos[0] !== "remove" || !f.has("-f")) return [];
      return [effect("discard-work", `removes worktree ${pos[1] ?? ""} with its uncommitted changes`, [pos[1] === undefined ? dir : joinDir(dir, pos[1])], { dynamic: [dirDyn || (an.positionalDynamic[1] ?? false)] })];
    case "submodule":
      if (pos[0] === "deinit" && f.has("-f")) return discard("removes submodule work trees with their uncommitted changes");
      // `submodule update --force` checks each submodule out again over its local changes.
      return pos[0] === "update" && f.has("-f") ? discard("checks the submodules out over their uncommitted changes (submodule update --force)") : [];
    case "add":
      return f.has("-f") || f.has("--force") ? (pos.some((w) => isSecretPath(w)) ? [effect("secret-read", `stages ignored secrets for commit: ${pos.filter((w) => isSecretPath(w)).join(" ")}`, pos.filter((w) => isSecretPath(w)))] : []) : [];
    case "reflog":
      if (f.has("-n") || f.has("--dry-run")) return [];
      if (pos[0] === "delete") return history("drops reflog entries (reflog delete), the way back to lost commits");
      // `reflog expire --all` alone, or `--expire=90.days.ago`, keeps a grace period: only entries past it go.
      return pos[0] === "expire" && expireValues(cmd).some((v) => !GRACE.test(v)) ? history("drops reflog entries now (reflog expire), the way back to lost commits") : [];
    case "gc":
    case "prune": {
      if (f.has("-n") || f.has("--dry-run")) return [];
      const now = cmd.argv.some((w) => /^--(?:prune|expire)=(?:now|all)$/.test(w) || /^gc\.(?:pruneexpire|reflogexpire\w*)=(?:now|all|never)$/i.test(w)) || cmd.argv.some((w, k) => w === "--expire" && cmd.argv[k + 1] === "now");
      return now ? history("deletes unreachable commits now (no grace period)") : [];
    }
    case "update-ref":
      if (f.has("-d")) return history(`deletes ref ${pos.join(" ")}`);
      // `git update-ref refs/heads/main HEAD~10`: the branch is moved wherever, its later commits dropped.
      return /^refs\/heads\/(?:main|master|production|release\/.+)$/.test(pos[0] ?? "") && pos.length >= 2 ? history(`moves ${pos[0]} to ${pos[1]}`) : [];
    case "filter-branch":
    case "filter-repo":
      // `git filter-repo --analyze` only writes a report under .git/filter-repo/analysis.
      if (an.sub === "filter-repo" && (f.has("--analyze") || f.has("--dry-run"))) return [];
      return history(`rewrites the whole history (${an.sub})`);
    case "push": {
      if (f.has("-n") || f.has("--dry-run")) return [];
      // --prune removes remote branches with no local counterpart: among all of them with no refspec, --all or a wildcard.
      if (f.has("--prune") && (pos.length <= 1 || f.has("--all") || f.has("--branches") || pos.slice(1).some((r) => r.includes("*")))) return [effect("remote-branch", "prunes every remote branch missing locally", [], { branches: ["*"] })];
      if (f.has("--mirror")) return [effect("remote-branch", "mirrors the local refs: every remote branch missing here is deleted", [], { branches: ["*"] })];
      const deleted = f.has("-d")
        ? pos.slice(1).map((r) => r.replace(/^refs\/heads\//, "").replace(/^:/, ""))
        : pos.slice(1).filter((r) => r.startsWith(":") && r.length > 1).map((r) => r.slice(1).replace(/^refs\/heads\//, ""));
      const out: Effect[] = [];
      if (deleted.length > 0) out.push(effect("remote-branch", `deletes remote branch ${deleted.join(" ")}`, [], { branches: deleted }));
      const forced = f.has("-f") || f.has("--force-with-lease") || f.has("--force-if-includes");
      if (forced || pos.slice(1).some((r) => r.startsWith("+"))) {
        const branches = forced ? pushBranches(an) : pos.slice(1).filter((r) => r.startsWith("+")).map((r) => (r.includes(":") ? r.slice(r.indexOf(":") + 1) : r.slice(1)).replace(/^refs\/heads\//, ""));
        out.push(effect("remote-branch", `rewrites remote branch ${branches.join(" ")} (force push)`, [], { branches }));
      }
      return out;
    }
    default:
      return [];
  }
}
