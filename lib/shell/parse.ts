/** @module shell parser: tokens -> the flat list of simple commands a line runs, with variables and cd followed. */
import { commandOfVar, runsValue } from "./command-vars.ts";
import { SECRET_NAME as SECRET_NAME_RE } from "./secret-names.ts";
import { requoteCmd } from "./cmd-requote.ts";
import { arithSubs, type LexBudget, lex, type Token, type Word } from "./lex.ts";
import { limitNote, SHELL_LIMITS, ShellLimitError } from "./limits.ts";
import { envOf, setEnv } from "./env-names.ts";
import type { ParseOptions, ParseResult, RedirectInfo, SimpleCommand } from "./types.ts";
import { GIT_COMMAND_KEYS, SHELLS, unwrap, type Unwrapper } from "./unwrap.ts";
import { ON_PATH_DIR, resolvePath } from "./paths.ts";
import { decodes } from "./effects/network.ts";
import { readCmd, readPowerShell } from "./powershell.ts";
import { isBinderProgram, isPythonName } from "./program-names.ts";

/**
 * Shell variables of one scope over those of the scope it was opened in. A subshell or nested script
 * copying its parent's map made `X1=..; ...; (a); (a); ...` quadratic; the chain is as deep as the
 * nesting, which the limits cap.
 */
class Vars {
  readonly #own = new Map<string, string | undefined>();
  readonly #parent: Vars | undefined;

  constructor(parent?: Vars) {
    this.#parent = parent;
  }

