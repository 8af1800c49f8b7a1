/** @module shell lexer: a command line -> words (with unexpanded parts), operators and redirections. */
import { limitNote, SHELL_LIMITS, ShellLimitError } from "./limits.ts";

/** One piece of a word, kept unexpanded so variables resolve in execution order. */
export type Part =
  | { k: "lit"; v: string; quoted: boolean }
  | { k: "var"; name: string; def?: string; assign?: boolean; quoted: boolean }
  | { k: "sub"; src: string; quoted: boolean; proc: boolean; /** `>(...)`: its commands read what the command writes there. */ write?: boolean }
  | { k: "tilde"; user: string };

export interface Word {
  parts: Part[];
  raw: string;
}

export interface Redirect {
  op: string;
  fd: string;
  target?: Word;
  /** Heredoc body (for `<<`/`<<-`) or herestring word (`<<<`, in `target`). */
  body?: string;
  /** Command substitutions in a heredoc body whose delimiter is unquoted: the shell runs them when it reads the body. */
  subs?: string[];
}

export type Token =
  | { t: "w"; w: Word }
  | { t: "op"; v: string }
  | { t: "redir"; r: Redirect }
  | { t: "arith"; src: string };

export class ShellSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.offset = offset;
  }
}

const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
/** Characters a word's plain run stops at, for the cases of readWord to look at. */
const WORD_SPECIAL = new Set(["\\", "'", '"', "$", "`", "@", "!", "+", "*", "?", "="]);
/** By character code below 128: 1 for a META character, 2 for a WORD_SPECIAL one (the plain run of readWord stops at either). */
const STOPS = new Uint8Array(128);
for (const c of META) STOPS[c.charCodeAt(0)] = 1;
for (const c of WORD_SPECIAL) STOPS[c.charCodeAt(0)] = 2;
const NAME_START = /[A-Za-z_]/;
/** [A-Za-z0-9_] by character code. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}
const SPECIAL_PARAMS = new Set(["@", "*", "#", "?", "$", "!", "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);

/** Words a line (and the scripts nested in it) may still lex; shared by every `lex` of one analysis. */
export interface LexBudget {
  words: number;
}

function tooDeep(nest: number): void {
  if (nest > SHELL_LIMITS.maxNesting) throw new ShellLimitError(limitNote(`quotes and substitutions nested more than ${SHELL_LIMITS.maxNesting} deep`));
}

/** The command substitutions (`$(...)`, backquotes) inside arithmetic text, in one pass. */
export function arithSubs(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "$" && text[i + 1] === "(" && text[i + 2] !== "(") {
      const end = scanBalanced(text, i + 2, "(", ")");
      out.push(text.slice(i + 2, end - 1));
      i = end - 1;
    } else if (text[i] === "`") {
      const j = text.indexOf("`", i + 1);
      if (j < 0) break;
      out.push(text.slice(i + 1, j));
      i = j;
    }
  }
  return out;
}

/**
 * Index just past the `close` matching an already-consumed opener, skipping quoted text and nested
 * substitutions. Throws on end of input so an unbalanced line is reported, never guessed. `nest` counts the
 * quotes and substitutions this one sits in: each level is a stack frame.
 */
export function scanBalanced(src: string, start: number, open: string, close: string, nest = 0): number {
  tooDeep(nest);
  let depth = 1;
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) throw new ShellSyntaxError("unterminated single quote", i);
      i = j + 1;
      continue;
    }
    if (c === '"') {
      i = scanDouble(src, i + 1, nest + 1);
      continue;
    }
    if (c === "`") {
      i = scanBacktick(src, i + 1);
      continue;
    }
    if (c === "#" && (i === start || /\s/.test(src[i - 1] ?? "")) && close === ")") {
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? src.length : nl;
      continue;
    }
    if (c === open) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  throw new ShellSyntaxError(`missing '${close}'`, start);
}

