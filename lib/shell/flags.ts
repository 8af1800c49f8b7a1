/** @module per-program argument analysis: subcommand, flags in canonical form, positional arguments. */
import type { SimpleCommand } from "./types.ts";
import { memoOf } from "./memo.ts";

/**
 * Long/short equivalences, keyed by program or "program subcommand". A flag maps to the canonical flags it
 * stands for, so `--recursive --force`, `-R -f`, `-rf` and `-fr` all become {-r, -f}.
 */
const ALIASES: Record<string, Record<string, string[]>> = {
  rm: { "-R": ["-r"], "--recursive": ["-r"], "--force": ["-f"], "--dir": ["-d"], "--interactive": ["-i"], "--verbose": ["-v"] },
  rmdir: { "--parents": ["-p"] },
  cp: { "-R": ["-r"], "--recursive": ["-r"], "--force": ["-f"], "-a": ["-a", "-r"], "--archive": ["-a", "-r"], "--target-directory": ["-t"] },
  mv: { "--force": ["-f"], "--target-directory": ["-t"], "--no-clobber": ["-n"] },
  chmod: { "--recursive": ["-R"] },
  chown: { "--recursive": ["-R"] },
  chgrp: { "--recursive": ["-R"] },
  shred: { "--remove": ["-u"], "--zero": ["-z"], "--force": ["-f"] },
  "git push": { "--force": ["-f"], "--delete": ["-d"], "--set-upstream": ["-u"], "--tags": ["--tags"], "--dry-run": ["-n"] },
  "git clean": { "--force": ["-f"], "--dry-run": ["-n"], "--interactive": ["-i"], "--quiet": ["-q"] },
  "git branch": { "--delete": ["-d"], "--force": ["-f"], "-D": ["-d", "-f"], "--move": ["-m"], "-M": ["-m", "-f"] },
  "git checkout": { "--force": ["-f"] },
  "git switch": { "--force": ["-f"], "--discard-changes": ["-f"] },
  "git restore": { "--staged": ["-S"], "--worktree": ["-W"], "--source": ["-s"] },
  "git stash": {},
  "git worktree": { "--force": ["-f"] },
  "git submodule": { "--force": ["-f"] },
  "git reset": {},
  "npm publish": { "--dry-run": ["--dry-run"] },
  "cargo publish": { "--dry-run": ["--dry-run"], "-n": ["--dry-run"] },
  curl: { "--output": ["-o"], "--remote-name": ["-O"], "--data": ["-d"], "--form": ["-F"], "--upload-file": ["-T"] },
  wget: { "--output-document": ["-O"] },
  dd: {},
  rsync: { "--del": ["--delete"], "--delete-during": ["--delete"], "--delete-before": ["--delete"], "--delete-after": ["--delete"], "--delete-delay": ["--delete"], "--delete-excluded": ["--delete"], "--dry-run": ["-n"] },
};

/**
 * Options whose value is the next word (so it is not mistaken for a positional argument or subcommand).
 * Lists, made into sets on first use of each: this module is evaluated at every hook's start, where two
 * dozen sets built up front were most of its cost.
 */
