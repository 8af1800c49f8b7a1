/** @module wrappers (sudo, env, sh -c, xargs, find -exec, interpreters...) -> the commands that really run. */
import { commandOfVar, runsValue } from "./command-vars.ts";
import { clientShellLines, embeddedCommands } from "./option-commands.ts";
import { envOf, setEnv } from "./env-names.ts";
import type { SimpleCommand } from "./types.ts";
import { fallbackCommands, foldCode, scanCode } from "./interp.ts";
import { limitNote, SHELL_LIMITS, ShellLimitError } from "./limits.ts";
import { resolvePath, windowsPath } from "./paths.ts";
import { BATCH_SELF, cmdScript, powershellScript } from "./powershell.ts";
import { isPythonOrPypyName, windowsShellName } from "./program-names.ts";

/** What unwrapping needs from the parser: nested script parsing, a place to record commands, and to note a cap. */
export interface Unwrapper {
  readonly home: string;
  script(src: string, cwd: string, via: string): void;
  /** `sh -c SCRIPT NAME ARGS..`: the script with NAME as $0 and ARGS as $1.. and "$@". */
  scriptWithArgs(src: string, cwd: string, via: string, args: string[]): void;
  /** A script run by this same shell (`eval`, `trap`): it sees the variables set earlier on the line. */
  scriptHere(src: string, cwd: string, via: string): void;
  /** A nested PowerShell script (`powershell -Command`, `pwsh -EncodedCommand`, `iex '...'`). */
  powershell(src: string, cwd: string, via: string): void;
  /** A nested cmd.exe line (`cmd /c ...`). */
  cmdLine(src: string, cwd: string, via: string): void;
  /** What a file written on this line by a literal print holds (`> x.sh`, `<(echo ..)`), by resolved path. */
  writtenText(path: string): string | undefined;
  /** Whether anything was written on this line by a literal print (so the per-command lookups can be skipped). */
  hasWritten(): boolean;
  /** Aliases set earlier on the line (`git config alias.undo 'reset --hard' && git undo`), lower-cased names. */
  readonly gitAliases: ReadonlyMap<string, string>;
  emit(cmd: SimpleCommand): void;
  /** The analysis worked around a cap: the line is then judged too complex. */
  note(why: string): void;
}

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "busybox-sh"]);

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
const NO_ALIASES: ReadonlyMap<string, string> = new Map();

interface Inner {
  from: number;
  label: string;
  cwd?: string;
  prefix?: string[];
  stdinArgs?: boolean;
  /** xargs -I R: the token each input line replaces. */
  replace?: string;
  /** xargs -a FILE: the input words come from FILE. */
  argFile?: string;
  /** xargs -0 / -d X: what separates the input words (whitespace otherwise). */
  delimiter?: string;
}

/**
 * Where the command wrapped by the one starting at `a[s]` starts (an index into the same `a`), or undefined
 * when the program wraps nothing. An index, so a chain of wrappers is walked without copying the words.
 */
