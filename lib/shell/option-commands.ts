/**
 * @module shell command lines a program is handed in an option, a here-string or its own script language and runs
 * through a shell (`man -P CMD`, `go test -exec CMD`, `tar --to-command=CMD`, `zip -TT CMD`, `rsync -e CMD`,
 * `less +!CMD`, psql's `\!`, sqlite3's `.shell`, gdb's `shell`, vim's lua `os.execute`, emacs' `shell-command`, `npx -c`, sed's
 * `e`), and the array subscripts bash evaluates as arithmetic (`read 'a[$(CMD)]'`). The parser reads each as a
 * script where it runs; what the program is otherwise asked to do stays its own effect. One pass over the words.
 */
import type { SimpleCommand } from "./types.ts";

/** Options whose value is a command line the program runs, per program (`=value` attached or the next word). */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  man: ["-P", "--pager"],
  tar: ["--to-command", "-I", "--use-compress-program", "-F", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command"],
  gtar: ["--to-command", "-I", "--use-compress-program", "-F", "--info-script", "--new-volume-script", "--rsh-command"],
  zip: ["-TT", "--unzip-command"],
  rsync: ["-e", "--rsh"],
  npx: ["-c", "--call"],
  gdb: [],
};

/** sed's own commands that run a shell (`e CMD`, `1e CMD`, `$e CMD`), split from its script. */
function sedExecs(script: string): string[] {
  const out: string[] = [];
  for (const part of script.split(/\n|;|(?<=^|[^\\])[{}]/)) {
    const m = /^\s*(?:\d+|\$|\/[^/]*\/)?(?:,(?:\d+|\$|\/[^/]*\/))?!*\s*e\s+(.+)$/.exec(part);
    if (m?.[1]) out.push(m[1].trim());
    // `s/x/rm -rf ~/e`: the e flag runs the pattern space, the replacement, as a command.
    const sub = /^\s*(?:\d+|\$|\/[^/]*\/)?\s*s(.)((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1([gpiIme0-9]*)$/.exec(part);
    if (sub?.[4]?.includes("e") && (sub[3] ?? "").trim() !== "") out.push(sub[3] ?? "");
  }
  return out;
}

/** sed's script words: `-e X`, `--expression=X`, or its first operand. */
export function sedScripts(argv: readonly string[]): string[] {
  const out: string[] = [];
  let sawE = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (w === "-e" || w === "--expression") {
      sawE = true;
      out.push(argv[++i] ?? "");
    } else if (w.startsWith("--expression=")) {
      sawE = true;
      out.push(w.slice(13));
    } else if (w === "-f" || w === "--file" || w === "-l" || w === "--line-length") i++;
    else if (!w.startsWith("-") && !sawE && out.length === 0) out.push(w);
  }
  return out.slice(0, 16);
}

/** Files sed's `w FILE`, `s///w FILE` write and `r FILE`/`R FILE` read, from its script words. */
export function sedFiles(argv: readonly string[]): { writes: string[]; reads: string[] } {
  const writes: string[] = [];
  const reads: string[] = [];
  for (const s of sedScripts(argv)) {
    for (const part of s.split(/\n|;/)) {
      const sub = /^\s*(?:[^s]*?)s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiIme0-9]*w\s*(\S+)/.exec(part);
      if (sub?.[2]) writes.push(sub[2]);
      const m = /^\s*(?:\d+|\$|\/[^/]*\/)?(?:,(?:\d+|\$|\/[^/]*\/))?!*\s*([wWrR])\s*(\S+)\s*$/.exec(part);
      if (m?.[2]) (m[1] === "w" || m[1] === "W" ? writes : reads).push(m[2]);
    }
  }
  return { writes: writes.filter((f) => !/^\/dev\/std(?:out|err)$/.test(f)), reads };
}

/** The text of a quoted string argument in a call (`os.execute("x")`, `(shell-command "x")`). */
function calledWith(text: string, call: RegExp): string[] {
  return [...text.matchAll(call)].map((m) => m[1] ?? "").filter((x) => x !== "").slice(0, 8);
}

/** Builtins whose name arguments bash expands as array subscripts (arithmetic, whose `$(...)` runs). */
const SUBSCRIPT_BUILTINS = new Set(["read", "printf", "declare", "typeset", "local", "export", "readonly", "[[", "test", "[", "unset", "mapfile", "readarray", "wait", "echo"]);

/** Command substitutions inside an array subscript: `a[$(rm -rf ~)]`. */
function subscriptCommands(w: string): string[] {
  return [...w.matchAll(/\[[^\]]*?\$\(((?:[^()]|\([^()]*\))*)\)[^\]]*\]/g)].map((m) => m[1] ?? "").filter((x) => x.trim() !== "");
}

/**
 * The shell lines in a database client's script (arguments, a here-document, stdin): psql's `\!`, mysql's `system`
 * and `\!`, sqlite3's `.shell`/`.system`. Every client's escapes are looked for in every client's text (fail closed).
 */
export function clientShellLines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.slice(0, 64 * 1024).split(/\n|;(?=\s*(?:\\!|system|\.shell|\.system))/)) {
    const m = /^\s*(?:\\!|system\s|\.shell\s|\.system\s)\s*(.+)$/i.exec(line);
    if (m?.[1]) out.push(m[1]);
    if (out.length >= 16) break;
  }
  return out;
}

/** Every program the reader below looks into; any other command costs one set lookup. */
const READ = new Set([...Object.keys(VALUE_OPTIONS), ...SUBSCRIPT_BUILTINS, "less", "vim", "vi", "nvim", "ex", "view", "gvim", "gdb", "emacs", "pnpm", "yarn", "psql", "mysql", "mariadb", "sqlite3", "duckdb", "sed", "gsed", "more", "r2", "radare2", "rizin", "mvn", "mvnw"]);

