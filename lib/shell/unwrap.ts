/** @module wrappers (sudo, env, sh -c, xargs, find -exec, interpreters...) -> the commands that really run. */
import type { SimpleCommand } from "./types.ts";
import { scanCode } from "./interp.ts";
import { limitNote, SHELL_LIMITS, ShellLimitError } from "./limits.ts";
import { resolvePath } from "./paths.ts";

/** What unwrapping needs from the parser: nested script parsing, a place to record commands, and to note a cap. */
export interface Unwrapper {
  readonly home: string;
  script(src: string, cwd: string, via: string): void;
  emit(cmd: SimpleCommand): void;
  /** The analysis worked around a cap: the line is then judged too complex. */
  note(why: string): void;
}

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "busybox-sh"]);
const PYTHON = /^(?:python[0-9.]*|pypy[0-9.]*)$/;

function base(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}

interface OptionSpec {
  /** Short options that take a value (attached or as the next word). */
  short: string;
  /** Long options that take a value when not written as --opt=value. */
  long: string[];
}

/**
 * Index of the first operand after the options, honouring `--`. `onOpt` sees each option and its value so
 * callers can pick up e.g. `sudo -D dir` or `env -C dir`.
 */
function skipOptions(args: string[], from: number, spec: OptionSpec, onOpt?: (opt: string, value: string | undefined) => void): number {
  let i = from;
  while (i < args.length) {
    const a = args[i] ?? "";
    if (a === "--") return i + 1;
    if (!a.startsWith("-") || a === "-") return i;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      if (eq > 0) onOpt?.(a.slice(0, eq), a.slice(eq + 1));
      else if (spec.long.includes(a)) {
        onOpt?.(a, args[i + 1]);
        i++;
      } else onOpt?.(a, undefined);
      i++;
      continue;
    }
    let consumed = false;
    for (let k = 1; k < a.length; k++) {
      const ch = a[k] ?? "";
      if (spec.short.includes(ch)) {
        const attached = a.slice(k + 1);
        if (attached !== "") onOpt?.(`-${ch}`, attached);
        else {
          onOpt?.(`-${ch}`, args[i + 1]);
          consumed = true;
        }
        break;
      }
      onOpt?.(`-${ch}`, undefined);
    }
    i += consumed ? 2 : 1;
  }
  return i;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

interface Inner {
  from: number;
  label: string;
  cwd?: string;
  prefix?: string[];
  stdinArgs?: boolean;
}

/**
 * Where the command wrapped by the one starting at `a[s]` starts (an index into the same `a`), or undefined
 * when the program wraps nothing. An index, so a chain of wrappers is walked without copying the words.
 */