function wrapped(a: string[], s: number, cwdIn: string, home: string, aliases: ReadonlyMap<string, string> = NO_ALIASES): Inner | undefined {
  const p = base(a[s] ?? "");
  let cwd: string | undefined;
  const chdir = (opt: string, value: string | undefined, names: string[]) => {
    if (value !== undefined && names.includes(opt)) cwd = cwdIn === "" ? "" : resolvePath(value, cwdIn, home);
  };
  switch (p) {
    case "sudo":
    case "doas":
    case "pkexec":
    case "run0": {
      let i = skipOptions(a, s + 1, { short: "ugpChDrtTURa", long: ["--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type", "--other-user", "--command-timeout"] }, (o, v) => chdir(o, v, ["-D", "--chdir"]));
      while (ASSIGNMENT.test(a[i] ?? "")) i++;
      return { from: i, label: p, ...(cwd !== undefined ? { cwd } : {}) };
    }
    case "env": {
      let prefix: string[] | undefined;
      // `env -` is `env -i`; -P takes a search path, -u a name, -C a directory, -S the rest as a command line.
      let i = skipOptions(a, s + 1, { short: "uCSPa", long: ["--unset", "--chdir", "--split-string", "--argv0"] }, (o, v) => {
        chdir(o, v, ["-C", "--chdir"]);
        if ((o === "-S" || o === "--split-string") && v !== undefined) prefix = splitQuoted(v);
      });
      if (prefix) {
        // -S takes its value as the rest of the command: it was consumed as an option value above.
        // `env -S 'PATH=/usr/bin' git reset --hard`: assignments in the split string are assignments still.
        const words: string[] = prefix;
        let k = 0;
        while (k < words.length && ASSIGNMENT.test(words[k] ?? "")) k++;
        const rest = words.slice(k);
        if (rest.length === 0) {
          while (a[i] === "-" || ASSIGNMENT.test(a[i] ?? "")) i++;
          return { from: i, label: "env -S", ...(cwd !== undefined ? { cwd } : {}) };
        }
        return { from: i, label: "env -S", prefix: rest, ...(cwd !== undefined ? { cwd } : {}) };
      }
      while (a[i] === "-" || ASSIGNMENT.test(a[i] ?? "")) i++;
      return { from: i, label: "env", ...(cwd !== undefined ? { cwd } : {}) };
    }
    case "setarch":
      // `setarch x86_64 -R CMD`: the architecture, its flags, then the command.
      return { from: skipOptions(a, s + 2, { short: "", long: ["--uname-2.6"] }), label: p };
    case "rlwrap":
      return { from: skipOptions(a, s + 1, { short: "aAbcCDefFgHlmMnNoOpPqrsStvwWz", long: [] }), label: p };
    case "nice":
      return { from: skipOptions(a, s + 1, { short: "n", long: ["--adjustment"] }), label: p };
    case "ionice":
      return { from: skipOptions(a, s + 1, { short: "cnpPu", long: ["--class", "--classdata", "--pid", "--pgid", "--uid"] }), label: p };
    case "ssh-agent":
      // `ssh-agent bash <<'EOF' .. EOF`: the agent runs the command it is given (options -a -E -O -P -t take a value).
      return { from: skipOptions(a, s + 1, { short: "aEOPt", long: [] }), label: p };
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
      let replace: string | undefined;
      let argFile: string | undefined;
      let delimiter: string | undefined;
      // -I R / -J R / -i[R] / --replace[=R]: each input line replaces R; -a FILE: the words come from FILE, not stdin.
      const i = skipOptions(a, s + 1, { short: "IEdLnPsaUJ", long: ["--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-lines", "--max-chars", "--eof"] }, (o, v) => {
        if ((o === "-I" || o === "-J") && v !== undefined) replace = v;
        else if (o === "-i" || o === "--replace") replace = v === undefined || v === "" ? "{}" : v;
        else if ((o === "-a" || o === "--arg-file") && v !== undefined) argFile = v;
        else if (o === "-0" || o === "--null") delimiter = "\0";
        else if ((o === "-d" || o === "--delimiter") && v !== undefined) delimiter = v === "\\n" ? "\n" : v === "\\0" ? "\0" : v;
      });
      const extra = { ...(replace !== undefined ? { replace } : {}), ...(argFile !== undefined ? { argFile } : {}), ...(delimiter !== undefined ? { delimiter } : {}) };
      return i >= a.length ? { from: a.length, label: p, prefix: ["echo"], stdinArgs: true, ...extra } : { from: i, label: p, stdinArgs: true, ...extra };
    }
    case "npx":
    case "bunx":
    case "pnpx":
      return { from: skipOptions(a, s + 1, { short: "p", long: ["--package", "--call"] }), label: p };
    case "pnpm":
    case "yarn": {
      // pnpm dlx / yarn dlx run a package's binary.
      if (a[s + 1] === "dlx" || a[s + 1] === "exec") return { from: skipOptions(a, s + 2, { short: "p", long: ["--package"] }), label: `${p} ${a[s + 1]}` };
      // `pnpm -r exec rm -rf dist`, `pnpm --filter web exec ..`, `yarn workspaces foreach -A exec ..`: the command runs in every package.
      const sub = p === "pnpm" ? skipOptions(a, s + 1, { short: "FCw", long: ["--filter", "--dir", "--workspace-concurrency", "--filter-prod", "--reporter"] }) : a[s + 1] === "workspaces" && a[s + 2] === "foreach" ? skipOptions(a, s + 3, { short: "j", long: ["--jobs", "--include", "--exclude", "--from", "--since"] }) : -1;
      if (sub > s + 1 && a[sub] === "exec") {
        const from = skipOptions(a, sub + 1, { short: "", long: [] });
        return { from: a[from] === "--" ? from + 1 : from, label: `${p} exec (every package)` };
      }
      // `pnpm changeset publish`, `yarn semantic-release`: a word that is no command of theirs is a script or a binary of node_modules/.bin.
      return a[s + 1] !== undefined && /^[a-z][\w.-]*$/.test(a[s + 1] ?? "") && !(p === "pnpm" ? PNPM_COMMANDS : YARN_COMMANDS).has(a[s + 1] ?? "") ? { from: s + 1, label: `${p} (bin)` } : undefined;
    }
    case "busybox":
    case "toybox":
      return { from: s + 1, label: p };
    case "shx": {
      // shelljs's command line (`npx shx rm -rf dist`): its own `--silent`/`--verbose` come before the command it runs.
      let i = s + 1;
      while ((a[i] ?? "").startsWith("--")) i++;
      return { from: i, label: p };
    }
    case "git":
      return gitAlias(a, s, aliases);
    case "bwrap": {
      // bwrap's options take one or two values (`--bind SRC DEST`, `--chdir DIR`); the first other word is the command.
      const two = new Set(["--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try", "--dev-bind-try", "--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod"]);
      const one = new Set(["--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--chdir", "--unsetenv", "--uid", "--gid", "--hostname", "--lock-file", "--sync-fd", "--info-fd", "--json-status-fd", "--args", "--seccomp", "--exec-label", "--file-label", "--remount-ro", "--perms", "--size", "--userns", "--userns2", "--pidns", "--cap-add", "--cap-drop", "--argv0", "--block-fd", "--userns-block-fd", "--overlay-src", "--tmp-overlay", "--ro-overlay"]);
      let i = s + 1;
      while (i < a.length && (a[i] ?? "").startsWith("--")) {
        if (a[i] === "--") {
          i++;
          break;
        }
        i += two.has(a[i] ?? "") ? 3 : one.has(a[i] ?? "") ? 2 : 1;
      }
      return { from: i, label: p };
    }
    case "fakeroot":
      // `fakeroot rm -rf ~/`: runs its command as a pretend root, whose deletes are real. -l/-s/-i/-b take a value.
      return { from: skipOptions(a, s + 1, { short: "lsib", long: ["--lib", "--faked"] }), label: p };
    case "eatmydata":
    case "nocache":
    case "chronic":
    case "ltrace":
    case "strace":
    case "valgrind":
    case "firejail":
    case "unshare":
    case "nsenter":
    case "catchsegv":
    case "faketime":
      // Their options are flags or `--opt=value`; the first operand is the command (faketime takes a time first).
      return { from: skipOptions(a, s + 1, { short: p === "strace" || p === "ltrace" ? "eoOpsSuE" : p === "nsenter" ? "tSGwr" : "", long: [] }) + (p === "faketime" ? 1 : 0), label: p };
    case "flock": {
      let hasC = false;
      const i = skipOptions(a, s + 1, { short: "wEc", long: ["--timeout", "--conflict-exit-code", "--command"] }, (o) => {
        if (o === "-c" || o === "--command") hasC = true;
      });
      // `flock LOCK -c CMD`: the command comes after the lock file too; runsOther reads it as a script.
      return hasC || a[i + 1] === "-c" || a[i + 1] === "--command" ? undefined : { from: i + 1, label: p };
    }
    case "chroot":
      return { from: skipOptions(a, s + 1, { short: "", long: ["--userspec", "--groups"] }) + 1, label: p };
    // Launchers that run the rest of their words as a command (a display, a session bus, an init, a queue, a limit).
    case "xvfb-run":
      return { from: skipOptions(a, s + 1, { short: "nsefwp", long: ["--server-num", "--server-args", "--error-file", "--auth-file", "--wait", "--xauth-protocol"] }), label: p };
    case "dbus-run-session":
    case "ifne":
      return { from: skipOptions(a, s + 1, { short: "", long: ["--config-file", "--dbus-daemon"] }), label: p };
    case "tini":
    case "dumb-init":
      return { from: skipOptions(a, s + 1, { short: "pr", long: ["--rewrite"] }), label: p };
    case "tsp":
      return { from: skipOptions(a, s + 1, { short: "LDNWS", long: [] }), label: p };
    case "cpulimit":
      return { from: skipOptions(a, s + 1, { short: "lpe", long: ["--limit", "--pid", "--exe", "--path"] }), label: p };
    case "daemonize":
      return { from: skipOptions(a, s + 1, { short: "ceEoplu", long: [] }), label: p };
    case "gdb":
    case "lldb": {
      // `gdb -batch -ex run --args rm -rf ~`: the program and its arguments follow --args (lldb: --).
      const k = a.indexOf(p === "gdb" ? "--args" : "--", s + 1);
      return k > 0 ? { from: k + 1, label: `${p} --args` } : undefined;
    }
    case "start-stop-daemon": {
      // `--exec /bin/rm -- -rf ~`: the program is the value of --exec (or --startas), its arguments follow --.
      const k = a.findIndex((w, j) => j > s && (w === "--exec" || w === "-x" || w === "--startas" || w === "-a"));
      const exe = k > 0 ? a[k + 1] : a.find((w, j) => j > s && /^--(?:exec|startas)=/.test(w))?.replace(/^--\w+=/, "");
      if (exe === undefined || !a.includes("--start") && !a.includes("-S")) return undefined;
      const dash = a.indexOf("--", s + 1);
      return { from: dash > 0 ? dash + 1 : a.length, label: p, prefix: [exe] };
    }
    case "launchctl": {
      const dash = a.indexOf("--", s + 1);
      return a[s + 1] === "submit" && dash > 0 ? { from: dash + 1, label: "launchctl submit" } : undefined;
    }
    case "nix": {
      const k = a.findIndex((w, j) => j > s && (w === "-c" || w === "--command"));
      return (a[s + 1] === "develop" || a[s + 1] === "shell") && k > 0 ? { from: k + 1, label: `nix ${a[s + 1]}` } : undefined;
    }
    case "npm": {
      // `npm exec -- rm -rf ~`: after --, the package binary or any program on PATH.
      const dash = a.indexOf("--", s + 1);
      // A package spec (`git+https://..`, `github:x/y`) is fetched and run: its own effect, not a program name.
      if ((a[s + 1] !== "exec" && a[s + 1] !== "x") || dash < 0) return undefined;
      // `npm exec shepherd -- trust .`: the command named before --, run with the words after it.
      const named = a.slice(s + 2, dash).find((w, j, ws) => !w.startsWith("-") && !/^(?:--package|-p|--call|-c|-w|--workspace|--prefix)$/.test(ws[j - 1] ?? ""));
      if (named !== undefined && !/:/.test(named)) return { from: dash + 1, label: "npm exec", prefix: [named] };
      return !/:/.test(a[dash + 1] ?? "") ? { from: dash + 1, label: "npm exec" } : undefined;
    }
    // Privilege, resource and sandbox launchers: options (some valued), then the command.
    case "setpriv":
      return { from: skipOptions(a, s + 1, { short: "", long: ["--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule"] }), label: p };
    case "numactl":
      return { from: skipOptions(a, s + 1, { short: "NmCpPi", long: [] }), label: p };
    case "prlimit":
      return { from: skipOptions(a, s + 1, { short: "p", long: ["--pid", "--output"] }), label: p };
    case "systemd-inhibit":
      return { from: skipOptions(a, s + 1, { short: "", long: ["--what", "--who", "--why", "--mode"] }), label: p };
    case "flatpak-spawn":
      return { from: skipOptions(a, s + 1, { short: "", long: ["--env", "--directory", "--forward-fd", "--app-path", "--usr-path"] }), label: p };
    case "s6-setuidgid":
    case "setuidgid":
      return { from: s + 2, label: p };
    case "chpst":
      return { from: skipOptions(a, s + 1, { short: "uUbelmdofcrn", long: [] }), label: p };
    case "toolbox":
      return a[s + 1] === "run" ? { from: skipOptions(a, s + 2, { short: "cdr", long: ["--container", "--distro", "--release"] }), label: "toolbox run" } : undefined;
    case "distrobox":
    case "distrobox-enter": {
      const dash = a.indexOf("--", s + 1);
      return (p === "distrobox-enter" || a[s + 1] === "enter") && dash > 0 ? { from: dash + 1, label: "distrobox enter" } : undefined;
    }
    case "watchexec": {
      const dash = a.indexOf("--", s + 1);
      return dash > 0 ? { from: dash + 1, label: p } : undefined;
    }
    case "lerna":
    case "nx": {
      // `lerna exec -- rm -rf ~`, `nx exec -- tsc`: the command after -- runs in every package.
      const dash = a.indexOf("--", s + 1);
      return a[s + 1] === "exec" && dash > 0 ? { from: dash + 1, label: `${p} exec (every package)` } : undefined;
    }
    case "go": {
      // `go test -exec "rm -rf $HOME" ./...`, `go build -toolexec X`: go runs X with the binary it built (or each tool
      // of the build) as arguments; `go vet -vettool=X`: X is the analysis tool, given vet's other words.
      if (!/^(?:test|run|build|vet|install|generate)$/.test(a[s + 1] ?? "")) return undefined;
      for (let i = s + 2; i < a.length; i++) {
        const m = /^--?(exec|toolexec|vettool)(?:=([\s\S]*))?$/.exec(a[i] ?? "");
        if (m === null) continue;
        const value = m[2] ?? a[i + 1];
        if (value === undefined || value === "") return undefined;
        const next = m[2] !== undefined ? i + 1 : i + 2;
        return { from: m[1] === "vettool" ? next : a.length, label: `go ${a[s + 1]} -${m[1]}`, prefix: splitQuoted(value) };
      }
      return undefined;
    }
    case "cross-env":
    case "env-cmd": {
      let i = p === "cross-env" ? s + 1 : skipOptions(a, s + 1, { short: "efrv", long: ["--file", "--environments"] });
      while (ASSIGNMENT.test(a[i] ?? "")) i++;
      return { from: i, label: p };
    }
        default: {
      const runner = ENV_RUNNERS.get(p);
      if (runner !== undefined) return envRunner(a, s, p, runner);
      if (isPythonOrPypyName(p)) {
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
}

interface EnvRunner {
  /** The subcommand that runs a command (`bundle exec`, `poetry run`); null when the program itself runs it (`dotenv`). */
  subs: readonly string[] | null;
  short: string;
  long: readonly string[];
  /** Operands before the command (`aws-vault exec PROFILE`, `direnv exec DIR`). */
  skip: number;
  /** The command comes only after `--` (`mise exec node@22 -- cmd`: the words before it are tool versions). */
  dash?: boolean;
}

/** Environment runners: they set up a language, a tool version or secrets, then run the rest of the words as a command. */
const ENV_RUNNERS = new Map<string, EnvRunner>([
  ["bundle", { subs: ["exec", "ex"], short: "", long: ["--gemfile"], skip: 0 }],
  ["poetry", { subs: ["run"], short: "Cp", long: ["--directory", "--project", "--python", "--with", "--cwd"], skip: 0 }],
  ["pipenv", { subs: ["run"], short: "p", long: ["--python"], skip: 0 }],
  ["pdm", { subs: ["run"], short: "pg", long: ["--project", "--venv", "--python"], skip: 0 }],
  ["hatch", { subs: ["run"], short: "ep", long: ["--env", "--project"], skip: 0 }],
  ["rye", { subs: ["run"], short: "p", long: ["--pyproject", "--project"], skip: 0 }],
  ["uv", { subs: ["run"], short: "pw", long: ["--with", "--python", "--project", "--directory", "--package", "--env-file", "--extra", "--group", "--with-requirements", "--with-editable", "--index", "--index-url", "--from"], skip: 0 }],
  ["conda", { subs: ["run"], short: "np", long: ["--name", "--prefix", "--cwd", "--env"], skip: 0 }],
  ["mamba", { subs: ["run"], short: "np", long: ["--name", "--prefix", "--cwd"], skip: 0 }],
  ["micromamba", { subs: ["run"], short: "np", long: ["--name", "--prefix", "--cwd"], skip: 0 }],
  ["pixi", { subs: ["run", "exec"], short: "ep", long: ["--environment", "--manifest-path", "--spec", "--env"], skip: 0 }],
  ["pipx", { subs: ["run"], short: "", long: ["--spec", "--python", "--index-url", "--pip-args"], skip: 0 }],
  ["mise", { subs: ["exec", "x"], short: "C", long: ["--cd", "--jobs"], skip: 0, dash: true }],
  ["rtx", { subs: ["exec", "x"], short: "C", long: ["--cd", "--jobs"], skip: 0, dash: true }],
  ["asdf", { subs: ["exec"], short: "", long: [], skip: 0 }],
  ["rbenv", { subs: ["exec"], short: "", long: [], skip: 0 }],
  ["pyenv", { subs: ["exec"], short: "", long: [], skip: 0 }],
  ["nodenv", { subs: ["exec"], short: "", long: [], skip: 0 }],
  ["goenv", { subs: ["exec"], short: "", long: [], skip: 0 }],
  ["jenv", { subs: ["exec"], short: "", long: [], skip: 0 }],
  ["volta", { subs: ["run"], short: "", long: ["--node", "--npm", "--yarn", "--pnpm", "--env"], skip: 0 }],
  ["fnm", { subs: ["exec"], short: "", long: ["--using"], skip: 0 }],
  ["direnv", { subs: ["exec"], short: "", long: [], skip: 1 }],
  ["aws-vault", { subs: ["exec"], short: "d", long: ["--duration", "--region", "--mfa-token", "--prompt"], skip: 1 }],
  ["chamber", { subs: ["exec"], short: "", long: ["--pristine"], skip: 0, dash: true }],
  ["op", { subs: ["run"], short: "", long: ["--env-file", "--account"], skip: 0 }],
  ["doppler", { subs: ["run"], short: "pc", long: ["--project", "--config", "--token", "--command", "--mount"], skip: 0 }],
  ["infisical", { subs: ["run"], short: "", long: ["--env", "--path", "--projectId", "--token", "--command"], skip: 0 }],
  ["dotenv", { subs: null, short: "ecvf", long: ["--file"], skip: 0 }],
  ["dotenvx", { subs: ["run"], short: "f", long: ["--env-file", "--env"], skip: 0 }],
  ["stack", { subs: ["exec"], short: "", long: ["--package", "--cwd"], skip: 0 }],
  ["cabal", { subs: ["exec"], short: "", long: ["--project-file"], skip: 0 }],
  ["devbox", { subs: ["run"], short: "c", long: ["--config", "--env-file", "--environment"], skip: 0 }],
]);

function envRunner(a: string[], s: number, p: string, r: EnvRunner): Inner | undefined {
  if (r.subs !== null && !r.subs.includes(a[s + 1] ?? "")) return undefined;
  const k = s + (r.subs === null ? 1 : 2);
  const label = r.subs === null ? p : `${p} ${a[s + 1]}`;
  const dash = a.indexOf("--", k);
  if (dash >= 0 && a.slice(k, dash).every((w, i) => w.startsWith("-") || r.skip > 0 || r.dash === true || a[k + i - 1]?.startsWith("-"))) return { from: dash + 1, label };
  if (r.dash === true) return undefined;
  return { from: skipOptions(a, k, { short: r.short, long: [...r.long] }) + r.skip, label };
}

/** pnpm's and yarn's own commands (and aliases): any other first word runs a script or a package binary. */
const PNPM_COMMANDS = new Set("add install i update up upgrade remove rm un uninstall link ln unlink import rebuild rb prune fetch patch patch-commit patch-remove audit list ls ll la outdated why licenses run run-script test t exec dlx create start stop restart publish pack recursive r multi m server store root bin setup init deploy doctor config c get set env cache self-update approve-builds ignored-builds install-test it help version catalog".split(" "));
const YARN_COMMANDS = new Set("add remove install up upgrade upgrade-interactive run exec dlx npm workspaces workspace cache config info init link unlink pack publish why bin constraints dedupe explain node patch patch-commit plugin rebuild set stage unplug version audit global list outdated owner tag team test login logout generate-lock-entry import licenses check autoclean create help policies search sdks".split(" "));

/** git config keys whose value is a command git runs. */
export const GIT_COMMAND_KEYS = /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|sequence\.editor|diff\.external|pager\.[\w-]+|credential\.helper|gpg\.program|uploadpack\.packobjectshook|diff\.[\w-]+\.textconv|filter\.[\w-]+\.(?:clean|smudge|process)|merge\.[\w-]+\.driver)$/i;

/**
 * `git -c alias.nuke='reset --hard' nuke` runs `git reset --hard`; `git -c alias.x='!rm -rf ~' x` and
 * `git -c core.pager='rm -rf ~' log` run a shell command. The alias (or command) is what really runs.
 */
function gitAlias(a: string[], s: number, aliases: ReadonlyMap<string, string>): Inner | undefined {
  const config = new Map<string, string>();
  for (const [k, v] of aliases) config.set(`alias.${k}`, v);
  let i = s + 1;
  for (; i < a.length; i++) {
    const w = a[i] ?? "";
    if (!w.startsWith("-")) break;
    // `--config-env=alias.co=VAR` names a variable, not a value (the parser reads the variable into the aliases).
    if (w === "--config-env") {
      i++;
      continue;
    }
    if (w === "-c" || (w.startsWith("-c") && w.length > 2 && w.includes("="))) {
      const attached = w !== "-c";
      const kv = attached ? w.slice(2) : (a[i + 1] ?? "");
      if (attached) i--;
      const eq = kv.indexOf("=");
      if (eq > 0) config.set(kv.slice(0, eq).toLowerCase(), kv.slice(eq + 1));
      i++;
    } else if (w === "-C" || w === "--git-dir" || w === "--work-tree" || w === "--namespace" || w === "--exec-path") i++;
  }
  const sub = a[i];
  // `git clone 'ext::sh -c rm% -rf% ~'`: the ext transport runs its URL as a command (`% ` is a space, `%%` a %).
  const ext = a.slice(i + 1).find((w) => w.startsWith("ext::"));
  if (ext !== undefined) return { from: a.length, label: `git ${sub ?? ""} ext::`, prefix: extArgv(ext.slice(5)) };
  // Subcommands that run a shell command they are given.
  const runs = sub === "rebase" ? ["-x", "--exec"] : sub === "bisect" && a[i + 1] === "run" ? ["run"] : sub === "submodule" && a[i + 1] === "foreach" ? ["foreach"] : [];
  for (let k = i + 1; k < a.length && runs.length > 0; k++) {
    const w = a[k] ?? "";
    if (runs.includes(w)) {
      // `git submodule foreach --recursive 'git clean -ffdx'`: its own flags come before the command.
      let from = k + 1;
      while (w === "foreach" && (a[from] === "--recursive" || a[from] === "--quiet" || a[from] === "-q")) from++;
      // bisect run runs its words as a program and arguments (quotes kept); foreach joins them into one shell line.
      return { from: a.length, label: `git ${sub} ${w}`, prefix: ["sh", "-c", w === "run" ? a.slice(from).map(shellQuote).join(" ") : w === "foreach" ? a.slice(from).join(" ") : (a[k + 1] ?? "")] };
    }
    if (w.startsWith("--exec=")) return { from: a.length, label: `git ${sub} --exec`, prefix: ["sh", "-c", w.slice(7)] };
  }
  // Options whose value is a command git runs: `difftool -x CMD`, `grep -O CMD`, `fetch --upload-pack=CMD`,
  // `clone -u CMD`, `push --receive-pack=CMD`, `archive --exec=CMD` (here for a local remote, there over ssh).
  const cmdOpts = sub === "difftool" ? ["-x", "--extcmd"] : sub === "grep" ? ["-O", "--open-files-in-pager"] : sub === "archive" ? ["--exec"] : sub === "clone" ? ["-u", "--upload-pack"] : sub === "fetch" || sub === "pull" || sub === "ls-remote" ? ["--upload-pack"] : sub === "push" || sub === "send-pack" ? ["--receive-pack", "--exec"] : [];
  for (let k = i + 1; k < a.length && cmdOpts.length > 0; k++) {
    const w = a[k] ?? "";
    if (w === "--") break;
    const eq = w.indexOf("=");
    // git takes any unique prefix of a long option (`--upload-pac=`, `--upl=`).
    const named = eq > 0 ? w.slice(0, eq) : w;
    const long = named.startsWith("--") && named.length >= 5 ? cmdOpts.find((o) => o.startsWith(named)) : undefined;
    const value = cmdOpts.includes(w) ? a[k + 1] : eq > 0 && cmdOpts.includes(w.slice(0, eq)) ? w.slice(eq + 1) : long !== undefined ? (eq > 0 ? w.slice(eq + 1) : a[k + 1]) : w.startsWith("-O") && w.length > 2 && cmdOpts.includes("-O") ? w.slice(2) : undefined;
    if (value !== undefined && value !== "") return { from: a.length, label: `git ${sub} ${w.split("=")[0] ?? ""}`, prefix: ["sh", "-c", value] };
  }
  // `git clone --config core.fsmonitor=CMD URL`: config set for the new repository, used by the clone's own checkout.
  if (sub === "clone") for (let k = i + 1; k < a.length; k++) {
    const w = a[k] ?? "";
    const kv = w === "--config" || w === "-c" ? (a[k + 1] ?? "") : w.startsWith("--config=") ? w.slice(9) : "";
    const eq = kv.indexOf("=");
    if (eq > 0) config.set(kv.slice(0, eq).toLowerCase(), kv.slice(eq + 1));
  }
  if (config.size === 0) return undefined;
  const alias = sub !== undefined ? config.get(`alias.${sub.toLowerCase()}`) : undefined;
  if (alias !== undefined) {
    if (alias.startsWith("!")) return { from: a.length, label: `git alias ${sub}`, prefix: ["sh", "-c", alias.slice(1)] };
    return { from: i + 1, label: `git alias ${sub}`, prefix: ["git", ...a.slice(s + 1, i), ...alias.split(/\s+/).filter((x) => x !== "")] };
  }
  for (const [key, value] of config) {
    if (GIT_COMMAND_KEYS.test(key) && value !== "") return { from: a.length, label: `git -c ${key}`, prefix: ["sh", "-c", value.replace(/^!/, "")] };
  }
  return undefined;
}

/** The words of an ext:: command: an unescaped space separates them, `% ` is a space inside one, `%%` a percent sign. */
function extArgv(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (ch === "%" && i + 1 < text.length) {
      const next = text[++i] ?? "";
      if (next === " " || next === "%") cur += next;
    } else if (ch === " ") {
      if (cur !== "") out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur !== "") out.push(cur);
  return out;
}

/** The script of `bash -c '...'`, undefined when the shell runs a file or reads stdin. */
/** A `+n` (or `+o noexec`) among the options from `k` on, before the first operand. */
function turnsBackOn(argv: string[], k: number): boolean {
  for (let j = k; j < argv.length && j < k + 32; j++) {
    const w = argv[j] ?? "";
    if (/^\+[A-Za-z]*n[A-Za-z]*$/.test(w) || (w === "+o" && argv[j + 1] === "noexec")) return true;
    if (!w.startsWith("-") && !w.startsWith("+")) return false;
  }
  return false;
}

function shellScript(argv: string[]): { script?: string; readsStdin: boolean; noexec?: boolean; args?: string[] } {
  let hasC = false;
  let hasS = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    // `bash -n`, `sh -o noexec`: the commands are read and checked, never run.
    // (`bash -n +n -c ..`: a later `+n` among the options turns running back on.)
    if (((/^-[A-Za-z]*n[A-Za-z]*$/.test(a) && !a.startsWith("--")) || (a === "-o" && argv[i + 1] === "noexec") || a === "--noexec" || a === "--no-execute") && !turnsBackOn(argv, i + 1)) return { readsStdin: false, noexec: true };
    if (a === "-o" || a === "+o" || a === "-O" || a === "+O" || a === "--rcfile" || a === "--init-file") {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith("-") && a.includes("c")) hasC = true;
      // -s: commands come from stdin, the words after are its positional parameters.
      if (a.startsWith("-") && a.includes("s")) {
        hasS = true;
        if (!hasC) break;
      }
      continue;
    }
    if (a.startsWith("--")) continue;
    break;
  }
  if (hasC) {
    const script = argv[i];
    return script === undefined ? { readsStdin: false } : { script, readsStdin: false, args: argv.slice(i + 1) };
  }
  // `bash /dev/stdin <<< '...'`: the script file is standard input.
  return { readsStdin: hasS || i >= argv.length || /^\/(?:dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/.test(argv[i] ?? "") };
}

