/**
 * @module which paths a simple command changes (writes, removes, renames, relinks, re-permissions), and which
 * paths the code given to an interpreter names: the `writes` and `mentions` keys of a `command` condition.
 */
import { analyze } from "./flags.ts";
import type { SimpleCommand } from "./types.ts";

export interface WriteTarget {
  /** As written (not yet resolved against the command's cwd). */
  path: string;
  /** The change reaches the whole tree under the path, or replaces the path itself (rm -r, mv, ln, chmod). */
  deep: boolean;
}

function base(p: string): string {
  const t = p.replace(/\/+$/, "");
  return t.slice(t.lastIndexOf("/") + 1);
}

function join(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, "")}/${name}`;
}

const FILE_WRITERS = new Set(["tee", "sponge", "truncate", "touch", "mkfifo", "mknod", "mkdir", "shred", "unlink", "rmdir", "patch", "vi", "vim", "nvim", "nano", "emacs", "ed", "ex", "pico", "micro"]);
const META_CHANGERS = new Set(["chmod", "chown", "chgrp", "chattr", "setfacl", "xattr", "chflags"]);
const GIT_WRITERS = new Set(["checkout", "restore", "rm", "mv", "checkout-index"]);
/** Compressors that replace a file with its archive (`gzip f` leaves `f.gz`), unless told to keep it or write stdout. */
const COMPRESSORS = new Set(["gzip", "bzip2", "xz", "lzma", "lzip", "compress", "pigz", "pbzip2", "lz4", "brotli"]);
/**
 * A git pathspec as the path it names, under `base` (`git -C dir`, `checkout-index --prefix`): magic prefixes dropped
 * (`:/x`, `:(top)x`, `:(glob)x`), and a wildcard matching across folders and dot names as git's does (`*.json` is
 * `**.json`, so it meets `.claude/settings.json`).
 */
function pathspecTarget(spec: string, base: string): WriteTarget {
  const bare = spec.replace(/^:(?:\([^)]*\)|\/)?/, "") || ".";
  const path = /[*?[]/.test(bare) ? bare.replace(/\*+/g, "**") : bare;
  return { path: base === "" || path.startsWith("/") ? path : join(base, path), deep: true };
}

/** Value of `-x V`, `-xV`, `--long V` or `--long=V` anywhere in argv. */
function optionValues(argv: string[], short: string[], long: string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (w === "--") break;
    for (const l of long) {
      if (w === l && i + 1 < argv.length) out.push(argv[i + 1] ?? "");
      else if (w.startsWith(`${l}=`)) out.push(w.slice(l.length + 1));
    }
    for (const s of short) {
      if (w === s && i + 1 < argv.length) out.push(argv[i + 1] ?? "");
      else if (w.startsWith(s) && w.length > s.length && !w.startsWith("--")) out.push(w.slice(s.length));
    }
  }
  return out;
}

/** Copy-like commands (cp, install, rsync, ln): the destination, and each source's name inside it. */
function copyTargets(positional: string[], targetDir: string | undefined, deep: boolean): WriteTarget[] {
  const out: WriteTarget[] = [];
  const dest = targetDir ?? (positional.length >= 2 ? positional[positional.length - 1] : undefined);
  if (dest === undefined) return out;
  const sources = targetDir !== undefined ? positional : positional.slice(0, -1);
  out.push({ path: dest, deep });
  for (const s of sources) out.push({ path: join(dest, base(s)), deep });
  return out;
}

/** Output redirections (`>`, `>>`, `>|`, `&>`, `<>`), not fd duplications (`2>&1`). */
function redirectTargets(cmd: SimpleCommand): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (const r of cmd.redirects) {
    if (!r.op.includes(">") || r.op === "<<<") continue;
    if (r.op.includes("&") && r.op !== "&>" && r.op !== "&>>" && /^(?:\d+|-)$/.test(r.target)) continue;
    out.push({ path: r.target, deep: false });
  }
  return out;
}

/** Every path the command changes, as written. Reading (cat, cp's sources, grep) is not a change. */
export function writeTargets(cmd: SimpleCommand): WriteTarget[] {
  const out = redirectTargets(cmd);
  const p = cmd.program;
  const argv = cmd.argv;
  const an = analyze(cmd);
  const pos = an.positional;
  const all = (deep: boolean) => {
    for (const w of pos) out.push({ path: w, deep });
  };
  if (FILE_WRITERS.has(p)) all(false);
  else if (META_CHANGERS.has(p)) all(true);
  // `mount --bind /tmp/x ~/.claude`: what the mount point held is hidden behind other files.
  else if ((p === "mount" && (argv.includes("--bind") || argv.includes("--rbind") || argv.some((w, k) => argv[k - 1] === "-o" && /(?:^|,)r?bind(?:,|$)/.test(w)))) || p === "bindfs") {
    const last = pos[pos.length - 1];
    if (pos.length >= 2 && last !== undefined) out.push({ path: last, deep: true });
  }
  else if (p === "rm") all(an.flags.has("-r"));
  else if (p === "mv") {
    all(true);
    const t = optionValues(argv, ["-t"], ["--target-directory"])[0];
    out.push(...copyTargets(pos, t, true));
  } else if (p === "ln" || ((p === "cp") && argv.some((w) => /^-[a-zA-Z]*[ls]/.test(w) || w === "--link" || w === "--symbolic-link"))) {
    // A link to a protected file is a second way to write it: every operand counts.
    all(true);
    const t = optionValues(argv, ["-t"], ["--target-directory"])[0];
    if (pos.length === 1 && pos[0] !== undefined) out.push({ path: base(pos[0]), deep: true });
    out.push(...copyTargets(pos, t, true));
  } else if (p === "cp" || p === "install" || p === "ditto") {
    if (p === "install" && argv.includes("-d")) all(false);
    const t = optionValues(argv, ["-t"], ["--target-directory"])[0];
    out.push(...copyTargets(pos, t, an.flags.has("-r") || an.flags.has("-a")));
  } else if (p === "rsync") {
    if (argv.includes("--remove-source-files")) all(true);
    out.push(...copyTargets(pos, undefined, true));
  } else if (p === "dd") {
    for (const w of argv.slice(1)) if (w.startsWith("of=")) out.push({ path: w.slice(3), deep: false });
  } else if (p === "sed" || p === "perl" || p === "ruby") {
    const cluster = p === "sed" ? /^-[nrEsuz]*i/ : /^-[pnlaws0-9]*i/;
    const inPlace = argv.slice(1).some((w) => cluster.test(w) || w.startsWith("--in-place"));
    if (inPlace) all(false);
  } else if (p === "awk" || p === "gawk") {
    if (argv.includes("--inplace") || optionValues(argv, ["-i"], ["--include"]).includes("inplace")) all(false);
  } else if (p === "curl") {
    for (const v of optionValues(argv, ["-o"], ["--output"])) out.push({ path: v, deep: false });
    if (argv.some((w) => /^-[a-zA-Z]*O/.test(w) || w === "--remote-name")) for (const w of pos) out.push({ path: base(w.replace(/[?#].*$/, "")), deep: false });
  } else if (p === "wget") {
    for (const v of optionValues(argv, ["-O"], ["--output-document"])) out.push({ path: v, deep: false });
    for (const v of optionValues(argv, ["-P"], ["--directory-prefix"])) out.push({ path: v, deep: true });
  } else if (p === "tar" || p === "bsdtar") {
    const extract = argv.slice(1).some((w) => w === "--extract" || w === "--get" || /^-?[a-zA-Z]*x/.test(w));
    if (extract) for (const v of optionValues(argv, ["-C"], ["--directory"])) out.push({ path: v, deep: true });
  } else if (p === "unzip") {
    for (const v of optionValues(argv, ["-d"], [])) out.push({ path: v, deep: true });
  } else if (p === "git" && an.sub !== undefined && GIT_WRITERS.has(an.sub)) {
    // `git restore --staged x` (any unique prefix: `--stag`) and `git rm --cached x` change the index only, not the file.
    const staged = argv.some((w) => /^--st(?:a(?:g(?:ed?)?)?)?$/.test(w) || /^-[a-zA-Z]*S[a-zA-Z]*$/.test(w));
    const worktree = argv.some((w) => /^--w(?:o(?:r(?:k(?:t(?:r(?:ee?)?)?)?)?)?)?$/.test(w) || /^-[a-zA-Z]*W[a-zA-Z]*$/.test(w));
    const indexOnly = (an.sub === "restore" && staged && !worktree) || (an.sub === "rm" && argv.some((w) => /^--c(?:a(?:c(?:h(?:ed?)?)?)?)?$/.test(w)));
    // Paths are the work tree's: under `git -C dir`, and for checkout-index under its `--prefix`.
    const c = argv.indexOf("-C");
    const prefix = optionValues(argv, [], ["--prefix"])[0];
    const base = an.sub === "checkout-index" && prefix !== undefined ? prefix : c > 0 && c < argv.indexOf(an.sub) ? (argv[c + 1] ?? "") : "";
    if (!indexOnly) for (const w of pos) out.push(pathspecTarget(w, base));
    // `git checkout-index -a -f`: every file of the index, under the prefix when one is given.
    if (an.sub === "checkout-index" && prefix !== undefined && argv.some((w) => w === "-a" || w === "--all" || /^-[a-zA-Z]*a/.test(w))) out.push({ path: prefix, deep: true });
  } else if (p === "rename-item" || p === "ren" || p === "rni") {
    all(true);
  } else if (p === "sort" || p === "shuf") {
    for (const v of optionValues(argv, ["-o"], ["--output"])) out.push({ path: v, deep: false });
  } else if (COMPRESSORS.has(p) || p === "zstd") {
    const keeps = argv.some((w) => w === "-k" || w === "--keep" || w === "-c" || w === "--stdout" || w === "--to-stdout" || /^-[a-zA-Z0-9]*[kc]/.test(w) || w === "-l" || w === "--list" || w === "-t" || w === "--test");
    if (p === "zstd" ? argv.includes("--rm") && !keeps : !keeps) all(true);
  } else if (p === "yq" || p === "dasel" || p === "json") {
    // `yq -i EXPR f`, `dasel put -f f`, `json -I -f f`: edited in place.
    if (argv.some((w) => w === "-i" || w === "--inplace" || w === "-I" || w === "--in-place" || /^-[a-zA-Z]*i$/.test(w))) all(false);
    for (const v of optionValues(argv, ["-f"], ["--file"])) if (p !== "yq") out.push({ path: v, deep: false });
  } else if (p === "sd") {
    // `sd FIND REPLACE FILE...` edits its files in place unless it only previews.
    if (!argv.some((w) => w === "-p" || w === "--preview")) for (const w of pos.slice(2)) out.push({ path: w, deep: false });
  }
  // `find DIR -name x -delete` / `-exec rm {}` arrive as `rm DIR/{}`: some entries of DIR, unknown which.
  for (const t of out) {
    if (t.path.endsWith("/{}")) {
      t.path = t.path.slice(0, -3) || "/";
      t.deep = true;
    }
  }
  return out;
}

/** Expressions that stand for the home directory in interpreter code, folded to `~`. */
const HOME_EXPRS =
  /\$\{HOME\}|\$HOME\b|os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.environ\.get\(\s*['"]HOME['"]\s*\)|os\.getenv\(\s*['"]HOME['"]\s*\)|(?:require\(\s*['"](?:node:)?os['"]\s*\)\.|os\.)homedir\(\)|process\.env\.HOME|process\.env\[\s*['"]HOME['"]\s*\]|\$ENV\{\s*HOME\s*\}|ENV\[\s*['"]HOME['"]\s*\]|Dir\.home|Deno\.env\.get\(\s*['"]HOME['"]\s*\)|Deno\.homeDir\(\)/g;

const SPLIT = /[\s'"`()[\]{},;+=<>|&\\*]+/;