function wrapped(a: string[], s: number, cwdIn: string, home: string): Inner | undefined {
  const p = base(a[s] ?? "");
  let cwd: string | undefined;
  const chdir = (opt: string, value: string | undefined, names: string[]) => {
    if (value !== undefined && names.includes(opt)) cwd = cwdIn === "" ? "" : resolvePath(value, cwdIn, home);
  };
  switch (p) {
    case "sudo":
    case "doas":
    case "run0": {
      let i = skipOptions(a, s + 1, { short: "ugpChDrtTURa", long: ["--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type", "--other-user", "--command-timeout"] }, (o, v) => chdir(o, v, ["-D", "--chdir"]));
      while (ASSIGNMENT.test(a[i] ?? "")) i++;
      return { from: i, label: p, ...(cwd !== undefined ? { cwd } : {}) };
    }
    case "env": {
      let prefix: string[] | undefined;
      let i = skipOptions(a, s + 1, { short: "uCS", long: ["--unset", "--chdir", "--split-string"] }, (o, v) => {
        chdir(o, v, ["-C", "--chdir"]);
        if ((o === "-S" || o === "--split-string") && v !== undefined) prefix = v.split(/\s+/).filter((w) => w !== "");
      });
      if (prefix) {
        // -S takes its value as the rest of the command: it was consumed as an option value above.
        return { from: i, label: "env -S", prefix, ...(cwd !== undefined ? { cwd } : {}) };
      }
      while (ASSIGNMENT.test(a[i] ?? "")) i++;
      return { from: i, label: "env", ...(cwd !== undefined ? { cwd } : {}) };
    }
    case "nice":
      return { from: skipOptions(a, s + 1, { short: "n", long: ["--adjustment"] }), label: p };
    case "ionice":
      return { from: skipOptions(a, s + 1, { short: "cnpPu", long: ["--class", "--classdata", "--pid", "--pgid", "--uid"] }), label: p };
    case "nohup":
    case "builtin":
    case "unbuffer":
    case "caffeinate":
    case "proxychains":
    case "proxychains4":
    case "torsocks":
      return { from: skipOptions(a, s + 1, { short: "", long: [] }), label: p };
    case "time":
      return { from: skipOptions(a, s + 1, { short: "fo", long: ["--format", "--output"] }), label: p };
    case "setsid":
      return { from: skipOptions(a, s + 1, { short: "", long: [] }), label: p };
    case "stdbuf":
      return { from: skipOptions(a, s + 1, { short: "ioe", long: ["--input", "--output", "--error"] }), label: p };
    case "chrt":
    case "taskset": {
      const i = skipOptions(a, s + 1, { short: "", long: [] });
      return { from: i + (p === "chrt" ? 1 : 1), label: p };
    }
    case "timeout":
      return { from: skipOptions(a, s + 1, { short: "sk", long: ["--signal", "--kill-after"] }) + 1, label: p };
    case "command": {
      let lookup = false;
      const i = skipOptions(a, s + 1, { short: "", long: [] }, (o) => {
        if (o === "-v" || o === "-V") lookup = true;
      });
      return lookup ? undefined : { from: i, label: p };
    }
    case "exec":
      return { from: skipOptions(a, s + 1, { short: "a", long: [] }), label: p };
    case "xargs": {
      const i = skipOptions(a, s + 1, { short: "IEdLnPsaU", long: ["--replace", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-lines", "--max-chars", "--eof"] });
      return i >= a.length ? { from: a.length, label: p, prefix: ["echo"], stdinArgs: true } : { from: i, label: p, stdinArgs: true };
    }
    case "npx":
    case "bunx":
    case "pnpx":
      return { from: skipOptions(a, s + 1, { short: "p", long: ["--package", "--call"] }), label: p };
    case "busybox":
    case "toybox":
      return { from: s + 1, label: p };
    default:
      if (PYTHON.test(p)) {
        // python -m twine upload -> twine upload
        let mod: number | undefined;
        skipOptions(a, s + 1, { short: "mcWXQ", long: [] }, (o, v) => {
          if (o === "-m" && v !== undefined && mod === undefined) mod = a.indexOf(v, s + 1);
          if (o === "-c") mod = -1;
        });
        return mod !== undefined && mod > s ? { from: mod, label: `${p} -m` } : undefined;
      }
      return undefined;
  }
}

/** The script of `bash -c '...'`, undefined when the shell runs a file or reads stdin. */
function shellScript(argv: string[]): { script?: string; readsStdin: boolean } {
  let hasC = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a === "-o" || a === "+o" || a === "-O" || a === "+O" || a === "--rcfile" || a === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith("-") && a.includes("c")) hasC = true;
      continue;
    }
    if (a.startsWith("--")) continue;
    break;
  }
  if (hasC) {
    const script = argv[i];
    return script === undefined ? { readsStdin: false } : { script, readsStdin: false };
  }
  return { readsStdin: i >= argv.length };
}

function isInterpreter(p: string): boolean {
  return PYTHON.test(p) || ["node", "nodejs", "bun", "perl", "ruby", "php", "deno"].includes(p);
}