/**
 * Interpreters and the flag that takes inline code (`lua -e`, `erl -eval`, `osascript -e`); each reads a
 * script file given as an operand, and code from stdin when given neither. The class, not a list of
 * one-liners: any program here with its code flag has that code analysed.
 */
const CODE_FLAGS: Record<string, RegExp> = {
  lua: /^-e$/, luajit: /^-e$/, R: /^(?:-e|--expr)$/, Rscript: /^-e$/, julia: /^(?:-e|--eval|-E|--print)$/, osascript: /^-e$/,
  groovy: /^-e$/, scala: /^-e$/, kotlin: /^-e$/, elixir: /^(?:-e|--eval)$/, iex: /^(?:-e|--eval)$/, erl: /^-eval$/, escript: /^-e$/, swift: /^-e$/,
  tclsh: /^-c$/, wish: /^-c$/, expect: /^-c$/, jshell: /^$/, clojure: /^-e$/, clj: /^-e$/, bb: /^-e$/, racket: /^-e$/, guile: /^-c$/, sbcl: /^--eval$/,
  ocaml: /^-e$/, ghc: /^-e$/, runghc: /^-e$/, crystal: /^eval$/, nim: /^--eval$/, raku: /^-e$/, perl6: /^-e$/, pypy3: /^-c$/, jruby: /^-e$/, jython: /^-c$/,
  qjs: /^(?:-e|--eval)$/, "tsx": /^(?:-e|--eval|-p)$/, "ts-node": /^(?:-e|--eval|-p|--print)$/,
};

const INTERPRETERS = new Set(["node", "nodejs", "bun", "perl", "ruby", "php", "deno", "Rscript", "julia"]);

function isInterpreter(p: string): boolean {
  return (p.startsWith("py") && isPythonOrPypyName(p)) || INTERPRETERS.has(p) || Object.hasOwn(CODE_FLAGS, p);
}

/** Interpreters that run every `-e` given, as one program (`osascript -e 'x' -e 'do shell script ..'`). */
const JOINS_CODE_FLAGS = new Set(["perl", "ruby", "osascript", "lua", "luajit", "jruby", "raku"]);

/** Every code flag's value from `i` on, joined by newlines (options between them skipped). */
function joinedCode(argv: string[], i: number, codeFlag: RegExp): string | undefined {
  const parts: string[] = [];
  for (let k = i; k < argv.length; k++) {
    const a = argv[k] ?? "";
    if (codeFlag.test(a) && k + 1 < argv.length) parts.push(argv[++k] ?? "");
    else if (!a.startsWith("-") || a === "--") break;
  }
  return parts.length > 0 ? parts.join("\n") : argv[i + 1];
}

/** Code given to an interpreter on its command line, or "stdin" when it reads code from standard input. */
function interpreterCode(argv: string[], program: string): string | "stdin" | undefined {
  // `deno run -A - <<< '..'`, `bun run -`: the script is standard input.
  if ((program === "bun" || program === "deno") && argv[1] === "run" && argv.slice(2).find((w) => w === "-" || !w.startsWith("-")) === "-") return "stdin";
  let codeFlag: RegExp;
  let valueShort = "";
  // Options whose value is the next word (`python3 --check-hash-based-pycs always -c ..`, `ruby -r json -e ..`), and
  // code attached to its flag (`ruby -e'system(..)'` is the word `-esystem(..)`).
  let valueLong: readonly string[] = [];
  let attached: RegExp | undefined;
  if (isPythonOrPypyName(program)) {
    codeFlag = /^-[A-Za-z]*c$/;
    valueShort = "WX";
    valueLong = ["--check-hash-based-pycs"];
  } else if (program === "node" || program === "nodejs" || program === "bun") {
    codeFlag = /^(?:-e|--eval|-p|--print|-pe)$/;
    valueShort = "rC";
    valueLong = ["--require", "--import", "--loader", "--experimental-loader", "--title", "--conditions", "--env-file", "--input-type", "--preserve-symlinks-main"];
  } else if (program === "perl") {
    codeFlag = /^-[A-Za-z]*[eE]$/;
    valueShort = "I";
    attached = /^-[eE]([\s\S]+)$/;
  } else if (program === "ruby") {
    codeFlag = /^-[A-Za-z]*e$/;
    valueShort = "rIC";
    valueLong = ["--disable", "--enable", "--encoding", "--external-encoding", "--internal-encoding"];
    attached = /^-e([\s\S]+)$/;
  } else if (program === "php") {
    codeFlag = /^-r$/;
  } else if (program === "Rscript" || program === "julia") {
    codeFlag = /^-e$/;
  } else if (program === "deno") {
    return argv[1] === "eval" ? argv[argv.length - 1] : undefined;
  } else if (Object.hasOwn(CODE_FLAGS, program)) {
    codeFlag = CODE_FLAGS[program] ?? /^-e$/;
    // osascript -l JavaScript -e ...; Rscript --vanilla -e ...
    valueShort = program === "osascript" ? "l" : "";
  } else return undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (codeFlag.test(a)) return JOINS_CODE_FLAGS.has(program) ? joinedCode(argv, i, codeFlag) : argv[i + 1];
    if (a.startsWith("--eval=") || a.startsWith("--print=")) return a.slice(a.indexOf("=") + 1);
    const inline = attached?.exec(a)?.[1];
    if (inline !== undefined) return inline;
    // (A long option's value never starts with `-`: `ruby --enable -e CODE` gives --enable none.)
    if ((a.length === 2 && valueShort.includes(a[1] ?? "")) || (valueLong.includes(a) && !(argv[i + 1] ?? "-").startsWith("-"))) {
      i++;
      continue;
    }
    if (a === "-" || /^\/(?:dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/.test(a)) return "stdin";
    if (!a.startsWith("-")) return undefined;
  }
  return "stdin";
}

const PACKAGE_RUNNERS: ReadonlySet<string> = new Set(["npx", "bunx", "pnpx", "pnpm dlx", "pnpm exec", "npm exec", "yarn dlx", "bun x", "bun exec"]);

/** `env X=1 cmd`, `sudo X=1 cmd`: the assignments before the wrapped command go into its environment. */
function wrapperEnv(cmd: SimpleCommand, argv: string[]): readonly string[] | undefined {
  const p = cmd.program;
  const own = p === "env" || p === "sudo" || p === "doas" ? cmd.argv.slice(1, Math.max(1, cmd.argv.length - argv.length)).flatMap((w) => /^([A-Za-z_]\w*)=/.exec(w)?.[1] ?? []) : [];
  const outer = envOf(cmd);
  if (own.length === 0) return outer;
  return [...new Set([...own, ...(outer ?? [])])].slice(0, 32);
}

