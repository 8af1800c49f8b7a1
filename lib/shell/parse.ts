/** @module shell parser: tokens -> the flat list of simple commands a line runs, with variables and cd followed. */
import { lex, ShellSyntaxError, type Part, type Token, type Word } from "./lex.ts";
import type { ParseOptions, ParseResult, RedirectInfo, SimpleCommand } from "./types.ts";
import { SHELLS, unwrap, type Unwrapper } from "./unwrap.ts";
import { resolvePath } from "./paths.ts";

/** Nesting limit for sh -c / $(...) / eval, so a hostile line cannot recurse forever. */
const MAX_DEPTH = 8;

interface Scope {
  vars: Map<string, string>;
  cwd: string;
}

interface State {
  home: string;
  depth: number;
  out: SimpleCommand[];
  via: string[];
}

interface Field {
  text: string;
  dynamic: boolean;
}

const RESERVED_SKIP = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "esac", "in"]);
const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;
const RUNNERS = new Set([...SHELLS, "eval", "source", ".", "node", "perl", "ruby", "php"]);
const DECLARE = new Set(["export", "declare", "local", "readonly", "typeset"]);

export function basename(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}

/** The literal output of `echo ...` / `printf ...`, or undefined when it is not a plain literal print. */
export function literalOutput(cmd: SimpleCommand): string | undefined {
  if (cmd.dynamic.some(Boolean) || cmd.redirects.some((r) => r.op.includes(">") && !r.op.includes("&"))) return undefined;
  const args = cmd.argv.slice(1);
  if (cmd.program === "echo") {
    let interpret = false;
    while (args.length > 0 && /^-[neE]+$/.test(args[0] ?? "")) {
      if ((args[0] ?? "").includes("e")) interpret = true;
      args.shift();
    }
    const s = args.join(" ");
    return interpret ? s.replace(/\\n/g, "\n").replace(/\\t/g, "\t") : s;
  }
  if (cmd.program === "cat" && args.length === 0) return cmd.redirects.find((r) => r.body !== undefined)?.body;
  if (cmd.program === "printf") {
    const fmt = args.shift();
    if (fmt === undefined) return undefined;
    let k = 0;
    return fmt.replace(/%[sbd]|\\n|\\t|%%/g, (m) => (m === "\\n" ? "\n" : m === "\\t" ? "\t" : m === "%%" ? "%" : (args[k++] ?? "")));
  }
  return undefined;
}

class Parser implements Unwrapper {
  readonly st: State;
  constructor(st: State) {
    this.st = st;
  }

  get home(): string {
    return this.st.home;
  }

  /** Parses a nested script (sh -c, eval, heredoc) in its own scope, recording what it runs. */
  script(src: string, cwd: string, via: string, vars?: Map<string, string>): void {
    if (this.st.depth >= MAX_DEPTH) throw new ShellSyntaxError(`nesting deeper than ${MAX_DEPTH}`, 0);
    const saved = this.st.via;
    this.st.via = [...saved, via];
    this.st.depth++;
    try {
      this.run(lex(src), { vars: new Map(vars ?? []), cwd });
    } finally {
      this.st.depth--;
      this.st.via = saved;
    }
  }

  emit(cmd: SimpleCommand): void {
    this.st.out.push(cmd);
  }

  /** Runs a command substitution's inner script and returns its literal output when it is a plain echo/printf. */
  private substitute(src: string, scope: Scope, proc: boolean): string | undefined {
    const before = this.st.out.length;
    this.script(src, scope.cwd, proc ? "<(...)" : "$(...)", scope.vars);
    const inner = this.st.out.slice(before).filter((c) => c.via.length === this.st.via.length + 1);
    if (proc || inner.length !== 1) return undefined;
    const only = inner[0];
    if (only?.program === "pwd" && only.argv.length === 1 && scope.cwd !== "") return scope.cwd;
    return only ? literalOutput(only)?.replace(/\n+$/, "") : undefined;
  }