const VALUE_OPT_LISTS: Record<string, readonly string[]> = {
  git: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--exec-path"],
  "git commit": ["-m", "-F", "-C", "-c", "--message", "--file", "--author", "--date"],
  "git checkout": ["-b", "-B", "--orphan", "-U", "--unified", "--inter-hunk-context", "--conflict", "--pathspec-from-file"],
  "git switch": ["-c", "-C", "--create", "--force-create", "--orphan"],
  "git push": ["-o", "--push-option", "--repo", "--receive-pack", "--exec"],
  "git clean": ["-e", "--exclude"],
  "git restore": ["-s", "--source"],
  "git branch": ["-u", "--set-upstream-to"],
  npm: ["--prefix", "-w", "--workspace", "--registry", "--tag", "--otp", "--access"],
  cargo: ["--manifest-path", "-p", "--package", "--registry", "--token", "-Z", "--config"],
  curl: ["-o", "-d", "-X", "-H", "-u", "-A", "-F", "-T", "-e", "-x", "-b", "-c", "-m", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--form", "--upload-file", "--output", "--header", "--request", "--user", "--user-agent", "--proxy", "--cookie", "--max-time", "--connect-timeout", "--retry"],
  wget: ["-O", "-P", "-o", "-a", "-U", "--output-document", "--directory-prefix", "--header", "--post-file", "--post-data", "--body-file"],
  cp: ["-t", "-S", "--target-directory", "--suffix"],
  mv: ["-t", "-S", "--target-directory", "--suffix"],
  head: ["-n", "-c"],
  ssh: ["-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-I", "-m", "-O", "-Q", "-S", "-w"],
  scp: ["-i", "-P", "-o", "-F", "-J", "-l", "-S", "-c"],
  sftp: ["-i", "-P", "-o", "-F", "-J", "-l", "-S", "-c", "-b"],
  rsync: ["-e", "--rsh", "--exclude", "--include", "--exclude-from", "--include-from", "--filter", "-f"],
  truncate: ["-s", "--size", "-r", "--reference"],
  shred: ["-n", "--iterations", "-s", "--size", "--random-source"],
  tail: ["-n", "-c"],
  grep: ["-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--file", "--max-count"],
  docker: ["-H", "--host", "--context", "--config", "-c"],
  kubectl: ["-n", "--namespace", "--context", "--kubeconfig"],
};

const valueOptSets = new Map<string, ReadonlySet<string>>();

function valueOpts(key: string): ReadonlySet<string> | undefined {
  // Only the listed keys are cached: one entry per program name seen would grow without bound in a sidecar.
  const list = Object.hasOwn(VALUE_OPT_LISTS, key) ? VALUE_OPT_LISTS[key] : undefined;
  if (list === undefined) return undefined;
  let set = valueOptSets.get(key);
  if (set === undefined) {
    set = new Set(list);
    valueOptSets.set(key, set);
  }
  return set;
}

/** Programs whose single-dash words are whole options, never clusters of letters. */
const NO_CLUSTER = new Set(["find", "dd", "java", "go", "node", "deno", "bun", "gcc", "clang", "cc", "mkfs", "xcodebuild"]);

/** Programs that take a subcommand as their first operand. */
const HAS_SUB = new Set(["git", "npm", "pnpm", "yarn", "bun", "cargo", "twine", "gem", "poetry", "uv", "pip", "pip3", "docker", "podman", "kubectl", "gh", "hatch", "flit", "mvn", "gradle", "dotnet", "helm", "terraform", "go", "deno", "rustup", "brew", "apt", "apt-get", "dnf", "yum", "pacman", "systemctl", "conda", "jj", "hg", "svn", "lerna", "changeset", "vsce", "ovsx", "swift", "aws", "gcloud", "az", "heroku", "fly", "flyctl", "vercel", "netlify", "wrangler", "shepherd", "pi"]);

/**
 * Long options of git subcommands, for git's unique-prefix rule (`--har` is `--hard`, `--forc` is `--force`).
 * An ambiguous or unknown prefix is left as written, as git would reject it.
 */
const GIT_LONG: Record<string, string[]> = {
  reset: ["--hard", "--soft", "--mixed", "--merge", "--keep", "--quiet", "--patch", "--recurse-submodules", "--no-recurse-submodules", "--no-refresh", "--refresh", "--pathspec-from-file", "--pathspec-file-nul", "--intent-to-add"],
  push: ["--force", "--force-with-lease", "--force-if-includes", "--delete", "--mirror", "--all", "--branches", "--tags", "--dry-run", "--set-upstream", "--follow-tags", "--verbose", "--quiet", "--prune", "--atomic", "--no-verify", "--verify", "--porcelain", "--receive-pack", "--repo", "--signed", "--no-signed", "--push-option", "--ipv4", "--ipv6", "--thin", "--no-thin", "--progress", "--recurse-submodules", "--no-force-with-lease", "--no-atomic", "--exec"],
  clean: ["--force", "--dry-run", "--interactive", "--quiet", "--exclude"],
  checkout: ["--force", "--ours", "--theirs", "--track", "--no-track", "--detach", "--orphan", "--merge", "--conflict", "--patch", "--quiet", "--progress", "--no-progress", "--ignore-other-worktrees", "--overwrite-ignore", "--no-overwrite-ignore", "--recurse-submodules", "--no-recurse-submodules", "--pathspec-from-file", "--pathspec-file-nul", "--guess", "--no-guess", "--overlay", "--no-overlay", "--ignore-skip-worktree-bits"],
  switch: ["--create", "--force-create", "--detach", "--guess", "--no-guess", "--discard-changes", "--force", "--merge", "--conflict", "--quiet", "--progress", "--no-progress", "--track", "--no-track", "--orphan", "--ignore-other-worktrees", "--recurse-submodules", "--no-recurse-submodules"],
  branch: ["--delete", "--force", "--move", "--copy", "--list", "--all", "--remotes", "--set-upstream-to", "--unset-upstream", "--track", "--no-track", "--verbose", "--quiet", "--merged", "--no-merged", "--contains", "--no-contains", "--show-current", "--edit-description", "--create-reflog", "--color", "--no-color", "--column", "--no-column", "--sort", "--points-at", "--format", "--ignore-case", "--abbrev", "--no-abbrev", "--recurse-submodules"],
  restore: ["--staged", "--worktree", "--source", "--patch", "--quiet", "--progress", "--no-progress", "--ours", "--theirs", "--merge", "--conflict", "--ignore-unmerged", "--ignore-skip-worktree-bits", "--recurse-submodules", "--no-recurse-submodules", "--overlay", "--no-overlay", "--pathspec-from-file", "--pathspec-file-nul"],
  rm: ["--force", "--dry-run", "--cached", "--ignore-unmatch", "--quiet", "--sparse", "--pathspec-from-file", "--pathspec-file-nul"],
  stash: ["--patch", "--staged", "--keep-index", "--no-keep-index", "--include-untracked", "--all", "--quiet", "--message", "--index", "--pathspec-from-file"],
  worktree: ["--force", "--detach", "--checkout", "--no-checkout", "--lock", "--reason", "--orphan", "--track", "--no-track", "--guess-remote", "--quiet", "--expire", "--dry-run", "--verbose"],
  submodule: ["--force", "--all", "--quiet", "--recursive", "--init", "--remote", "--cached", "--files"],
  "checkout-index": ["--all", "--force", "--index", "--quiet", "--no-create", "--prefix", "--stage", "--temp", "--stdin", "--ignore-skip-worktree-bits"],
};

/** Long options of other programs that take unique prefixes (getopt_long): `rm --recur --forc`, `rsync --dele`. */
const LONG: Record<string, string[]> = {
  rm: ["--recursive", "--force", "--dir", "--interactive", "--verbose", "--one-file-system", "--no-preserve-root", "--preserve-root"],
  cp: ["--recursive", "--force", "--archive", "--target-directory", "--no-clobber", "--verbose", "--link", "--symbolic-link", "--dereference", "--no-dereference"],
  mv: ["--force", "--target-directory", "--no-clobber", "--verbose", "--interactive"],
  chmod: ["--recursive", "--reference", "--verbose", "--changes", "--silent", "--quiet"],
  chown: ["--recursive", "--reference", "--verbose", "--changes", "--silent", "--quiet", "--dereference", "--no-dereference", "--from"],
  chgrp: ["--recursive", "--reference", "--verbose", "--changes", "--silent", "--quiet", "--dereference", "--no-dereference"],
  shred: ["--remove", "--zero", "--force", "--iterations", "--verbose", "--exact", "--size", "--random-source"],
  rsync: ["--delete", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded", "--del", "--dry-run", "--remove-source-files", "--recursive", "--archive", "--verbose", "--exclude", "--include"],
};

/** The long option a unique prefix stands for (an ambiguous one: the shortest candidate), or the word unchanged. */
function longOption(word: string, known: string[] | undefined): string {
  if (!known || word.length < 3) return word;
  const eq = word.indexOf("=");
  const name = eq > 0 ? word.slice(0, eq) : word;
  if (known.includes(name)) return word;
  let hit: string | undefined;
  // Ambiguous (`--forc`: --force, --force-with-lease): the shortest, so a guess never turns a force into nothing.
  for (const k of known) if (k.startsWith(name) && (hit === undefined || k.length < hit.length)) hit = k;
  return hit === undefined ? word : hit + (eq > 0 ? word.slice(eq) : "");
}

export interface Analysis {
  sub: string | undefined;
  /** Canonical flags present (combined forms split, long forms mapped through the alias table). */
  flags: Set<string>;
  /** Operands after the subcommand, in order. */
  positional: string[];
  /** True per positional when it came from something unresolvable. */
  positionalDynamic: boolean[];
  /** Values of options (`-d @.env`, `--output=x`), for `args` matching. */
  values: string[];
}

/**
 * A table's own entry: a program or subcommand named like an Object.prototype member (`constructor`, `toString`)
 * is not in any table, where a plain index returned the inherited function and the analysis threw.
 */
function own<T>(table: Record<string, T>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

export function aliasKey(program: string, sub: string | undefined): string {
  return sub !== undefined && own(ALIASES, `${program} ${sub}`) !== undefined ? `${program} ${sub}` : program;
}

/** Canonical form(s) of one flag word, for a program (and subcommand). */
export function canonicalFlags(word: string, program: string, sub: string | undefined): string[] {
  const table = own(ALIASES, aliasKey(program, sub)) ?? {};
  const out: string[] = [];
  const add = (f: string) => {
    for (const c of table[f] ?? [f]) out.push(c);
  };
  if (word.startsWith("--") || word === "-" || NO_CLUSTER.has(program) || !/^-[A-Za-z0-9]+$/.test(word)) {
    const eq = word.indexOf("=");
    add(eq > 0 && word.startsWith("--") ? word.slice(0, eq) : word);
  } else {
    for (const ch of word.slice(1)) add(`-${ch}`);
  }
  return out;
}

/** One flag word's canonical forms into `flags`, as canonicalFlags gives them, with no array made per word (analyze runs on every command). */
function addCanonical(flags: Set<string>, word: string, table: Record<string, string[]>, cluster: boolean): void {
  if (cluster && !word.startsWith("--") && word !== "-" && isShortCluster(word)) {
    for (let k = 1; k < word.length; k++) addMapped(flags, `-${word[k]}`, table);
    return;
  }
  const eq = word.indexOf("=");
  addMapped(flags, eq > 0 && word.startsWith("--") ? word.slice(0, eq) : word, table);
}

function addMapped(flags: Set<string>, f: string, table: Record<string, string[]>): void {
  const mapped = table[f];
  if (mapped === undefined) flags.add(f);
  else for (const c of mapped) flags.add(c);
}

/** /^-[A-Za-z0-9]+$/ by character codes. */
function isShortCluster(w: string): boolean {
  if (w.length < 2 || w.charCodeAt(0) !== 45) return false;
  for (let k = 1; k < w.length; k++) {
    const c = w.charCodeAt(k);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** /^-\d+$/ by character codes. */
function isNegativeNumber(w: string): boolean {
  if (w.length < 2 || w.charCodeAt(0) !== 45) return false;
  for (let k = 1; k < w.length; k++) {
    const c = w.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return true;
}


/** Splits a command's words into subcommand, canonical flags, option values and operands (memoized per command). */
export function analyze(cmd: SimpleCommand): Analysis {
  const memo = memoOf(cmd);
  const hit = memo.analysis;
  if (hit) return hit;
  const program = cmd.program;
  const a = cmd.argv;
  let i = 1;
  let sub: string | undefined;
  const globalValues = valueOpts(program);
  const values: string[] = [];
  // `shepherd-linux-x64 trust`: Shepherd's platform-named binaries are the same CLI.
  if (HAS_SUB.has(program) || program.startsWith("shepherd-")) {
    for (; i < a.length; i++) {
      const w = a[i] ?? "";
      if (w.startsWith("-")) {
        if (globalValues?.has(w)) values.push(a[++i] ?? "");
        continue;
      }
      sub = w;
      i++;
      break;
    }
  }
  const key = sub !== undefined ? `${program} ${sub}` : program;
  const optsWithValue = valueOpts(key) ?? (sub === undefined ? globalValues : undefined);
  // The alias table and long-option list of this program (and subcommand), looked up once, not per flag word.
  const table = own(ALIASES, aliasKey(program, sub)) ?? {};
  const cluster = !NO_CLUSTER.has(program);
  const longs = program === "git" ? own(GIT_LONG, sub) : own(LONG, program);
  const flags = new Set<string>();
  const positional: string[] = [];
  const positionalDynamic: boolean[] = [];
  let endOfOptions = false;
  for (; i < a.length; i++) {
    const raw = a[i] ?? "";
    const w = raw.startsWith("--") ? longOption(raw, longs) : raw;
    if (!endOfOptions && w === "--") {
      endOfOptions = true;
      flags.add("--");
      continue;
    }
    if (!endOfOptions && w.startsWith("-") && w !== "-" && !isNegativeNumber(w)) {
      const eq = w.indexOf("=");
      if (w.startsWith("--") && eq > 0) values.push(w.slice(eq + 1));
      if (optsWithValue?.has(w) && eq < 0) {
        addCanonical(flags, w, table, cluster);
        values.push(a[++i] ?? "");
      } else if (optsWithValue && !w.startsWith("--") && w.length > 2 && cluster && isAlnum(w.charCodeAt(1))) {
        // A cluster ends at a value-taking short option, whose value is the rest (`-fbname`: -f, -b name).
        let k = 1;
        for (; k < w.length; k++) {
          const f = `-${w[k]}`;
          addMapped(flags, f, table);
          if (optsWithValue.has(f)) {
            const rest = w.slice(k + 1);
            values.push(rest !== "" ? rest : (a[++i] ?? ""));
            break;
          }
        }
      } else addCanonical(flags, w, table, cluster);
      continue;
    }
    positional.push(w);
    positionalDynamic.push(cmd.dynamic[i] ?? false);
  }
  if (program === "git" && sub === "push") {
    // `+ref` forces that ref just like --force.
    if (positional.slice(1).some((r) => r.startsWith("+"))) flags.add("-f");
  }
  const out: Analysis = { sub, flags, positional, positionalDynamic, values };
  memo.analysis = out;
  return out;
}

/** Destination branches of `git push`; ["HEAD"] when none is named (the current branch, unknown here). */
export function pushBranches(an: Analysis): string[] {
  const refspecs = an.positional.slice(1);
  if (refspecs.length === 0) return ["HEAD"];
  return refspecs.map((r) => {
    // `$(git branch --show-current)`: the current branch.
    if (r.includes("$(")) return "HEAD";
    const s = r.replace(/^\+/, "");
    const dst = s.includes(":") ? s.slice(s.indexOf(":") + 1) : s;
    return dst.replace(/^refs\/heads\//, "");
  });
}
