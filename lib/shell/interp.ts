/** @module interpreter one-liners (python -c, node -e, perl -e, ruby -e, php -r): spot obvious destructive calls. */
import { onFirstUse } from "./lazy-regexp.ts";

/** What a piece of code evidently does: runs a shell line, runs an argv, or deletes a path. */
export type CodeEffect =
  | { kind: "shell"; text: string }
  | { kind: "argv"; argv: string[] }
  | { kind: "delete"; recursive: boolean; path: string }
  /** A file call read as the shell command doing the same: `shutil.copy(a, b)` is `cp a b`, `open(p, 'w')` is `tee p`. */
  | { kind: "file"; argv: string[] };

/** Call names, across languages, and what calling them means. */
const CALLS: [RegExp, "rmtree" | "remove" | "shell" | "spawn" | "rmsync"][] = [
  [/\b(?:shutil\.)?rmtree\s*\(/g, "rmtree"],
  [/\bremove_tree\s*\(/g, "rmtree"],
  [/\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry_secure|remove_entry|rmtree)\s*\(?\s*/g, "rmtree"],
  [/\b(?:os\.(?:remove|unlink|rmdir|removedirs)|File\.(?:delete|unlink)|FileUtils\.(?:rm_f|rm|remove)|unlinkSync|rmdirSync|Deno\.removeSync|Deno\.remove)\s*\(/g, "remove"],
  [/\b(?:fs\.)?(?:promises\.)?(?:rmSync|rmdirSync|rmdir|rm)\s*\(/g, "rmsync"],
  [/\bunlink\s*\(/g, "rmsync"],
  [/\b(?:os\.system|os\.popen|commands\.getoutput|subprocess\.getoutput|subprocess\.getstatusoutput|execSync|shell_exec|passthru|system|exec|qx)\s*[({]\s*/g, "shell"],
  [/\b(?:subprocess\.(?:run|call|check_call|check_output|Popen)|spawnSync|spawn|execFileSync|execFile|os\.execvp?|Bun\.spawnSync|Bun\.spawn|IO\.popen|Open3\.\w+|PTY\.spawn|proc_open)\s*\(\s*/g, "spawn"],
  // Other languages' shapes: lua os.execute, erlang os:cmd, elixir System.cmd/:os.cmd, scala/groovy Process, AppleScript.
  [/\b(?:os\.execute|io\.popen|os:cmd|:os\.cmd|sys\.process\.Process|Process|ProcessBuilder|Runtime\.getRuntime\(\)\.exec)\s*\(\s*/g, "shell"],
  [/\bSystem\.cmd\s*\(\s*/g, "spawn"],
  [/\b(?:system|exec)\s+(?=qw\s*[({[/])/g, "shell"],
  [/\bdo\s+shell\s+script\s+/gi, "shell"],
  // perl/ruby without parentheses: `system 'rm', '-rf', '/'`, `exec "git reset --hard"`.
  [/(?<![.>$\w])(?:system|exec|eval)\s+(?=['"])/g, "shell"],
  // `eval("...")`, perl `eval '...'`: a string run as code (read again as code, and as a command line).
  [/(?<![.>$\w])eval\s*\(\s*(?=['"])/g, "shell"],
  [/\b(?:File\.rm_rf!?|FileUtils\.deleteDirectory|FileUtils\.forceDelete|deleteRecursively|removeItem\s*\(\s*atPath:|removeItem\s*\(\s*at:)\s*\(?\s*/g, "rmtree"],
  [/\b(?:File\.rm!?|Files\.delete(?:IfExists)?)\s*\(\s*/g, "remove"],
];

const HOME_EXPR = /^(?:NSHomeDirectory\(\)|System\.user_home!?\(\)|System\.getProperty\(\s*['"]user\.home['"]\s*\)|Sys\.getenv\(\s*['"]HOME['"]\s*\)|os\.getenv\(\s*["']HOME["']\s*\)|os\.path\.expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.getenv\(\s*['"]HOME['"]\s*\)|(?:require\(\s*['"](?:node:)?os['"]\s*\)\.|os\.)homedir\(\)|process\.env\.HOME|\$ENV\{\s*HOME\s*\}|ENV\[\s*['"]HOME['"]\s*\]|Dir\.home|Deno\.env\.get\(\s*['"]HOME['"]\s*\))/;

/** Reads a string literal at `i` (python/js/perl/ruby quoting, simple escapes). */
function readString(code: string, i: number): [string, number] | undefined {
  // perl's q{...}, qq(...), q[...], q<...>, q/.../: the same string in other quotes.
  const pq = /^qq?([{(\[<\/|!#])/.exec(code.slice(i, i + 3));
  if (pq?.[1] !== undefined) {
    const close = ({ "{": "}", "(": ")", "[": "]", "<": ">" } as Record<string, string>)[pq[1]] ?? pq[1];
    const end = code.indexOf(close, i + pq[0].length);
    return end < 0 ? undefined : [code.slice(i + pq[0].length, end), end + 1];
  }
  const m = /^(?:[rRbBuUfF]{0,2})(['"`])/.exec(code.slice(i, i + 4));
  if (!m?.[1]) return undefined;
  const q = m[1];
  let j = i + m[0].length;
  // Python triple quotes.
  const triple = code.startsWith(q.repeat(3), j - 1);
  if (triple) j += 2;
  let out = "";
  while (j < code.length) {
    const c = code[j] ?? "";
    if (c === "\\") {
      const e = code[j + 1] ?? "";
      // `"\x72\x6d -rf ~"`, `"\u0072m"`, `"\162m"`: escapes of the characters they stand for.
      const esc = /^(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|([0-7]{1,3}))/.exec(code.slice(j + 1, j + 6));
      if (esc && (esc[1] !== undefined || esc[2] !== undefined || esc[3] !== undefined)) {
        out += String.fromCharCode(parseInt(esc[1] ?? esc[2] ?? esc[3] ?? "0", esc[3] !== undefined ? 8 : 16));
        j += 1 + esc[0].length;
        continue;
      }
      out += e === "n" ? "\n" : e === "t" ? "\t" : e;
      j += 2;
      continue;
    }
    if (triple ? code.startsWith(q.repeat(3), j) : c === q) return [out, j + (triple ? 3 : 1)];
    out += c;
    j++;
  }
  return undefined;
}

/** Evaluates the simplest argument expressions: a string, `~` via expanduser/home lookups, a + b concatenation. */
function readPathExpr(code: string, i: number): string | undefined {
  return readPathAt(code, i)?.[0];
}

/** `os.path.join(a, b)`, `File.join(a, b)`, `path.join(a, b)`: the parts joined by `/`. */
const JOIN_CALL = /^(?:os\.path\.join|File\.join|path\.join|require\(\s*['"](?:node:)?path['"]\s*\)\.join|Path\.join)\(\s*/;

/** readPathExpr, with the index just past the expression. */
function readPathAt(code: string, i: number, depth = 0): [string, number] | undefined {
  let out = "";
  let j = i;
  for (;;) {
    while (/\s/.test(code[j] ?? "")) j++;
    const rest = code.slice(j, j + 400);
    const join = depth < 4 ? JOIN_CALL.exec(rest) : null;
    if (join) {
      const parts: string[] = [];
      let k = j + join[0].length;
      for (;;) {
        const part = readPathAt(code, k, depth + 1);
        if (!part) return undefined;
        parts.push(part[0]);
        k = part[1];
        while (/\s/.test(code[k] ?? "")) k++;
        if (code[k] === ",") {
          k++;
          continue;
        }
        if (code[k] !== ")") return undefined;
        k++;
        break;
      }
      out += parts.join("/").replace(/\/{2,}/g, "/");
      j = k;
      while (/\s/.test(code[j] ?? "")) j++;
      const op = code[j];
      if (op === "+" || op === ".") {
        j++;
        continue;
      }
      return [out, j];
    }
    const home = HOME_EXPR.exec(rest);
    const expand = /^os\.path\.expanduser\(\s*/.exec(rest);
    if (home) {
      out += "~";
      j += home[0].length;
    } else if (expand) {
      const s = readString(code, j + expand[0].length);
      if (!s) return undefined;
      out += s[0];
      j = s[1];
      while (/\s/.test(code[j] ?? "")) j++;
      if (code[j] !== ")") return undefined;
      j++;
    } else {
      const s = readString(code, j);
      if (!s) return undefined;
      out += s[0];
      j = s[1];
    }
    while (/\s/.test(code[j] ?? "")) j++;
    const op = code[j];
    // + (python/js), . (perl/php), .. (lua), <> (elixir), & (applescript)
    if (op === "+" || op === "." || op === "&" || (op === "<" && code[j + 1] === ">")) {
      j += code.startsWith("..", j) || code.startsWith("<>", j) ? 2 : 1;
      continue;
    }
    if (op === "/" && out !== "") {
      // pathlib: Path.home() / "x"
      j++;
      out += "/";
      continue;
    }
    return [out, j];
  }
}

/** Reads `["rm", "-rf", "/"]` / `('rm', '-rf')` / `qw(...)`-free list literals of strings. */
function readList(code: string, i: number): string[] | undefined {
  const open = code[i];
  if (open !== "[" && open !== "(") return undefined;
  const close = open === "[" ? "]" : ")";
  const items: string[] = [];
  let j = i + 1;
  for (;;) {
    while (/[\s,]/.test(code[j] ?? "")) j++;
    if (code[j] === close) return items;
    const s = readString(code, j);
    if (!s) return items.length > 0 ? items : undefined;
    items.push(s[0]);
    j = s[1];
  }
}

/** Strings following a first argument: `system("rm", "-rf", "/")`. */
function readMoreStrings(code: string, j: number): string[] {
  const out: string[] = [];
  for (;;) {
    while (/\s/.test(code[j] ?? "")) j++;
    if (code[j] !== ",") return out;
    j++;
    while (/\s/.test(code[j] ?? "")) j++;
    const s = readString(code, j);
    if (!s) return out;
    out.push(s[0]);
    j = s[1];
  }
}

/** Directory walks across languages: what follows is the root they walk. */
const WALK = /\b(?:os\.walk|os\.scandir|os\.listdir|glob\.glob|Path\([^)]*\)\.rglob|Dir\.glob|Find\.find|fs\.readdirSync|readdirSync|File::Find::find|walkdir|WalkDir::new)\s*\(\s*/g;

const CLOSERS: Record<string, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

/**
 * Perl's `qx` and Ruby's `%x` run a shell line, with any delimiter: `qx{..}`, `qx(..)`, `qx!..!`, `qx/../`,
 * `qx {..}`, `%x[..]`. A fat comma (`qx => 1`) or an assignment is not one.
 */
function quoteLikeCommands(code: string): string[] {
  const out: string[] = [];
  // `%x` only with a bracket or `!`/`|`: in a format string (`printf("%x-%x")`) it is data.
  for (const m of code.matchAll(/(?<![\w$@%&])(?:qx\s*([^\w\s=,;)])|%x([([{<!|]))/g)) {
    const open = m[1] ?? m[2] ?? "";
    const close = CLOSERS[open] ?? open;
    const start = (m.index ?? 0) + m[0].length;
    const end = code.indexOf(close, start);
    // No closer after this one: none after any later opener of it either (and rescanning for each would be quadratic).
    if (end < 0) break;
    if (end > start) out.push(code.slice(start, end));
    if (out.length >= 16) break;
  }
  return out;
}

/**
 * `exec(` as a method of something that is no process API: a regular expression (`/x/.exec(s)`) or a PHP
 * object (`$db->exec($sql)` runs SQL). The shell-running `exec` is a plain call or child_process's.
 */
function methodNotShell(code: string, at: number, matched: string): boolean {
  if (!matched.startsWith("exec")) return false;
  if (code.slice(Math.max(0, at - 2), at) === "->") return true;
  return /\/[dgimsuyv]*\s*\.\s*$/.test(code.slice(Math.max(0, at - 12), at));
}

/** Copies, renames and writes across languages, as the shell command that does the same. */
const FILE_CALLS: [RegExp, "cp" | "mv" | "tree" | "write" | "append" | "open"][] = [
  [/\b(?:shutil\.(?:copyfile|copy2|copy)|copyFileSync|fs\.copyFile|fs\.promises\.copyFile|cpSync|FileUtils\.(?:cp|copy_file|copy|install)|IO\.copy_stream|Files\.copy)\s*\(\s*/g, "cp"],
  [/\b(?:shutil\.move|os\.(?:replace|renames|rename)|renameSync|fs\.rename|fs\.promises\.rename|File\.rename|FileUtils\.(?:mv|move)|Files\.move)\s*\(\s*/g, "mv"],
  [/\b(?:shutil\.copytree|FileUtils\.(?:cp_r|copy_entry))\s*\(\s*/g, "tree"],
  [/\b(?:writeFileSync|fs\.writeFile|fs\.promises\.writeFile|File\.write|IO\.write|file_put_contents|Deno\.writeTextFileSync|Deno\.writeTextFile|Bun\.write)\s*\(\s*/g, "write"],
  [/\b(?:appendFileSync|fs\.appendFile|fs\.promises\.appendFile)\s*\(\s*/g, "append"],
  [/(?<![\w.])(?:open|File\.open|io\.open|codecs\.open)\s*\(\s*/g, "open"],
];

/**
 * The code with the inside of each string literal blanked (same length, quotes kept), in one pass: a call written
 * inside a string (`print("os.replace('a', '~/.bashrc')")`, ruby `%q(...)`) is data. Code run from a string
 * (`exec("...")`) is read again on its own by the caller.
 */
function maskStrings(code: string): string {
  let out = "";
  let i = 0;
  while (i < code.length) {
    const c = code[i] ?? "";
    const pct = c === "%" && /^%[qQwW]?[([{<|!]/.test(code.slice(i, i + 3)) && !/[\w)\]]/.test(code[i - 1] ?? "");
    if (c === "'" || c === '"' || c === "`" || pct) {
      const open = pct ? (code[i + 1] === "q" || code[i + 1] === "Q" || code[i + 1] === "w" || code[i + 1] === "W" ? code[i + 2] : code[i + 1]) ?? "" : c;
      const start = pct ? i + (code[i + 1] === open ? 2 : 3) : i + 1;
      const close = pct ? (CLOSERS[open] ?? open) : c;
      let j = start;
      while (j < code.length && code[j] !== close) j += code[j] === "\\" ? 2 : 1;
      out += code.slice(i, start) + " ".repeat(Math.max(0, Math.min(j, code.length) - start));
      if (j < code.length) out += close;
      i = j + 1;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

function fileCalls(code: string, out: CodeEffect[]): void {
  if (!/copy|move|rename|replace|write|open|cp|mv|put_contents|append/i.test(code)) return;
  const masked = maskStrings(code);
  for (const [re, kind] of FILE_CALLS) {
    re.lastIndex = 0;
    for (let m = re.exec(masked); m; m = re.exec(masked)) {
      if (out.length >= 64) return;
      const first = readPathAt(code, m.index + m[0].length);
      if (!first) continue;
      let j = first[1];
      while (/\s/.test(code[j] ?? "")) j++;
      if (kind === "write" || kind === "append") {
        out.push({ kind: "file", argv: kind === "append" ? ["tee", "-a", first[0]] : ["tee", first[0]] });
        continue;
      }
      if (code[j] !== ",") continue;
      if (kind === "open") {
        // open(path, 'w') truncates, 'a' appends; reading opens write nothing.
        const mode = readString(code, j + 1 + (/^\s*/.exec(code.slice(j + 1, j + 64))?.[0].length ?? 0))?.[0] ?? "";
        if (/[wx+]/.test(mode)) out.push({ kind: "file", argv: ["tee", first[0]] });
        else if (mode.includes("a")) out.push({ kind: "file", argv: ["tee", "-a", first[0]] });
        continue;
      }
      const second = readPathAt(code, j + 1);
      if (!second) continue;
      // copytree(src, dst) puts src's content into dst, as `cp -r src/. dst`.
      out.push({ kind: "file", argv: kind === "tree" ? ["cp", "-r", `${first[0].replace(/\/+$/, "")}/.`, second[0]] : [kind, first[0], second[0]] });
    }
  }
}

/** Finds the obvious destructive calls in interpreter code. Not a language parser: obvious shapes only. */
export function scanCode(code: string): CodeEffect[] {
  const out: CodeEffect[] = [];
  // `for r,_,fs in os.walk(HOME): os.remove(...)`: deleting what a walk finds deletes below the walk's root.
  if (/\b(?:remove|unlink|rmtree|rmSync|rm_rf|rm_f|delete|rmdir)\b/.test(code)) {
    WALK.lastIndex = 0;
    for (let m = WALK.exec(code); m; m = WALK.exec(code)) {
      const root = readPathExpr(code, m.index + m[0].length);
      if (root !== undefined) out.push({ kind: "delete", recursive: true, path: root });
    }
    // `[p.unlink() for p in Path.home().rglob('*.log')]`: the walk's root is the Path the glob hangs off.
    // What it deletes is what the pattern matches below that root (`Path('.').rglob('*.pyc')` is `./*.pyc`, not the project).
    // (`Path.home()` reaches here as the string '~'.)
    for (const m of code.matchAll(/\bPath\.home\(\)\.r?glob\s*\(|(?:\bPath\(\s*)?(['"])([^'"\n]{1,300})\1\s*\)?\.r?glob\s*\(/g)) {
      const pattern = readString(code, (m.index ?? 0) + m[0].length)?.[0] ?? "*";
      out.push({ kind: "delete", recursive: true, path: `${(m[2] ?? "~").replace(/\/+$/, "")}/${pattern.replace(/^\*\*\//, "")}` });
    }
  }
  for (const [re, kind] of CALLS) {
    re.lastIndex = 0;
    for (let m = re.exec(code); m; m = re.exec(code)) {
      const at = m.index + m[0].length;
      if (kind === "rmtree" || kind === "remove" || kind === "rmsync") {
        // perl File::Path and ruby FileUtils take a list: `rmtree(['/a', '/b'])`, `rmtree('/tmp/x', '/home/u')`.
        const list = kind === "rmtree" ? readList(code, at) : undefined;
        if (list) {
          for (const path of list) out.push({ kind: "delete", recursive: true, path });
          continue;
        }
        const path = readPathExpr(code, at);
        if (path === undefined) continue;
        const first = kind === "rmtree" ? readString(code, at) : undefined;
        if (first && first[0] === path) for (const more of readMoreStrings(code, first[1])) out.push({ kind: "delete", recursive: true, path: more });
        const recursive = kind === "rmtree" || ((kind === "rmsync" || kind === "remove") && /recursive\s*[:=]\s*(?:true|TRUE|T\b)/.test(code.slice(at, at + 200)));
        out.push({ kind: "delete", recursive, path });
      } else if (kind === "shell") {
        if (methodNotShell(code, m.index, m[0])) continue;
        // perl `system qw(rm -rf), $ENV{HOME}`: a word list, then more arguments.
        const qw = /^qw\s*[({[/]([^)}\]/]*)[)}\]/]/.exec(code.slice(at));
        if (qw?.[1] !== undefined) {
          const words = qw[1].split(/\s+/).filter((w) => w !== "");
          const more = readMoreStrings(code, at + qw[0].length);
          if (words.length > 0) out.push({ kind: "argv", argv: [...words, ...more] });
          continue;
        }
        const s = readString(code, at);
        // `os.system('rm -rf ' + os.path.expanduser('~'))`: a command line built by concatenation.
        const joined = s ? readPathExpr(code, at) : undefined;
        if (s && joined !== undefined && joined !== s[0]) out.push({ kind: "shell", text: joined });
        else if (s) {
          const more = readMoreStrings(code, s[1]);
          out.push(more.length > 0 ? { kind: "argv", argv: [s[0], ...more] } : { kind: "shell", text: s[0] });
        } else {
          const list = readList(code, at - 1) ?? readList(code, at);
          if (list && list.length > 0) out.push(list.length === 1 ? { kind: "shell", text: list[0] ?? "" } : { kind: "argv", argv: list });
        }
      } else {
        const list = readList(code, at);
        if (list && list.length > 0) {
          out.push({ kind: "argv", argv: list });
          continue;
        }
        const s = readString(code, at);
        if (!s) continue;
        // spawn("rm", ["-rf", "/"]) vs subprocess.run("rm -rf /", shell=True)
        let j = s[1];
        while (/[\s,]/.test(code[j] ?? "")) j++;
        const rest = readList(code, j);
        if (rest) out.push({ kind: "argv", argv: [s[0], ...rest] });
        else out.push({ kind: "shell", text: s[0] });
      }
    }
  }
  fileCalls(code, out);
  // zx and Bun shell: $`rm -rf ~` runs a shell line.
  for (const m of code.matchAll(/(?:\bBun\.|(?<![\w$.]))\$`([^`]*)`/g)) if (m[1] && !/\$\{/.test(m[1])) out.push({ kind: "shell", text: m[1] });
  // `"rm -rf ~".execute()` (groovy), `"rm -rf ~".!` (scala): a string run as a command line.
  for (const m of code.matchAll(/(["'])((?:(?!\1)[^\\]|\\.)*)\1\s*\.\s*(?:execute\s*\(|!!?(?![=\w]))/g)) if (m[2]) out.push({ kind: "shell", text: m[2] });
  // Tcl: `exec rm -rf ~` runs the words; `file delete -force X` deletes a tree.
  for (const m of code.matchAll(/(?:^|[;\n[{])\s*exec\s+([^;\]\n}]+)/g)) if (m[1] && !/^\s*[("'`]/.test(m[1])) out.push({ kind: "shell", text: m[1].trim() });
  for (const m of code.matchAll(/\bfile\s+delete\s+(-force\s+)?(?:--\s+)?(\S+)/g)) if (m[2]) out.push({ kind: "delete", recursive: m[1] !== undefined, path: m[2].replace(/^["'{]|["'}]$/g, "") });
  // Backquotes run a shell in perl and ruby (not in JS template literals, which readString covers above).
  for (const m of code.matchAll(/(?<![\w$])`([^`]+)`/g)) if (m[1] && !/\$\{/.test(m[1])) out.push({ kind: "shell", text: m[1] });
  for (const text of quoteLikeCommands(code)) out.push({ kind: "shell", text });
  return out;
}

/** A literal as the code would write it (single quotes unless the text holds one). */
function lit(text: string): string {
  return text.includes("'") ? `"${text.replace(/["\\]/g, "\\$&")}"` : `'${text}'`;
}

/** Words that may build a string from character codes or by reversing or slicing a literal. */
const CHAR_BUILT = /chr|pack|sprintf|fromCharCode|bytes\s*\(|Buffer\.from\(\s*\[|reverse|strrev|\[\s*-?\d*\s*:/;
const NUMS = String.raw`(\d{1,3}(?:\s*,\s*\d{1,3}){0,511})`;
const STR = String.raw`(['"])((?:(?!\1)[^\\\n]){0,512})\1`;
const EMPTY = String.raw`(?:''|"")`;
const fromCodes = (list: string) => lit(String.fromCharCode(...list.split(",").map((n) => Number(n.trim()) & 0xff)));
const reversed = (s: string) => lit([...s].reverse().join(""));

/**
 * Strings built from a literal the line shows, folded into that literal: character codes (perl `map { chr } 114,109`,
 * `pack("C*", ..)`, `sprintf("%c%c", ..)`, python `''.join(chr(c) for c in [..])`, `bytes([..]).decode()`, node
 * `String.fromCharCode(..)`, ruby `[..].pack("c*")`, php `implode(array_map("chr", [..]))`), reversals (`'..'[::-1]`,
 * ruby `.reverse`, perl `scalar reverse`, php `strrev`, js `.split("").reverse().join("")`) and python slices (`'x..'[1:]`).
 * What the code does with the string is then read as if the string were written out.
 */
function foldBuiltStrings(source: string): string {
  const MAPCHR = String.raw`map\s*(?:\{\s*chr(?:\s*\(?\s*\$_\s*\)?)?\s*\}|chr\s*,)\s*`;
  let code = source;
  // perl `my @a = (114,109,..); ... map { chr } @a`: the array's numbers where the map reads them.
  for (const m of code.matchAll(new RegExp(String.raw`\bmy\s+@(\w+)\s*=\s*\(\s*${NUMS}\s*\)`, "g"))) {
    if (m[1] !== undefined && m[2] !== undefined) code = code.replace(new RegExp(String.raw`(${MAPCHR})@${m[1]}\b`, "g"), `$1(${m[2]})`);
  }
  return code
    .replace(new RegExp(String.raw`join\s*\(\s*${EMPTY}\s*,\s*${MAPCHR}\(?${NUMS}\)?\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`join\s+${EMPTY}\s*,\s*${MAPCHR}\(\s*${NUMS}\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`join\s+${EMPTY}\s*,\s*${MAPCHR}${NUMS}`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`pack\s*\(\s*['"][cCU]\*['"]\s*,\s*${NUMS}\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`sprintf\s*\(\s*['"](?:%c)+['"]\s*,\s*${NUMS}\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`${EMPTY}\s*\.join\(\s*(?:chr\(\s*\w+\s*\)\s+for\s+\w+\s+in\s+[[(]${NUMS}[\])]|map\(\s*chr\s*,\s*[[(]${NUMS}[\])]\s*\))\s*\)`, "g"), (_m, a: string | undefined, b: string | undefined) => fromCodes(a ?? b ?? ""))
    .replace(new RegExp(String.raw`bytes\(\s*\[${NUMS}\]\s*\)\.decode\(\s*(?:['"][\w-]+['"])?\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`String\.fromCharCode\(\s*(?:\.\.\.\s*\[)?${NUMS}\]?\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`Buffer\.from\(\s*\[${NUMS}\]\s*\)\.toString\(\s*(?:['"][\w-]+['"])?\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(/\bchr\(\s*(\d{1,3})\s*\)/g, (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`\[${NUMS}\]\.pack\(\s*['"][cCU]\*['"]\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`implode\(\s*(?:${EMPTY}\s*,\s*)?array_map\(\s*['"]chr['"]\s*,\s*\[${NUMS}\]\s*\)\s*\)`, "g"), (_m, n: string) => fromCodes(n))
    .replace(new RegExp(String.raw`${STR}\[::-1\]`, "g"), (_m, _q, s: string) => reversed(s))
    .replace(new RegExp(String.raw`${STR}\[(-?\d{0,3}):(-?\d{0,3})\]`, "g"), (_m, _q, s: string, a: string, b: string) => lit(s.slice(a === "" ? 0 : Number(a), b === "" ? undefined : Number(b))))
    .replace(new RegExp(String.raw`${STR}\.split\(\s*${EMPTY}\s*\)\.reverse\(\)\.join\(\s*${EMPTY}\s*\)`, "g"), (_m, _q, s: string) => reversed(s))
    .replace(new RegExp(String.raw`${STR}\.reverse\b(?!\s*\()`, "g"), (_m, _q, s: string) => reversed(s))
    .replace(new RegExp(String.raw`(?:scalar\s+reverse|strrev)\s*\(?\s*${STR}\s*\)?`, "g"), (_m, _q, s: string) => reversed(s));
}

/** What runs the text it is given: a hex or base64 literal decoded right into it is code (hoisted: built once, not per call). */
const RUNS = String.raw`(\b(?:execSync|exec|execFile\w*|system|spawn\w*|popen|shell_exec|passthru|proc_open|eval|Function|run|call|check_output|Popen|getoutput)\s*\(\s*)`;
const RUN_HEX = onFirstUse(() => new RegExp(`${RUNS}(?:Buffer\\.from\\(\\s*(['"])([0-9a-fA-F]{2,2048})\\2\\s*,\\s*(['"])hex\\4\\s*\\)(?:\\.toString\\(\\s*\\))?|hex2bin\\(\\s*(['"])([0-9a-fA-F]{2,2048})\\5\\s*\\)|bytes\\.fromhex\\(\\s*(['"])([0-9a-fA-F]{2,2048})\\7\\s*\\)(?:\\.decode\\(\\s*\\))?)`, "g"));
const RUN_BASE64 = onFirstUse(() => new RegExp(`${RUNS}(?:(?:base64_decode|atob)\\(\\s*(['"])([A-Za-z0-9+/=]{4,4096})\\2\\s*\\)|Buffer\\.from\\(\\s*(['"])([A-Za-z0-9+/=]{4,4096})\\4\\s*,\\s*(['"])base64\\6\\s*\\)(?:\\.toString\\(\\s*\\))?)`, "g"));

/**
 * Code with the strings it builds from literals folded into one literal, so the call tables see them:
 * `'r' + 'm -rf ~'`, `"r"."m"`, `#{'~'}` and `${'~'}` interpolations, a name given a literal then passed
 * (`c = 'rm -rf ~'; os.system(c)`, `$f = "rm"; exec("$f -rf ~")`), `getattr(os, 'system')`, `x['execSync']`,
 * `import subprocess as s`, ruby `%w[..]`, hex decoded from a literal, `new Deno.Command('rm', {args: [..]})`.
 * Bounded passes over code already capped in length.
 */
export function foldCode(source: string): string {
  let code = CHAR_BUILT.test(source) ? foldBuiltStrings(source) : source;
  // Hex and base64 literals decoded in place (`Buffer.from('726d..','hex')`, `hex2bin("..")`, `bytes.fromhex('..')`).
  // Only where the decoded text is handed straight to something that runs it: printed, it stays data.
  code = code.replace(RUN_HEX(), (_m, call: string, _q1, h1: string | undefined, _q2, _q3, h2: string | undefined, _q4, h3: string | undefined) => call + lit(Buffer.from(h1 ?? h2 ?? h3 ?? "", "hex").toString("latin1")));
  code = code.replace(RUN_BASE64(), (_m, call: string, _q1, b1: string | undefined, _q2, b2: string | undefined) => call + lit(Buffer.from(b1 ?? b2 ?? "", "base64").toString("latin1")));
  for (let n = 0; n < 16; n++) {
    const next = code.replace(/(['"])((?:(?!\1)[^\\\n]|\\.){0,512})\1\s*(?:\+|\.(?=\s*['"]))\s*(['"])((?:(?!\3)[^\\\n]|\\.){0,512})\3/g, (_m, _a, x: string, _b, y: string) => lit(x + y));
    if (next === code) break;
    code = next;
  }
  // python `' '.join(['rm', '-rf', x])` with every word a literal.
  code = code.replace(/(['"])([^'"\\\n]{0,8})\1\s*\.join\(\s*\[((?:\s*(['"])[^'"\\\n]{0,512}\4\s*,?){1,64})\]\s*\)/g, (_m, _q, sep: string, items: string) => lit([...items.matchAll(/(['"])([^'"]*)\1/g)].map((x) => x[2] ?? "").join(sep)));
  code = code.replace(/#\{\s*'([^'{}]*)'\s*\}|\$\{\s*'([^'{}]*)'\s*\}/g, (_m, a: string | undefined, b: string | undefined) => a ?? b ?? "");
  // `getattr(__import__('os'), 'system')` is os.system; `cp['execSync']` is cp.execSync.
  code = code.replace(/getattr\(\s*(?:__import__\(\s*['"](\w+)['"]\s*\)|(\w+))\s*,\s*['"](\w+)['"]\s*\)/g, (_m, mod: string | undefined, obj: string | undefined, attr: string) => `${mod ?? obj ?? ""}.${attr}`);
  code = code.replace(/\[\s*['"]([A-Za-z_]\w*)['"]\s*\](?=\s*\()/g, ".$1");
  for (const m of code.matchAll(/\bimport\s+(subprocess|os|shutil|child_process)\s+as\s+(\w+)/g)) if (m[2] && m[1]) code = code.replace(new RegExp(`\\b${m[2]}\\.`, "g"), `${m[1]}.`);
  for (const m of code.matchAll(/\b(?:const|let|var)\s+(\w+)\s*=\s*require\(\s*['"](?:node:)?child_process['"]\s*\)/g)) if (m[1] && m[1] !== "child_process") code = code.replace(new RegExp(`\\b${m[1]}\\.`, "g"), "child_process.");
  code = code.replace(/\*?%w\s*[[({]([^\])}]*)[\])}]/g, (_m, words: string) => `[${words.split(/\s+/).filter((w) => w !== "").map(lit).join(", ")}]`);
  // `os.spawnlp(os.P_WAIT, 'rm', 'rm', '-rf', p)`: the file, then argv from its own first word.
  code = code.replace(/\bos\.spawnlp?e?\(\s*os\.P_\w+\s*,\s*(['"][^'"]*['"])\s*,\s*((?:['"][^'"]*['"]\s*,?\s*){1,64})\)/g, (_m, file: string, rest: string) => {
    const words = [...rest.matchAll(/['"][^'"]*['"]/g)].map((x) => x[0]).slice(1);
    return `spawnSync(${file}, [${words.join(", ")}])`;
  });
  // `pcntl_exec('/bin/rm', [..])`, R's `system2('rm', c(..))`: a program and its argument list.
  code = code.replace(/\bpcntl_exec\(/g, "spawnSync(").replace(/\bsystem2\(\s*(['"][^'"]+['"])\s*,\s*c\(([^()]{0,512})\)/g, "spawnSync($1, [$2]");
  // perl `my @c = ("rm", "-rf", $x); system @c`: the array's words.
  for (const m of code.matchAll(/\bmy\s+@(\w+)\s*=\s*\(([^()]{0,512})\)/g)) if (m[1] && m[2] !== undefined) code = code.replace(new RegExp(`\\b(system|exec)\\s+@${m[1]}\\b`, "g"), `$1(${m[2]})`);
  code = code.replace(/new\s+Deno\.Command\(\s*(['"])([^'"]+)\1\s*,\s*\{\s*args\s*:\s*\[/g, (_m, q: string, prog: string) => `spawnSync(${q}${prog}${q}, [`);
  // A name given one literal, then passed where a command goes, or interpolated (`"$f -rf ~"`).
  const names = new Map<string, string>();
  for (const m of code.matchAll(/(?:^|[;\n{(]|\b(?:const|let|var|my|local)\s+)\s*(\$?[A-Za-z_]\w*)\s*=(?!=)\s*(['"])((?:(?!\2)[^\\\n]|\\.){0,512})\2\s*(?=[;\n)]|$)/g)) {
    if (m[1] !== undefined && m[3] !== undefined && names.size < 16) names.set(m[1], m[3]);
  }
  for (const [name, value] of names) {
    const id = name.replace(/\$/g, "\\$");
    code = code.replace(new RegExp(`([(,]\\s*)${id}(?=\\s*[,)])`, "g"), `$1${lit(value)}`);
    if (name.startsWith("$")) code = code.replace(new RegExp(`(["\`])([^"\`\\n]*?)${id}\\b([^"\`\\n]*\\1)`, "g"), (_m, q: string, pre: string, post: string) => `${q}${pre}${value}${post}`);
  }
  return code;
}

/** Programs whose command line, written as a string in code, is worth reading as shell. */
const DESTRUCTIVE_LEAD = /^\s*(?:sudo\s+)?(?:rm|rmdir|dd|mkfs\S*|shred|wipe|git|curl|wget|chmod|chown|mv|find|truncate|sh|bash|zsh|powershell|pwsh|cmd|del|rd|format|diskpart|shutdown|reboot|halt|kill|pkill)\s/;

/**
 * Code in a language without a call table here (or whose call was not recognized) that runs something and
 * holds a string that is a destructive-looking command line: that string, read as shell. Strings in code
 * that runs nothing (`print("rm -rf /")`) stay data.
 */
export function fallbackCommands(code: string): string[] {
  // A regular expression's or a database handle's exec runs no program.
  const runs = code.includes("exec") ? code.replace(/\/[dgimsuyv]*\s*\.\s*exec\s*\(|->\s*exec\s*\(/g, " ") : code;
  if (!/\b(?:exec\w*|system|spawn\w*|popen|Popen|cmd|shell|run|Process\w*|call|execute|eval|invoke|start)\b|`|\.!/.test(runs)) return [];
  const out: string[] = [];
  for (const m of code.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)) {
    const text = (m[1] ?? m[2] ?? "").replace(/\\(.)/g, "$1");
    if (DESTRUCTIVE_LEAD.test(`${text} `)) out.push(text);
    if (out.length >= 16) break;
  }
  return out;
}