/** Index just past the closing double quote; `i` is just after the opening one. */
function scanDouble(src: string, i: number, nest: number): number {
  tooDeep(nest);
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else if (c === "$" && src[i + 1] === "(") i = scanBalanced(src, i + 2, "(", ")", nest + 1);
    else if (c === "$" && src[i + 1] === "{") i = scanBalanced(src, i + 2, "{", "}", nest + 1);
    else if (c === "`") i = scanBacktick(src, i + 1);
    else i++;
  }
  throw new ShellSyntaxError("unterminated double quote", i);
}

function scanBacktick(src: string, i: number): number {
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") i += 2;
    else if (c === "`") return i + 1;
    else i++;
  }
  throw new ShellSyntaxError("unterminated backquote", i);
}

const ANSI_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };

/** Decodes the body of `$'...'`; returns [text, index past the closing quote]. */
function scanAnsi(src: string, i: number): [string, number] {
  let out = "";
  while (i < src.length) {
    const c = src[i] ?? "";
    if (c === "'") return [out, i + 1];
    if (c === "\\") {
      const n = src[i + 1] ?? "";
      if (n === "x") {
        const m = /^[0-9a-fA-F]{1,2}/.exec(src.slice(i + 2, i + 4));
        if (m) {
          out += String.fromCharCode(parseInt(m[0], 16));
          i += 2 + m[0].length;
          continue;
        }
      }
      // `$'\u0072m'`, `$'\U00000072m'`: a Unicode code point.
      if (n === "u" || n === "U") {
        const m = (n === "u" ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(src.slice(i + 2, i + (n === "u" ? 6 : 10)));
        const cp = m ? parseInt(m[0], 16) : NaN;
        if (m && cp <= 0x10ffff) {
          out += String.fromCodePoint(cp);
          i += 2 + m[0].length;
          continue;
        }
      }
      if (/[0-7]/.test(n)) {
        const m = /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4)) ?? ["0"];
        out += String.fromCharCode(parseInt(m[0], 8));
        i += 1 + m[0].length;
        continue;
      }
      out += ANSI_ESCAPES[n] ?? `\\${n}`;
      i += 2;
      continue;
    }
    out += c;
    i++;
  }
  throw new ShellSyntaxError("unterminated $'...' quote", i);
}

interface Pending {
  delim: string;
  strip: boolean;
  /** An unquoted delimiter: the body is expanded like a double-quoted word. */
  expands: boolean;
  redirect: Redirect;
}

/**
 * The command substitutions an expanding heredoc body runs (`$(...)`, backquotes, and those inside `$((...))`),
 * in one pass; `\$` and `\`` are literal there. Quotes are ordinary characters in a body, so only the
 * substitutions themselves are scanned with the shell's quoting.
 */
export function bodySubs(body: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      i++;
    } else if (c === "$" && body[i + 1] === "(") {
      const arith = body[i + 2] === "(";
      const end = scanBalanced(body, i + 2, "(", ")");
      if (arith) out.push(...arithSubs(body.slice(i + 3, end - 1)));
      else out.push(body.slice(i + 2, end - 1));
      i = end - 1;
    } else if (c === "`") {
      const end = scanBacktick(body, i + 1);
      out.push(unescapeBackticks(body.slice(i + 1, end - 1)));
      i = end - 1;
    }
  }
  return out;
}

const FD_DUP = /[0-9]*-?/y;

/**
 * Tokenizes a whole script. Throws ShellSyntaxError on unbalanced quotes or substitutions, ShellLimitError
 * past the word budget (each token costs one) or the nesting cap.
 */
