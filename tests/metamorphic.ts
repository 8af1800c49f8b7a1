/** @module metamorphic transformations of bash commands that keep what the command does (wrappers, name and option spellings, line structure, path spellings), and a runner that reports which variants change the pack's verdict (shared by bench/metamorphic.ts and its test). */
import type { RuleSet } from "../lib/engine/merge.ts";
import { parseShell } from "../lib/shell/index.ts";
import { type Corpus, type CorpusCase, runCorpus } from "./safety-corpus-eval.ts";

export interface Transform {
  name: string;
  /** false where the variant runs with other rights or another home (root), so a look-alike's label need not hold */
  lookAlikes?: boolean;
  /** the variant, or undefined where the transformation is not valid for this command */
  apply: (cmd: string) => string | undefined;
}

/** Words that are not programs: a wrapper or a spelling of the name would change what they mean. */
const NOT_PROGRAMS = new Set([
  "cd", "export", "source", ".", "alias", "unalias", "set", "unset", "shopt", "local", "declare", "typeset", "readonly", "exec", "eval", "exit", "return",
  "function", "if", "then", "else", "fi", "for", "while", "until", "do", "done", "case", "esac", "select", "time", "coproc", "builtin", "command",
  "trap", "ulimit", "umask", "wait", "jobs", "fg", "bg", "disown", "kill", "history", "fc", "hash", "type", "read", "mapfile", "let", "shift", "getopts", "pushd", "popd", "dirs",
  "true", "false", ":", "[", "[[", "{", "(", "!", "echo", "printf", "test",
]);

const PROGRAM = /^[a-z][a-z0-9_+-]*$/;