  get(name: string): string | undefined {
    for (let v: Vars | undefined = this; v !== undefined; v = v.#parent) if (v.#own.has(name)) return v.#own.get(name);
    return undefined;
  }

  set(name: string, value: string): void {
    this.#own.set(name, value);
  }

  delete(name: string): void {
    this.#own.set(name, undefined);
  }

  child(): Vars {
    return new Vars(this);
  }
}

interface Scope {
  vars: Vars;
  cwd: string;
  /** Where the last cd on this line left from (`cd -` goes back there); unset: unknown. */
  oldCwd?: string;
}

interface State {
  home: string;
  depth: number;
  out: SimpleCommand[];
  via: string[];
  /** Words still to lex or expand, for the whole line. */
  budget: LexBudget;
  /** Characters variable values may still add when expanded. */
  expansion: number;
  /** The first cap the analysis hit and worked around (the line is then judged too complex). */
  limit?: string;
  /** False in the fallback split, which does not parse nested scripts. */
  scripts: boolean;
  /** Variables bound by `for NAME in WORDS`: their value is a word list, split even when quoted. */
  lists: Set<string>;
  /** Function calls whose body was read again with the call's arguments, on the whole line (capped). */
  boundCalls: number;
  /**
   * Variables assigned or exported earlier on the line (`export HOME=/tmp/x;`, `HOME=/tmp/x;`): an exported one
   * such as HOME reaches every later command's environment, so each later command carries their names (capped).
   */
  envSet: string[];
}

function newState(home: string, via: string[], scripts: boolean): State {
  return { home, depth: 0, out: [], via, budget: { words: SHELL_LIMITS.maxWords }, expansion: SHELL_LIMITS.maxExpansion, scripts, lists: new Set(), boundCalls: 0, envSet: [] };
}

/** Wrappers whose `NAME=value` words set the environment of what they run. */
const ENV_WRAPPERS = new Set(["env", "sudo", "doas", "run0"]);

/** Names of variables a command line sets, kept per line; a long line keeps the first few, which is all a rule asks of. */
const MAX_ENV_NAMES = 32;
function noteEnv(st: State, name: string): void {
  if (st.envSet.length < MAX_ENV_NAMES && !st.envSet.includes(name)) st.envSet.push(name);
}

interface Field {
  text: string;
  dynamic: boolean;
}

/** An assignment's raw value whose only expansion is `$$`: literal text around the shell's pid. */
const PID_ONLY = /^[^$`\\]*\$\$(?:[^$`\\]*\$\$)*[^$`\\]*$/;

const RESERVED_SKIP = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "esac", "in"]);
const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;
/** A printed file worth remembering for a later run on the line: it names something that deletes, runs, sends or reads secrets. */
const RUNNERS = new Set([...SHELLS, "eval", "source", ".", "node", "perl", "ruby", "php", "make", "gmake"]);
const DECLARE = new Set(["export", "declare", "local", "readonly", "typeset"]);
/**
 * Commands that print every variable with its value: `env`, `printenv`, `set`, `export -p`, `declare -x`,
 * `cat /proc/self/environ`, `tr '\0' '\n' < /proc/1/environ`.
 */
const PASSES_INPUT = /^(?:sort|uniq|tr|cat|tac|xxd|od|base64|base32|basenc|head|tail|sed|awk|gawk|cut|tee|gzip|grep|egrep|rg|column|fold|nl|rev|paste|iconv|strings|stdbuf|expand)$/;

function dumpsEnvironment(c: SimpleCommand): boolean {
  const p = c.program;
  if ((p === "env" || p === "printenv" || p === "set") && c.argv.length === 1) return true;
  if ((p === "export" || p === "declare" || p === "typeset") && (c.argv.length === 1 || (c.argv.length === 2 && /^-[px]+$/.test(c.argv[1] ?? "")))) return true;
  const environ = (w: string) => /^\/proc\/[^/]+\/environ$/.test(w);
  return (p === "cat" || p === "strings" || p === "tr" || p === "xargs") && (c.argv.slice(1).some(environ) || c.redirects.some((r) => r.op === "<" && environ(r.target)));
}

/** Variable names that hold credentials (as network.ts's SECRET_VAR, without the `$`). */
const SECRET_NAME = SECRET_NAME_RE;
/**
 * A command that starts the running script or shell again: `$0`, `./$0`, `"$0"`, `sh $0`. Put in the background or a
 * pipe, each copy starts more (`$0 & $0 &`, `./$0 | ./$0 &`).
 */
function runsItself(c: SimpleCommand): boolean {
  const self = (w: string | undefined) => w !== undefined && /^(?:\.\/)?\$\{?0\}?$/.test(w);
  return self(c.argv[0]) || (SHELLS.has(c.program) && self(c.argv.slice(1).find((w) => !w.startsWith("-"))));
}

/** Calls per line whose function body is read again with their arguments; past it the bodies are judged as written. */
const MAX_BOUND_CALLS = 16;
/** A body that reads its positional parameters ($1, "$@", ${2:-x}, $#). */
const USES_ARGS = /\$(?:[1-9@*#]|\{[#!]?[1-9@*#])/;

interface FunctionDef {
  body: Token[];
  /** Where the commands read at its definition sit in st.out. */
  outStart: number;
  outEnd: number;
  usesArgs: boolean;
  /** The directory before and after its definition was read (a `cd` in the body moved the reading, not the shell). */
  cwdBefore: string;
  cwdAfter: string;
  calls: number;
  /** A call could not be bound (unknown arguments, the cap): the definition's reading stays. */
  unbound: boolean;
}

/**
 * The text of a word made only of literal parts when expanding it (below) would give exactly that text as one
 * field: no leading `~` to keep a file of, no `[x]` bracket, no brace expansion, no quoted glob to escape.
 * Undefined for any other word, which takes the general walk.
 */
function plainLiteral(w: Word, split: boolean): string | undefined {
  const parts = w.parts;
  if (parts.length === 0) return undefined;
  let text = "";
  let quoted = 0;
  for (const p of parts) {
    if (p.k !== "lit") return undefined;
    if (text === "" && p.v.startsWith("~")) return undefined;
    if (p.quoted) quoted++;
    else if (split && p.v.includes("[")) return undefined;
    text += p.v;
  }
  if (!split) return text;
  if (quoted === parts.length) return text.includes("*") || text.includes("?") ? undefined : text;
  return quoted === 0 && w.raw.includes(",") && w.raw.includes("{") ? undefined : text;
}

export function basename(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}

/** Whether a name can end in `.exe` (any case): only then is the regex that drops it run. */
function endsInE(p: string): boolean {
  const c = p.charCodeAt(p.length - 1);
  return c === 101 || c === 69;
}

/** The literal output of `echo ...` / `printf ...`, or undefined when it is not a plain literal print. */
export function literalOutput(cmd: SimpleCommand): string | undefined {
  if (cmd.dynamic.some(Boolean) || cmd.redirects.some((r) => r.op.includes(">") && !r.op.includes("&"))) return undefined;
  const args = cmd.argv;
  if (cmd.program === "echo") {
    let interpret = false;
    // An index, not shift(): `echo -n -n -n ...` was quadratic.
    let i = 1;
    for (; i < args.length && /^-[neE]+$/.test(args[i] ?? ""); i++) if ((args[i] ?? "").includes("e")) interpret = true;
    const s = args.slice(i).join(" ");
    return interpret ? unescapeC(s) : s;
  }
  if (cmd.program === "cat" && args.length === 1) return cmd.redirects.find((r) => r.body !== undefined)?.body;
  if (cmd.program === "printf") {
    const fmt = args[1];
    if (fmt === undefined) return undefined;
    let k = 2;
    const once = () => unescapeC(fmt.replace(/%[sbd]|%%/g, (m) => (m === "%%" ? "%" : (args[k++] ?? ""))));
    let out = once();
    // printf reuses its format while arguments remain (`printf '%s\0' -rf ~`), a bounded number of times.
    for (let n = 0; k > 2 && k < args.length && n < 64; n++) out += once();
    return out;
  }
  return undefined;
}

/** echo -e / printf escapes: \n \t, \xHH, \NNN octal, \uHHHH and \UHHHHHHHH (`printf '\x72\x6d'` and `echo -e '\u0072\u006d'` are `rm`). */
function unescapeC(s: string): string {
  return s.replace(/\\(?:x([0-9a-fA-F]{1,2})|0?([0-7]{1,3})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|([nt]))/g, (_m, hex: string | undefined, oct: string | undefined, u: string | undefined, big: string | undefined, c: string | undefined) => {
    if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
    if (oct !== undefined) return String.fromCharCode(Number.parseInt(oct, 8));
    const cp = Number.parseInt(u ?? big ?? "", 16);
    if (!Number.isNaN(cp)) return cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
    return c === "n" ? "\n" : "\t";
  });
}

/** find actions that print something other than the paths found, or run a program. */
const FIND_PRINTS_OTHER = /^-(?:exec|execdir|ok|okdir|printf|fprintf|fprint0?|ls|fls)$/;

/** The paths `ls`/`find` would print, as words for `| xargs rm -rf`: what is listed (or below it), never more. */
function listedPaths(cmd: SimpleCommand): string | undefined {
  // `rg --files ~`, `fd . ~`: every file below each root.
  if ((cmd.program === "rg" && cmd.argv.includes("--files")) || ((cmd.program === "fd" || cmd.program === "fdfind") && !cmd.argv.some((w) => /^(?:-x|--exec|-X|--exec-batch)$/.test(w)))) {
    const ops = cmd.argv.slice(1).filter((w) => !w.startsWith("-"));
    const roots = cmd.program === "rg" ? ops : ops.slice(1);
    return (roots.length > 0 ? roots : ["."]).map((p) => `${p.replace(/\/+$/, "")}/{}`).join(" ");
  }
  if (cmd.program !== "ls" && cmd.program !== "find") return undefined;
  // `find . -exec echo / \;`, `-printf`, `ls -l` (a symlink's `-> /target`): what they print is not only the names listed.
  if (cmd.program === "find" ? cmd.argv.some((w) => FIND_PRINTS_OTHER.test(w)) : cmd.argv.some((w, k) => k > 0 && w.startsWith("-") && !/^-[1aAdrtSUvX]+$/.test(w))) return undefined;
  const ops = cmd.argv.slice(1).filter((w) => !w.startsWith("-"));
  if (cmd.program === "ls") {
    if (cmd.dynamic.some((d, i) => d && i > 0)) return undefined;
    const dirs = ops.length > 0 ? ops : ["."];
    const d = cmd.argv.some((w) => /^-[a-zA-Z]*d/.test(w));
    // `ls ~/.ssh/id_*`: a glob of names lists those names (a bare `*` may name directories, whose contents are listed).
    return dirs.map((p) => (d || /[*?[][^/]*$/.test(p.replace(/\/\*$/, "")) ? p : `${p.replace(/\/+$/, "")}/*`)).join(" ");
  }
  const k = cmd.argv.findIndex((w, i) => i > 0 && (w.startsWith("-") || w === "(" || w === "!"));
  // `find "$SRC_ROOT" -print0 | xargs -0 rm -rf`: a start point of unknown value lists paths no one can know.
  if (cmd.dynamic.some((d, i) => d && i > 0 && (k < 0 || i < k))) return undefined;
  const starts = (k < 0 ? cmd.argv.slice(1) : cmd.argv.slice(1, k)).filter((w) => !w.startsWith("-"));
  const filtered = k >= 0 && cmd.argv.slice(k).some((w) => w.startsWith("-") && !["-maxdepth", "-mindepth", "-print", "-print0", "-depth"].includes(w));
  // `find . -name .env`: each match is named by -name (below the start point).
  const n = cmd.argv.findIndex((w) => w === "-name" || w === "-iname");
  const named = n > 0 ? cmd.argv[n + 1] : undefined;
  const each = named !== undefined && named !== "*" && named !== "" && !named.includes("/") ? named : "{}";
  return (starts.length > 0 ? starts : ["."]).map((p) => (filtered ? `${p.replace(/\/+$/, "")}/${each}` : p)).join(" ");
}

/**
 * Where `mktemp` makes its file: `-t`/`--tmpdir` put the template under the temp dir, `-p DIR` under DIR, a bare
 * template is relative to the cwd (GNU); undefined when a word is unknown or not understood.
 */
function mktempPath(cmd: SimpleCommand, cwd: string): string | undefined {
  let dir: string | undefined;
  let template: string | undefined;
  for (let k = 1; k < cmd.argv.length; k++) {
    const w = cmd.argv[k] ?? "";
    if (cmd.dynamic[k]) return undefined;
    if (w === "-p" || w === "--tmpdir") {
      const next = cmd.argv[k + 1];
      // `--tmpdir TEMPLATE`: GNU's --tmpdir takes its value only attached.
      if (w === "-p" && next !== undefined) {
        if (cmd.dynamic[k + 1]) return undefined;
        dir = next;
        k++;
      } else dir = "/tmp";
    } else if (w.startsWith("--tmpdir=")) dir = w.slice(9);
    else if (/^-[dqu]*t[dqu]*$/.test(w)) dir ??= "/tmp";
    else if (/^-[dqu]+$/.test(w) || w.startsWith("--suffix=") || w === "--directory" || w === "--quiet" || w === "--dry-run") continue;
    else if (w.startsWith("-") || template !== undefined) return undefined;
    else template = w;
  }
  if (template === undefined) return `${dir ?? "/tmp"}/tmp.XXXXXXXXXX`;
  if (dir !== undefined) return `${dir.replace(/\/+$/, "")}/${template.replace(/^.*\//, "")}`;
  if (template.startsWith("/")) return template;
  return cwd === "" ? undefined : `${cwd}/${template}`;
}

/** What `docker run -d`/`docker create` print: a container id (hex, no path in it). */
const NEW_CONTAINER_ID = "0f3c9a1e7b2d";

/** `docker run -d IMG`, `docker container run --detach`, `podman create IMG`: a command whose output is a new container's id. */
function startsContainer(cmd: SimpleCommand): boolean {
  if (cmd.program !== "docker" && cmd.program !== "podman" && cmd.program !== "nerdctl") return false;
  const k = cmd.argv[1] === "container" ? 2 : 1;
  const verb = cmd.argv[k];
  if (verb === "create") return true;
  if (verb !== "run") return false;
  // Only the options before the image: a `-d` after it is the container's own command's (`run alpine ls -d /`).
  for (let i = k + 1; i < cmd.argv.length; i++) {
    const w = cmd.argv[i] ?? "";
    if (cmd.dynamic[i] || !w.startsWith("-") || w === "--") return false;
    if (w === "--detach" || w === "--detach=true" || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(w)) return true;
    if (RUN_VALUED.has(w)) i++;
  }
  return false;
}

/** `docker run` options that take the next word as their value (the rest are flags or carry it after `=`). */
const RUN_VALUED = new Set(["-e", "--env", "-v", "--volume", "-p", "--publish", "-w", "--workdir", "-u", "--user", "-l", "--label", "-m", "--memory", "-h", "--hostname", "--name", "--network", "--net", "--entrypoint", "--mount", "--platform", "--cpus", "--restart", "--add-host", "--env-file", "--cidfile", "--health-cmd", "--pull", "--shm-size", "--ulimit", "--log-driver", "--log-opt", "--device", "--tmpfs", "--cap-add", "--cap-drop", "--security-opt", "--stop-signal", "--gpus", "--ipc", "--pid", "--userns", "--dns", "--expose", "--link", "--volumes-from", "--label-file", "--pod"]);

/** The `>(...)` ranges of a command that has none (shared, never written). */
const NO_WRITES: readonly [number, number][] = [];


class Parser implements Unwrapper {
  readonly st: State;
  readonly gitAliases = new Map<string, string>();
  /** The variables of the command being unwrapped, for `eval`/`trap` (same shell). */
  private hereVars: Vars | undefined;
  /** Ranges of st.out made by `>(...)` substitutions of the words being expanded. */
  procWrites: [number, number][] = [];
  /** Functions defined on the line, by name: a call reads the body again with its arguments bound. */
  private readonly defs = new Map<string, FunctionDef>();
  /** Functions whose call is being read (a recursive call is not bound again). */
  private readonly calling = new Set<string>();
  /** Aliases defined on the line, by name. */
  private readonly aliases = new Map<string, string>();
  private readonly inAlias = new Set<string>();
  /** Hook directories set with `git config core.hooksPath` on the line. */
  private readonly hooksDirs = new Set<string>();
  private inHook = false;
  /** Programs copied or linked on the line, by the resolved path of the copy: `cp /bin/rm /tmp/r`. */
  private readonly copies = new Map<string, string>();
  /** Scripts written by a literal print on this line (`echo 'rm -rf ~' > x.sh`), by resolved path. */
  readonly written = new Map<string, string>();
  /** Descriptors `exec` opened on known text (`exec 3<<< 'rm -rf ~'`), by number. */
  private readonly fds = new Map<string, string>();
  /** Files a decoder wrote on this line (`base64 -d p.b64 > run.sh`), by resolved path: running one runs decoded data. */
  private readonly decodedFiles = new Map<string, SimpleCommand>();
  constructor(st: State) {
    this.st = st;
  }

  get home(): string {
    return this.st.home;
  }

  /**
   * Parses a nested script (sh -c, eval, heredoc) in its own scope, recording what it runs. Past the depth
   * cap the script is not read, and the line is judged too complex.
   */
  script(src: string, cwd: string, via: string, vars?: Vars): void {
    if (!this.st.scripts) return;
    if (this.st.depth >= SHELL_LIMITS.maxDepth) {
      this.note(limitNote(`scripts nested more than ${SHELL_LIMITS.maxDepth} deep (sh -c, eval, $(...))`));
      return;
    }
    const saved = this.st.via;
    this.st.via = [...saved, via];
    this.st.depth++;
    try {
      let tokens: Token[];
      try {
        tokens = lex(src, this.st.budget);
      } catch (err) {
        // `sh -c 'cmd /c "rmdir /S /Q D:\"'`: a nested cmd line bash cannot lex is read as cmd reads it, as on the top line.
        const requoted = err instanceof ShellLimitError ? undefined : requoteCmd(src);
        if (requoted === undefined) throw err;
        tokens = lex(requoted, this.st.budget);
      }
      this.run(tokens, { vars: vars ? vars.child() : new Vars(), cwd });
    } finally {
      this.st.depth--;
      this.st.via = saved;
    }
  }

  /** Variables the wrapper being unwrapped sets (its prefix, `env X=1`): the scripts it runs inherit them. */
  private outerEnv: string[] = [];

  /** Scripts set on this line (`npm pkg set scripts.x=..`), by name. */
  private readonly npmScripts = new Map<string, string>();
  /** Hooks already read where they were put in place: git running later does not read them twice. */
  private readonly plantedHooks = new Set<string>();

  /** A lifecycle script set on the line (`postinstall`, `prepare`) runs at the next install, whoever installs: read as if run. */
  private lifecycle(name: string, text: string, scope: Scope): void {
    if (/^(?:pre|post)?(?:install|prepare|uninstall|publish|pack)$|^prepublishOnly$|^dependencies$/.test(name) && text.trim() !== "") this.script(text, scope.cwd, `npm ${name} script (runs at the next install)`, scope.vars);
  }

  /**
   * `printf '[core]\n\tfsmonitor = CMD\n' >> .git/config`: a command key written into the repository's config runs at
   * its next git command, as `git config core.fsmonitor CMD` would make it; judged by what it runs.
   */
  private gitConfigWritten(path: string, text: string, scope: { cwd: string; vars: Vars }): void {
    let section = "";
    for (const raw of text.split("\n").slice(0, 64)) {
      let line = raw.trim();
      const h = /^\[\s*([\w.-]+)(?:\s+"([^"]*)")?\s*\]\s*(.*)$/.exec(line);
      if (h) {
        section = (h[2] !== undefined ? `${h[1]}.${h[2]}` : (h[1] ?? "")).toLowerCase();
        line = h[3] ?? "";
      }
      const kv = /^([\w-]+)\s*=\s*(.*)$/.exec(line);
      if (kv === null || section === "") continue;
      const key = `${section}.${(kv[1] ?? "").toLowerCase()}`;
      const value = (kv[2] ?? "").trim().replace(/^"(.*)"$/, "$1");
      if (value !== "" && (GIT_COMMAND_KEYS.test(key) || (key.startsWith("alias.") && value.startsWith("!")))) this.script(value.replace(/^!/, ""), scope.cwd, `git config ${key} (written into ${path})`, scope.vars);
    }
  }

  /** Text put in a file that runs on its own later in this project (a git hook, a direnv .envrc): read as if it ran. */
  private plantRunLater(path: string, text: string, scope: { cwd: string; vars: Vars }): void {
    if (this.inHook || scope.cwd === "" || this.plantedHooks.has(path) || !(/\/\.git\/hooks\/[\w.-]+$/.test(path) || /\/\.envrc$/.test(path) || [...this.hooksDirs].some((d) => path.startsWith(`${d}/`)))) return;
    this.inHook = true;
    this.plantedHooks.add(path);
    try {
      this.script(text, scope.cwd, `${/\.envrc$/.test(path) ? "direnv file" : "git hook"} ${path} (put in place)`, scope.vars);
    } finally {
      this.inHook = false;
    }
  }

  private packageScripts(argv: string[], scope: Scope): void {
    if (argv[0] === "npm" && argv[1] === "pkg" && argv[2] === "set") {
      for (const w of argv.slice(3)) {
        const m = /^scripts\.([\w:.-]+)=(.*)$/s.exec(w);
        if (m?.[1] !== undefined && m[2] !== undefined && this.npmScripts.size < 16) {
          this.npmScripts.set(m[1], m[2]);
          this.lifecycle(m[1], m[2], scope);
        }
      }
      return;
    }
    if (argv[0] === "npm" && argv[1] === "set-script" && argv[2] !== undefined && argv[3] !== undefined) {
      this.npmScripts.set(argv[2], argv[3]);
      this.lifecycle(argv[2], argv[3], scope);
      return;
    }
    if (scope.cwd === "") return;
    // No script set and no file printed on the line (nearly every npm/bun/yarn command): nothing below can be known to run.
    if (this.written.size === 0 && this.npmScripts.size === 0) return;
    // `deno task x` after a deno.json printed on the line: the task's command runs.
    if (argv[0] === "deno") {
      const text = this.written.get(resolvePath("deno.json", scope.cwd, this.st.home)) ?? this.written.get(resolvePath("deno.jsonc", scope.cwd, this.st.home));
      const name = argv.slice(2).find((w) => !w.startsWith("-"));
      if (text === undefined || name === undefined || argv[1] !== "task") return;
      try {
        const tasks: unknown = (JSON.parse(text) as { tasks?: unknown }).tasks;
        const task: unknown = tasks !== null && typeof tasks === "object" ? (tasks as Record<string, unknown>)[name] : undefined;
        const line = typeof task === "string" ? task : task !== null && typeof task === "object" ? (task as { command?: unknown }).command : undefined;
        if (typeof line === "string" && line !== "") this.script(line, scope.cwd, `deno task ${name}`, scope.vars);
      } catch {
        // Not JSON: nothing known to run.
      }
      return;
    }
    // A package.json printed on the line is the manifest the package manager reads.
    const manifest = this.written.get(resolvePath("package.json", scope.cwd, this.st.home));
    let written: Record<string, unknown> = {};
    if (manifest !== undefined) {
      try {
        const parsed: unknown = JSON.parse(manifest);
        const scripts = parsed !== null && typeof parsed === "object" ? (parsed as { scripts?: unknown }).scripts : undefined;
        if (scripts !== null && typeof scripts === "object") written = scripts as Record<string, unknown>;
      } catch {
        written = {};
      }
    }
    const lookup = (name: string): string | undefined => {
      const w = written[name];
      return this.npmScripts.get(name) ?? (typeof w === "string" ? w : undefined);
    };
    const verb = argv[1] ?? "";
    const names = /^(?:install|i|ci|add)$/.test(verb) && argv.length <= 3 ? ["preinstall", "install", "postinstall", "prepare"] : verb === "run" || verb === "run-script" ? [argv.find((w, k) => k > 1 && !w.startsWith("-")) ?? ""] : /^(?:test|start|stop|restart)$/.test(verb) ? [verb] : argv[0] !== "npm" && !verb.startsWith("-") ? [verb] : [];
    const run = new Set<string>();
    for (const name of names) for (const n of [`pre${name}`, name, `post${name}`]) run.add(n);
    {
      for (const n of run) {
        const text = lookup(n);
        if (text !== undefined && text !== "") this.script(text, scope.cwd, `${argv[0] ?? ""} script ${n}`, scope.vars);
      }
    }
  }

  /** `cat <(echo rm -rf ~) | sh`: cat of one file printed literally on this line passes that text on. */
  private catWritten(cmd: SimpleCommand): string | undefined {
    if (cmd.program !== "cat" || cmd.argv.length !== 2 || ((cmd.dynamic[1] ?? false) && cmd.argv[1] !== "/dev/fd/63") || this.written.size === 0 || cmd.cwd === "") return undefined;
    return this.written.get(resolvePath(cmd.argv[1] ?? "", cmd.cwd, this.st.home));
  }

  writtenText(path: string): string | undefined {
    return this.written.get(path);
  }

  /** What a group of literal prints writes into the file its redirection names. */
  private groupWritten(group: SimpleCommand[], redirs: Token[], scope: Scope): string | undefined {
    if (scope.cwd === "" || group.length === 0 || group.length > 64) return undefined;
    const texts: string[] = [];
    for (const c of group) {
      const t = literalOutput(c);
      if (t === undefined) return undefined;
      texts.push(c.program === "echo" && !t.endsWith("\n") ? `${t}\n` : t);
    }
    for (const t of redirs) {
      if (t.t !== "redir" || !(t.r.op === ">" || t.r.op === ">>" || t.r.op === ">|") || t.r.fd === "2" || !t.r.target || this.written.size >= 64) continue;
      const target = resolveTarget(this.expand(t.r.target, scope, false).fields.map((f) => f.text).join(""), scope.cwd, this.st.home);
      this.written.set(target, (t.r.op === ">>" ? (this.written.get(target) ?? "") : "") + texts.join(""));
    }
    return texts.join("");
  }

  /** What `tee FILE.. <<< text` (or a heredoc, or a literal piped in) puts in each file, appended with `-a`. */
  private teeWritten(cmd: SimpleCommand, cwd: string, piped: string | undefined): void {
    const r = cmd.redirects.find((x) => x.body !== undefined || x.op === "<<<");
    if (r === undefined && piped === undefined) return;
    const text = r === undefined ? `${piped ?? ""}\n` : (r.body ?? `${r.target}\n`);
    const append = cmd.argv.slice(1).some((w) => w === "--append" || /^-[a-z]*a/.test(w));
    for (const w of cmd.argv.slice(1)) {
      if (w.startsWith("-") || this.written.size >= 64) continue;
      const path = resolvePath(w, cwd, this.st.home);
      this.written.set(path, append ? (this.written.get(path) ?? "") + text : text);
    }
  }

  hasWritten(): boolean {
    return this.written.size > 0;
  }

  scriptWithArgs(src: string, cwd: string, via: string, args: string[]): void {
    const vars = new Vars();
    const rest = args.slice(1);
    vars.set("0", args[0] ?? "");
    for (let k = 1; k <= 9; k++) vars.set(String(k), rest[k - 1] ?? "");
    // Joined by spaces, "$@" would split an argument holding one; such a list stays unknown.
    if (!rest.some((w) => /\s/.test(w))) {
      vars.set("@", rest.join(" "));
      vars.set("*", rest.join(" "));
      this.st.lists.add("@");
    }
    vars.set("#", String(rest.length));
    this.script(src, cwd, via, vars);
  }

  scriptHere(src: string, cwd: string, via: string): void {
    this.script(src, cwd, via, this.hereVars);
  }

  /** A Windows script (PowerShell or cmd.exe) in its own scope, under the same depth cap as `sh -c`. */
  private windows(src: string, cwd: string, via: string, read: typeof readPowerShell): void {
    if (!this.st.scripts) return;
    if (this.st.depth >= SHELL_LIMITS.maxDepth) {
      this.note(limitNote(`scripts nested more than ${SHELL_LIMITS.maxDepth} deep (sh -c, eval, $(...))`));
      return;
    }
    this.st.budget.words -= Math.ceil(src.length / 8);
    if (this.st.budget.words < 0) throw new ShellLimitError(limitNote(`more than ${SHELL_LIMITS.maxWords} words`));
    const saved = this.st.via;
    this.st.via = [...saved, via];
    this.st.depth++;
    try {
      read(src, cwd, this.st.via, {
        home: this.st.home,
        run: (c) => unwrap(c, this, undefined),
        powershell: (s2, c2, v2) => this.powershell(s2, c2, v2),
        cmdLine: (s2, c2, v2) => this.cmdLine(s2, c2, v2),
        written: (path) => this.written.get(path),
        write: (path, text) => {
          if (this.written.size < 64) this.written.set(path, text);
          this.plantRunLater(path, text, { cwd, vars: new Vars() });
        },
        note: (why) => this.note(why),
      });
    } finally {
      this.st.depth--;
      this.st.via = saved;
    }
  }

  powershell(src: string, cwd: string, via: string): void {
    this.windows(src, cwd, via, readPowerShell);
  }

  cmdLine(src: string, cwd: string, via: string): void {
    this.windows(src, cwd, via, readCmd);
  }

  emit(cmd: SimpleCommand): void {
    if (this.st.out.length >= SHELL_LIMITS.maxCommands) throw new ShellLimitError(limitNote(`more than ${SHELL_LIMITS.maxCommands} simple commands`));
    this.st.out.push(cmd);
  }

  /** Commands of `$(...)` in st.out[from, to) whose output goes straight into the variable being assigned. */
  private markCaptured(from: number, to: number): void {
    for (let j = from; j < to; j++) {
      const c = this.st.out[j] as SimpleCommand;
      if (c.via.length === this.st.via.length + 1 && c.via[c.via.length - 1] === "$(...)" && c.pipeTo.length === 0) c.captured = true;
    }
  }

  note(why: string): void {
    this.st.limit ??= why;
  }

  /** Charges text a value adds to the line when expanded; values can double per assignment. */
  private spend(chars: number): void {
    this.st.expansion -= chars;
    if (this.st.expansion < 0) throw new ShellLimitError(limitNote(`variables expand to more than ${SHELL_LIMITS.maxExpansion} characters`));
  }

  /** Runs a command substitution's inner script and returns its literal output when it is a plain echo/printf. */
  private substitute(src: string, scope: Scope, proc: boolean): string | undefined {
    const before = this.st.out.length;
    this.script(src, scope.cwd, proc ? "<(...)" : "$(...)", scope.vars);
    const inner = this.st.out.slice(before).filter((c) => c.via.length === this.st.via.length + 1);
    if (proc) {
      // `source <(echo 'rm -rf ~')`: what a literal print writes is the file the reader gets.
      const printed = inner.length === 1 && inner[0] ? literalOutput(inner[0]) : undefined;
      if (printed !== undefined && this.written.size < 64) this.written.set("/dev/fd/63", printed);
      return undefined;
    }
    const tail = inner[inner.length - 1];
    // `$(cd .. && pwd)`: pwd prints where the cds went.
    if (tail?.program === "pwd" && tail.argv.length === 1 && tail.cwd !== "" && inner.every((c) => c.program === "cd" || c.program === "pwd")) return tail.cwd;
    // `$(echo cm0= | base64 -d)`, `$(rev <<< $x)`: a literal decoded is known text.
    const decoded = decodedOutput(inner);
    if (decoded !== undefined) return decoded;
    if (inner.length !== 1) return undefined;
    const only = inner[0];
    if (only?.program === "pwd" && only.argv.length === 1 && scope.cwd !== "") return scope.cwd;
    // `$(git rev-parse --show-toplevel)`: the repository the cwd is in, taken as the cwd's own tree.
    if (only?.program === "git" && only.argv[1] === "rev-parse" && only.argv.includes("--show-toplevel") && scope.cwd !== "") return scope.cwd;
    // A fresh temporary directory or file: somewhere under the temp dir, whatever its name.
    if (only?.program === "mktemp") return mktempPath(only, scope.cwd);
    // `cid=$(docker run -d postgres)`, `$(podman create img)`: the id of the one container it just made.
    if (only && startsContainer(only)) return NEW_CONTAINER_ID;
    // `"$(which rm)" -rf ~`: the program found on PATH is the one named.
    if (only && (only.program === "realpath" || (only.program === "readlink" && only.argv.includes("-f")))) {
      const p = only.argv[only.argv.length - 1];
      if (p !== undefined && p.startsWith("/")) return p;
    }
    // `$(basename /bin/rm) -rf ~`: the last part of a literal path.
    if (only?.program === "basename" && only.argv.length === 2 && /^[\w./+-]+$/.test(only.argv[1] ?? "")) return (only.argv[1] ?? "").replace(/\/+$/, "").replace(/^.*\//, "");
    if (only && (only.program === "which" || (only.program === "command" && (only.argv[1] === "-v" || only.argv[1] === "-V")) || (only.program === "type" && only.argv[1] === "-P"))) {
      const name = only.argv[only.argv.length - 1];
      // A file somewhere on PATH: run as a program it is that program; named as a path it is that binary.
      if (name !== undefined && /^[\w.+-]+$/.test(name)) return `${ON_PATH_DIR}/${name}`;
    }
    // `<<< "$(ls -d packages/*/dist)"`, `rm -rf $(find . -name node_modules)`: the paths a listing prints, as `| xargs` reads them.
    return only ? (literalOutput(only)?.replace(/\n+$/, "") ?? (only.redirects.every((r) => r.fd === "2" || r.op === "2>") ? listedPaths(only) : undefined)) : undefined;
  }

  /** Expands a word into fields: quotes removed, variables and literal substitutions filled in, unquoted results split. */
  expand(w: Word, scope: Scope, split = true): { fields: Field[]; subs: string[] } {
    // Most words are literals (`-rf`, 'a b', "x") with nothing in them to expand, split or escape: one field.
    const plain = plainLiteral(w, split);
    if (plain !== undefined) return { fields: [{ text: plain, dynamic: false }], subs: [] };
    // `{rm,-rf,$HOME/.ssh}`: a variable known on the line inside a brace group is its value there.
    // `"$HOME"/.{netrc,npmrc}`: a quoted variable is one piece of the word, braces outside the quotes still expand.
    if (split && w.raw.includes(",") && w.raw.includes("{") && w.parts.some((p) => p.k === "var") && w.parts.every((p) => (p.k === "lit" && (!p.quoted || p.v === "")) || p.k === "tilde" || p.k === "var")) {
      const texts = w.parts.map((p) => (p.k === "lit" ? p.v : p.k === "tilde" ? `~${p.user}` : p.k === "var" ? (/^\{?HOME\}?$/.test(p.name) ? (scope.vars.get("HOME") ?? this.st.home) : scope.vars.get(p.name)) : undefined));
      const plainValue = (t: string, j: number) => {
        const q = w.parts[j];
        return q?.k !== "var" || !(q.quoted ? /[{},\s*?[\]~]/ : /[{},\s]/).test(t);
      };
      if (texts.every((t, j) => t !== undefined && plainValue(t, j))) {
        const raw = texts.join("");
        if (raw.length <= BRACE_MAX_WORD) w = { parts: [{ k: "lit", v: raw, quoted: false }], raw };
      }
    }
    // `rm -rf {~,/tmp/x}`, `{rm,-rf,~}`: brace expansion of an unquoted literal word, before tildes.
    if (split && w.raw.includes(",") && w.raw.includes("{") && w.parts.every((p) => (p.k === "lit" && !p.quoted) || p.k === "tilde")) {
      // Bounded: a word past 1 KiB or with more than 8 groups is not expanded, and the line is judged too complex.
      if (w.raw.length > BRACE_MAX_WORD) this.note(limitNote(`a brace-expanded word longer than ${BRACE_MAX_WORD} characters`));
      const items = w.raw.length > BRACE_MAX_WORD ? [] : braceExpand(w.raw, SHELL_LIMITS.maxWrappers);
      if (items.length === 0 && w.raw.length <= BRACE_MAX_WORD) this.note(limitNote(`a word with more than ${BRACE_MAX_GROUPS} brace groups`));
      if (items.length > 1) {
        this.spend(items.reduce((n, x) => n + x.length, 0));
        this.st.budget.words -= items.length - 1;
        if (this.st.budget.words < 0) throw new ShellLimitError(limitNote(`more than ${SHELL_LIMITS.maxWords} words`));
        return { fields: items.map((x) => ({ text: x === "~" || x.startsWith("~/") ? this.st.home + x.slice(1) : x.startsWith("~") ? x : x, dynamic: false })), subs: [] };
      }
    }
    const fields: Field[] = [];
    const subs: string[] = [];
    let cur = "";
    let dyn = false;
    let started = false;
    const pushUnquoted = (value: string) => {
      if (!split) {
        cur += value;
        started = true;
        return;
      }
      // `IFS=,; x=rm,-rf,~; $x`: an IFS set on the line is what unquoted values split on.
      const ifs = scope.vars.get("IFS");
      const pieces = value.split(ifs === undefined ? /[ \t\n]+/ : ifs === "" ? /$^/ : new RegExp(`[${ifs.replace(/[\\\]^-]/g, "\\$&")}]+`));
      // Each field a value splits into is one more word of the line.
      this.st.budget.words -= pieces.length - 1;
      if (this.st.budget.words < 0) throw new ShellLimitError(limitNote(`more than ${SHELL_LIMITS.maxWords} words`));
      pieces.forEach((piece, idx) => {
        if (idx > 0 && started) {
          fields.push({ text: cur, dynamic: dyn });
          cur = "";
          dyn = false;
          started = false;
        }
        if (piece !== "") {
          cur += piece;
          started = true;
        }
      });
    };
    for (const p of w.parts) {
      switch (p.k) {
        case "lit":
          // A quoted `'~'` is a file named ~ in the cwd, not the home directory.
          // `\~` too: an unquoted tilde that expands is a tilde part, never a literal.
          if ((p.quoted || split) && cur === "" && p.v.startsWith("~")) cur += "./";
          // `/home/use[r]`, `/usr/bin/[r]m`: a bracket of one character matches only that character.
          cur += split && !p.quoted && p.v.includes("[") ? p.v.replace(/\[([^\]!^\\[])\]/g, "$1") : p.v;
          started = true;
          break;
        case "tilde":
          // `HOME=/tmp/h; rm -rf ~/` deletes /tmp/h: a bare tilde is $HOME as set on the line.
          cur += p.user === "" ? (scope.vars.get("HOME") ?? this.st.home) : `~${p.user}`;
          started = true;
          break;
        case "var": {
          // `"${arr[@]}"`, `${arr[0]}`-free forms: an array set on the line, as its words.
          const name = /^\{?([A-Za-z_]\w*)\[[@*]\]\}?$/.exec(p.name)?.[1] ?? p.name;
          // `curl x | $SHELL`: the login shell, a shell whatever its name.
          const lookup = (n: string) => (n === "HOME" ? (scope.vars.get("HOME") ?? this.st.home) : n === "PWD" && scope.cwd !== "" ? scope.cwd : n === "SHELL" ? (scope.vars.get(n) ?? "/bin/sh") : scope.vars.get(n));
          // `${x@P}` expands x as a prompt: its `\140...\140` or `$(...)` run (`x='\140rm -rf ~\140'; echo "${x@P}"`).
          const prompt = /^\{([A-Za-z_]\w*)@P\}$/.exec(name)?.[1];
          const promptValue = prompt === undefined ? undefined : lookup(prompt);
          if (promptValue !== undefined) {
            const decoded = decodePrompt(promptValue);
            if (decoded.includes("$(") || decoded.includes("`")) for (const inner of arithSubs(decoded)) this.script(inner, scope.cwd, "${...@P}", scope.vars);
            this.spend(decoded.length);
            cur += decoded;
            started = true;
            break;
          }
          const known = paramValue(name, lookup);
          if (known !== undefined) {
            this.spend(known.length);
            if (p.quoted && !this.st.lists.has(name)) {
              cur += known;
              started = true;
            } else pushUnquoted(known);
          } else if ((name === "@" || name === "*" || name === "{@}" || name === "{*}") && w.parts.length > 1) {
            // `curl x | ba${@}sh`, `b$*ash`: no positional parameters are set, so glued into a word they add nothing.
          } else if ((name === "IFS" || /^\{IFS(?:[:#%/^,}]|$)/.test(name)) && !p.quoted) {
            // `rm${IFS}-rf${IFS}/`: an unset IFS is blank, tab and newline; unquoted, it separates words.
            pushUnquoted(" ");
          } else if (p.def !== undefined && SECRET_NAME.test(name.replace(/^\{|[:#%/^,}].*$/g, "")) && !p.def.includes("$(") && !p.def.includes("`")) {
            // `${NPM_TOKEN:-}`: a credential's name is set in the agent's environment far more often than not; its value, not the default, is what goes out.
            cur += `\${${name.replace(/^\{|[:#%/^,}].*$/g, "")}}`;
            dyn = true;
            started = true;
          } else if (p.def !== undefined) {
            // `${x:-$(rm -rf ~)}`: an unset variable's default runs its substitutions.
            if (p.def.includes("$(") || p.def.includes("`")) for (const inner of arithSubs(p.def)) this.script(inner, scope.cwd, "${...}", scope.vars);
            const d = this.expand({ parts: [{ k: "lit", v: p.def, quoted: p.quoted }], raw: p.def }, scope, false);
            // `${x=v}` also sets x: a later `${x@P}` or `$x` on the line reads v.
            if (p.assign === true) scope.vars.set(name, d.fields.map((f) => f.text).join(""));
            cur += d.fields.map((f) => f.text).join("");
            started = true;
          } else {
            cur += p.name.startsWith("{") ? `\${${p.name.slice(1, -1)}}` : `$${p.name}`;
            dyn = true;
            started = true;
          }
          break;
        }
        case "sub": {
          subs.push(p.src);
          const w0 = this.st.out.length;
          const value = this.substitute(p.src, scope, p.proc);
          if (p.write && this.st.out.length > w0) this.procWrites.push([w0, this.st.out.length]);
          if (value !== undefined) {
            this.spend(value.length);
            if (p.quoted) {
              cur += value;
              started = true;
            } else pushUnquoted(value);
          } else {
            cur += p.proc ? "/dev/fd/63" : `$(${p.src})`;
            dyn = true;
            started = true;
          }
          break;
        }
      }
    }
    // `rm -rf '*'`: a quoted glob is a file of that name, not every file.
    if (started && split && w.parts.length > 0 && w.parts.every((x) => x.k === "lit" && x.quoted) && /^[.*?]*[*?][.*?]*$/.test(cur)) cur = cur.replace(/[*?]/g, "\\$&");
    // `~/.`, `$HOME//.ssh`, `"${HOME}"/./.bashrc`: a path that starts at the home is the same path with its `.` and empty steps dropped.
    const head = w.parts.find((x) => !(x.k === "lit" && x.quoted && x.v === ""));
    if (started && fields.length === 0 && head !== undefined && ((head.k === "tilde" && head.user === "") || (head.k === "var" && /^\{?HOME\}?$/.test(head.name)))) cur = tidyPath(cur);
    if (started) fields.push({ text: cur, dynamic: dyn });
    return { fields, subs };
  }

  /** Walks the token list, cutting it into simple commands. */
  run(tokens: Token[], scope: Scope): void {
    const stack: Scope[] = [];
    let words: Word[] = [];
    let redirs: Token[] = [];
    let pipeline: SimpleCommand[][] = [];
    let skipToSep = false;
    let caseDepth = 0;
    let casePattern = false;
    let inTest = false;
    let skipCase = false;
    // `for NAME in WORDS`: the words are the variable's values.
    let forName: string | undefined;
    let forWords: Word[] | undefined;
    let forState: "name" | "in" | "list" | undefined;
    /** Per open loop: whether it never ends (`while true`, `while :`, `until false`). */
    const loops: boolean[] = [];
    let pendingCond = false;
    /** Functions whose body is being read, with the brace depth it opened at: a call of one inside its own body recurses. */
    /** `paren`: a body written as a subshell (`f() ( ... )`) ends at its `)`, at this subshell depth. */
    const openFns: { name: string; depth: number; tokStart: number; outStart: number; cwd: string; paren?: number }[] = [];
    const closeFn = (idx: number) => {
      const fn = openFns.pop();
      if (fn === undefined || fn.name === "" || defs.size >= MAX_BOUND_CALLS) return;
      const body = tokens.slice(fn.tokStart, idx + 1);
      defs.set(fn.name, { body, outStart: fn.outStart, outEnd: this.st.out.length, usesArgs: body.some((t) => t.t === "w" && USES_ARGS.test(t.w.raw)), cwdBefore: fn.cwd, cwdAfter: scope.cwd, calls: 0, unbound: false });
    };
    const defs = this.defs;
    let braces = 0;
    /** Where each open `( ... )` / `{ ...; }` began in st.out, and the commands of the one just closed (`{ curl x; } | sh`). */
    const groupStarts: number[] = [];
    /** Per open group: the pipeline that feeds it (`curl x | (cd /tmp && sh)`), set aside while the group is read. */
    const feeding: (SimpleCommand[][] | undefined)[] = [];
    const openGroup = () => {
      groupStarts.push(this.st.out.length);
      feeding.push(pipeline.length > 0 ? pipeline : undefined);
      if (pipeline.length > 0) pipeline = [];
    };
    const closeGroup = () => {
      const start = groupStarts.pop();
      const fed = feeding.pop();
      if (start === undefined) return;
      const inside = this.st.out.slice(start).filter((c) => c.via === this.st.via);
      if (fed) {
        // The group reads the pipe: it is the next stage, and what it starts can go on feeding a later one.
        fed.push(inside);
        pipeline = fed;
        return;
      }
      lastGroup = inside;
    };
    let lastGroup: SimpleCommand[] | undefined;

    const endPipeline = () => {
      if (pipeline.length > 1) this.feedPipeline(pipeline);
      pipeline = [];
    };

    const finish = (nextOp: string | undefined) => {
      skipToSep = false;
      if (forState !== undefined) {
        if (forName !== undefined && forWords !== undefined) {
          const values: string[] = [];
          // `for f in $(find $HOME ..)`: an unresolved listing of the home is the same listing whatever the spelling of the home.
          const homeSet = scope.vars.get("HOME") !== undefined;
          let unset = false;
          for (const w of forWords) {
            for (const f of this.expand(w, scope).fields) {
              values.push(f.dynamic && !homeSet ? f.text.replace(/(^|[\s(])"?\$\{?HOME\}?"?(?=[/\s)]|$)/g, "$1~") : f.text);
              // `for d in coverage "$REPORT_DIR"`: an item that is a variable of unknown value leaves the loop's variable unknown;
              // `for wt in $(git worktree list ..)`: so does a command's output, whose words are not the text of the command.
              if (f.dynamic && /^(?:\$\{?(?!HOME\b|PWD\b)[A-Za-z_]\w*\}?(?:\/|$)|\$\(|`)/.test(values[values.length - 1] ?? "")) unset = true;
            }
          }
          // Unknown, but set by this line: a later `kill $p` of it is a kill of what the line looked up, not of a variable
          // the line does not set.
          if (unset) {
            scope.vars.delete(forName);
            noteEnv(this.st, forName);
          }
          else {
            scope.vars.set(forName, values.join(" "));
            this.st.lists.add(forName);
          }
        }
        forState = undefined;
        forName = undefined;
        forWords = undefined;
      }
      if (words.length === 0 && redirs.length === 0 && lastGroup !== undefined && (nextOp === "|" || nextOp === "|&")) {
        // A group or subshell as a pipeline stage: each command in it writes to the pipe.
        pipeline.push(lastGroup);
        lastGroup = undefined;
        return;
      }
      // `{ echo '#!/bin/sh'; echo 'rm -rf ~'; } > x.sh`, `(echo a; echo b) > f`: what the group prints goes to the file.
      const groupText = words.length === 0 && redirs.length > 0 && lastGroup !== undefined ? this.groupWritten(lastGroup, redirs, scope) : undefined;
      lastGroup = undefined;
      if (words.length === 0 && redirs.length === 0) {
        // `while :; do (:) & done`: a subshell put in the background, forever.
        const lastCmd = this.st.out[this.st.out.length - 1];
        if (nextOp === "&" && loops.includes(true) && lastCmd) lastCmd.selfSpawn = true;
        return;
      }
      const stage = this.finishCommand(words, redirs, scope, pipeline);
      // `{ echo a; echo b; } >> f`: the bare redirection writes what the group printed.
      if (groupText !== undefined) for (const c of Array.isArray(stage) ? stage : []) if (c.program === "") c.stdinText = groupText;
      const first = stage.find((c) => c.via === this.st.via) ?? stage[0];
      if (first) {
        if (pendingCond) {
          const p = first.program;
          // `until [ 0 = 1 ]`: a comparison of two different literals never changes.
          const fixed = p === "[" && first.argv.length === 5 && !first.dynamic.some(Boolean) && /^(?:=|==|-eq)$/.test(first.argv[2] ?? "") && first.argv[1] !== first.argv[3];
          // `yes | while read -r l; do ... & done`: a read of an endless producer never ends the loop.
          const fedForever = p === "read" && pipeline.some((st) => st.some((c) => c.program === "yes" || (c.program === "seq" && c.argv.some((w) => /^[+]?inf/i.test(w))) || (c.program === "cat" && /^\/dev\/(?:zero|u?random)$/.test(c.argv[1] ?? ""))));
          if (loops.length > 0) loops[loops.length - 1] = p === "true" || p === ":" || (p === "[" && first.argv.length === 3) || p === "false" || fixed || fedForever;
          pendingCond = false;
        }
        const spawns = nextOp === "&" || nextOp === "|" || nextOp === "|&" || pipeline.length > 0;
        if ((spawns && (openFns.some((f) => f.name === first.program) || runsItself(first))) || (nextOp === "&" && loops.includes(true))) first.selfSpawn = true;
        const def = defs.get(first.argv[0] ?? "");
        // A call inside another function's definition is bound when that function is called.
        if (def?.usesArgs && first.via === this.st.via && openFns.length === 0) this.callFunction(first, def, scope);
      }
      words = [];
      redirs = [];
      pipeline.push(stage);
      if (nextOp !== "|" && nextOp !== "|&") endPipeline();
    };

    for (let idx = 0; idx < tokens.length; idx++) {
      const tok = tokens[idx];
      if (!tok) continue;
      if (inTest) {
        if (tok.t === "w" && tok.w.raw === "]]") inTest = false;
        continue;
      }
      if (tok.t === "op") {
        const v = tok.v;
        if (v === "(" && words.length === 1 && redirs.length === 0 && tokens[idx + 1]?.t === "op") {
          // Function definition `name() ...`: the name is not a command.
          openFns.push({ name: words[0]?.raw ?? "", depth: braces, tokStart: idx + 2, outStart: this.st.out.length, cwd: scope.cwd });
          words = [];
          idx++;
          continue;
        }
        if (casePattern && v === "(") continue;
        if (casePattern && v === ")") {
          casePattern = false;
          continue;
        }
        finish(v);
        if (v === "(") {
          if (stack.length >= SHELL_LIMITS.maxNesting) throw new ShellLimitError(limitNote(`subshells nested more than ${SHELL_LIMITS.maxNesting} deep`));
          const fnTop = openFns[openFns.length - 1];
          // Not the `()` of `function z() {`: an empty pair is the name's, not a body.
          const after = tokens[idx + 1];
          const isOp = (t: Token | undefined, v: string) => t?.t === "op" && t.v === v;
          const bodyAt = fnTop === undefined ? -1 : isOp(tokens[fnTop.tokStart], "(") && isOp(tokens[fnTop.tokStart + 1], ")") ? fnTop.tokStart + 2 : fnTop.tokStart;
          if (fnTop !== undefined && bodyAt === idx && fnTop.paren === undefined && !isOp(after, ")")) fnTop.paren = stack.length;
          stack.push(scope);
          scope = { vars: scope.vars.child(), cwd: scope.cwd, ...(scope.oldCwd !== undefined ? { oldCwd: scope.oldCwd } : {}) };
          openGroup();
        } else if (v === ")") {
          scope = stack.pop() ?? scope;
          closeGroup();
          if (openFns[openFns.length - 1]?.paren === stack.length) closeFn(idx);
        } else if (v === ";;") {
          casePattern = caseDepth > 0;
        }
        if (v !== "|" && v !== "|&" && v !== "(" && v !== ")") endPipeline();
        continue;
      }
      if (tok.t === "arith") {
        // `for ((;;))`: a C-style loop with no condition never ends.
        if (forState === "name" && /^\s*[^;]*;\s*;/.test(tok.src) && loops.length > 0) loops[loops.length - 1] = true;
        // `for (( ; ; )) do`: the loop header ends with the arithmetic, no `;` needed before `do`.
        if (forState === "name") forState = "list";
        // `(( $(rm -rf ~) ))`: the arithmetic runs its command substitutions.
        for (const inner of arithSubs(tok.src)) this.script(inner, scope.cwd, "((...))", scope.vars);
        continue;
      }
      if (tok.t === "redir") {
        if (!casePattern && !skipToSep) redirs.push(tok);
        continue;
      }
      const raw = tok.w.raw;
      if (casePattern) {
        if (raw === "esac") {
          caseDepth--;
          casePattern = false;
        }
        continue;
      }
      if (skipToSep) {
        if (forState === "name") {
          forName = /^[A-Za-z_]\w*$/.test(raw) ? raw : undefined;
          forState = "in";
          continue;
        }
        if (forState === "in" && raw === "in") {
          forState = "list";
          forWords = [];
          continue;
        }
        if (forState === "list" && raw !== "do") {
          forWords?.push(tok.w);
          continue;
        }
        if (raw === "in" && caseDepth > 0 && skipCase) {
          skipCase = false;
          skipToSep = false;
          casePattern = true;
        } else if (raw === "do") skipToSep = false;
        continue;
      }
      if (words.length === 0 && redirs.length === 0) {
        if (raw === "esac") {
          caseDepth = Math.max(0, caseDepth - 1);
          continue;
        }
        if (raw === "while" || raw === "until") {
          loops.push(false);
          pendingCond = true;
        } else if (raw === "done") loops.pop();
        else if (raw === "{") {
          braces++;
          openGroup();
        } else if (raw === "}") {
          braces--;
          closeGroup();
          while (openFns.length > 0 && openFns[openFns.length - 1]?.paren === undefined && (openFns[openFns.length - 1]?.depth ?? -1) >= braces) closeFn(idx);
        }
        if (RESERVED_SKIP.has(raw)) continue;
        if (raw === "[[") {
          inTest = true;
          continue;
        }
        if (raw === "for" || raw === "select") {
          skipToSep = true;
          loops.push(false);
          forState = "name";
          continue;
        }
        if (raw === "case") {
          caseDepth++;
          skipToSep = true;
          skipCase = true;
          continue;
        }
        if (raw === "function") {
          const next = tokens[idx + 1];
          idx++;
          if (next?.t === "w") openFns.push({ name: next.w.raw.replace(/\(\)$/, ""), depth: braces, tokStart: idx + 1, outStart: this.st.out.length, cwd: scope.cwd });
          continue;
        }
      }
      words.push(tok.w);
    }
    finish(undefined);
    endPipeline();
  }

  /**
   * `f(){ rm -rf "$1"; }; f build`: the body is judged with its calls' arguments, not as written with $1
   * unknown. A function never called, or called in a way not bound, keeps the reading at its definition.
   */
  supersededBodies(): Set<SimpleCommand> {
    const dropped = new Set<SimpleCommand>();
    for (const def of this.defs.values()) {
      if (def.calls === 0 || def.unbound) continue;
      for (let k = def.outStart; k < def.outEnd; k++) {
        const c = this.st.out[k];
        if (c && !c.selfSpawn) dropped.add(c);
      }
    }
    return dropped;
  }

  /** Reads a function's body again with a call's arguments as $1.. and "$@" (bounded per line and by depth). */
  private callFunction(call: SimpleCommand, def: FunctionDef, scope: Scope): void {
    const calling = this.calling;
    const name = call.argv[0] ?? "";
    def.calls++;
    const args = call.argv.slice(1);
    if (calling.has(name) || call.dynamic.slice(1).some(Boolean) || args.length > 9 || args.some((w) => /\s/.test(w)) || this.st.boundCalls >= MAX_BOUND_CALLS || this.st.depth >= SHELL_LIMITS.maxDepth) {
      def.unbound = true;
      return;
    }
    this.st.boundCalls++;
    const vars = scope.vars.child();
    for (let k = 1; k <= 9; k++) vars.set(String(k), args[k - 1] ?? "");
    vars.set("@", args.join(" "));
    vars.set("*", args.join(" "));
    vars.set("#", String(args.length));
    this.st.lists.add("@");
    calling.add(name);
    this.st.depth++;
    // Still where the definition's reading left it: the call starts where the shell really is.
    const cwd = scope.cwd === def.cwdAfter ? def.cwdBefore : scope.cwd;
    const inner: Scope = { vars, cwd, ...(scope.oldCwd !== undefined ? { oldCwd: scope.oldCwd } : {}) };
    try {
      this.run(def.body, inner);
    } finally {
      this.st.depth--;
      calling.delete(name);
    }
    // A function runs in the caller's shell: its `cd` moves the rest of the line.
    scope.cwd = inner.cwd;
    if (inner.oldCwd !== undefined) scope.oldCwd = inner.oldCwd;
  }

  /**
   * Each stage's output feeds every later stage (`curl x | tee f | sh`). Walked from the end, so each
   * stage's list is the next one's plus what that stage runs: stages that add nothing share one array
   * (a pipeline of n stages was n² work). Lists are never mutated once shared, only replaced.
   */
  private feedPipeline(stages: SimpleCommand[][]): void {
    let later: string[] = [];
    const seen = new Set<string>();
    for (let k = stages.length - 1; k >= 0; k--) {
      const stage = stages[k] ?? [];
      if (later.length > 0) for (const c of stage) c.pipeTo = c.pipeTo.length === 0 ? later : union(c.pipeTo, later);
      let fresh: string[] | undefined;
      for (const c of stage) {
        if (c.ignoresStdinCode || seen.has(c.program)) continue;
        if (seen.size >= SHELL_LIMITS.maxPipeTo) {
          this.note(limitNote(`a pipeline feeds more than ${SHELL_LIMITS.maxPipeTo} distinct programs`));
          break;
        }
        seen.add(c.program);
        (fresh ??= []).push(c.program);
      }
      if (fresh) later = [...fresh, ...later];
    }
  }

  /**
   * What a command binds for the rest of the line, and what its program name stands for: `printf -v NAME`, `read NAME
   * <<< WORD`, `alias NAME=TEXT` (a later command named NAME runs TEXT), a program copied or linked under another
   * name (`ln -s /bin/rm x && ./x`), and a program name that is a glob (`/bin/r? -rf ~` runs each program it may be).
   */
  private bindsOnLine(argv: string[], dynamic: boolean[], scope: Scope, redirects: RedirectInfo[]): void {
    const first = argv[0];
    if (first === undefined) return;
    // The common case binds nothing: no program here binds or is renamed, and nothing was aliased or copied.
    if (this.aliases.size === 0 && this.copies.size === 0 && !isBinderProgram(first) && !first.includes("*") && !first.includes("?") && !first.includes("[")) return;
    const program = basename(first);
    if (program === "printf" && argv[1] === "-v" && argv[2] !== undefined) {
      const out = dynamic.slice(3).some(Boolean) ? undefined : literalOutput({ argv: ["printf", ...argv.slice(3)], dynamic: [], program: "printf", cwd: scope.cwd, redirects: [], pipeTo: [], via: [], synthetic: false, stdinArgs: false });
      if (out !== undefined) scope.vars.set(argv[2], out);
      else scope.vars.delete(argv[2]);
    }
    if (program === "read") {
      const names = argv.slice(1).filter((w, j) => !w.startsWith("-") && !/^-[a-zA-Z]*[dnNptu]$/.test(argv[j] ?? ""));
      const here = redirects.find((r) => r.op === "<<<");
      for (const [j, n] of names.entries()) {
        if (here !== undefined && names.length === 1) scope.vars.set(n, here.target);
        else if (here !== undefined && j < names.length - 1) scope.vars.set(n, here.target.trim().split(/[ \t\n]+/)[j] ?? "");
        else if (here !== undefined) scope.vars.set(n, here.target.trim().split(/[ \t\n]+/).slice(j).join(" "));
        else scope.vars.delete(n);
      }
    }
    if (program === "alias" && this.aliases.size < 64) {
      for (const a of argv.slice(1)) {
        const m = /^([^=\s/$`'"]+)=(.*)$/s.exec(a);
        if (m?.[1] !== undefined && m[2] !== undefined) this.aliases.set(m[1], m[2]);
      }
    } else if (!dynamic[0] && this.aliases.has(first) && !this.inAlias.has(first)) {
      // As in the shell, an alias is not expanded again inside its own text (`alias ls='ls -la'`).
      this.inAlias.add(first);
      try {
        this.script(`${this.aliases.get(first) ?? ""} ${argv.slice(1).map(quoteWord).join(" ")}`, scope.cwd, `alias ${first}`, scope.vars);
      } finally {
        this.inAlias.delete(first);
      }
    }
    if ((program === "ln" || program === "cp" || program === "install") && scope.cwd !== "" && this.copies.size < 64) {
      const ops: string[] = [];
      for (let j = 1; j < argv.length; j++) {
        const w = argv[j] ?? "";
        if (program === "install" && /^-[mogS]$/.test(w)) j++;
        else if (!w.startsWith("-")) ops.push(w);
      }
      const src = ops[0];
      const dst = ops[ops.length - 1];
      // The source is a program: on a system bin directory, or a bare name (`$(which rm)` gives the name).
      if (ops.length === 2 && src !== undefined && dst !== undefined && (SYSTEM_BIN.test(src) || GLOB_PROGRAMS.includes(src))) {
        const name = basename(src);
        const at = resolvePath(dst, scope.cwd, this.st.home);
        this.copies.set(at, name);
        this.copies.set(`${at.replace(/\/+$/, "")}/${name}`, name);
      }
    }
    if (first.includes("/") && scope.cwd !== "" && this.copies.size > 0 && !dynamic[0]) {
      const name = this.copies.get(resolvePath(first, scope.cwd, this.st.home));
      if (name !== undefined) argv[0] = name;
    }
    const re = dynamic[0] || !/[*?[]/.test(argv[0] ?? "") ? undefined : globRegex(basename(argv[0] ?? ""));
    if (re !== undefined) {
      let n = 0;
      for (const cand of GLOB_PROGRAMS) {
        if (!re.test(cand) || n++ >= 8) continue;
        this.script([cand, ...argv.slice(1)].map(quoteWord).join(" "), scope.cwd, `${argv[0]} (a glob)`, scope.vars);
      }
    }
  }

  private finishCommand(words: Word[], redirTokens: Token[], scope: Scope, pipeline: SimpleCommand[][]): SimpleCommand[] {
    const before = this.st.out.length;
    const pw0 = this.procWrites.length;
    // Leading NAME=value words are assignments, not the program.
    const assigns: [string, string][] = [];
    const unknownAssigns = new Set<string>();
    let k = 0;
    for (; k < words.length; k++) {
      const w = words[k];
      const first = w?.parts[0];
      if (!w || first?.k !== "lit" || first.quoted) break;
      // (An assignment holds a `=`: the first word of most commands is not tried against the pattern.)
      const m = first.v.includes("=") ? ASSIGN.exec(first.v) : null;
      if (!m?.[1]) break;
      const valueWord: Word = { parts: [{ ...first, v: first.v.slice(m[0].length) }, ...w.parts.slice(1)], raw: w.raw };
      const fields = this.expand(valueWord, scope, false).fields;
      // `c=r; c+=m`: an append adds to the value set before (an unset one is empty).
      const value = (m[0].endsWith("+=") ? (scope.vars.get(m[1]) ?? "") : "") + fields.map((f) => f.text).join("");
      assigns.push([m[1], value]);
      // `DIR=$1`, `D=$(find ...)`: a value that cannot be known leaves the variable unknown, not its text.
      // `name=it-redis-$$`, `tmp=/tmp/build-$$`: the shell's pid makes a name unique, it does not make it unknown.
      if (fields.some((f) => f.dynamic) && !PID_ONLY.test(w.raw.slice(m[0].length))) unknownAssigns.add(m[1]);
    }
    const assignEnd = this.st.out.length;
    const argv: string[] = [];
    const dynamic: boolean[] = [];
    for (; k < words.length; k++) {
      const w = words[k] as Word;
      for (const f of this.expand(w, scope).fields) {
        argv.push(f.text);
        dynamic.push(f.dynamic);
      }
    }
    // `GIT_WORK_TREE=/tmp/w git checkout -f`, `GIT_DIR=~/.cfg git ...`: git reads these as it reads its own options.
    if (basename(argv[0] ?? "") === "git") {
      const gitEnv = assigns.filter(([n]) => n === "GIT_WORK_TREE" || n === "GIT_DIR");
      argv.splice(1, 0, ...gitEnv.map(([n, v]) => `--${n === "GIT_DIR" ? "git-dir" : "work-tree"}=${v}`));
      dynamic.splice(1, 0, ...gitEnv.map(([n]) => unknownAssigns.has(n)));
    }
    const redirects: RedirectInfo[] = [];
    /** Ranges of st.out made by `< <(...)`: what those commands print is this command's standard input. */
    const procIn: [number, number][] = [];
    for (const t of redirTokens) {
      if (t.t !== "redir") continue;
      const r0 = this.st.out.length;
      const fromProc = t.r.op === "<" && t.r.target?.parts.length === 1 && t.r.target.parts[0]?.k === "sub" && t.r.target.parts[0].proc;
      const target = t.r.target ? this.expand(t.r.target, scope, false).fields.map((f) => f.text).join("") : "";
      const info: RedirectInfo = { op: t.r.op, fd: t.r.fd, target: t.r.op === "<<<" || t.r.op.includes("&") ? target : resolveTarget(target, scope.cwd, this.st.home) };
      if (t.r.body !== undefined) info.body = t.r.body;
      // `git commit -F - <<EOF ... $(rm -rf ~) ... EOF`: an unquoted heredoc runs its substitutions.
      for (const src of t.r.subs ?? []) this.substitute(src, scope, false);
      // `sh < x.sh` after x.sh was printed on the line; `exec 3<<< 'rm -rf ~'; sh <&3`: the text read is known.
      if (info.body === undefined && t.r.op === "<" && !fromProc && this.written.size > 0) {
        const text = this.written.get(info.target);
        if (text !== undefined) info.body = text;
      } else if (info.body === undefined && t.r.op === "<&" && this.fds.has(info.target)) info.body = this.fds.get(info.target);
      redirects.push(info);
      if (fromProc && this.st.out.length > r0) {
        procIn.push([r0, this.st.out.length]);
        // `bash < <(echo 'rm -rf ~')`: a literal print is the text read.
        const printed = this.st.out.slice(r0).filter((c) => c.via.length === this.st.via.length + 1);
        const text = printed.length === 1 && printed[0] ? literalOutput(printed[0]) : undefined;
        if (text !== undefined) info.body = text;
      }
    }
    // `exec 3<<< 'rm -rf ~'`, `exec 4<<'EOF'`, `exec 5< <(echo ..)`: a descriptor opened on known text, read later with `<&3`.
    if (argv.length === 1 && argv[0] === "exec") {
      for (const r of redirects) {
        const text = r.body ?? (r.op === "<<<" ? `${r.target}\n` : undefined);
        if (/^[1-9]\d?$/.test(r.fd) && text !== undefined && this.fds.size < 16) this.fds.set(r.fd, text);
      }
    }
    // `export GITHUB_TOKEN=$(gh auth token)`, `NPM_TOKEN=$(op read ...)`: a credential captured into a variable named
    // as a secret is not printed; whatever uses the variable later is judged by its name.
    const declares = argv.length > 1 && DECLARE.has(basename(argv[0] ?? "")) && argv.slice(1).every((a) => !a.startsWith("-") && SECRET_NAME.test(ASSIGN.exec(a)?.[1] ?? ""));
    if (assignEnd > before && assigns.length > 0 && assigns.every(([n]) => SECRET_NAME.test(n))) this.markCaptured(before, assignEnd);
    if (declares) this.markCaptured(assignEnd, this.st.out.length);
    if (argv.length === 0) {
      for (const [name, value] of assigns) {
        noteEnv(this.st, name);
        // `arr=(rm -rf ~)`: an array; its words are what `"${arr[@]}"` expands to.
        const arr = /^\((.*)\)$/s.exec(value);
        if (arr?.[1] !== undefined) {
          const items = lex(arr[1], this.st.budget).flatMap((t) => (t.t === "w" ? this.expand(t.w, scope).fields.map((f) => f.text) : []));
          scope.vars.set(name, items.join(" "));
          this.st.lists.add(name);
        } else if (unknownAssigns.has(name)) scope.vars.delete(name);
        else scope.vars.set(name, value);
      }
      if (redirects.length === 0) return this.st.out.slice(before);
    }
    this.bindsOnLine(argv, dynamic, scope, redirects);
    const program = basename(argv[0] ?? "");
    // `builtin cd ..`, `command cd ..`: the same cd.
    const cdAt = (program === "cd" || program === "pushd") && argv[0] === program ? 0 : (program === "builtin" || program === "command") && (argv[1] === "cd" || argv[1] === "pushd") ? 1 : -1;
    if (cdAt >= 0) {
      let j = cdAt + 1;
      while (argv[j] === "-L" || argv[j] === "-P" || argv[j] === "-e" || argv[j] === "--") j++;
      const dest = argv[j];
      const old = scope.cwd;
      if (dest === undefined) scope.cwd = this.st.home;
      // `cd -` goes back to where the last cd left from: unknown unless a cd on this line said so.
      else if (dest === "-") scope.cwd = scope.oldCwd ?? "";
      else if (!dest.startsWith("+") && !dest.startsWith("-")) scope.cwd = dynamic[j] || scope.cwd === "" ? "" : resolvePath(dest, scope.cwd, this.st.home);
      else scope.cwd = "";
      scope.oldCwd = old;
      if (scope.cwd.length > SHELL_LIMITS.maxCwd) {
        // Deeper than a path can be: unknowable, and a line that does this is judged too complex.
        this.note(limitNote(`cd goes deeper than ${SHELL_LIMITS.maxCwd} characters`));
        scope.cwd = "";
      }
    }
    if (DECLARE.has(program)) {
      for (let j = 1; j < argv.length; j++) {
        const a = argv[j] ?? "";
        const m = ASSIGN.exec(a);
        // `export HOME=/tmp/x`, and `HOME=/tmp/x; export HOME`: the variable reaches later commands' environment.
        const declared = m?.[1] ?? (/^[A-Za-z_]\w*$/.test(a) ? a : undefined);
        if (declared !== undefined) noteEnv(this.st, declared);
        // A credential captured into it (`export GH_TOKEN=$(gh auth token)`) is unknown text: `$GH_TOKEN` stays itself.
        if (m?.[1]) {
          const arr = /^\((.*)\)$/s.exec(a.slice(m[0].length));
          if (declares && dynamic[j]) scope.vars.delete(m[1]);
          else if (arr?.[1] !== undefined) {
            // `declare -a X=(git reset --hard)`: an array, as with a plain assignment.
            scope.vars.set(m[1], lex(arr[1], this.st.budget).flatMap((t) => (t.t === "w" ? this.expand(t.w, scope).fields.map((f) => f.text) : [])).join(" "));
            this.st.lists.add(m[1]);
          } else scope.vars.set(m[1], a.slice(m[0].length));
        }
      }
    }
    // `let 'x=$(rm -rf ~)'`: let's arguments are arithmetic, whose substitutions run.
    if (program === "let") for (let j = 1; j < argv.length; j++) for (const inner of arithSubs(argv[j] ?? "")) this.script(inner, scope.cwd, "let", scope.vars);
    // `set -- rm -rf ~; "$@"`: the positional parameters, as words.
    if (program === "set" && argv[1] === "--") {
      scope.vars.set("@", argv.slice(2).join(" "));
      scope.vars.set("*", argv.slice(2).join(" "));
      this.st.lists.add("@");
      // `set -- ./out; rm -rf "$1"`: $1.. and $# too; a word still unknown leaves its parameter unknown.
      for (let k = 1; k <= 9; k++) {
        if (dynamic[k + 1] ?? false) scope.vars.delete(String(k));
        else scope.vars.set(String(k), argv[k + 1] ?? "");
      }
      scope.vars.set("#", String(argv.length - 2));
    }
    if (program === "unset") for (let j = 1; j < argv.length; j++) scope.vars.delete(argv[j] ?? "");
    // The previous stage's literal output is what a shell at the end of `echo ... | sh` runs.
    const prev = pipeline[pipeline.length - 1];
    const prevTop = prev !== undefined && prev.length === 2 && prev[1]?.program === "cat" && prev[0]?.via.length === this.st.via.length + 1 ? prev[1] : undefined;
    const prevOut = prev?.length === 1 && prev[0] ? (literalOutput(prev[0]) ?? listedPaths(prev[0]) ?? this.catWritten(prev[0])) : prevTop !== undefined ? this.catWritten(prevTop) : undefined;
    for (const [name, value] of assigns) if (runsValue(name) && argv.length > 0 && value.trim() !== "") this.script(commandOfVar(name, value), scope.cwd, `${name}=`, scope.vars);
    // `export GIT_SSH_COMMAND='..'; git fetch`: the same variables, set by export for the commands after it (`env X=..`
    // and `sudo X=..` are read where those wrappers are unwrapped).
    if (program === "export") for (const w of argv.slice(1, 33)) {
      const eq = w.indexOf("=");
      if (eq > 0 && runsValue(w.slice(0, eq)) && w.slice(eq + 1).trim() !== "") this.script(commandOfVar(w.slice(0, eq), w.slice(eq + 1)), scope.cwd, `export ${w.slice(0, eq)}=`, scope.vars);
    }
    // `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~' git log`: config given through the environment.
    if (program === "git" || assigns.some(([n]) => n === "GIT_CONFIG_COUNT")) {
      const env = new Map(assigns);
      // `GIT_CONFIG_PARAMETERS="'core.pager=CMD'"`: git's own quoted list of -c settings.
      // An alias given so (or by `--config-env=alias.co=VAR`) is a git subcommand for this git, read as
      // `git config alias.co ..` would make it (for the rest of the line: a wider reading, never a narrower one).
      const alias = (key: string, value: string) => {
        if (/^alias\.[^.\s]+$/i.test(key) && value !== "" && !value.startsWith("!") && this.gitAliases.size < 32) this.gitAliases.set(key.slice(6).toLowerCase(), value);
      };
      const parameters = env.get("GIT_CONFIG_PARAMETERS");
      if (parameters !== undefined) for (const m of parameters.matchAll(/'([^'=]+)=([^']*)'/g)) {
        if (GIT_COMMAND_KEYS.test(m[1] ?? "") && (m[2] ?? "") !== "") this.script((m[2] ?? "").replace(/^!/, ""), scope.cwd, "GIT_CONFIG_PARAMETERS", scope.vars);
        alias(m[1] ?? "", m[2] ?? "");
      }
      for (const [name, key] of assigns) {
        const n = /^GIT_CONFIG_KEY_(\d{1,2})$/.exec(name)?.[1];
        const value = n !== undefined ? env.get(`GIT_CONFIG_VALUE_${n}`) : undefined;
        if (value !== undefined && value !== "" && (GIT_COMMAND_KEYS.test(key) || (/^alias\./i.test(key) && value.startsWith("!")))) this.script(value.replace(/^!/, ""), scope.cwd, `${name}=`, scope.vars);
        if (value !== undefined) alias(key, value);
      }
      if (program === "git") for (let j = 1; j < argv.length && j < 33 && (argv[j] ?? "").startsWith("-"); j++) {
        const w = argv[j] ?? "";
        const kv = w === "--config-env" ? (argv[j + 1] ?? "") : w.startsWith("--config-env=") ? w.slice(13) : "";
        const eq = kv.indexOf("=");
        const value = eq > 0 ? (env.get(kv.slice(eq + 1)) ?? scope.vars.get(kv.slice(eq + 1))) : undefined;
        if (value !== undefined) alias(kv.slice(0, eq), value);
      }
    }
    // `npm pkg set scripts.x='rm -rf ~' && npm run x`, a package.json printed on the line then `npm install`: the scripts run.
    if ((program === "npm" || program === "pnpm" || program === "yarn" || program === "bun" || (program === "deno" && this.written.size > 0)) && argv.length > 1) this.packageScripts(argv, scope);
    // `echo 'rm -rf ~' > /tmp/h/pre-commit && git -c core.hooksPath=/tmp/h commit`: a hook written on the line runs.
    if (program === "git" && scope.cwd !== "" && argv.includes("config") && this.hooksDirs.size < 8) {
      const key = argv.findIndex((w) => /^core\.hookspath$/i.test(w));
      if (key > 0 && argv[key + 1] !== undefined) this.hooksDirs.add(resolvePath(argv[key + 1] ?? "", scope.cwd, this.st.home));
    }
    if (program === "git" && this.written.size > 0 && scope.cwd !== "" && !this.inHook) {
      const set = argv.flatMap((w, j) => (/^core\.hookspath=/i.test(w) && argv[j - 1] === "-c" ? [w.slice(w.indexOf("=") + 1)] : []));
      const dirs = [resolvePath(".git/hooks", scope.cwd, this.st.home), ...this.hooksDirs, ...set.map((d) => resolvePath(d, scope.cwd, this.st.home))];
      // A hook's own git commands do not run the hooks again here: each hook is read once per git command.
      this.inHook = true;
      try {
        for (const [file, text] of this.written) if (!this.plantedHooks.has(file) && dirs.some((d) => file.startsWith(`${d}/`))) this.script(text, scope.cwd, `git hook ${file} (written on this line)`, scope.vars);
      } finally {
        this.inHook = false;
      }
    }
    // `git config alias.undo 'reset --hard' && git undo`: the alias holds for the rest of the line.
    if (program === "git") {
      const k2 = argv.indexOf("config");
      // (Both finds below matter only past a `config`: most git commands have none.)
      const key = k2 > 0 ? argv.slice(k2 + 1).find((w) => /^alias\./i.test(w)) : undefined;
      if (k2 > 0 && key !== undefined) {
        const value = argv[argv.indexOf(key) + 1];
        if (value !== undefined) this.gitAliases.set(key.slice(6).toLowerCase(), value);
        // `git config --global alias.st '!rm -rf ~'`: a shell alias set is a command git will run (like core.pager).
        if (value?.startsWith("!")) this.script(value.slice(1), scope.cwd, `git config ${key}`, scope.vars);
      }
      // `git config core.sshCommand 'rm -rf ~' && git fetch`: a command git will run is set.
      const cmdKey = k2 > 0 ? argv.slice(k2 + 1).find((w) => GIT_COMMAND_KEYS.test(w)) : undefined;
      const cmdValue = cmdKey !== undefined ? argv[argv.indexOf(cmdKey) + 1] : undefined;
      if (k2 > 0 && cmdValue !== undefined) this.script(cmdValue.replace(/^!/, ""), scope.cwd, `git config ${cmdKey}`, scope.vars);
    }
    // `kubectl.exe`, `terraform.exe` (Git Bash, WSL calling Windows binaries): the same program.
    const cmd: SimpleCommand = { argv, dynamic, program: endsInE(program) ? program.replace(/\.exe$/i, "") : program, cwd: scope.cwd, redirects, pipeTo: [], via: this.st.via, synthetic: false, stdinArgs: false, ignoresStdinCode: undefined, pipeFrom: undefined, captured: undefined, selfSpawn: undefined, wrapsFrom: undefined, recipesRead: undefined, memo: undefined };
    const inherited = this.outerEnv.length > 0 ? [...this.st.envSet, ...this.outerEnv] : this.st.envSet;
    const envNames = assigns.length > 0 || this.outerEnv.length > 0 ? [...new Set([...assigns.map(([n]) => n), ...inherited])] : inherited;
    if (envNames.length > 0) setEnv(cmd, envNames.slice(0, MAX_ENV_NAMES));
    // `env | sort | grep -i secret`: filters that pass their input on keep it the environment.
    if (prev?.some((c) => dumpsEnvironment(c) || (c.pipeFrom === "env" && PASSES_INPUT.test(c.program)))) cmd.pipeFrom = "env";
    // Only a writer of files needs the text (tee, a bare redirection, a scheduler reading its table).
    if (prev?.length === 1 && prev[0] !== undefined && (program === "tee" || program === "crontab")) {
      const printedIn = literalOutput(prev[0]);
      if (printedIn !== undefined) cmd.stdinText = printedIn;
    }
    const subEnd = this.st.out.length;
    const writes = this.procWrites.length > pw0 ? this.procWrites.splice(pw0) : NO_WRITES;
    // `bash x.sh` after `echo 'rm -rf ~' > x.sh` on the line is read where the command is unwrapped (under any wrapper).
    if (this.decodedFiles.size > 0 && argv.length > 0) {
      const file = SHELLS.has(program) || program === "source" || program === "." || /^(?:python[0-9.]*|node|perl|ruby|php|bun|deno)$/.test(program) ? argv.slice(1).find((w) => !w.startsWith("-")) : argv[0]?.includes("/") ? argv[0] : undefined;
      const path = file !== undefined && scope.cwd !== "" ? resolvePath(file, scope.cwd, this.st.home) : undefined;
      // `base64 -d p.b64 > /tmp/run.sh && bash /tmp/run.sh`: the decoder's output is run as code.
      const decoder = path !== undefined ? this.decodedFiles.get(path) : undefined;
      if (decoder !== undefined) decoder.pipeTo = union(decoder.pipeTo, [program || "exec"]);
    }
    const savedHere = this.hereVars;
    this.hereVars = scope.vars;
    // `env HOME=/tmp/x sh -c 'pi -p x'`: what a wrapper sets reaches the commands of the script it runs.
    const savedEnv = this.outerEnv;
    const own = envOf(cmd);
    const wrapperSets = ENV_WRAPPERS.has(program) ? argv.slice(1).flatMap((w) => /^([A-Za-z_]\w*)=\S*$/.exec(w)?.[1] ?? []) : undefined;
    if (own !== undefined || (wrapperSets !== undefined && wrapperSets.length > 0)) this.outerEnv = [...new Set([...(wrapperSets ?? []), ...(own ?? [])])].slice(0, MAX_ENV_NAMES);
    try {
      unwrap(cmd, this, prevOut);
    } finally {
      this.hereVars = savedHere;
      this.outerEnv = savedEnv;
    }
    {
      // Only echo, printf and cat print literally: no copy of the command is made for any other.
      const prints = cmd.program === "echo" || cmd.program === "printf" || cmd.program === "cat";
      const printed = (prints ? literalOutput({ ...cmd, redirects: [] }) : undefined) ?? (cmd.program === "cat" && cmd.argv.length === 1 ? redirects.find((r) => r.body !== undefined)?.body : undefined);
      const out = redirects.find((r) => (r.op === ">" || r.op === ">|" || r.op === ">>") && r.fd !== "2" && r.target.startsWith("/"));
      // `tee run.sh <<< 'rm -rf ~'`, `tee -a x.sh <<'EOF' .. EOF`: tee writes the literal it reads to each file it names.
      if (cmd.program === "tee" && scope.cwd !== "") {
        this.teeWritten(cmd, scope.cwd, prevOut);
        for (const w of cmd.argv.slice(1)) if (!w.startsWith("-")) {
          const path = resolvePath(w, scope.cwd, this.st.home);
          const text = this.written.get(path);
          if (text !== undefined) this.plantRunLater(path, text, scope);
        }
      }
      if (printed !== undefined && out && this.written.size < 64) {
        // `echo '#!/bin/sh' > x; echo 'rm -rf ~' >> x`: each echo ends its line.
        const prior = out.op === ">>" ? (this.written.get(out.target) ?? "") : "";
        this.written.set(out.target, prior + (prior === "" || prior.endsWith("\n") || cmd.program !== "echo" ? "" : "\n") + printed);
        // A git hook put in place runs at the next commit, checkout or push, whatever runs git then.
        this.plantRunLater(out.target, printed, scope);
        if (out.target.endsWith("/.git/config")) this.gitConfigWritten(out.target, printed, scope);
      }
      else if (out && this.decodedFiles.size < 16 && decodes(cmd)) this.decodedFiles.set(out.target, cmd);
    }
    // `sh -c "$(curl ...)"`, `bash <(curl ...)`, `eval "$(curl ...)"`: the substitution's output is run.
    if (subEnd > before) {
      const runners = new Set<string>();
      for (let j = subEnd; j < this.st.out.length; j++) {
        const runner = this.st.out[j] as SimpleCommand;
        if ((RUNNERS.has(runner.program) || isPythonName(runner.program)) && runner.dynamic.some(Boolean)) runners.add(runner.program);
        // `` `echo cm0gLXJmIH4= | base64 -d` ``, `$(curl -s x)`: a substitution's output as the program is run.
        else if (runner.dynamic[0] === true && runner.via === this.st.via) runners.add("eval");
      }
      if (runners.size > 0) {
        const add = [...runners];
        for (let j = before; j < subEnd; j++) {
          const c = this.st.out[j] as SimpleCommand;
          c.pipeTo = union(c.pipeTo, add);
        }
      }
    }
    if (writes.length > 0) {
      // `curl x | tee >(sh)`, `tee >(sh) <<< 'rm -rf ~'`: the commands in `>(...)` read what this one writes.
      const text = cmd.program === "tee" ? cmd.redirects.find((r) => r.body !== undefined || r.op === "<<<") : undefined;
      const body = text ? (text.body ?? text.target) : prevOut;
      for (const [from, to] of writes) {
        const readers = this.st.out.slice(from, to).filter((c) => !c.ignoresStdinCode);
        const progs = [...new Set(readers.map((c) => c.program))];
        for (let j = before; j < this.st.out.length; j++) {
          if (j >= from && j < to) continue;
          const c = this.st.out[j] as SimpleCommand;
          if (c.via === this.st.via || j >= subEnd) c.pipeTo = union(c.pipeTo, progs);
        }
        if (body !== undefined && readers.some((c) => SHELLS.has(c.program))) this.script(body, scope.cwd, ">(sh)", scope.vars);
      }
    }
    if (procIn.length > 0) {
      // `bash < <(curl ...)`: what the substitution prints is what this command (and what it runs) reads.
      // `tee >(sh) < <(curl ...)`: a pass-through reader hands it on to what it feeds.
      const readers = [...new Set(this.st.out.slice(subEnd).filter((c) => !c.ignoresStdinCode).flatMap((c) => (c.program === "tee" || c.program === "cat" ? [c.program, ...c.pipeTo] : [c.program])))];
      for (const [from, to] of procIn) for (let j = from; j < to; j++) {
        const c = this.st.out[j] as SimpleCommand;
        c.pipeTo = union(c.pipeTo, readers);
      }
    }
    return this.st.out.slice(before);
  }
}
/** A glob pattern (`*`, `?`, `[...]`) as an anchored regular expression (a path segment's, unless `slashes`); undefined when it has none. */
export function globRegex(pattern: string, slashes = false): RegExp | undefined {
  if (!/[*?[]/.test(pattern)) return undefined;
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? "";
    if (c === "*") re += slashes ? ".*" : "[^/]*";
    else if (c === "?") re += slashes ? "." : "[^/]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        const body = pattern.slice(i + 1, end).replace(/^[!^]/, "^").replace(/[\\\]]/g, "\\$&");
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

const PARAM_OP_MAX = 4096;

/** A prompt string's backslash escapes as bash decodes them before `${x@P}` expands it: octal `\NNN` and `\\`. */
function decodePrompt(v: string): string {
  return v.slice(0, PARAM_OP_MAX).replace(/\\([0-7]{1,3}|\\)/g, (_, o: string) => (o === "\\" ? "\\" : String.fromCharCode(parseInt(o, 8))));
}

/**
 * The value of a parameter expansion whose parts are known: `$X`, `${!X}` (the variable X names), and the
 * prefix and suffix removals `${X%pat}`, `${X%%pat}`, `${X#pat}`, `${X##pat}`; undefined otherwise.
 */
function paramValue(name: string, lookup: (n: string) => string | undefined): string | undefined {
  if (!name.startsWith("{")) return lookup(name);
  // `${@}`, `${*}`, `${1}`, `${#}`: the special and positional parameters, braced.
  if (/^\{(?:[@*#]|\d)\}$/.test(name)) return lookup(name.slice(1, -1));
  // `${arr[1]}`: one word of an array set on the line (its words are kept joined by spaces).
  const item = /^\{([A-Za-z_]\w*)\[(\d{1,4})\]\}$/.exec(name);
  if (item?.[1] !== undefined) return lookup(item[1])?.split(" ")[Number(item[2])];
  const ind = /^\{!([A-Za-z_]\w*)\}$/.exec(name);
  if (ind?.[1] !== undefined) {
    const target = lookup(ind[1]);
    return target !== undefined && /^[A-Za-z_]\w*$/.test(target) ? lookup(target) : undefined;
  }
  // `x=mr; ${x:1:1}${x:0:1}`, `${w:1}`, `${s: -2}`: a substring of a known value.
  const sub = /^\{([A-Za-z_]\w*):\s*(-?\d{1,5})(?::\s*(-?\d{1,5}))?\}$/.exec(name);
  if (sub?.[1] !== undefined) {
    const value = lookup(sub[1]);
    if (value === undefined) return undefined;
    const from = Number(sub[2]) < 0 ? Math.max(0, value.length + Number(sub[2])) : Number(sub[2]);
    const len = sub[3] === undefined ? undefined : Number(sub[3]);
    return value.slice(from, len === undefined ? undefined : len < 0 ? value.length + len : from + len);
  }
  const op = /^\{([A-Za-z_]\w*)(%%?|##?)(.*)\}$/s.exec(name);
  if (op?.[1] === undefined || op[2] === undefined || op[3] === undefined) return lookup(name);
  const value = lookup(op[1]);
  // Bounded: each cut point is one test, so a long value is left unknown rather than tested quadratically.
  if (value === undefined || value.length > PARAM_OP_MAX || /[$`\\'"]/.test(op[3])) return undefined;
  const re = globRegex(op[3], true);
  const longest = op[2].length === 2;
  const ends = op[2][0] === "%";
  const cuts: number[] = [];
  for (let k = 0; k <= value.length; k++) {
    const piece = ends ? value.slice(k) : value.slice(0, k);
    if (re ? re.test(piece) : piece === op[3]) cuts.push(k);
  }
  if (cuts.length === 0) return value;
  // Suffix: the shortest match starts last; prefix: the shortest match ends first.
  const k = ends ? (longest ? Math.min(...cuts) : Math.max(...cuts)) : longest ? Math.max(...cuts) : Math.min(...cuts);
  return ends ? value.slice(0, k) : value.slice(k);
}

/** Decoders whose output is a pure function of their input, applied to a literal: base64 -d, base32 -d, rev, xxd -r -p. */
function decodeWith(cmd: SimpleCommand, input: string): string | undefined {
  const a = cmd.argv.slice(1);
  if (a.some((w) => !w.startsWith("-"))) return undefined;
  const text = input.replace(/\n$/, "");
  if (cmd.program === "rev") return text.split("\n").map((l) => [...l].reverse().join("")).join("\n");
  if (cmd.program === "xxd" && a.some((w) => /^-[a-z]*r/.test(w)) && a.some((w) => /^-[a-z]*p|^-ps$|^-plain$/.test(w))) {
    const hex = text.replace(/\s+/g, "");
    return /^(?:[0-9a-fA-F]{2})*$/.test(hex) ? hex.replace(/../g, (h) => String.fromCharCode(parseInt(h, 16))) : undefined;
  }
  if (cmd.program === "base64" && a.some((w) => w === "-d" || w === "--decode" || w === "-D")) {
    try {
      return atob(text.replace(/\s+/g, ""));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The output of a substitution that prints a literal into a decoder, or feeds one a here-string; undefined otherwise. */
function decodedOutput(inner: SimpleCommand[]): string | undefined {
  const last = inner[inner.length - 1];
  if (last === undefined || inner.length > 2 || last.dynamic.some(Boolean)) return undefined;
  const here = last.redirects.find((r) => r.op === "<<<");
  const input = inner.length === 2 && inner[0] ? literalOutput(inner[0]) : here !== undefined && last.redirects.length === 1 ? `${here.target}\n` : undefined;
  if (input === undefined || input.length > 4096) return undefined;
  return decodeWith(last, input)?.replace(/\n+$/, "");
}

/** Programs a glob in a program name is tried against (`/bin/r?`, `/usr/bin/[r]m`): those whose effects matter, and a few harmless ones. */
const GLOB_PROGRAMS = "rm rmdir unlink shred dd mkfs mke2fs wipefs mv cp ln chmod chown git sh bash dash zsh curl wget nc ncat cat find xargs tar rsync scp python3 perl node ruby truncate tee base64 sudo shutdown reboot ls".split(" ");

const SYSTEM_BIN = /^(?:\/usr(?:\/local)?|\/opt\/homebrew)?\/s?bin\/[^/]+$/;

/** A word quoted for the shell, so that re-reading it gives the same word. */
function quoteWord(w: string): string {
  return /^[\w./=:@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`;
}

/** `a` with what `b` adds, as a new array (pipeTo lists are shared between commands). */
function union(a: string[], b: string[]): string[] {
  const extra = b.filter((p) => !a.includes(p));
  return extra.length === 0 ? a : [...a, ...extra];
}

function resolveTarget(target: string, cwd: string, home: string): string {
  if (target === "" || cwd === "") return target;
  return resolvePath(target, cwd, home);
}

/** Parses a command line into the simple commands it runs. Throws ShellSyntaxError, or ShellLimitError at a hard cap. */
export function parseStrict(command: string, opts: ParseOptions): SimpleCommand[] {
  const st = newState(opts.home, [], true);
  runStrict(st, command, opts.cwd);
  return st.out;
}

function runStrict(st: State, command: string, cwd: string, dialect?: "powershell"): void {
  const p = new Parser(st);
  if (dialect === "powershell") {
    // The line itself is the top level: it does not count as a nested script.
    st.depth--;
    try {
      p.powershell(command, cwd, "powershell");
    } finally {
      st.depth++;
    }
  } else p.run(lex(command, st.budget), { vars: new Vars(), cwd });
  const dropped = p.supersededBodies();
  if (dropped.size > 0) st.out = st.out.filter((c) => !dropped.has(c));
}

/**
 * Last-resort split used when the parser gives up: cut on operators and whitespace, strip quote characters,
 * and still unwrap wrappers, so the semantic rules keep working at reduced precision. Nested scripts are
 * not parsed. The same caps hold: `limit` says which one stopped it.
 */
export function parseFallback(command: string, opts: ParseOptions): { commands: SimpleCommand[]; limit?: string } {
  const st = newState(opts.home, ["fallback"], false);
  const p = new Parser(st);
  const cleaned = command.replace(/\\\n/g, " ").replace(/[`$()]/g, " ");
  try {
    for (const segment of cleaned.split(/&&|\|\||[;&|\n{}]/)) {
      const argv = segment
        .trim()
        .split(/\s+/)
        .map((w) => w.replace(/["']/g, ""))
        .filter((w) => w !== "");
      if (argv.length === 0) continue;
      st.budget.words -= argv.length;
      if (st.budget.words < 0) throw new ShellLimitError(limitNote(`more than ${SHELL_LIMITS.maxWords} words`));
      const cmd: SimpleCommand = { argv, dynamic: argv.map(() => false), program: basename(argv[0] ?? ""), cwd: opts.cwd, redirects: [], pipeTo: [], via: st.via, synthetic: false, stdinArgs: false, ignoresStdinCode: undefined, pipeFrom: undefined, captured: undefined, selfSpawn: undefined, wrapsFrom: undefined, recipesRead: undefined, memo: undefined };
      unwrap(cmd, p, undefined);
    }
  } catch (err) {
    if (!(err instanceof ShellLimitError)) throw err;
    st.limit ??= err.message;
  }
  return { commands: st.out, ...(st.limit !== undefined ? { limit: st.limit } : {}) };
}

/**
 * Parses, falling back to the plain split (and saying so) when the line is not valid shell. Over a cap
 * (SHELL_LIMITS) the result carries `limit`: the line is judged too complex, and `commands` holds only
 * what was read before the cap (nothing for a line over the length cap).
 */
export function parseShellLine(command: string, opts: ParseOptions): ParseResult {
  if (command.length > SHELL_LIMITS.maxLength) {
    return { commands: [], fallback: false, limit: limitNote(`${command.length} characters, over ${SHELL_LIMITS.maxLength}`) };
  }
  const st = newState(opts.home, [], true);
  try {
    runStrict(st, command, opts.cwd, opts.dialect);
    return { commands: st.out, fallback: false, ...(st.limit !== undefined ? { limit: st.limit } : {}) };
  } catch (err) {
    if (err instanceof ShellLimitError) return { commands: st.out, fallback: false, limit: err.message };
    const requoted = opts.dialect === undefined ? requoteCmd(command) : undefined;
    if (requoted !== undefined) {
      // Read again as cmd.exe reads its own line; if that fails too, the plain split below decides.
      const again = newState(opts.home, [], true);
      try {
        runStrict(again, requoted, opts.cwd);
        return { commands: again.out, fallback: false, ...(again.limit !== undefined ? { limit: again.limit } : {}) };
      } catch (inner) {
        if (inner instanceof ShellLimitError) return { commands: again.out, fallback: false, limit: inner.message };
      }
    }
    const error = err instanceof Error ? err.message : String(err);
    const fb = parseFallback(command, opts);
    return { commands: fb.commands, error, fallback: true, ...(fb.limit !== undefined ? { limit: fb.limit } : st.limit !== undefined ? { limit: st.limit } : {}) };
  }
}

/**
 * Brace expansion of one word (`a{b,c}d` -> abd acd, groups left to right, nested groups included), at most
 * `max` results; a word with no comma group is returned as is. `${...}` is a parameter, not a group.
 */
export function braceExpand(word: string, max: number): string[] {
  // More groups than a command line needs: not expanded (empty), so the caller can say so.
  let groups = 0;
  for (let i = 0; i < word.length; i++) if (word[i] === "{" && word[i - 1] !== "$" && ++groups > BRACE_MAX_GROUPS) return [];
  return expandGroups(word, max);
}

const BRACE_MAX_WORD = 1024;
const BRACE_MAX_GROUPS = 8;

function expandGroups(word: string, max: number): string[] {
  let depth = 0;
  let open = -1;
  let comma = false;
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{" && word[i - 1] !== "$") {
      if (depth === 0) {
        open = i;
        comma = false;
      }
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0 && comma && open >= 0) {
        const pre = word.slice(0, open);
        const post = word.slice(i + 1);
        const inner = word.slice(open + 1, i);
        const alts: string[] = [];
        let d = 0;
        let from = 0;
        for (let k = 0; k <= inner.length; k++) {
          const ch = inner[k];
          if (ch === "{") d++;
          else if (ch === "}") d--;
          else if ((ch === "," && d === 0) || k === inner.length) {
            alts.push(inner.slice(from, k));
            from = k + 1;
          }
        }
        const out: string[] = [];
        for (const alt of alts) {
          for (const x of expandGroups(pre + alt + post, max - out.length)) {
            out.push(x);
            if (out.length >= max) return out;
          }
        }
        return out;
      }
      if (depth === 0) open = -1;
    } else if (c === "," && depth === 1) comma = true;
  }
  return [word];
}

/** `/home/user/./x`, `/home/user//x`, `/home/user/.`: the same path without `.` and empty steps. */
function tidyPath(p: string): string {
  const t = p.replace(/\/(?:\.?\/)+/g, "/").replace(/(.)\/\.$/, "$1");
  return t === "" ? "/" : t;
}