export function lex(src: string, budget: LexBudget = { words: SHELL_LIMITS.maxWords }): Token[] {
  const out: Token[] = [];
  const pending: Pending[] = [];
  let i = 0;
  const n = src.length;
  const push = (t: Token) => {
    if (--budget.words < 0) throw new ShellLimitError(limitNote(`more than ${SHELL_LIMITS.maxWords} words`));
    out.push(t);
  };

  const readHeredocs = () => {
    // Bodies start on the line after the operator, in the order the operators appeared.
    for (const p of pending) {
      let body = "";
      for (;;) {
        if (i >= n) throw new ShellSyntaxError(`heredoc '${p.delim}' is not terminated`, i);
        const nl = src.indexOf("\n", i);
        const end = nl < 0 ? n : nl;
        let line = src.slice(i, end);
        i = nl < 0 ? n : nl + 1;
        if (p.strip) line = line.replace(/^\t+/, "");
        if (line === p.delim) break;
        body += `${line}\n`;
      }
      p.redirect.body = body;
      if (p.expands) {
        const subs = bodySubs(body);
        if (subs.length > 0) p.redirect.subs = subs;
      }
    }
    pending.length = 0;
  };

  // The word being read: its parts and the literal text not yet made a part. One pair for the lex, not a
  // scope and two closures per word (readWord never reads a word inside another).
  let parts: Part[] = [];
  let lit = "";
  const flush = (quoted: boolean) => {
    if (lit !== "") parts.push({ k: "lit", v: lit, quoted });
    lit = "";
  };
  const readDollar = (quoted: boolean): boolean => {
    // i at '$'
    const c1 = src[i + 1] ?? "";
    // `$((` is arithmetic only when it closes with `))`; `$( (a) | b )` is a substitution of a subshell.
    const arithEnd = c1 === "(" && src[i + 2] === "(" ? scanBalanced(src, i + 3, "(", ")") : -1;
    if (arithEnd >= 0 && src[arithEnd] === ")") {
      const end = arithEnd;
      flush(quoted);
      parts.push({ k: "var", name: "((arith))", quoted });
      // Arithmetic runs the command substitutions inside it: `$(( $(rm -rf ~) + 1 ))`.
      for (const inner of arithSubs(src.slice(i + 3, end - 1))) parts.push({ k: "sub", src: inner, quoted: true, proc: false });
      i = src[end] === ")" ? end + 1 : end;
      return true;
    }
    if (c1 === "(") {
      const end = scanBalanced(src, i + 2, "(", ")");
      flush(quoted);
      parts.push({ k: "sub", src: src.slice(i + 2, end - 1), quoted, proc: false });
      i = end;
      return true;
    }
    if (c1 === "{") {
      const end = scanBalanced(src, i + 2, "{", "}");
      const inner = src.slice(i + 2, end - 1);
      flush(quoted);
      // ${X:-d} / ${X=d} give a default; ${X:?msg} is X or an error, so it is X here.
      const m = /^([A-Za-z_][A-Za-z0-9_]*|[@*#?$!0-9-])(?::?([-=?])(.*))?$/s.exec(inner);
      if (m?.[1] !== undefined) parts.push({ k: "var", name: m[1], ...(m[3] !== undefined && m[2] !== "?" ? { def: m[3] } : {}), ...(m[2] === "=" ? { assign: true } : {}), quoted });
      else parts.push({ k: "var", name: `{${inner}}`, quoted });
      i = end;
      return true;
    }
    if (NAME_START.test(c1)) {
      let j = i + 1;
      while (j < n && isNameChar(src.charCodeAt(j))) j++;
      flush(quoted);
      parts.push({ k: "var", name: src.slice(i + 1, j), quoted });
      i = j;
      return true;
    }
    if (SPECIAL_PARAMS.has(c1)) {
      flush(quoted);
      parts.push({ k: "var", name: c1, quoted });
      i += 2;
      return true;
    }
    return false;
  };

  const readWord = (): Word => {
    const start = i;
    parts = [];
    lit = "";

    if (src[i] === "~") {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_.-]/.test(src[j] ?? "")) j++;
      if (j >= n || src[j] === "/" || META.has(src[j] ?? "")) {
        parts.push({ k: "tilde", user: src.slice(i + 1, j) });
        i = j;
      }
    }
    while (i < n) {
      const c = src[i] ?? "";
      const code = src.charCodeAt(i);
      if (code < 128 && STOPS[code] === 1) {
        // Process substitution in the middle of a word (rare) or extglob handled below; else the word ends.
        break;
      }
      if (c === "\\") {
        if (src[i + 1] === "\n") {
          i += 2;
          continue;
        }
        // A backslash that ends the line escapes nothing: bash keeps it (`cmd /c rd /s /q \` is the drive root).
        lit += i + 1 < n ? (src[i + 1] ?? "") : "\\";
        i += 2;
        continue;
      }
      if (c === "'") {
        const j = src.indexOf("'", i + 1);
        if (j < 0) throw new ShellSyntaxError("unterminated single quote", i);
        flush(false);
        parts.push({ k: "lit", v: src.slice(i + 1, j), quoted: true });
        i = j + 1;
        continue;
      }
      if (c === "$" && src[i + 1] === "'") {
        const [text, end] = scanAnsi(src, i + 2);
        flush(false);
        parts.push({ k: "lit", v: text, quoted: true });
        i = end;
        continue;
      }
      if (c === '"' || (c === "$" && src[i + 1] === '"')) {
        flush(false);
        i += c === "$" ? 2 : 1;
        // An empty "" still makes a (possibly empty) argument.
        parts.push({ k: "lit", v: "", quoted: true });
        for (;;) {
          if (i >= n) throw new ShellSyntaxError("unterminated double quote", start);
          const d = src[i] ?? "";
          if (d === '"') {
            i++;
            break;
          }
          if (d === "\\") {
            const e = src[i + 1] ?? "";
            if (e === "\n") i += 2;
            else if ("$`\"\\".includes(e)) {
              lit += e;
              i += 2;
            } else {
              lit += "\\";
              i++;
            }
            continue;
          }
          if (d === "$" && readDollar(true)) continue;
          if (d === "`") {
            const end = scanBacktick(src, i + 1);
            flush(true);
            parts.push({ k: "sub", src: unescapeBackticks(src.slice(i + 1, end - 1)), quoted: true, proc: false });
            i = end;
            continue;
          }
          lit += d;
          i++;
        }
        flush(true);
        continue;
      }
      if (c === "$" && readDollar(false)) continue;
      if (c === "`") {
        const end = scanBacktick(src, i + 1);
        flush(false);
        parts.push({ k: "sub", src: unescapeBackticks(src.slice(i + 1, end - 1)), quoted: false, proc: false });
        i = end;
        continue;
      }
      if ("@!+*?".includes(c) && src[i + 1] === "(") {
        const end = scanBalanced(src, i + 2, "(", ")");
        lit += src.slice(i, end);
        i = end;
        continue;
      }
      if (c === "=" && src[i + 1] === "(" && parts.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?$/.test(lit)) {
        // Array assignment: arr=(a b c) stays one word.
        const end = scanBalanced(src, i + 2, "(", ")");
        lit += src.slice(i, end);
        i = end;
        continue;
      }
      // A run of plain characters in one slice: one string per run, not one per character.
      let j = i + 1;
      for (; j < n; j++) {
        const code = src.charCodeAt(j);
        if (code < 128 && STOPS[code] !== 0) break;
      }
      lit += j === i + 1 ? c : src.slice(i, j);
      i = j;
    }
    flush(false);
    return { parts, raw: src.slice(start, i) };
  };

  const skipBlanks = () => {
    while (i < n) {
      const c = src[i];
      if (c === " " || c === "\t") i++;
      else if (c === "\\" && src[i + 1] === "\n") i += 2;
      else break;
    }
  };

  while (i < n) {
    skipBlanks();
    if (i >= n) break;
    const c = src[i] ?? "";
    // Operators start with one of these; a word's first character is looked at no further here.
    const opStart = c === ";" || c === "&" || c === "|" || c === "(" || c === "<" || c === ">";
    const c2 = opStart ? src.slice(i, i + 2) : "";
    const c3 = c === ";" ? src.slice(i, i + 3) : "";
    if (c === "\n") {
      push({ t: "op", v: "\n" });
      i++;
      if (pending.length > 0) readHeredocs();
      continue;
    }
    if (c === "#") {
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (c3 === ";;&") {
      push({ t: "op", v: ";;" });
      i += 3;
      continue;
    }
    if (c2 === ";;" || c2 === ";&" || c2 === "&&" || c2 === "||" || c2 === "|&") {
      push({ t: "op", v: c2 === ";&" ? ";;" : c2 });
      i += 2;
      continue;
    }
    if (c2 === "((") {
      // Arithmetic command; `( (a) )` written without a space is treated the same, harmlessly.
      const end = scanBalanced(src, i + 2, "(", ")");
      push({ t: "arith", src: src.slice(i + 2, end - 1) });
      i = src[end] === ")" ? end + 1 : end;
      continue;
    }
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      const end = scanBalanced(src, i + 2, "(", ")");
      push({ t: "w", w: { parts: [{ k: "sub", src: src.slice(i + 2, end - 1), quoted: false, proc: true, ...(c === ">" ? { write: true } : {}) }], raw: src.slice(i, end) } });
      i = end;
      continue;
    }
    let fd = "";
    const code = c.charCodeAt(0);
    if (code >= 48 && code <= 57) {
      const m = /^[0-9]+(?=[<>])/.exec(src.slice(i, i + 6));
      if (m) {
        fd = m[0];
        i += fd.length;
      }
    }
    // Only `&`, `<` and `>` (after an fd or not) can begin a redirection operator.
    const r = fd !== "" || c === "&" || c === "<" || c === ">" ? /^(?:&>>|&>|<<<|<<-|<<|>>|>&|<&|>\||<>|>|<)/.exec(src.slice(i, i + 3)) : null;
    if (r && (fd !== "" || r[0].startsWith("&") || c === "<" || c === ">")) {
      const op = r[0];
      i += op.length;
      skipBlanks();
      const redirect: Redirect = { op, fd };
      if (op === "<<" || op === "<<-") {
        const w = readWord();
        const delim = w.parts.map((p) => (p.k === "lit" ? p.v : p.k === "tilde" ? `~${p.user}` : "")).join("");
        // `<<EOF` expands its body; `<<'EOF'`, `<<"EOF"` and `<<\EOF` (any quoting in the word) do not.
        const expands = w.parts.every((p) => p.k !== "lit" || !p.quoted) && !w.raw.includes("\\");
        pending.push({ delim, strip: op === "<<-", expands, redirect });
      } else if ((op === ">&" || op === "<&") && /^[0-9-]/.test(src[i] ?? "")) {
        // Sticky: slicing the rest of the line per `>&2` made a line of them quadratic.
        FD_DUP.lastIndex = i;
        const m = FD_DUP.exec(src)?.[0] ?? "";
        redirect.target = { parts: [{ k: "lit", v: m, quoted: false }], raw: m };
        i += m.length;
      } else if ((src[i] === "<" || src[i] === ">") && src[i + 1] === "(") {
        // `bash < <(curl ...)`, `echo x > >(sh)`: the target is a process substitution, whose commands run.
        const end = scanBalanced(src, i + 2, "(", ")");
        redirect.target = { parts: [{ k: "sub", src: src.slice(i + 2, end - 1), quoted: false, proc: true, ...(src[i] === ">" ? { write: true } : {}) }], raw: src.slice(i, end) };
        i = end;
      } else {
        if (i >= n || META.has(src[i] ?? "")) throw new ShellSyntaxError(`redirection '${op}' has no target`, i);
        redirect.target = readWord();
        // `cmd >&file` (a word, not a descriptor) is bash's `&>file`: both streams written to the file.
        if (op === ">&" && fd === "") redirect.op = "&>";
      }
      push({ t: "redir", r: redirect });
      continue;
    }
    if (fd !== "") i -= fd.length;
    if (c === ";" || c === "&" || c === "|" || c === "(" || c === ")") {
      push({ t: "op", v: c });
      i++;
      continue;
    }
    push({ t: "w", w: readWord() });
  }
  if (pending.length > 0) readHeredocs();
  return out;
}

/** Inside backquotes, `\` only escapes `$`, backquote and backslash. */
function unescapeBackticks(s: string): string {
  return s.replace(/\\([$`\\])/g, "$1");
}