function child(cmd: SimpleCommand, argv: string[], dynamic: boolean[], label: string, extra: Partial<SimpleCommand> = {}): SimpleCommand {
  const out: SimpleCommand = {
    argv,
    dynamic,
    // `npx @scope/tool@1.2.0`: a package runner's version pin is not part of the program's name.
    program: (PACKAGE_RUNNERS.has(label) ? base(argv[0] ?? "").replace(/(?<=.)@[^@/]*$/, "") : base(argv[0] ?? "")).replace(/\.exe$/i, ""),
    cwd: cmd.cwd,
    redirects: cmd.redirects,
    pipeTo: [],
    via: [...cmd.via, label],
    synthetic: cmd.synthetic,
    stdinArgs: cmd.stdinArgs,
    ignoresStdinCode: undefined,
    pipeFrom: undefined,
    captured: undefined,
    selfSpawn: undefined,
    wrapsFrom: undefined,
    recipesRead: undefined,
    memo: undefined,
    ...extra,
  };
  // Set after the literal, and only where there is one: most commands carry no environment of their own.
  const env = cmd.program === "env" || cmd.program === "sudo" || cmd.program === "doas" ? wrapperEnv(cmd, argv) : envOf(cmd);
  if (env !== undefined) setEnv(out, env);
  return out;
}

/** The text a command reads on stdin, when it is literal: heredoc, herestring or `echo ... |`. */
function stdinText(cmd: SimpleCommand, piped: string | undefined): string | undefined {
  for (const r of cmd.redirects) {
    if (r.body !== undefined) return r.body;
    if (r.op === "<<<") return r.target;
    // `xargs rm -rf < /dev/null`: nothing to read, so nothing is run with it.
    if (r.op === "<" && r.fd === "" && r.target === "/dev/null") return "";
  }
  return piped;
}

const FIND_NON_FILTERS = new Set(["-delete", "-print", "-print0", "-depth", "-d", "-xdev", "-mount", "-follow", "-noleaf", "-daystart", "-warn", "-nowarn", "-ignore_readdir_race", "-maxdepth", "-mindepth", "-ls"]);

function unwrapFind(cmd: SimpleCommand, api: Unwrapper, level: number): void {
  const a = cmd.argv;
  let i = 1;
  while (/^-[HLPO]/.test(a[i] ?? "") || a[i] === "-D") i += a[i] === "-D" ? 2 : 1;
  const starts: string[] = [];
  const startsDynamic: boolean[] = [];
  for (; i < a.length; i++) {
    const s = a[i] ?? "";
    if (s.startsWith("-") || s === "(" || s === "!" || s === ")") break;
    starts.push(s);
    startsDynamic.push(cmd.dynamic[i] ?? false);
  }
  if (starts.length === 0) starts.push(".");
  const first = starts[0] ?? ".";
  let filtered = false;
  let deletes = false;
  // `find . -name .env -exec cat {} +`: what {} stands for is named by -name when there is one.
  const nameAt = a.findIndex((w) => w === "-name" || w === "-iname");
  const named = nameAt > 0 ? a[nameAt + 1] : undefined;
  for (; i < a.length; i++) {
    const s = a[i] ?? "";
    if (s === "-exec" || s === "-execdir" || s === "-ok" || s === "-okdir") {
      let j = i + 1;
      while (j < a.length && a[j] !== ";" && a[j] !== "+") j++;
      // `{}` is each match: somewhere below the start point, never the start point's parent.
      const self = a.some((w, k) => w === "-maxdepth" && a[k + 1] === "0");
      const below = named !== undefined && named !== "*" && !named.includes("/") ? `${first.replace(/\/+$/, "")}/${named}` : `${first.replace(/\/+$/, "")}/{}`;
      // Unfiltered, `find . -exec rm {} \;` walks every entry under the start: the start's whole tree.
      const whole = !filtered && base(a[i + 1] ?? "") === "rm";
      const inner = a.slice(i + 1, j).map((w) => w.replaceAll("{}", self || whole ? first : below));
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
    // `find "$ROOT" -delete`: an unknown start stays unknown.
    api.emit(child(cmd, argv, [false, false, ...targets.map((_, k) => startsDynamic[k] ?? false)], "find -delete", { synthetic: true }));
  }
}

const AWK = new Set(["awk", "gawk", "mawk", "nawk"]);

/** env -S splitting: whitespace separates, single and double quotes group (`env -S 'bash -c "rm -rf ~"'`). */
function splitQuoted(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) out.push(m[1] ?? m[2]?.replace(/\\(.)/g, "$1") ?? m[3] ?? "");
  return out;
}