  /** Expands a word into fields: quotes removed, variables and literal substitutions filled in, unquoted results split. */
  expand(w: Word, scope: Scope, split = true): { fields: Field[]; subs: string[] } {
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
      const pieces = value.split(/[ \t\n]+/);
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
          cur += p.v;
          started = true;
          break;
        case "tilde":
          cur += p.user === "" ? this.st.home : `~${p.user}`;
          started = true;
          break;
        case "var": {
          const known =
            p.name === "HOME" ? (scope.vars.get("HOME") ?? this.st.home) : p.name === "PWD" && scope.cwd !== "" ? scope.cwd : scope.vars.get(p.name);
          if (known !== undefined) {
            if (p.quoted) {
              cur += known;
              started = true;
            } else pushUnquoted(known);
          } else if (p.def !== undefined) {
            const d = this.expand({ parts: [{ k: "lit", v: p.def, quoted: p.quoted }], raw: p.def }, scope, false);
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
          const value = this.substitute(p.src, scope, p.proc);
          if (value !== undefined) {
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

    const endPipeline = () => {
      // Each stage's output feeds every later stage (`curl x | tee f | sh`).
      for (let k = 0; k < pipeline.length; k++) {
        const later = pipeline.slice(k + 1).flat();
        for (const c of pipeline[k] ?? []) for (const l of later) if (!l.ignoresStdinCode && !c.pipeTo.includes(l.program)) c.pipeTo.push(l.program);
      }
      pipeline = [];
    };

    const finish = (nextOp: string | undefined) => {
      skipToSep = false;
      if (words.length === 0 && redirs.length === 0) return;
      const stage = this.finishCommand(words, redirs, scope, pipeline);
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
          stack.push(scope);
          scope = { vars: new Map(scope.vars), cwd: scope.cwd };
        } else if (v === ")") {
          scope = stack.pop() ?? scope;
        } else if (v === ";;") {
          casePattern = caseDepth > 0;
        }
        if (v !== "|" && v !== "|&" && v !== "(" && v !== ")") endPipeline();
        continue;
      }
      if (tok.t === "arith") continue;
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
        if (RESERVED_SKIP.has(raw)) continue;
        if (raw === "[[") {
          inTest = true;
          continue;
        }
        if (raw === "for" || raw === "select") {
          skipToSep = true;
          continue;
        }
        if (raw === "case") {
          caseDepth++;
          skipToSep = true;
          skipCase = true;
          continue;
        }
        if (raw === "function") {
          idx++;
          continue;
        }
      }
      words.push(tok.w);
    }
    finish(undefined);
    endPipeline();
  }