/** Code given to an interpreter on its command line, or "stdin" when it reads code from standard input. */
function interpreterCode(argv: string[], program: string): string | "stdin" | undefined {
  let codeFlag: RegExp;
  let valueShort = "";
  if (PYTHON.test(program)) {
    codeFlag = /^-[A-Za-z]*c$/;
    valueShort = "WX";
  } else if (program === "node" || program === "nodejs" || program === "bun") {
    codeFlag = /^(?:-e|--eval|-p|--print|-pe)$/;
    valueShort = "r";
  } else if (program === "perl") {
    codeFlag = /^-[A-Za-z]*[eE]$/;
  } else if (program === "ruby") {
    codeFlag = /^-[A-Za-z]*e$/;
  } else if (program === "php") {
    codeFlag = /^-r$/;
  } else if (program === "deno") {
    return argv[1] === "eval" ? argv[argv.length - 1] : undefined;
  } else return undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (codeFlag.test(a)) return argv[i + 1];
    if (a.startsWith("--eval=") || a.startsWith("--print=")) return a.slice(a.indexOf("=") + 1);
    if (a.length === 2 && valueShort.includes(a[1] ?? "")) {
      i++;
      continue;
    }
    if (a === "-") return "stdin";
    if (!a.startsWith("-")) return undefined;
  }
  return "stdin";
}

function child(cmd: SimpleCommand, argv: string[], dynamic: boolean[], label: string, extra: Partial<SimpleCommand> = {}): SimpleCommand {
  return {
    argv,
    dynamic,
    program: base(argv[0] ?? ""),
    cwd: cmd.cwd,
    redirects: cmd.redirects,
    pipeTo: [],
    via: [...cmd.via, label],
    synthetic: cmd.synthetic,
    stdinArgs: cmd.stdinArgs,
    ...extra,
  };
}

/** The text a command reads on stdin, when it is literal: heredoc, herestring or `echo ... |`. */
function stdinText(cmd: SimpleCommand, piped: string | undefined): string | undefined {
  for (const r of cmd.redirects) {
    if (r.body !== undefined) return r.body;
    if (r.op === "<<<") return r.target;
  }
  return piped;
}

const FIND_NON_FILTERS = new Set(["-delete", "-print", "-print0", "-depth", "-d", "-xdev", "-mount", "-follow", "-noleaf", "-daystart", "-warn", "-nowarn", "-ignore_readdir_race", "-maxdepth", "-mindepth", "-ls"]);

function unwrapFind(cmd: SimpleCommand, api: Unwrapper, level: number): void {
  const a = cmd.argv;
  let i = 1;
  while (/^-[HLPO]/.test(a[i] ?? "") || a[i] === "-D") i += a[i] === "-D" ? 2 : 1;
  const starts: string[] = [];
  for (; i < a.length; i++) {
    const s = a[i] ?? "";
    if (s.startsWith("-") || s === "(" || s === "!" || s === ")") break;
    starts.push(s);
  }
  if (starts.length === 0) starts.push(".");
  const first = starts[0] ?? ".";
  let filtered = false;
  let deletes = false;
  for (; i < a.length; i++) {
    const s = a[i] ?? "";
    if (s === "-exec" || s === "-execdir" || s === "-ok" || s === "-okdir") {
      let j = i + 1;
      while (j < a.length && a[j] !== ";" && a[j] !== "+") j++;
      // `{}` is each match: somewhere below the start point, never the start point's parent.
      const inner = a.slice(i + 1, j).map((w) => w.replaceAll("{}", `${first.replace(/\/+$/, "")}/{}`));
      // rm run on every match of a tree walk deletes across the tree: it counts as recursive.
      if (base(inner[0] ?? "") === "rm" && !inner.includes("-r")) inner.splice(1, 0, "-r");
      if (inner.length > 0) {
        // find -exec find -exec ...: each level copies the words up to the shared `;`, so levels are capped.
        if (level + 1 >= SHELL_LIMITS.maxWrappers) api.note(limitNote(`find -exec nested more than ${SHELL_LIMITS.maxWrappers} deep`));
        else unwrap(child(cmd, inner, inner.map(() => false), `find ${s}`), api, undefined, level + 1);
      }
      i = j;
      continue;
    }
    if (s === "-delete") deletes = true;
    else if (s === "-maxdepth" || s === "-mindepth") i++;
    else if (s.startsWith("-") || s === "(" || s === "!") {
      if (!FIND_NON_FILTERS.has(s)) filtered = true;
    }
  }
  if (deletes) {
    // Unfiltered `find X -delete` removes X's whole tree, like `rm -rf X`.
    const targets = filtered ? starts.map((s) => `${s.replace(/\/+$/, "")}/{}`) : starts;
    const argv = ["rm", "-rf", ...targets];
    api.emit(child(cmd, argv, argv.map(() => false), "find -delete", { synthetic: true }));
  }
}