/** One simple command with no operator, redirection, substitution or quote-sensitive character a wrapper could disturb. */
function simple(cmd: string): { name: string; rest: string } | undefined {
  if (/[;&|<>()`\n\\#{}]|\$\(/.test(cmd)) return undefined;
  const m = /^([^\s=]+)(\s.*)?$/.exec(cmd.trim());
  if (m === null) return undefined;
  const name = m[1] ?? "";
  if (!PROGRAM.test(name) || NOT_PROGRAMS.has(name)) return undefined;
  return { name, rest: m[2] ?? "" };
}

/** A whole line that can be embedded in a compound command unchanged: no heredoc, comment, trailing background or continuation. */
function embeddable(cmd: string): boolean {
  return !/<<|#|\n|\\$|&\s*$/.test(cmd) && cmd.trim() !== "";
}

const wrap = (name: string, prefix: string, needsRoot = false): Transform => ({
  name,
  lookAlikes: !needsRoot,
  apply: (cmd) => {
    const s = simple(cmd);
    if (s === undefined) return undefined;
    // A program that already runs as root (sudo, doas, su) under another root wrapper says nothing new.
    if (needsRoot && /^(sudo|doas|su|pkexec|run0)$/.test(s.name)) return undefined;
    return `${prefix} ${cmd.trim()}`;
  },
});

/** `cmd /c "..\"`: the top-level line is re-quoted for cmd's rules (cmd-requote.ts); a POSIX shell inside would read other words. */
const CMD_LINE = /^cmd(?:\.exe)?\s/i;

/** Inside single quotes: the command must hold none. */
const singleQuoted = (name: string, build: (inner: string) => string): Transform => ({
  name,
  apply: (cmd) => (embeddable(cmd) && !cmd.includes("'") && !CMD_LINE.test(cmd) ? build(cmd.trim()) : undefined),
});

/** Inside double quotes: nothing the outer shell would expand or unescape. */
const doubleQuoted = (name: string, build: (inner: string) => string): Transform => ({
  name,
  apply: (cmd) => (embeddable(cmd) && !/["$`\\!]/.test(cmd) && !CMD_LINE.test(cmd) ? build(cmd.trim()) : undefined),
});

const renamed = (name: string, spell: (prog: string) => string): Transform => ({
  name,
  apply: (cmd) => {
    const s = simple(cmd);
    if (s === undefined) return undefined;
    return `${spell(s.name)}${s.rest}`;
  },
});

const line = (name: string, build: (c: string) => string): Transform => ({
  name,
  apply: (cmd) => (embeddable(cmd) ? build(cmd.trim()) : undefined),
});

/** Programs whose short options are all boolean flags in the clusters written: splitting or joining them keeps the meaning. */
const BOOLEAN_SHORTS: Record<string, RegExp> = {
  rm: /^-[rRfdIiv]{2,}$/,
  cp: /^-[rRfaTvpnu]{2,}$/,
  mv: /^-[fTvnu]{2,}$/,
  shred: /^-[fuvzx]{2,}$/,
  chmod: /^-[Rfv]{2,}$/,
  chown: /^-[Rfvh]{2,}$/,
};

/** GNU long spellings (and a unique prefix) of short flags, per program. */
const LONG: Record<string, Record<string, string>> = {
  rm: { r: "--recursive", R: "--recursive", f: "--force", d: "--dir", v: "--verbose" },
  cp: { r: "--recursive", R: "--recursive", f: "--force", v: "--verbose" },
  shred: { f: "--force", u: "--remove", z: "--zero", v: "--verbose" },
  chmod: { R: "--recursive", f: "--silent", v: "--verbose" },
  chown: { R: "--recursive", f: "--silent", v: "--verbose" },
};
const PREFIX: Record<string, string> = { "--recursive": "--recur", "--force": "--forc", "--remove": "--remov", "--verbose": "--verb", "--silent": "--sil", "--zero": "--zer", "--dir": "--dir" };

/** Words of a simple command with no quotes: splitting on blanks is exact there. */
function plainWords(cmd: string): string[] | undefined {
  const s = simple(cmd);
  if (s === undefined || /['"$*?\[\]~]/.test(s.rest) && !/^[^'"]*$/.test(s.rest)) return undefined;
  if (/['"]/.test(cmd)) return undefined;
  return cmd.trim().split(/\s+/);
}

/** Leading short options spelled long (`-rf` -> `--recursive --force`), each long name through `spell`; undefined when one has no long form. */
function longOptions(p: string, w: string[], spell: (name: string) => string): string[] | undefined {
  const longs = LONG[p];
  const re = BOOLEAN_SHORTS[p] ?? /^-[A-Za-z]$/;
  if (longs === undefined) return undefined;
  const { end } = leadingOptions(w);
  const out: string[] = [w[0] ?? ""];
  for (const x of w.slice(1, end)) {
    if (!(re.test(x) || /^-[A-Za-z]$/.test(x))) return undefined;
    const names = [...x.slice(1)].map((ch) => longs[ch]);
    if (names.some((n) => n === undefined)) return undefined;
    out.push(...[...new Set(names as string[])].map(spell));
  }
  return [...out, ...w.slice(end)];
}

function optionRewrite(name: string, rewrite: (prog: string, words: string[]) => string[] | undefined): Transform {
  return {
    name,
    apply: (cmd) => {
      const w = plainWords(cmd);
      if (w === undefined) return undefined;
      const out = rewrite(w[0] ?? "", w);
      if (out === undefined || out.join(" ") === w.join(" ")) return undefined;
      return out.join(" ");
    },
  };
}

/** Index of the first operand (after the leading options) and whether any option follows it. */
function leadingOptions(w: string[]): { end: number; clean: boolean } {
  let i = 1;
  while (i < w.length && /^-./.test(w[i] ?? "") && w[i] !== "--") i++;
  const clean = w.slice(i).every((x) => !x.startsWith("-"));
  return { end: i, clean };
}

const GNU_PERMUTING = new Set(["rm", "cp", "mv", "shred", "chmod", "chown", "rmdir"]);

/** Paths: rewrites a bare `~` or `~/` word start (commands with no quotes, so the tilde is live). */
function tildeRewrite(name: string, to: (tail: string) => string): Transform {
  return {
    name,
    apply: (cmd) => {
      if (/['"\\]/.test(cmd) || !embeddable(cmd) || /\bHOME=/.test(cmd)) return undefined;
      let hit = false;
      const out = cmd.replace(/(^|\s)~(\/[^\s;&|)]*)?(?=$|[\s;&|)])/g, (_, pre: string, tail: string | undefined) => {
        hit = true;
        return pre + to(tail ?? "");
      });
      return hit ? out : undefined;
    },
  };
}

export const TRANSFORMS: Transform[] = [
  // wrappers
  wrap("sudo", "sudo", true),
  wrap("sudo -u root", "sudo -u root", true),
  wrap("doas", "doas", true),
  wrap("env", "env"),
  wrap("env -i PATH=$PATH", "env -i PATH=$PATH"),
  wrap("command", "command"),
  { name: "exec in subshell", apply: (cmd) => (simple(cmd) === undefined ? undefined : `(exec ${cmd.trim()})`) },
  wrap("nice -n 5", "nice -n 5"),
  wrap("ionice -c3", "ionice -c3"),
  wrap("timeout 60", "timeout 60"),
  wrap("nohup", "nohup"),
  wrap("time", "time"),
  wrap("stdbuf -oL", "stdbuf -oL"),
  wrap("setsid", "setsid"),
  wrap("flock /tmp/l", "flock /tmp/l"),
  wrap("chronic", "chronic"),
  wrap("unbuffer", "unbuffer"),
  singleQuoted("script -qc", (c) => `script -qc '${c}' /dev/null`),
  singleQuoted("sh -c", (c) => `sh -c '${c}'`),
  doubleQuoted("bash -lc", (c) => `bash -lc "${c}"`),
  singleQuoted("zsh -c", (c) => `zsh -c '${c}'`),
  doubleQuoted("eval", (c) => `eval "${c}"`),
  { ...singleQuoted("su -c", (c) => `su -c '${c}'`), lookAlikes: false },
  singleQuoted("$SHELL -c", (c) => `$SHELL -c '${c}'`),
  // program name spellings
  renamed("/usr/bin/NAME", (p) => `/usr/bin/${p}`),
  renamed("/usr/bin/env NAME", (p) => `/usr/bin/env ${p}`),
  renamed("\\NAME", (p) => `\\${p}`),
  renamed("'NAME'", (p) => `'${p}'`),
  renamed('N""AME', (p) => (p.length < 2 ? p : `${p.slice(0, 1)}""${p.slice(1)}`)),
  renamed("$(which NAME)", (p) => `$(which ${p})`),
  renamed('"$(command -v NAME)"', (p) => `"$(command -v ${p})"`),
  // option spellings
  optionRewrite("split short flags", (p, w) => {
    const re = BOOLEAN_SHORTS[p];
    if (re === undefined) return undefined;
    return w.flatMap((x, i) => (i > 0 && re.test(x) ? [...x.slice(1)].map((ch) => `-${ch}`) : [x]));
  }),
  optionRewrite("join short flags", (p, w) => {
    const re = BOOLEAN_SHORTS[p];
    if (re === undefined) return undefined;
    const { end } = leadingOptions(w);
    const flags = w.slice(1, end);
    if (flags.length < 2 || !flags.every((f) => /^-[A-Za-z]$/.test(f)) || !re.test(`-${flags.map((f) => f.slice(1)).join("")}`)) return undefined;
    return [w[0] ?? "", `-${flags.map((f) => f.slice(1)).join("")}`, ...w.slice(end)];
  }),
  optionRewrite("long options", (p, w) => longOptions(p, w, (n) => n)),
  optionRewrite("long option prefixes", (p, w) => longOptions(p, w, (n) => PREFIX[n] ?? n)),
  optionRewrite("options after operands", (p, w) => {
    if (!GNU_PERMUTING.has(p)) return undefined;
    const { end, clean } = leadingOptions(w);
    if (end === 1 || end >= w.length || !clean || w.slice(1, end).some((x) => !/^-[A-Za-z]+$/.test(x))) return undefined;
    return [w[0] ?? "", ...w.slice(end), ...w.slice(1, end)];
  }),
  optionRewrite("-- before operands", (p, w) => {
    if (!GNU_PERMUTING.has(p)) return undefined;
    const { end, clean } = leadingOptions(w);
    if (end >= w.length || !clean || w.includes("--")) return undefined;
    return [...w.slice(0, end), "--", ...w.slice(end)];
  }),
  // line structure
  line("cd . &&", (c) => `cd . && ${c}`),
  line("; echo done", (c) => `${c}; echo done`),
  line("|| true", (c) => `${c} || true`),
  line("&& echo ok", (c) => `${c} && echo ok`),
  line("( ... )", (c) => `( ${c} )`),
  line("{ ...; }", (c) => `{ ${c}; }`),
  line("background &", (c) => `${c} &`),
  {
    name: "line continuation",
    apply: (cmd) => {
      const s = simple(cmd);
      if (s === undefined || /['"]/.test(cmd) || !/\s/.test(cmd.trim())) return undefined;
      return cmd.trim().replace(/\s+/, " \\\n  ");
    },
  },
  {
    name: "extra blanks",
    apply: (cmd) => {
      if (!embeddable(cmd) || /['"\\]/.test(cmd) || !/\s/.test(cmd.trim())) return undefined;
      return `  ${cmd.trim().replace(/ +/g, " \t ")}  `;
    },
  },
  line("trailing comment", (c) => `${c} # x`),
  line("if true; then", (c) => `if true; then ${c}; fi`),
  line("for _ in 1", (c) => `for _ in 1; do ${c}; done`),
  // A function body sees the call's positional parameters (none), not the line's.
  { name: "function", apply: (cmd) => (embeddable(cmd) && !/\$[0-9@*#]|\$\{[0-9@*#]/.test(cmd) && !/\(\s*\)/.test(cmd) ? `f() { ${cmd.trim()}; }; f` : undefined) },
  // path spellings
  tildeRewrite("~ as $HOME", (t) => `$HOME${t}`),
  tildeRewrite("~ as ${HOME}", (t) => `\${HOME}${t}`),
  tildeRewrite('~ as "$HOME"', (t) => `"$HOME"${t}`),
  tildeRewrite("~ as /home/user", (t) => `/home/user${t}`),
  // Only the home itself: a trailing slash on a file's path makes it a directory's.
  tildeRewrite("~ with trailing /", (t) => (t === "" ? "~/" : `~${t}`)),
  tildeRewrite("~ with /./", (t) => (t === "" ? "~/." : `~/.${t}`)),
  tildeRewrite("~ with //", (t) => (t === "" ? "~//" : `~/${t}`)),
];

export interface Variant {
  transform: string;
  seed: CorpusCase;
  command: string;
}

export interface TransformTally {
  /** must-stop seeds the pack stops, with a valid variant */
  stopSeeds: number;
  stillStopped: number;
  /** look-alike seeds the pack lets run, with a valid variant */
  allowSeeds: number;
  newlyStopped: number;
  lost: Variant[];
  alarms: Variant[];
  /** a few variants per label whose verdict held (a sample, for writing a corpus beside the changed ones) */
  kept: Variant[];
}

/** Seeds whose verdict is right today (must-stop stopped, look-alike allowed), bash only. */
export async function rightSeeds(corpus: Corpus, set: RuleSet): Promise<CorpusCase[]> {
  const rates = await runCorpus(corpus, set);
  return rates.results.filter((r) => (r.c.tool ?? "bash") === "bash" && r.ok).map((r) => r.c);
}

/** Every valid variant of every seed, through the pack: per transformation, the verdicts that changed. */
export async function runMetamorphic(seeds: CorpusCase[], set: RuleSet, env: Pick<Corpus, "cwd" | "projectRoot" | "home">, transforms: Transform[] = TRANSFORMS): Promise<Map<string, TransformTally>> {
  const variants: Variant[] = [];
  for (const seed of seeds) {
    // A seed the parser cannot read (an unterminated quote) has no meaning to keep.
    if (parseShell(seed.command, { cwd: env.cwd, home: env.home }).error !== undefined) continue;
    for (const t of transforms) {
      if (seed.expect === "allow" && t.lookAlikes === false) continue;
      const command = t.apply(seed.command);
      if (command !== undefined && command !== seed.command) variants.push({ transform: t.name, seed, command });
    }
  }
  const rates = await runCorpus({ ...env, cases: variants.map((v) => ({ ...v.seed, command: v.command })) }, set);
  const out = new Map<string, TransformTally>(transforms.map((t) => [t.name, { stopSeeds: 0, stillStopped: 0, allowSeeds: 0, newlyStopped: 0, lost: [], alarms: [], kept: [] }]));
  for (const [i, r] of rates.results.entries()) {
    const v = variants[i];
    const tally = v === undefined ? undefined : out.get(v.transform);
    if (v === undefined || tally === undefined) continue;
    if (v.seed.expect === "block") {
      tally.stopSeeds++;
      if (r.stopped) {
        tally.stillStopped++;
        if (tally.stillStopped % 97 === 1) tally.kept.push(v);
      } else tally.lost.push(v);
    } else {
      tally.allowSeeds++;
      if (r.stopped) {
        tally.newlyStopped++;
        tally.alarms.push(v);
      } else if ((tally.allowSeeds - tally.newlyStopped) % 97 === 1) tally.kept.push(v);
    }
  }
  return out;
}