  private finishCommand(words: Word[], redirTokens: Token[], scope: Scope, pipeline: SimpleCommand[][]): SimpleCommand[] {
    const before = this.st.out.length;
    // Leading NAME=value words are assignments, not the program.
    const assigns: [string, string][] = [];
    let k = 0;
    for (; k < words.length; k++) {
      const w = words[k];
      const first = w?.parts[0];
      if (!w || first?.k !== "lit" || first.quoted) break;
      const m = ASSIGN.exec(first.v);
      if (!m?.[1]) break;
      const valueWord: Word = { parts: [{ ...first, v: first.v.slice(m[0].length) }, ...w.parts.slice(1)], raw: w.raw };
      const value = this.expand(valueWord, scope, false).fields.map((f) => f.text).join("");
      assigns.push([m[1], value]);
    }
    const argv: string[] = [];
    const dynamic: boolean[] = [];
    for (const w of words.slice(k)) {
      for (const f of this.expand(w, scope).fields) {
        argv.push(f.text);
        dynamic.push(f.dynamic);
      }
    }
    const redirects: RedirectInfo[] = [];
    for (const t of redirTokens) {
      if (t.t !== "redir") continue;
      const target = t.r.target ? this.expand(t.r.target, scope, false).fields.map((f) => f.text).join("") : "";
      const info: RedirectInfo = { op: t.r.op, fd: t.r.fd, target: t.r.op === "<<<" || t.r.op.includes("&") ? target : resolveTarget(target, scope.cwd, this.st.home) };
      if (t.r.body !== undefined) info.body = t.r.body;
      redirects.push(info);
    }
    if (argv.length === 0) {
      for (const [name, value] of assigns) scope.vars.set(name, value);
      if (redirects.length === 0) return this.st.out.slice(before);
    }
    const program = basename(argv[0] ?? "");
    if ((program === "cd" || program === "pushd") && argv[0] === program) {
      const dest = argv[1];
      if (dest === undefined) scope.cwd = this.st.home;
      else if (dest !== "-" && !dest.startsWith("+")) scope.cwd = dynamic[1] || scope.cwd === "" ? "" : resolvePath(dest, scope.cwd, this.st.home);
    }
    if (DECLARE.has(program)) {
      for (const a of argv.slice(1)) {
        const m = ASSIGN.exec(a);
        if (m?.[1]) scope.vars.set(m[1], a.slice(m[0].length));
      }
    }
    if (program === "unset") for (const a of argv.slice(1)) scope.vars.delete(a);
    // The previous stage's literal output is what a shell at the end of `echo ... | sh` runs.
    const prev = pipeline[pipeline.length - 1];
    const prevOut = prev?.length === 1 && prev[0] ? literalOutput(prev[0]) : undefined;
    const cmd: SimpleCommand = { argv, dynamic, program, cwd: scope.cwd, redirects, pipeTo: [], via: this.st.via, synthetic: false, stdinArgs: false };
    const subEnd = this.st.out.length;
    unwrap(cmd, this, prevOut);
    // `sh -c "$(curl ...)"`, `bash <(curl ...)`, `eval "$(curl ...)"`: the substitution's output is run.
    for (const runner of this.st.out.slice(subEnd)) {
      if (!(RUNNERS.has(runner.program) || /^python[0-9.]*$/.test(runner.program)) || !runner.dynamic.some(Boolean)) continue;
      for (const c of this.st.out.slice(before, subEnd)) if (!c.pipeTo.includes(runner.program)) c.pipeTo.push(runner.program);
    }
    return this.st.out.slice(before);
  }
}
function resolveTarget(target: string, cwd: string, home: string): string {
  if (target === "" || cwd === "") return target;
  return resolvePath(target, cwd, home);
}

/** Parses a command line into the simple commands it runs. Throws ShellSyntaxError. */
export function parseStrict(command: string, opts: ParseOptions): SimpleCommand[] {
  const st: State = { home: opts.home, depth: 0, out: [], via: [] };
  const p = new Parser(st);
  p.run(lex(command), { vars: new Map(), cwd: opts.cwd });
  return st.out;
}

/**
 * Last-resort split used when the parser gives up: cut on operators and whitespace, strip quote characters,
 * and still unwrap wrappers, so the semantic rules keep working at reduced precision.
 */
export function parseFallback(command: string, opts: ParseOptions): SimpleCommand[] {
  const st: State = { home: opts.home, depth: MAX_DEPTH, out: [], via: ["fallback"] };
  const p = new Parser(st);
  const cleaned = command.replace(/\\\n/g, " ").replace(/[`$()]/g, " ");
  for (const segment of cleaned.split(/&&|\|\||[;&|\n{}]/)) {
    const argv = segment
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/["']/g, ""))
      .filter((w) => w !== "");
    if (argv.length === 0) continue;
    const cmd: SimpleCommand = { argv, dynamic: argv.map(() => false), program: basename(argv[0] ?? ""), cwd: opts.cwd, redirects: [], pipeTo: [], via: st.via, synthetic: false, stdinArgs: false };
    try {
      unwrap(cmd, p, undefined);
    } catch {
      st.out.push(cmd);
    }
  }
  return st.out;
}

/** Parses, falling back to the plain split (and saying so) when the line is not valid shell. */
export function parseShellLine(command: string, opts: ParseOptions): ParseResult {
  try {
    return { commands: parseStrict(command, opts), fallback: false };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    return { commands: parseFallback(command, opts), error, fallback: true };
  }
}