function runCode(cmd: SimpleCommand, code: string, api: Unwrapper, label: string, depth = 0): void {
  for (const e of scanCode(code)) {
    if (e.kind === "delete") {
      const argv = ["rm", e.recursive ? "-rf" : "-f", e.path.startsWith("~") || e.path.startsWith("/") ? resolvePath(e.path, "/", api.home) : e.path];
      api.emit(child(cmd, argv, argv.map(() => false), label, { synthetic: true, redirects: [] }));
    } else if (e.kind === "argv") {
      unwrap(child(cmd, e.argv, e.argv.map(() => false), label, { synthetic: true, redirects: [] }), api, undefined);
    } else {
      try {
        api.script(e.text, cmd.cwd, label);
      } catch (err) {
        // Code that is not shell (python exec("...")) is scanned as code instead; a cap still ends the analysis.
        if (err instanceof ShellLimitError) throw err;
      }
      if (depth < 2) runCode(cmd, e.text, api, label, depth + 1);
    }
  }
}

/**
 * What the command runs that is not a wrapped command line: find -exec, eval, shells, watch, interpreter
 * code. False when that is all it runs (a shell's script is not a wrapped command).
 */
function runsOther(cmd: SimpleCommand, api: Unwrapper, piped: string | undefined, level: number): boolean {
  const p = cmd.program;
  if (p === "find") {
    unwrapFind(cmd, api, level);
    return false;
  }
  if (p === "eval") {
    api.script(cmd.argv.slice(1).join(" "), cmd.cwd, "eval");
    return false;
  }
  if (SHELLS.has(p) || (p === "su" && cmd.argv.some((w) => w === "-c" || w === "--command"))) {
    if (p === "su") {
      const k = cmd.argv.findIndex((w) => w === "-c" || w === "--command");
      const s = cmd.argv[k + 1];
      if (s !== undefined) api.script(s, cmd.cwd, "su -c");
      return false;
    }
    const { script, readsStdin } = shellScript(cmd.argv);
    if (!readsStdin) cmd.ignoresStdinCode = true;
    if (script !== undefined) api.script(script, cmd.cwd, `${p} -c`);
    else if (readsStdin) {
      const text = stdinText(cmd, piped);
      if (text !== undefined) api.script(text, cmd.cwd, `${p} <<<`);
    }
    return false;
  }
  if (p === "watch") {
    const i = skipOptions(cmd.argv, 1, { short: "nd", long: ["--interval", "--differences"] });
    if (i < cmd.argv.length) api.script(cmd.argv.slice(i).join(" "), cmd.cwd, "watch");
    return false;
  }
  const code = interpreterCode(cmd.argv, p);
  if (code === undefined && isInterpreter(p)) cmd.ignoresStdinCode = true;
  if (code !== undefined) {
    const text = code === "stdin" ? stdinText(cmd, piped) : code;
    if (text !== undefined) runCode(cmd, text, api, `${p} code`);
  }
  return true;
}