export function embeddedCommands(cmd: SimpleCommand): { text: string; via: string }[] {
  const a = cmd.argv;
  const p = cmd.program;
  if (!READ.has(p)) return [];
  const out: { text: string; via: string }[] = [];
  const opts = VALUE_OPTIONS[p];
  // `echo $[ x='a[$(..)]' ]`: echo's words are arithmetic only inside `$[ ]` (looked for once, not per word).
  const subscripts = SUBSCRIPT_BUILTINS.has(p) && (p !== "echo" || a.includes("$["));
  const here = cmd.redirects.filter((r) => r.op === "<<<" || r.body !== undefined).map((r) => r.body ?? r.target);
  for (let i = 1; i < a.length && out.length < 16; i++) {
    const w = a[i] ?? "";
    if (opts !== undefined) {
      const eq = w.indexOf("=");
      const name = eq > 0 ? w.slice(0, eq) : w;
      if (opts.includes(name)) {
        const v = eq > 0 ? w.slice(eq + 1) : a[++i];
        if (v !== undefined && v !== "") out.push({ text: v, via: `${p} ${name}` });
        continue;
      }
      if (p === "tar" && /^--checkpoint-action=exec=/.test(w)) out.push({ text: w.slice(25), via: "tar --checkpoint-action" });
    }
    if ((p === "less" || p === "more") && /^\+.*!/.test(w)) out.push({ text: w.slice(w.indexOf("!") + 1), via: `${p} +!` });
    if ((p === "vim" || p === "vi" || p === "nvim" || p === "ex" || p === "view" || p === "gvim") && (a[i - 1] === "-c" || a[i - 1] === "--cmd" || w.startsWith("+"))) {
      const c = w.replace(/^\+/, "").replace(/^:/, "");
      // (`:!CMD` is read by the editor wrappers already.)
      for (const t of calledWith(c, /(?:os\.execute|vim\.fn\.system|io\.popen|system)\(\s*["']([^"']+)["']/g)) out.push({ text: t, via: `${p} -c` });
    }
    // `--command=X`, `--execute=X`, `--eval-command=X`: the value attached to a long option.
    const attached = /^(--[\w-]+)=(.*)$/s.exec(w);
    const opt = attached?.[1] ?? a[i - 1];
    const val = attached?.[2] ?? w;
    if (p === "gdb" && (opt === "-ex" || opt === "--ex" || opt === "--eval-command" || opt === "-iex")) {
      const m = /^(?:!|shell\s+)(.+)$/.exec(val.trim());
      if (m?.[1]) out.push({ text: m[1], via: "gdb shell" });
    }
    if (p === "emacs" && (a[i - 1] === "--eval" || a[i - 1] === "-eval" || w.startsWith("--eval="))) for (const t of calledWith(w, /\((?:shell-command(?:-to-string)?|call-process-shell-command|async-shell-command)\s+"((?:[^"\\]|\\.)*)"/g)) out.push({ text: t, via: "emacs shell-command" });
    // (`npm exec -c CMD` is read by the launcher table in unwrap.ts.)
    if ((p === "pnpm" || p === "yarn") && (a[1] === "exec" || a[1] === "x") && (w === "-c" || w === "--call")) {
      const v = a[i + 1];
      if (v) out.push({ text: v, via: `${p} exec -c` });
    }
    if (p === "psql" && (opt === "-c" || opt === "--command")) here.push(val);
    if ((p === "mysql" || p === "mariadb") && (opt === "-e" || opt === "--execute")) here.push(val);
    if ((p === "sqlite3" || p === "duckdb") && i >= 2) here.push(w);
    if (subscripts && w.includes("$(")) for (const t of subscriptCommands(w)) out.push({ text: t, via: `${p} array subscript` });
  }
  // psql's `\!`, mysql's `system`/`\!`, sqlite3's `.shell`/`.system`: a shell escape in the client's own script.
  if (p === "psql" || p === "mysql" || p === "mariadb" || p === "sqlite3" || p === "duckdb") {
    for (const t of here.slice(0, 8)) for (const line of clientShellLines(t)) out.push({ text: line, via: `${p} shell escape` });
  }
  // `r2 -c '!rm -rf ~' bin`, `rizin -qc '!!curl x | sh'`: radare2's `!` (and `!!`) run a shell line; combined flags end with the one taking the value.
  if (p === "r2" || p === "radare2" || p === "rizin") {
    for (let i = 1; i < a.length - 1 && out.length < 16; i++) {
      if (!/^-[a-zA-Z]*[ci]$/.test(a[i] ?? "")) continue;
      for (const part of (a[i + 1] ?? "").split(";")) if (/^\s*!/.test(part)) out.push({ text: part.trim().replace(/^!!?/, ""), via: `${p} !` });
    }
  }
  if (p === "sed" || p === "gsed") for (const s of sedScripts(a)) for (const t of sedExecs(s)) out.push({ text: t, via: "sed e" });
  // `mvn exec:exec -Dexec.executable=sh -Dexec.args='-c "rm -rf ~"'`: the plugin runs that program with those words.
  if ((p === "mvn" || p === "mvnw") && a.some((w) => /^(?:org\.codehaus\.mojo:)?exec(?:-maven-plugin)?(?::[\d.]+)?:exec$/.test(w))) {
    const exe = a.find((w) => w.startsWith("-Dexec.executable="))?.slice(18);
    const args = a.find((w) => w.startsWith("-Dexec.args="))?.slice(12) ?? "";
    if (exe) out.push({ text: `${exe} ${args}`, via: "mvn exec:exec" });
  }
  return out.slice(0, 16);
}