/** Bounds the work on a long one-liner: this many path-like words are looked at. */
const MAX_WORDS = 4096;

/**
 * Paths named in the code an interpreter runs (its arguments, heredoc and here-string bodies): each
 * path-like word as written, plus, for a folder name such as `.claude` that appears beside a file name such
 * as `settings.json`, the pair joined (`path.join(home, ".claude", "settings.json")`). Heuristic by nature:
 * code that builds the name from pieces (`".cl" + "aude"`) is not seen.
 */
export function codeMentions(cmd: SimpleCommand): string[] {
  const texts = cmd.argv.slice(1);
  for (const r of cmd.redirects) {
    if (r.body !== undefined) texts.push(r.body);
    else if (r.op === "<<<") texts.push(r.target);
  }
  const words: string[] = [];
  for (const text of texts) {
    for (const w of text.replace(HOME_EXPRS, "~").split(SPLIT)) {
      if (w === "" || w === "~" || w.startsWith("-")) continue;
      words.push(w);
      if (words.length >= MAX_WORDS) break;
    }
    if (words.length >= MAX_WORDS) break;
  }
  const out = [...words];
  const segments = new Set<string>();
  for (const w of words) for (const s of w.split("/")) if (s !== "" && s !== "." && s !== "..") segments.add(s);
  const folders = [...segments].filter((s) => s.startsWith(".") && s.length > 1 && s.length < 16).slice(0, 8);
  for (const f of folders) for (const s of segments) if (s !== f) out.push(`/${f}/${s}`);
  return out;
}