/** The command a wrapper runs, as its own record. */
function innerCommand(cmd: SimpleCommand, inner: Inner, piped: string | undefined, api: Unwrapper): SimpleCommand | undefined {
  // `echo / | xargs rm -rf`: literal piped words become arguments.
  const fromStdin = inner.stdinArgs && piped !== undefined ? piped.split(/\s+/).filter((w) => w !== "") : [];
  const plain = inner.prefix === undefined && fromStdin.length === 0;
  // slice alone when nothing is added: spreading a long word list costs several times as much.
  const argv = plain ? cmd.argv.slice(inner.from) : [...(inner.prefix ?? []), ...cmd.argv.slice(inner.from), ...fromStdin];
  if (argv.length === 0) return undefined;
  const dynamic = plain ? cmd.dynamic.slice(inner.from) : [...(inner.prefix ?? []).map(() => false), ...cmd.dynamic.slice(inner.from), ...fromStdin.map(() => false)];
  const extra: Partial<SimpleCommand> = {};
  if (inner.cwd !== undefined) extra.cwd = boundedCwd(inner.cwd, api);
  if (inner.stdinArgs) extra.stdinArgs = true;
  return child(cmd, argv, dynamic, inner.label, extra);
}
/** Wrappers that do nothing but run the rest of their words: skipping them past the cap loses nothing else. */
const PLAIN_WRAPPERS = new Set(["sudo", "doas", "run0", "env", "nice", "ionice", "nohup", "builtin", "unbuffer", "caffeinate", "proxychains", "proxychains4", "torsocks", "time", "setsid", "stdbuf", "chrt", "taskset", "timeout", "command", "exec", "xargs", "npx", "bunx", "pnpx", "busybox", "toybox"]);

function boundedCwd(cwd: string, api: Unwrapper): string {
  if (cwd.length <= SHELL_LIMITS.maxCwd) return cwd;
  api.note(limitNote(`a wrapper's working directory is longer than ${SHELL_LIMITS.maxCwd} characters`));
  return "";
}

/**
 * Past the wrapper cap, walks the rest of the chain by index without recording each wrapper (each record
 * copies the words after it: a chain of n wrappers was n² words), and returns the innermost command. Stops
 * (undefined) at a wrapper that adds words of its own (`env -S`, `xargs` with piped input): copying there
 * would be quadratic again. Either way the line is judged too complex.
 */
function skipWrappers(cmd: SimpleCommand, first: Inner, api: Unwrapper, piped: string | undefined): SimpleCommand | undefined {
  api.note(limitNote(`more than ${SHELL_LIMITS.maxWrappers} wrappers around one command`));
  const a = cmd.argv;
  let inner = first;
  let cwd = cmd.cwd;
  let stdinArgs = cmd.stdinArgs;
  let skipped = 0;
  for (;;) {
    if (inner.prefix || (inner.stdinArgs && piped !== undefined)) return undefined;
    if (inner.cwd !== undefined) cwd = boundedCwd(inner.cwd, api);
    if (inner.stdinArgs) stdinArgs = true;
    skipped++;
    if (inner.from >= a.length) return undefined;
    if (!PLAIN_WRAPPERS.has(base(a[inner.from] ?? ""))) break;
    const next = wrapped(a, inner.from, cwd, api.home);
    if (!next) break;
    inner = next;
  }
  const argv = a.slice(inner.from);
  return child(cmd, argv, cmd.dynamic.slice(inner.from), `... ${skipped} wrappers`, { cwd, stdinArgs });
}

/**
 * Records the command and everything it really runs underneath: a loop over the wrapper chain, not a
 * recursion per wrapper. `level` counts the wrappers (and find -exec levels) already around it.
 */
export function unwrap(cmd: SimpleCommand, api: Unwrapper, piped: string | undefined, level = 0): void {
  let cur = cmd;
  let skipped = false;
  // The first xargs of a chain reads the piped words; one inside it finds its input used up (and
  // appending them per level made `| xargs xargs ...` quadratic).
  let words = piped;
  for (let lvl = level; ; lvl++) {
    api.emit(cur);
    if (!runsOther(cur, api, piped, lvl)) return;
    const inner = wrapped(cur.argv, 0, cur.cwd, api.home);
    if (!inner) return;
    let next: SimpleCommand | undefined;
    if (lvl + 1 < SHELL_LIMITS.maxWrappers) next = innerCommand(cur, inner, words, api);
    else if (!skipped) {
      skipped = true;
      next = skipWrappers(cur, inner, api, words);
    } else api.note(limitNote(`more than ${SHELL_LIMITS.maxWrappers} wrappers around one command`));
    if (inner.stdinArgs) words = undefined;
    if (!next) return;
    cur = next;
  }
}