/** A word as the shell would need it written to come back as itself. */
function shellQuote(w: string): string {
  return /^[\w@%+=:,./~-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

/** Programs that run a command line elsewhere (another host, a container, WSL, another user). */
const REMOTE = new Set(["ssh", "kubectl", "docker", "podman", "nerdctl", "finch", "wsl", "wsl.exe", "runuser", "lxc", "vagrant", "mosh", "pssh", "parallel-ssh", "ansible", "docker-compose", "podman-compose"]);

/** Options of `compose` (global, and of `exec`/`run`) that take a value. */
const COMPOSE_VALUED = new Set(["-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory", "-e", "--env", "-u", "--user", "-w", "--workdir", "--index", "-v", "--volume", "--name", "--entrypoint", "-l", "--label", "--publish", "-P"]);

/** The words a `compose exec SERVICE CMD` / `compose run SERVICE CMD` runs in the service's container. */
function composeService(a: string[], p: string): string[] | undefined {
  const k = p === "docker-compose" || p === "podman-compose" ? 0 : a.indexOf("compose");
  if (k < 0 || (k > 0 && p !== "docker" && p !== "podman")) return undefined;
  let i = k + 1;
  const skip = () => {
    while (i < a.length && (a[i] ?? "").startsWith("-")) i += !(a[i] ?? "").includes("=") && COMPOSE_VALUED.has(a[i] ?? "") ? 2 : 1;
  };
  skip();
  if (a[i] !== "exec" && a[i] !== "run") return undefined;
  i++;
  skip();
  return i + 1 < a.length ? a.slice(i + 1) : undefined;
}

/** The command line a remote runner runs: `ssh host 'rm -rf ~'`, `kubectl exec pod -- rm -rf /data`, `wsl -e bash -c ...`. */
function remoteCommand(a: string[], p: string): string | undefined {
  // ssh hands its words to a remote shell joined by spaces; the others run them as an argv: quotes kept.
  const joined = (words: string[]) => (p === "ssh" || p === "vagrant" ? words.join(" ") : words.map(shellQuote).join(" "));
  const dash = a.indexOf("--");
  if (p === "ssh") {
    let i = skipOptions(a, 1, { short: "bcDEeFIiJLlmOopQRSWw", long: [] });
    i++;
    // `ssh host -- rm -rf /`: a `--` after the host only ends ssh's options.
    if (a[i] === "--") i++;
    // `ssh host rm -rf '~'`: quoted here, the tilde reaches the remote shell bare, and it expands there.
    return i < a.length ? joined(a.slice(i).map((w) => (w.startsWith("./~") ? w.slice(2) : w))) : undefined;
  }
  // `kubectl run tmp --rm -it --image=x -- CMD` runs CMD in a new pod as `exec` does in a running one.
  if (p === "kubectl" || p === "lxc") return (a.includes("exec") || (p === "kubectl" && a.includes("run"))) && dash > 0 ? joined(a.slice(dash + 1)) : undefined;
  const compose = composeService(a, p);
  if (compose !== undefined) return joined(compose);
  if (p === "docker" || p === "podman" || p === "nerdctl" || p === "finch") {
    const k = a.indexOf("exec");
    if (k !== 1 && !(k === 2 && a[1] === "container")) return undefined;
    const i = skipOptions(a, k + 1, { short: "eruw", long: ["--env", "--user", "--workdir", "--env-file"] });
    return joined(a.slice(i + 1));
  }
  if (p === "wsl" || p === "wsl.exe") {
    const k = a.findIndex((w) => w === "-e" || w === "--exec" || w === "--");
    return k > 0 ? joined(a.slice(k + 1)) : a.length > 1 && !a[1]?.startsWith("-") ? a.slice(1).map(shellQuote).join(" ") : undefined;
  }
  if (p === "runuser") {
    // `runuser -u user -- CMD` runs an argv; `runuser -l user -c 'CMD'` a shell line.
    const c = a.findIndex((w) => w === "-c" || w === "--command");
    return dash > 0 ? joined(a.slice(dash + 1)) : c > 0 ? a[c + 1] : undefined;
  }
  // `mosh host -- CMD`; `pssh -h hosts -i 'CMD'` (the last operand); `ansible all -m shell -a 'CMD'`.
  if (p === "mosh") return dash > 0 ? joined(a.slice(dash + 1)) : undefined;
  if (p === "pssh" || p === "parallel-ssh") {
    const last = a[a.length - 1] ?? "";
    return a.length > 2 && !last.startsWith("-") && !/^-[hHlpotxX]$/.test(a[a.length - 2] ?? "") ? last : undefined;
  }
  if (p === "ansible") {
    const k = a.findIndex((w) => w === "-a" || w === "--args");
    const m = a.findIndex((w) => w === "-m" || w === "--module-name");
    const mod = m > 0 ? (a[m + 1] ?? "") : "command";
    return k > 0 && /^(?:(?:ansible\.builtin\.)?(?:shell|command|raw))$/.test(mod) ? a[k + 1] : undefined;
  }
  if (p === "vagrant") return a[1] === "ssh" && a.includes("-c") ? a[a.indexOf("-c") + 1] : undefined;
  if (p === "ansible") {
    // `ansible all -m shell -a 'rm -rf /x'`: the shell, command and raw modules (command is the default) run -a's line on every host.
    const m = a.findIndex((w) => w === "-m" || w === "--module-name");
    const mod = m > 0 ? (a[m + 1] ?? "") : (a.find((w) => w.startsWith("--module-name="))?.slice(14) ?? "command");
    if (!/^(?:ansible\.(?:builtin|legacy)\.)?(?:shell|command|raw)$/.test(mod)) return undefined;
    const k = a.findIndex((w) => w === "-a" || w === "--args");
    return k > 0 ? a[k + 1] : a.find((w) => w.startsWith("--args="))?.slice(7);
  }
  return undefined;
}

/** Options of tmux's command-running subcommands that take a value. */
const TMUX_VALUED = new Set(["-s", "-n", "-t", "-c", "-x", "-y", "-e", "-F", "-l", "-f", "-w", "-h", "-L", "-S"]);
const TMUX_RUNS = new Set(["new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run", "display-popup", "popup"]);

/**
 * The command line a detached runner runs: `tmux new -d 'rm -rf ~'`, `screen -dmS x rm -rf ~`,
 * `systemd-run --user rm -rf ~`, `echo 'rm -rf ~' | at now` (at and batch read the commands on stdin).
 */
function detachedCommand(cmd: SimpleCommand, p: string, piped: string | undefined): string | undefined {
  const a = cmd.argv;
  if (p === "tmux") {
    let i = 1;
    while (i < a.length && (a[i] ?? "").startsWith("-")) i += a[i] === "-L" || a[i] === "-S" || a[i] === "-f" ? 2 : 1;
    if (a[i] === "send-keys" || a[i] === "send") {
      // `tmux send-keys -t 0 'rm -rf ~' Enter`: the keys typed into a shell, run when Enter (C-m) ends them.
      let k = i + 1;
      while (k < a.length && (a[k] ?? "").startsWith("-")) k += a[k] === "-t" || a[k] === "-N" ? 2 : 1;
      const keys = a.slice(k);
      const enter = keys.findIndex((w) => /^(?:Enter|C-m|KPEnter)$/i.test(w));
      return enter > 0 ? keys.slice(0, enter).join(" ") : undefined;
    }
    if (!TMUX_RUNS.has(a[i] ?? "")) return undefined;
    i++;
    while (i < a.length && (a[i] ?? "").startsWith("-")) {
      if (a[i] === "--") {
        i++;
        break;
      }
      i += TMUX_VALUED.has(a[i] ?? "") ? 2 : 1;
    }
    return a.slice(i).join(" ");
  }
  if (p === "screen") {
    let i = 1;
    while (i < a.length && (a[i] ?? "").startsWith("-")) i += /^-(?:[dDmRr]*S|[dDmRr]*[cpTtXe]|L?logfile|h)$/.test(a[i] ?? "") ? 2 : 1;
    // screen runs its words as a program and its arguments, not as a shell line: quotes are kept.
    return a.slice(i).map(shellQuote).join(" ");
  }
  if (p === "systemd-run") {
    const i = skipOptions(a, 1, { short: "pEuMHd", long: ["--unit", "--property", "--setenv", "--description", "--slot", "--uid", "--gid", "--nice", "--working-directory", "--on-active", "--on-calendar", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--timer-property", "--path-property", "--socket-property", "--service-type", "--machine", "--host"] });
    return a.slice(i).map(shellQuote).join(" ");
  }
  // at / batch: `-f FILE` runs a file; otherwise the commands come from stdin.
  if (a.includes("-f") || a.includes("-l") || a.includes("-r") || a.includes("-d")) return undefined;
  return stdinText(cmd, piped);
}

/**
 * `docker run -v ~:/h alpine rm -rf /h`: a bind mount hands the container a host directory, and what the
 * container does to it happens on the host. The container's command is read with each mount target mapped
 * back to its host source; a command that touches no mounted path acts only inside the container.
 */
function containerRun(cmd: SimpleCommand, api: Unwrapper, level: number): void {
  const a = cmd.argv;
  const mounts: [string, string][] = [];
  const valued = /^(?:-[vepuwlhm]|--(?:volume|env|env-file|publish|user|workdir|name|label|hostname|memory|mount|network|entrypoint|platform|cpus|add-host|device|cap-add|cap-drop|security-opt|restart|ulimit|tmpfs|volumes-from|log-driver|log-opt|pull|gpus|ipc|pid|dns|shm-size|stop-signal|cidfile|cgroupns|runtime|userns|uts|init-path|health-cmd|expose|link|annotation|group-add|sysctl))$/;
  let i = a[1] === "container" || a[1] === "compose" ? 3 : 2;
  for (; i < a.length; i++) {
    const w = a[i] ?? "";
    if (!w.startsWith("-")) break;
    const eq = w.indexOf("=");
    const opt = eq > 0 && w.startsWith("--") ? w.slice(0, eq) : w;
    const value = eq > 0 && w.startsWith("--") ? w.slice(eq + 1) : valued.test(w) ? a[++i] : undefined;
    if (value === undefined) continue;
    if (opt === "-v" || opt === "--volume") {
      const parts = value.split(":");
      if (parts.length >= 2 && parts[0] !== "" && parts[1] !== undefined && parts[1].startsWith("/")) mounts.push([parts[0] ?? "", parts[1]]);
    } else if (opt === "--mount") {
      const src = /(?:^|,)(?:source|src)=([^,]+)/.exec(value)?.[1];
      const dst = /(?:^|,)(?:target|destination|dst)=([^,]+)/.exec(value)?.[1];
      if (src !== undefined && dst !== undefined && dst.startsWith("/")) mounts.push([src, dst]);
    }
  }
  // Named volumes (`-v data:/data`) are the engine's, not a host path.
  // `-v ~:/h`: bash leaves that tilde as written, yet the mount means the home; fail closed.
  for (const m of mounts) if (m[0] === "./~" || m[0] === "~") m[0] = api.home;
  const host = mounts.filter(([src]) => src.startsWith("/") || src.startsWith("~") || src.startsWith(".")).map(([src, dst]) => [resolvePath(src, cmd.cwd === "" ? "/" : cmd.cwd, api.home), dst.replace(/\/+$/, "") || "/"] as const);
  const words = a.slice(i + 1);
  if (host.length === 0 || words.length === 0 || level + 1 >= SHELL_LIMITS.maxWrappers) return;
  const mapWord = (w: string): string => {
    for (const [src, dst] of host) {
      if (w === dst || w === `${dst}/`) return src;
      if (dst === "/" && w.startsWith("/")) return `${src.replace(/\/+$/, "")}${w}`;
      if (w.startsWith(`${dst}/`)) return `${src.replace(/\/+$/, "")}${w.slice(dst.length)}`;
    }
    return w;
  };
  const mapped = words.map(mapWord);
  // `-v /dev:/dev ... dd of=/dev/sda`: a path mounted at the same place is the host's too.
  const touches = words.some((w) => host.some(([, dst]) => w === dst || w.startsWith(dst === "/" ? "/" : `${dst}/`) || w.includes(`=${dst}`)));
  if (mapped.every((w, k) => w === words[k]) && !touches && !SHELLS.has(base(words[0] ?? ""))) return;
  if (SHELLS.has(base(words[0] ?? ""))) {
    // `docker run -v /:/host alpine sh -c 'rm -rf /host/etc'`: map the paths inside the script too.
    const script = shellScript(words).script;
    if (script === undefined) return;
    let text = script;
    for (const [src, dst] of host) {
      const escaped = dst.replace(/[.*+?^$()|[\]{}\\]/g, "\\$&");
      text = text.replace(new RegExp(`(^|[\\s'"=])${escaped}(?=/|$|[\\s'"])`, "g"), `$1${src.replace(/\/+$/, "")}`);
    }
    if (text !== script) api.script(text, cmd.cwd, `${cmd.program} run (bind mount)`);
    return;
  }
  unwrap(child(cmd, mapped, mapped.map(() => false), `${cmd.program} run (bind mount)`, { redirects: [] }), api, undefined, level + 1);
}

/** awk's program text: the first operand after -F/-v/-f options (undefined with -f: a program file). */
function awkProgram(argv: string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--") return argv[i + 1];
    if (a === "-f" || a.startsWith("--file")) return undefined;
    if (a === "-F" || a === "-v" || a === "--assign" || a === "--field-separator") {
      i++;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) continue;
    return a;
  }
  return undefined;
}

/** The text an awk print expression makes from string literals, known variables, commas (a space) and concatenation; undefined when any part is computed. */
function awkValue(expr: string, strings: ReadonlyMap<string, string>): string | undefined {
  let out = "";
  for (const t of expr.matchAll(/"((?:[^"\\]|\\.)*)"|([A-Za-z_]\w*)|(,)|(\S)/g)) {
    if (t[1] !== undefined) out += t[1].replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
    else if (t[2] !== undefined) {
      const v = strings.get(t[2]);
      if (v === undefined) return undefined;
      out += v;
    } else if (t[3] !== undefined) out += " ";
    else if (t[4] !== "(" && t[4] !== ")") return undefined;
  }
  return out;
}

/** Commands an awk program runs: `system("...")`, `system(var)` with `var="..."`, `print ... | "cmd"`, `"cmd" | getline`. */
function awkCommands(argv: string[], stdin: string | undefined): string[] {
  const fromFile = argv.some((w, k) => w === "-f" && /^\/dev\/stdin$|^-$/.test(argv[k + 1] ?? ""));
  const written = fromFile ? stdin : awkProgram(argv);
  // A `#` that opens a line starts a comment (mid-line, it may sit inside a regex such as `/x#/`).
  const source = written?.includes("#") ? written.replace(/^[ \t]*#.*$/gm, "") : written;
  if (source === undefined || !/system|\||getline/.test(source)) return [];
  // `"rm -rf " ENVIRON["HOME"]`: the home directory, concatenated.
  // `echo ~ | awk '{system("rm -rf "$0)}'`: $0 is the line read, when it is known.
  const line = stdin?.split("\n")[0]?.trim();
  const fieldsOf = (line ?? "").split(/\s+/);
  const prog = source
    .replace(/"\s*ENVIRON\["HOME"\]/g, '~"')
    .replace(/"\s*\$0\b/g, line !== undefined && !fromFile ? `${line}"` : '"')
    // `echo ~ | awk '{system("rm -rf " $1)}'`: a field of the line read.
    .replace(/"\s*\$([1-9])\b/g, (_m, n: string) => (line !== undefined && !fromFile ? `${fieldsOf[Number(n) - 1] ?? ""}"` : '"'))
    // `awk '{system($0)}' <<< 'rm -rf ~'`: the line itself is the command.
    .replace(/\bsystem\s*\(\s*\$0\s*\)/g, line !== undefined && !fromFile ? `system("${line.replaceAll('"', "")}")` : "system($0)");
  const strings = new Map<string, string>();
  for (let k = 1; k < argv.length; k++) {
    const m = argv[k - 1] === "-v" ? /^([A-Za-z_]\w*)=(.*)$/s.exec(argv[k] ?? "") : null;
    if (m?.[1] && m[2] !== undefined) strings.set(m[1], m[2]);
  }
  for (const m of prog.matchAll(/\b([A-Za-z_]\w*)\s*=\s*"([^"]*)"/g)) if (m[1] && m[2] !== undefined) strings.set(m[1], m[2]);
  const out: string[] = [];
  for (const m of prog.matchAll(/\bsystem\s*\(\s*(?:"([^"]*)"|([A-Za-z_]\w*))/g)) {
    const c = m[1] ?? strings.get(m[2] ?? "");
    if (c !== undefined) out.push(c);
  }
  // `print "rm -rf ~" | "sh"`, `print "rm", "-rf", "~" | "sudo sh"`, `print c |& "sh"`: the pipe's command runs, and
  // when it is a shell reading its script from standard input, so does what is printed into it.
  for (const m of prog.matchAll(/\bprintf?\b((?:[^|;{}"]|"(?:[^"\\]|\\.)*"){0,40}?)\|&?\s*"((?:[^"\\]|\\.)*)"/g)) {
    const target = (m[2] ?? "").replace(/\\(.)/g, "$1");
    out.push(target);
    const words = target.trim().split(/\s+/);
    let k = 0;
    while (k < words.length - 1 && (words[k] === "sudo" || words[k] === "env" || words[k] === "doas" || words[k] === "exec")) k++;
    const printed = awkValue(m[1] ?? "", strings);
    if (printed !== undefined && SHELLS.has(base(words[k] ?? "")) && shellScript(words.slice(k)).readsStdin) out.push(printed);
  }
  const readCommands: string[] = [];
  for (const m of prog.matchAll(/"([^"]*)"\s*\)?\s*\|\s*getline/g)) if (m[1]) readCommands.push(m[1]);
  // `"curl -s x" | getline l; print l | "bash"`: what awk read from a command, printed into a shell, is that command's output run.
  const shellSink = [...prog.matchAll(/\bprintf?\b[^|"]{0,80}\|\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? "").find((t) => SHELLS.has(base(t.trim().split(/\s+/)[0] ?? "")));
  for (const c of readCommands) out.push(shellSink !== undefined ? `${c} | ${shellSink}` : c);
  return out;
}

const PARALLEL_VALUE_OPTS = new Set(["-j", "--jobs", "-S", "--sshlogin", "--joblog", "--results", "-I", "--delay", "--timeout", "--tmpdir", "-a", "--arg-file", "--colsep", "-d", "--delimiter", "--env", "--workdir", "--wd", "-n", "--max-args", "-N", "--retries", "--memfree", "--load"]);

/** `parallel CMD ::: ARGS`: CMD runs once per argument (`{}` replaced, else appended); without `:::` the piped words are the arguments. */
function runParallel(cmd: SimpleCommand, api: Unwrapper, piped: string | undefined): void {
  const a = cmd.argv;
  let i = 1;
  while (i < a.length && (a[i] ?? "").startsWith("-") && a[i] !== ":::") i += PARALLEL_VALUE_OPTS.has(a[i] ?? "") ? 2 : 1;
  const sep = a.indexOf(":::", i);
  const template = a.slice(i, sep < 0 ? a.length : sep);
  // Piped input is one argument per line (`echo 'rm -rf /' | parallel bash -c {}` passes the whole line).
  const args = sep >= 0 ? a.slice(sep + 1).filter((w) => !w.startsWith(":::")) : (stdinText(cmd, piped) ?? "").split("\n").map((l) => l.trim()).filter((w) => w !== "");
  if (template.length === 0) {
    // `parallel ::: 'rm -rf /' 'echo ok'`: with no command, each argument is a command line.
    for (const arg of args.slice(0, SHELL_LIMITS.maxWrappers)) api.script(arg, cmd.cwd, "parallel");
    if (args.length > SHELL_LIMITS.maxWrappers) api.note(limitNote(`parallel given more than ${SHELL_LIMITS.maxWrappers} arguments`));
    return;
  }
  // One word is a command line of its own (`parallel 'rm -rf {}'`); several are words, re-quoted so `bash -c 'rm -rf {}'` stays one script.
  const line = template.length === 1 ? (template[0] ?? "") : template.map((w) => (/^[\w@%+=:,./{}-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`)).join(" ");
  const max = Math.min(args.length, SHELL_LIMITS.maxWrappers);
  if (args.length > max) api.note(limitNote(`parallel given more than ${SHELL_LIMITS.maxWrappers} arguments`));
  if (max === 0) api.script(line, cmd.cwd, "parallel");
  for (let k = 0; k < max; k++) {
    const arg = args[k] ?? "";
    const quoted = `'${arg.replaceAll("'", "'\\''")}'`;
    api.script(line.includes("{}") ? line.replaceAll("{}", arg.startsWith("~") ? arg : quoted) : `${line} ${arg.startsWith("~") ? arg : quoted}`, cmd.cwd, "parallel");
  }
}

/** The home directory as interpreters spell it, for the path scanner: `process.env.HOME`, `os.homedir()`, `Dir.home`... */
const HOME_EXPR = /(?:pathlib\.)?Path\.home\(\)|(?<![.\w])homedir\(\)|path\.expand\(['"]~['"]\)|process\.env\.HOME\b|process\.env\[['"]HOME['"]\]|os\.homedir\(\)|\$ENV\{HOME\}|ENV\[['"]HOME['"]\]|os\.environ\[['"]HOME['"]\]|os\.environ\.get\(['"]HOME['"]\)|os\.getenv\(['"]HOME['"]\)|Dir\.home\b|Path\.home\(\)|os\.path\.expanduser\(['"]~['"]\)|getenv\(['"]HOME['"]\)|Deno\.env\.get\(['"]HOME['"]\)|require\(['"](?:node:)?os['"]\)\.homedir\(\)|getenv\(\s*"HOME"\s*\)/g;

/** Inline code past this is not a one-liner: it is not scanned, and the line is judged too complex. */
const MAX_CODE = 1 << 16;

function runCode(cmd: SimpleCommand, source: string, api: Unwrapper, label: string, depth = 0): void {
  if (source.length > MAX_CODE) {
    api.note(limitNote(`inline code longer than ${MAX_CODE} characters`));
    return;
  }
  // Tcl's `$env(HOME)` sits in bare words (`exec rm -rf $env(HOME)`): the home as a bare tilde there.
  // `os.path.expanduser('~/Documents')`: a path under the home, as the tilde path.
  const code = foldCode(source.replace(/os\.path\.expanduser\(\s*(['"])(~\/[^'"]*)\1\s*\)|Path\(\s*(['"])(~\/[^'"]*)\3\s*\)\.expanduser\(\)/g, (_m, _q, a: string | undefined, _q2, b: string | undefined) => `'${a ?? b ?? "~"}'`).replace(HOME_EXPR, "'~'").replace(/\$env\(HOME\)/g, "~"));
  const found = scanCode(code);
  if (found.length === 0 && depth === 0) {
    // A language or call shape with no table here: a destructive-looking command line in code that runs things.
    for (const text of fallbackCommands(code)) {
      try {
        api.script(text, cmd.cwd, `${label} (string)`);
      } catch (err) {
        if (err instanceof ShellLimitError) throw err;
      }
    }
  }
  for (const e of found) {
    if (e.kind === "delete") {
      const argv = ["rm", e.recursive ? "-rf" : "-f", e.path.startsWith("~") || e.path.startsWith("/") ? resolvePath(e.path, "/", api.home) : e.path];
      api.emit(child(cmd, argv, argv.map(() => false), label, { synthetic: true, redirects: [] }));
    } else if (e.kind === "argv") {
      unwrap(child(cmd, e.argv, e.argv.map(() => false), label, { synthetic: true, redirects: [] }), api, undefined);
    } else if (e.kind === "file") {
      const argv = e.argv.map((w, k) => (k > 0 && (w.startsWith("~") || w.startsWith("/")) ? resolvePath(w, "/", api.home) : w));
      api.emit(child(cmd, argv, argv.map(() => false), label, { synthetic: true, redirects: [] }));
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
 * Programs that take one shell command line as an option or operand: `entr -s CMD`, `runuser -c CMD`,
 * `nix-shell --run CMD`, `deno task --eval CMD`, `bun exec CMD`, `npm exec -c CMD`.
 */
function launcherScript(a: string[], p: string): string | undefined {
  const valueOf = (names: string[]): string | undefined => {
    for (let k = 1; k < a.length; k++) {
      const w = a[k] ?? "";
      if (names.includes(w)) return a[k + 1];
      const eq = w.indexOf("=");
      if (eq > 0 && names.includes(w.slice(0, eq))) return w.slice(eq + 1);
    }
    return undefined;
  };
  if (p === "entr") return valueOf(["-s"]);
  if (p === "nodemon") return valueOf(["--exec", "-x"]);
  // `capsh -- -c CMD`: the words after -- are a shell's own.
  if (p === "capsh" && a.includes("--") && a[a.indexOf("--") + 1] === "-c") return a[a.indexOf("--") + 2];
  if (p === "sg") return valueOf(["-c", "--command"]);
  if (p === "nix-shell") return valueOf(["--run", "--command"]);
  // `deno task --eval 'rm -rf ~'`: with --eval the task name is itself a shell line.
  if (p === "deno" && a[1] === "task" && a.includes("--eval")) return a.slice(a.indexOf("--eval") + 1).find((w) => !w.startsWith("-"));
  if (p === "bun" && a[1] === "exec") return a[2];
  if (p === "npm" && (a[1] === "exec" || a[1] === "x")) return valueOf(["-c", "--call"]);
  // `vim -c ':!rm -rf ~/src' -c ':q'`, `nvim +'silent !make'`: an editor's ex command `!` runs a shell line.
  if (EDITORS.has(p)) {
    for (let k = 1; k < a.length; k++) {
      const w = a[k] ?? "";
      const ex = w === "-c" || w === "--cmd" ? a[k + 1] : w.startsWith("+") ? w.slice(1) : undefined;
      const m = ex === undefined ? null : /^:*\s*(?:sil(?:ent)?!?\s*|r(?:ead)?\s*|w(?:rite)?\s*)?!(.+)$/.exec(ex);
      if (m?.[1] !== undefined) return m[1];
    }
  }
  return undefined;
}

const EDITORS = new Set(["vim", "vi", "nvim", "ex", "view", "gvim", "vimdiff", "nvi", "elvis"]);

/** The files each task runner reads when none is named, in the order it looks for them. */
const TASK_FILES: Record<string, string[]> = {
  make: ["GNUmakefile", "makefile", "Makefile"],
  just: ["justfile", "Justfile", ".justfile"],
  rake: ["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"],
  task: ["Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml"],
};

/** A Rakefile's shell commands: `sh "..."`, `sh '...'`, `system("...")` and backquotes. */
function rakeCommands(text: string): string[] {
  return [...text.matchAll(/\b(?:sh|system)\s*\(?\s*(["'])((?:(?!\1)[^\\\n]|\\.)*)\1|`([^`\n]+)`/g)].map((m) => m[2] ?? m[3] ?? "").filter((x) => x !== "");
}

/** A Taskfile's commands: the items under `cmds:` (`- rm -rf x`, `- cmd: rm -rf x`). */
function taskfileCommands(text: string): string[] {
  const out: string[] = [];
  let inCmds = false;
  for (const line of text.split("\n")) {
    if (/^\s*cmds\s*:\s*$/.test(line)) inCmds = true;
    else if (inCmds) {
      const m = /^\s*-\s+(?:cmd\s*:\s*)?(.+)$/.exec(line);
      if (m?.[1] !== undefined) out.push(m[1].trim().replace(/^(["'])(.*)\1$/, "$2"));
      else if (/^\s*\w[\w-]*\s*:/.test(line)) inCmds = false;
    }
  }
  return out;
}

/** The recipe lines of justfile text: its indented lines, without the `@`/`-` prefixes. */
function justRecipes(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) if (/^[ \t]+\S/.test(line) && out.length < 64) out.push(line.trim().replace(/^[@-]+\s*/, ""));
  return out;
}

/** make's own expansion in a recipe, as the shell's: `$(HOME)`/`${HOME}` is the variable (empty when unset), `$$` a dollar. */
function makeVars(line: string): string {
  return line.replace(/\$\$|\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]/g, (m, name: string | undefined) => (m === "$$" ? "$" : `\${${name ?? ""}}`));
}

/** The recipe lines of makefile text: tab-indented lines, and what follows `;` on a rule line (`x: ; rm -rf ~`). */
function makeRecipes(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (/^\t/.test(line)) out.push(makeVars(line.replace(/^\t[@+-]*/, "")));
    else {
      const m = /^[^:=#\t]+::?[^;=]*;(.*)$/.exec(line);
      if (m?.[1] !== undefined && m[1].trim() !== "") out.push(m[1].trim().replace(/^[@+-]+/, ""));
    }
  }
  return out;
}

/**
 * What the command runs that is not a wrapped command line: find -exec, eval, shells, watch, interpreter
 * code. False when that is all it runs (a shell's script is not a wrapped command).
 */
/** Interpreters a script file's extension or `#!` line names, for a script written on the line and run by path. */
const SCRIPT_LANG: [RegExp, string][] = [
  [/\.py$|^#!.*\bpython[0-9.]*\b/, "python3"],
  [/\.(?:[cm]?js|ts)$|^#!.*\b(?:node|bun|deno)\b/, "node"],
  [/\.rb$|^#!.*\bruby\b/, "ruby"],
  [/\.pl$|^#!.*\bperl\b/, "perl"],
  [/\.php$|^#!.*\bphp\b/, "php"],
];

/**
 * A script written on this line by a literal print (`echo 'rm -rf ~' > x.sh`, `cat > x.sh <<EOF`, `tee x.sh <<<`),
 * when this command runs it: a shell given it as its file (`sh x.sh`, `sudo bash x.sh`, `nohup sh x.sh &`), `. x.sh`,
 * `source x.sh`, or the file run by its path (`./x.sh`, `/tmp/x`). What it holds is what runs, read in the language
 * its extension or `#!` line names.
 */
function writtenScript(cmd: SimpleCommand, api: Unwrapper): void {
  const p = cmd.program;
  const a = cmd.argv;
  const shell = SHELLS.has(p) || p === "source" || p === ".";
  // `bash -c '...' x.sh` runs the string; `bash -n x.sh` only checks it; `sh -s` reads stdin (the words are its arguments).
  if (shell && a.slice(1).some((w) => /^-[A-Za-z]*[cns][A-Za-z]*$/.test(w) || w === "--noexec")) return;
  // `uv run fix.py`, `poetry run x.py`: a runner hands a script to its interpreter by its bare name.
  const file = shell ? a.slice(1).find((w) => !w.startsWith("-") && !w.startsWith("+")) : a[0]?.includes("/") || /\.(?:py|[cm]?js|ts|rb|pl|php|sh|bat|cmd|ps1)$/i.test(a[0] ?? "") ? a[0] : undefined;
  if (file === undefined) return;
  const text = api.writtenText(resolvePath(file, cmd.cwd, api.home));
  if (text === undefined) return;
  const label = `${file} (written on this line)`;
  const firstLine = text.slice(0, text.indexOf("\n") >>> 0);
  const lang = shell ? undefined : SCRIPT_LANG.find(([re]) => re.test(file) || re.test(firstLine))?.[1];
  if (lang !== undefined) {
    const runner = child(cmd, [lang, file], [false, false], label);
    runCode(runner, text, api, label);
    codeChild(runner, text, api, label);
  } else if (/\.(?:bat|cmd)$/i.test(file)) batchFile(cmd, file, text, api);
  else if (/\.ps1$/i.test(file)) api.powershell(text, cmd.cwd, label);
  else api.scriptHere(text, cmd.cwd, label);
}

/**
 * A batch file written on the line, run: its lines are cmd lines. One that starts itself again (`%0|%0`, `start %0`,
 * `call %0 & %0`) is a fork bomb.
 */
function batchFile(cmd: SimpleCommand, file: string, text: string, api: Unwrapper): void {
  if (BATCH_SELF.test(text)) cmd.selfSpawn = true;
  for (const line of text.split(/\r?\n/).slice(0, 64)) if (line.trim() !== "" && !/%~?[dpnxf]*0/.test(line)) api.cmdLine(line, cmd.cwd, `${file} (written on this line)`);
}

/**
 * Code read from a heredoc or a file written on the line, recorded as the same interpreter given it on its command
 * line (`python3 -c CODE`): what code on the command line is judged for (endless forking, secrets read, the
 * environment sent) holds for it too.
 */
function codeChild(cmd: SimpleCommand, code: string, api: Unwrapper, label: string): void {
  const flag = isPythonOrPypyName(cmd.program) ? "-c" : cmd.program === "php" ? "-r" : "-e";
  const argv = [cmd.argv[0] ?? cmd.program, flag, code];
  api.emit(child(cmd, argv, [false, false, false], label, { synthetic: true, redirects: [] }));
}

function runsOther(cmd: SimpleCommand, api: Unwrapper, piped: string | undefined, level: number): boolean {
  const p = cmd.program;
  if (cmd.cwd !== "" && api.hasWritten()) writtenScript(cmd, api);
  // `ls *(e:'rm -rf ~':)`, `echo *(+'cmd')`: zsh's glob qualifiers e and + run their text as code for each file matched.
  for (const w of cmd.argv.slice(1, 65)) {
    if (!w.endsWith(")") || !w.includes("(")) continue;
    const m = /[*?\]]\((?:[^()]*?)(?:e([^\w\s()])(.+?)\1|\+(.+))\)$/.exec(w);
    const code = m === null ? undefined : (m[2] ?? m[3] ?? "").replace(/^'([^']*)'$|^"([^"]*)"$/, "$1$2");
    if (code !== undefined && code.trim() !== "") api.script(code, cmd.cwd, "zsh glob qualifier");
  }
  // `env LESSOPEN='|rm -rf ~ %s' less f`, `sudo GIT_PAGER=.. git log`: a command variable set by the wrapper runs as the shell's own would.
  if ((p === "env" || p === "sudo" || p === "doas") && cmd.argv.length > 2) {
    for (const w of cmd.argv.slice(1, 33)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(w);
      if (m?.[1] !== undefined && m[2] !== undefined && m[2].trim() !== "" && runsValue(m[1])) api.script(commandOfVar(m[1], m[2]), cmd.cwd, `${p} ${m[1]}=`);
    }
  }
  // `man -P CMD`, `tar --to-command=CMD`, `less +!CMD`, `psql -c '\! CMD'`, `read 'a[$(CMD)]'`: a command line the program runs.
  for (const e of embeddedCommands(cmd)) api.script(e.text, cmd.cwd, e.via);
  if (p === "find") {
    unwrapFind(cmd, api, level);
    return false;
  }
  if (p === "flock") {
    // `-c` is flock's only among its options or right after the lock file: `flock /tmp/l git -c k=v x` runs git.
    let k = -1;
    const lock = skipOptions(cmd.argv, 1, { short: "wEc", long: ["--timeout", "--conflict-exit-code", "--command"] }, (o) => {
      if (k < 0 && (o === "-c" || o === "--command")) k = cmd.argv.indexOf(o);
    });
    if (k < 0 && (cmd.argv[lock + 1] === "-c" || cmd.argv[lock + 1] === "--command")) k = lock + 1;
    if (k > 0 && cmd.argv[k + 1] !== undefined) {
      cmd.wrapsFrom = k + 1;
      api.script(cmd.argv[k + 1] ?? "", cmd.cwd, "flock -c");
      return false;
    }
  }
  // `sudo git config core.fsmonitor 'rm -rf ~'`: a command git will run, set through a wrapper (the written line's own git is read by the parser).
  if (p === "git" && cmd.via.length > 0) {
    const k = cmd.argv.indexOf("config");
    const key = k > 0 ? cmd.argv.slice(k + 1).find((w) => GIT_COMMAND_KEYS.test(w) || /^alias\./i.test(w)) : undefined;
    const value = key === undefined ? undefined : cmd.argv[cmd.argv.indexOf(key, k + 1) + 1];
    if (key !== undefined && value !== undefined && value !== "" && (GIT_COMMAND_KEYS.test(key) || value.startsWith("!"))) api.script(value.replace(/^!/, ""), cmd.cwd, `git config ${key}`);
  }
  if (p === "script") {
    // script -c CMD (also -qc CMD) runs CMD under a pseudo-terminal.
    const k = cmd.argv.findIndex((w) => /^-[a-zA-Z]*c$/.test(w) || w === "--command");
    if (k > 0 && cmd.argv[k + 1] !== undefined) {
      cmd.wrapsFrom = k + 1;
      api.script(cmd.argv[k + 1] ?? "", cmd.cwd, "script -c");
    }
    return false;
  }
  // `trap -- 'rm -rf ~' EXIT`: after `--` the first word is still the action.
  const action = p === "trap" ? (cmd.argv[1] === "--" ? cmd.argv[2] : cmd.argv[1]) : undefined;
  if (action !== undefined && action !== "-" && (cmd.argv[1] === "--" || !action.startsWith("-"))) {
    api.scriptHere(action, cmd.cwd, "trap");
    return false;
  }
  if ((p === "source" || p === ".") && /^\/dev\/stdin$|^\/proc\/self\/fd\/0$|^-$/.test(cmd.argv[1] ?? "")) {
    const text = stdinText(cmd, piped);
    if (text !== undefined) api.script(text, cmd.cwd, `${p} /dev/stdin`);
    return false;
  }
  if (((p === "docker" || p === "podman" || p === "nerdctl" || p === "finch") && (cmd.argv[1] === "run" || ((cmd.argv[1] === "container" || cmd.argv[1] === "compose") && cmd.argv[2] === "run"))) || (p === "docker-compose" && cmd.argv[1] === "run")) {
    containerRun(cmd, api, level);
    return false;
  }
  if (p === "ssh" || p === "scp" || p === "sftp") {
    // `ssh -o ProxyCommand='rm -rf ~' x`, `-o LocalCommand=..`: these run here, through the local shell.
    for (const [k, w] of cmd.argv.entries()) {
      const opt = w === "-o" ? (cmd.argv[k + 1] ?? "") : w.startsWith("-o") ? w.slice(2) : "";
      const m = /^(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*[=\s]\s*(.+)$/is.exec(opt);
      if (m?.[1] !== undefined && !/^none$/i.test(m[1])) api.script(m[1], cmd.cwd, `${p} -o ${opt.split(/[=\s]/)[0] ?? ""}`);
    }
  }
  if (p === "rsync" && cmd.argv.some((w) => w === "--delete" || w.startsWith("--delete-")) && !cmd.argv.some((w) => w === "--dry-run" || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(w))) {
    // `rsync -a --delete empty/ host:/home/deploy/`: the delete happens on the host, judged as a command run there.
    const ops = cmd.argv.slice(1).filter((w) => !w.startsWith("-"));
    const m = ops.length >= 2 ? /^(?:[\w.-]+@)?[\w.-]+:(?!:)([\w./~+-]*)$/.exec(ops[ops.length - 1] ?? "") : null;
    if (m?.[1] !== undefined) api.script(`rm -rf -- ${m[1] === "" ? "~" : m[1]}`, cmd.cwd, "rsync --delete (remote)");
  }
  if (REMOTE.has(p)) {
    const rest = remoteCommand(cmd.argv, p);
    if (rest !== undefined && rest !== "") api.script(rest, cmd.cwd, `${p} (remote)`);
    // `ssh host 'bash -s' <<< 'rm -rf ~'`: the remote shell reads its commands from what ssh reads here.
    if (rest !== undefined && /^(?:sudo\s+(?:-\S+\s+)*)?(?:\S*\/)?(?:ba|z|k|da|a)?sh(?:\s+-[A-Za-z]+)*\s*$/.test(rest.trim()) && !/\s-[A-Za-z]*c/.test(rest)) {
      const text = stdinText(cmd, piped);
      if (text !== undefined && text !== "") api.script(text, cmd.cwd, `${p} (remote stdin)`);
    }
    else if (p === "ssh" && rest === undefined && !cmd.argv.includes("-N")) {
      // `ssh host <<'EOF' ... EOF`: given no command, the remote login shell runs what ssh reads on stdin.
      const text = stdinText(cmd, piped);
      if (text !== undefined && text !== "") api.script(text, cmd.cwd, "ssh (remote stdin)");
    }
    return false;
  }
  if (p === "eval") {
    cmd.wrapsFrom = 1;
    // eval re-reads its words as shell: a quoted '~' (kept as ./~ to mean the file) is a tilde again there.
    api.scriptHere(cmd.argv.slice(1).map((w) => (w.startsWith("./~") ? w.slice(2) : w)).join(" "), cmd.cwd, "eval");
    return false;
  }
  if (SHELLS.has(p) || (p === "su" && cmd.argv.some((w) => w === "-c" || w === "--command"))) {
    if (p === "su") {
      const k = cmd.argv.findIndex((w) => w === "-c" || w === "--command");
      const s = cmd.argv[k + 1];
      if (s !== undefined) {
        cmd.wrapsFrom = k + 1;
        api.script(s, cmd.cwd, "su -c");
      }
      return false;
    }
    const { script, readsStdin, noexec, args } = shellScript(cmd.argv);
    if (noexec) {
      cmd.ignoresStdinCode = true;
      return false;
    }
    // `xargs -0 sh -c`: the script is the words xargs reads, so the stdin feeds code after all.
    if (!readsStdin && !cmd.stdinArgs) cmd.ignoresStdinCode = true;
    // `bash -c 'rm -rf "$1"' sh ~/x`: the words after the script are its $0, $1.. (unknown ones stay unknown).
    const k0 = cmd.argv.length - (args?.length ?? 0);
    const known = args !== undefined && args.length > 0 && args.length <= 10 && args.every((_, k) => !(cmd.dynamic[k0 + k] ?? false));
    if (script !== undefined && known) api.scriptWithArgs(script, cmd.cwd, `${p} -c`, args);
    else if (script !== undefined) api.script(script, cmd.cwd, `${p} -c`);
    else if (readsStdin) {
      const text = stdinText(cmd, piped);
      if (text !== undefined) api.script(text, cmd.cwd, `${p} <<<`);
    }
    return false;
  }
  // Windows finds programs whatever their case: `CMD /C`, `PowerShell.exe -c` are these programs too.
  const win = windowsShellName(p);
  if (win === "powershell" || win === "pwsh" || win === "powershell.exe" || win === "pwsh.exe") {
    const script = powershellScript(cmd.argv);
    // `pwsh -File t.ps1` after `Set-Content t.ps1 '..'` on the line: the script written is what runs.
    const fileAt = cmd.argv.findIndex((w, k) => k > 0 && /^[-/]f(?:i|il|ile)?$/i.test(w));
    const written = fileAt > 0 && cmd.cwd !== "" && api.hasWritten() ? api.writtenText(resolvePath(windowsPath(cmd.argv[fileAt + 1] ?? "", api.home), cmd.cwd, api.home)) : undefined;
    if (written !== undefined) api.powershell(written, cmd.cwd, `${p} -File (written on this line)`);
    if (script !== undefined && script !== "-") api.powershell(script, cmd.cwd, `${p} -Command`);
    else if (script === "-" || cmd.argv.slice(1).includes("-")) {
      // `echo 'Remove-Item ~ -Recurse' | powershell -`, `pwsh -Command - <<< '..'`: the commands come on stdin.
      const text = stdinText(cmd, piped);
      if (text !== undefined && text !== "") api.powershell(text, cmd.cwd, `${p} -`);
    }
    return false;
  }
  if (p === "runas") {
    // `runas /user:Administrator "cmd /c rd /s /q C:\\Windows"`: the quoted program line runs as that user.
    const line = cmd.argv.slice(1).find((w) => !w.startsWith("/"));
    if (line !== undefined) api.cmdLine(line, cmd.cwd, "runas");
    return false;
  }
  if (p === "wmic" || p === "schtasks" || p === "forfiles") {
    // `wmic process call create "CMD"`, `schtasks /create /tr "CMD"`, `forfiles /p DIR /c "cmd /c rd /s /q @path"`: a command line run.
    const a = cmd.argv;
    const at = (re: RegExp) => a.findIndex((w) => re.test(w));
    if (p === "wmic" && at(/^create$/i) > 0 && at(/^call$/i) > 0) {
      const line = a[at(/^create$/i) + 1];
      if (line !== undefined) api.cmdLine(line, cmd.cwd, "wmic process call create");
    } else if (p === "schtasks" && at(/^[/-]create$/i) > 0 && at(/^[/-]tr$/i) > 0) {
      const line = a[at(/^[/-]tr$/i) + 1];
      if (line !== undefined) api.cmdLine(line, cmd.cwd, "schtasks /tr");
    } else if (p === "forfiles" && at(/^[/-]c$/i) > 0) {
      const dir = at(/^[/-]p$/i) > 0 ? (a[at(/^[/-]p$/i) + 1] ?? ".") : ".";
      const mask = at(/^[/-]m$/i) > 0 ? (a[at(/^[/-]m$/i) + 1] ?? "*") : "*";
      const line = a[at(/^[/-]c$/i) + 1];
      if (line !== undefined) api.cmdLine(line.replace(/@path/gi, `"${dir.replace(/[\\/]+$/, "")}/${mask}"`).replace(/@file|@fname/gi, `"${mask}"`), cmd.cwd, "forfiles /c");
    }
    return false;
  }
  if (win === "cmd" || win === "cmd.exe") {
    const script = cmdScript(cmd.argv);
    if (script !== undefined) api.cmdLine(script, cmd.cwd, "cmd /c");
    return false;
  }
  if (AWK.has(p)) {
    for (const c of awkCommands(cmd.argv, stdinText(cmd, piped))) api.script(c, cmd.cwd, `${p} system()`);
    return false;
  }
  if (p === "parallel") {
    runParallel(cmd, api, piped);
    return false;
  }
  if ((p === "make" || p === "gmake") && cmd.argv.some((w, k) => (w === "-f" || w === "--file" || w === "--makefile") && /^(?:-|\/dev\/stdin)$/.test(cmd.argv[k + 1] ?? ""))) {
    // `make -f /dev/stdin <<< $'x:\n\trm -rf ~'`: the recipe lines are shell commands.
    const text = stdinText(cmd, piped);
    if (text !== undefined) for (const line of text.split("\n")) if (/^\t/.test(line)) api.script(line.replace(/^\t[@+-]*/, ""), cmd.cwd, "make recipe");
    return false;
  }
  if (p === "hyperfine" || p === "concurrently" || p === "parallelshell" || p === "npm-run-all") {
    // `hyperfine 'rm -rf ~'`, `concurrently 'a' 'b'`: each operand is a shell line it runs.
    const lines = cmd.argv.slice(1).filter((w, k) => !w.startsWith("-") && !/^-(?:n|c|p|w|r|m|s|N|P|-names|-prefix|-warmup|-runs|-prepare|-export-\w+)$/.test(cmd.argv[k] ?? ""));
    if (p !== "npm-run-all") for (const line of lines.slice(0, 8)) api.script(line, cmd.cwd, p);
    return false;
  }
  if (p === "expect" && cmd.argv.includes("-c")) {
    // `expect -c 'spawn rm -rf ~; expect eof'`: spawn runs its words as a program.
    for (const m of (cmd.argv[cmd.argv.indexOf("-c") + 1] ?? "").matchAll(/\bspawn\s+([^;\n]+)/g)) if (m[1]) api.script(m[1].trim(), cmd.cwd, "expect spawn");
    return false;
  }
  if ((p === "fd" || p === "fdfind") && cmd.argv.some((w) => /^(?:-x|--exec|-X|--exec-batch)$/.test(w))) {
    // `fd . ~ -X rm -rf`: the command runs on what the search finds below its root (an unfiltered search: the whole tree).
    const a = cmd.argv;
    const k = a.findIndex((w) => /^(?:-x|--exec|-X|--exec-batch)$/.test(w));
    const ops = a.slice(1, k).filter((w, j) => !w.startsWith("-") && !/^-(?:e|t|E|d|g|-extension|-type|-exclude|-max-depth)$/.test(a[j] ?? ""));
    const filtered = a.slice(1, k).some((w) => w.startsWith("-")) || (ops[0] !== undefined && ops[0] !== "." && ops[0] !== "" && ops[0] !== "^");
    const root = ops[1] ?? ".";
    let end = a.indexOf(";", k + 1);
    if (end < 0) end = a.length;
    const inner = a.slice(k + 1, end);
    const target = filtered ? `${root.replace(/\/+$/, "")}/{}` : root;
    const argv = inner.some((w) => w.includes("{}")) ? inner.map((w) => w.replaceAll("{}", target)) : [...inner, target];
    if (base(argv[0] ?? "") === "rm" && !argv.some((w) => /^-[a-zA-Z]*[rR]/.test(w))) argv.splice(1, 0, "-r");
    if (argv.length > 0 && level + 1 < SHELL_LIMITS.maxWrappers) unwrap(child(cmd, argv, argv.map(() => false), `${p} --exec`), api, undefined, level + 1);
    return false;
  }
  // `echo '.shell rm -rf ~' | sqlite3 app.db`: the client reads its script on stdin.
  if (p === "sqlite3" || p === "mysql" || p === "mariadb" || p === "psql") {
    const text = stdinText(cmd, piped);
    if (text !== undefined) for (const line of clientShellLines(text)) api.script(line, cmd.cwd, `${p} shell escape (stdin)`);
  }
  const shellLine = launcherScript(cmd.argv, p);
  if (shellLine !== undefined) {
    api.script(shellLine, cmd.cwd, p);
    return false;
  }
  if ((p === "make" || p === "gmake") && cmd.argv.some((w) => w === "--eval" || w.startsWith("--eval="))) {
    // `make --eval='x: ; rm -rf ~' x`: the evaluated text is makefile text, its recipes shell commands.
    for (const [k, w] of cmd.argv.entries()) {
      const text = w.startsWith("--eval=") ? w.slice(7) : w === "--eval" ? cmd.argv[k + 1] : undefined;
      if (text !== undefined) for (const r of makeRecipes(text)) api.script(r, cmd.cwd, "make recipe");
    }
    return true;
  }
  if ((p === "just" || p === "task") && cmd.argv.some((w, k) => /^(?:--justfile|-f|--taskfile|-t)$/.test(w) && /^(?:-|\/dev\/stdin)$/.test(cmd.argv[k + 1] ?? ""))) {
    // `just --justfile /dev/stdin x <<< $'x:\n  rm -rf ~'`: a recipe's indented lines are shell commands.
    const text = stdinText(cmd, piped);
    if (text !== undefined) for (const line of text.split("\n")) if (/^[ \t]+\S/.test(line)) api.script(line.trim().replace(/^[@-]+/, "").replace(/^-\s*/, ""), cmd.cwd, `${p} recipe`);
    return false;
  }
  if (p === "tmux" || p === "screen" || p === "systemd-run" || p === "at" || p === "batch") {
    // A terminal multiplexer, a transient unit or the at queue runs the command later, detached: it still runs.
    const line = detachedCommand(cmd, p, piped);
    if (line !== undefined && line !== "") api.script(line, cmd.cwd, p);
    return false;
  }
  if (p === "watch") {
    const i = skipOptions(cmd.argv, 1, { short: "nd", long: ["--interval", "--differences"] });
    if (i < cmd.argv.length) api.script(cmd.argv.slice(i).join(" "), cmd.cwd, "watch");
    return false;
  }
  if ((p === "make" || p === "gmake" || p === "just" || p === "rake" || p === "task" || p === "go-task") && cmd.cwd !== "" && api.hasWritten()) {
    // `printf 'x:\n\trm -rf ~' > /tmp/Mk && make -f /tmp/Mk`, `cat > Makefile <<EOF .. EOF; make x`, `printf .. > justfile && just x`,
    // a Rakefile's `sh "..."`, a Taskfile's `cmds:`: a task file printed on the line (given with -f, or the one the tool looks
    // for in its directory), its commands run.
    const a = cmd.argv;
    const k = a.findIndex((w) => w === "-f" || w === "--file" || w === "--makefile" || w === "--justfile" || w === "--rakefile" || w === "--taskfile" || (p === "task" && w === "-t"));
    const attached = a.find((w) => /^--(?:file|makefile|justfile|rakefile|taskfile)=./.test(w) || (/^-f./.test(w) && p !== "task"));
    const dirAt = a.findIndex((w) => w === "-C" || w === "--directory" || w === "--working-directory" || w === "-d" || w === "--dir");
    const dir = dirAt > 0 ? resolvePath(a[dirAt + 1] ?? ".", cmd.cwd, api.home) : cmd.cwd;
    const names = TASK_FILES[p === "gmake" ? "make" : p === "go-task" ? "task" : p] ?? [];
    const given = k > 0 ? a[k + 1] : attached?.replace(/^--\w+=|^-f/, "");
    const files = given !== undefined ? [resolvePath(given, cmd.cwd, api.home)] : names.map((n) => resolvePath(n, dir, api.home));
    const text = files.map((f) => api.writtenText(f)).find((t) => t !== undefined);
    const dry = (p === "make" || p === "gmake") && a.slice(1).some((w) => (/^-[a-zA-Z]*n[a-zA-Z]*$/.test(w) && !w.startsWith("--")) || w === "--dry-run" || w === "--just-print" || w === "--recon");
    if (text !== undefined) cmd.recipesRead = true;
    const lines = text === undefined || dry ? [] : p === "just" ? justRecipes(text) : p === "rake" ? rakeCommands(text) : p === "task" || p === "go-task" ? taskfileCommands(text) : makeRecipes(text);
    for (const r of lines.slice(0, 64)) api.script(r, cmd.cwd, `${p} recipe`);
  }
  // interpreterCode knows only interpreters: any other program (most commands) is not asked.
  const interpreter = isInterpreter(p);
  const code = interpreter ? interpreterCode(cmd.argv, p) : undefined;
  // Code from the command line (`node -e '...'`) reads stdin as data, not as code.
  if ((code === undefined || code !== "stdin") && interpreter) cmd.ignoresStdinCode = true;
  if (code === undefined && interpreter && cmd.cwd !== "") {
    // `cat > /tmp/x.py <<'P' ... P; python3 /tmp/x.py`, `bun run x.js`: a script printed on the line is the code that runs.
    const file = cmd.argv.slice(1).find((w, k) => !w.startsWith("-") && !(k === 0 && w === "run" && (p === "bun" || p === "deno")));
    const text = file !== undefined ? api.writtenText(resolvePath(file, cmd.cwd, api.home)) : undefined;
    if (text !== undefined) {
      runCode(cmd, text, api, `${p} ${file ?? ""} (written on this line)`);
      codeChild(cmd, text, api, `${p} ${file ?? ""} (written on this line)`);
    }
  }
  if (code !== undefined) {
    const text = code === "stdin" ? stdinText(cmd, piped) : code;
    if (text !== undefined) runCode(cmd, text, api, `${p} code`);
    if (text !== undefined && code === "stdin") codeChild(cmd, text, api, `${p} code (stdin)`);
  }
  return true;
}

/** The command a wrapper runs, as its own record. */
/** What xargs reads when it is not known (a file, a pipe from a program): one word that may be anything. */
const UNKNOWN_INPUT = "$(xargs input)";

function innerCommand(cmd: SimpleCommand, inner: Inner, piped: string | undefined, api: Unwrapper): SimpleCommand | undefined {
  // `echo / | xargs rm -rf`: literal piped words become arguments.
  // `xargs -a <(echo ./dist) rm -rf`: an argument file printed literally on the line is known input.
  const input = inner.stdinArgs ? (inner.argFile === undefined ? stdinText(cmd, piped) : api.writtenText(resolvePath(inner.argFile, cmd.cwd === "" ? "/" : cmd.cwd, api.home))) : undefined;
  if (inner.stdinArgs && inner.replace !== undefined) return replacedCommand(cmd, inner, input, api);
  // `cat list | xargs rm -rf`, `xargs -a dirs.txt rm -rf`: the arguments are whatever the input holds.
  const unknown = inner.stdinArgs === true && input === undefined && inner.from < cmd.argv.length;
  // With -0 or -d, only that character separates words: a line with spaces stays one word (`echo 'rm -rf ~' | xargs -0 sh -c`).
  const split = (text: string) => (inner.delimiter !== undefined && inner.delimiter.length === 1 ? text.split(inner.delimiter).map((w, k, all) => (k === all.length - 1 ? w.replace(/\n$/, "") : w)) : text.split(/\s+/)).filter((w) => w !== "");
  const fromStdin = input !== undefined ? split(input) : unknown ? [UNKNOWN_INPUT] : [];
  const plain = inner.prefix === undefined && fromStdin.length === 0;
  // slice alone when nothing is added: spreading a long word list costs several times as much.
  const argv = plain ? cmd.argv.slice(inner.from) : [...(inner.prefix ?? []), ...cmd.argv.slice(inner.from), ...fromStdin];
  // `find ~ -name '*.tmp' | xargs rm -f`, `rg --files ~ | xargs rm`: rm on every file a tree walk lists deletes across the tree.
  const walked = !plain && base(argv[0] ?? "") === "rm" && fromStdin.some((w) => w.endsWith("/{}")) && !argv.some((w) => /^-[a-zA-Z]*[rR]|^--recursive$/.test(w));
  if (walked) argv.splice(1, 0, "-r");
  if (argv.length === 0) return undefined;
  const dynamic = plain ? cmd.dynamic.slice(inner.from) : [...(inner.prefix ?? []).map(() => false), ...cmd.dynamic.slice(inner.from), ...fromStdin.map(() => unknown)];
  if (walked) dynamic.splice(1, 0, false);
  const extra: Partial<SimpleCommand> = {};
  if (inner.cwd !== undefined) extra.cwd = boundedCwd(inner.cwd, api);
  if (inner.stdinArgs) extra.stdinArgs = true;
  return child(cmd, argv, dynamic, inner.label, extra);
}
/**
 * `echo / | xargs -I{} bash -c 'rm -rf {}'`: each input line takes the token's place, inside words too. A
 * word that is only the token becomes one word per line; inside a longer word (a script) the lines are
 * joined. Unknown input makes the replaced words unknown.
 */
function replacedCommand(cmd: SimpleCommand, inner: Inner, input: string | undefined, api: Unwrapper): SimpleCommand | undefined {
  const token = inner.replace ?? "{}";
  const lines = input === undefined ? [UNKNOWN_INPUT] : input.split("\n").map((l) => l.trim()).filter((l) => l !== "").slice(0, SHELL_LIMITS.maxWrappers);
  const argv: string[] = [];
  const dynamic: boolean[] = [];
  const words = cmd.argv.slice(inner.from);
  if (words.length === 0) return undefined;
  words.forEach((w, k) => {
    const was = cmd.dynamic[inner.from + k] ?? false;
    if (token === "" || !w.includes(token)) {
      argv.push(w);
      dynamic.push(was);
    } else if (w === token) {
      for (const l of lines) {
        argv.push(l);
        dynamic.push(was || input === undefined);
      }
    } else {
      argv.push(w.replaceAll(token, lines.join(" ")));
      dynamic.push(was || input === undefined);
    }
  });
  const extra: Partial<SimpleCommand> = { stdinArgs: true };
  if (inner.cwd !== undefined) extra.cwd = boundedCwd(inner.cwd, api);
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
    if (cur.dynamic[0] === true && cur.argv.length > 1 && lvl + 1 < SHELL_LIMITS.maxWrappers) {
      // `$SUDO_CMD rm -rf /`, `${RM} -rf /`: a program name of unknown value may be a wrapper of the words after it,
      // or, before options, a delete of its operands (fail closed). The second reading is a leaf: no recursion builds up.
      const rest = cur.argv.slice(1);
      if (!(rest[0] ?? "").startsWith("-")) {
        cur = child(cur, rest, cur.dynamic.slice(1), "program of unknown value");
        continue;
      }
      // Only options rm itself takes make that reading (`$JAVA -cp /usr/share/x.jar Main` is no delete).
      const opts = rest.filter((w) => w.startsWith("-") && w !== "--");
      if (opts.every((w) => /^-[rRfdvIi]+$|^--(?:recursive|force|dir|verbose|no-preserve-root|one-file-system|preserve-root)$/.test(w))) api.emit(child(cur, ["rm", ...rest], [false, ...cur.dynamic.slice(1)], "program of unknown value (read as rm)"));
      return;
    }
    if (!runsOther(cur, api, piped, lvl)) return;
    const inner = wrapped(cur.argv, 0, cur.cwd, api.home, api.gitAliases);
    if (!inner) return;
    if (inner.from > 0 && inner.from < cur.argv.length && !inner.prefix) cur.wrapsFrom = inner.from;
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
