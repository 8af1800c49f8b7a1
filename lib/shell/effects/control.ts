/**
 * @module control effects: what stops or takes out other software, with what it reaches (targets): processes killed
 * (`process-kill`: pkill, killall, kill of looked-up pids, Stop-Process, taskkill, a service stopped), packages,
 * extensions and MCP servers removed (`uninstall`), an agent started with its hooks or extensions off
 * (`unguarded-agent`), and HTTP requests to a loopback address (`local-request`). Linear in the words.
 */
import type { SimpleCommand } from "../types.ts";
import { re2 } from "../../lazy-deps.ts";
import { envOf } from "../env-names.ts";
import { effect, type Effect, type Target } from "./types.ts";
import { nameTest } from "../program-names.ts";
import { lazyMatcher, onFirstUse } from "../lazy-regexp.ts";

const MAX_TARGETS = 16;
const SIGNAL = /^-(?:\d{1,2}|[A-Z][A-Z0-9+-]+|SIG\w+)$/;

function push(out: Target[], t: Target): void {
  if (out.length < MAX_TARGETS && t.text !== "") out.push(t);
}

const POWERSHELL = (cmd: SimpleCommand) => cmd.via.includes("powershell");

/** What the line does not show: a word computed at run time, or pids from a listing that names nothing. */
function unknown(text: string): Target {
  return { text: text.slice(0, 200), match: "unknown" };
}

/** Every port: a listing of all sockets (`lsof -t -i`, `ss -ltnp`) with nothing on the line to narrow it. */
const ALL_PORTS: Target = { text: "1-65535", match: "port" };

/** A port or range as lsof, ss, fuser or kill-port write it (`:7373`, `tcp:7373`, `@127.0.0.1:7000-8000`, `7373/tcp`). */
function portTarget(spec: string): Target | undefined {
  const m = /^(?:(?:tcp|udp)[46]?)?(?:@[^:]*)?:?(\d{1,5})(?:-(\d{1,5}))?(?:\/(?:tcp|udp))?$/i.exec(spec);
  if (!m?.[1]) return undefined;
  return { text: m[2] ? `${m[1]}-${m[2]}` : m[1], match: "port" };
}

/** pkill/pgrep: options that take the next word (`-u user`, `--signal KILL`, `-F pidfile`). */
const PGREP_VALUED = new Set(["-d", "--delimiter", "-u", "-U", "-G", "-g", "-P", "-s", "-t", "--ns", "--nslist", "--signal", "--euid", "--uid", "--group", "--pgroup", "--session", "--terminal", "--parent", "-F", "--pidfile", "--runstates", "-r"]);

/** Options that pick processes without a pattern: by user, group, parent, session or terminal. */
const SELECTORS = new Set(["-u", "-U", "-G", "-g", "-P", "-s", "-t", "--euid", "--uid", "--group", "--pgroup", "--session", "--terminal", "--parent"]);

/** The pattern a pkill or pgrep matches, as a target; a pid file (`-F f`) as text. */
function pgrepTargets(cmd: SimpleCommand): Target[] {
  const a = cmd.argv;
  const out: Target[] = [];
  let full = false;
  let ci = false;
  let exact = false;
  let inverse = false;
  let selected = false;
  let pattern: string | undefined;
  let at = -1;
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w === "--") {
      if (pattern === undefined && a[i + 1] !== undefined) [pattern, at] = [a[i + 1], i + 1];
      break;
    }
    if (w === "--full") full = true;
    else if (w === "--ignore-case") ci = true;
    else if (w === "--exact") exact = true;
    else if (w === "--inverse") inverse = true;
    else if (w === "-F" || w === "--pidfile") {
      push(out, { text: a[i + 1] ?? "", match: "text" });
      i++;
    }
    else if (w.startsWith("--pidfile=")) push(out, { text: w.slice(10), match: "text" });
    else if (w.startsWith("--")) {
      if (SELECTORS.has(w.split("=")[0] ?? "")) selected = true;
      if (!w.includes("=") && PGREP_VALUED.has(w)) i++;
    } else if (w.startsWith("-") && w.length > 1) {
      if (SIGNAL.test(w) && !/^-[fixnovcealdw]+$/.test(w)) continue;
      if (PGREP_VALUED.has(w)) {
        // `pkill -P $$`: this shell's own children, never the agent's.
        if (SELECTORS.has(w) && !/^\$(?:\$|BASHPID)$/.test(a[i + 1] ?? "")) selected = true;
        i++;
        continue;
      }
      for (const ch of w.slice(1)) {
        if (ch === "f") full = true;
        else if (ch === "i") ci = true;
        else if (ch === "x") exact = true;
        else if (ch === "v") inverse = true;
      }
    } else if (pattern === undefined) [pattern, at] = [w, i];
  }
  // `pkill -f "$(cat /tmp/name)"`, `pgrep "$P"`: a pattern computed at run time may match anything, Shepherd included.
  if (pattern !== undefined && cmd.dynamic[at] === true && !inverse) {
    push(out, unknown(pattern));
    return out;
  }
  // `pkill -v node` signals every process but node's, Shepherd's among them; `pkill -u me`, `pkill -P $PPID` with no
  // pattern signal every process of that user or parent (the agent's children: its sidecar too).
  if (inverse || (pattern === undefined && selected)) push(out, { text: ".", match: "regex", fullLine: true });
  else if (pattern !== undefined) push(out, { text: exact ? `^(?:${pattern})$` : pattern, match: "regex", ...(ci ? { ignoreCase: true } : {}), ...(full ? { fullLine: true } : {}) });
  return out;
}

const KILLALL_VALUED = new Set(["-s", "--signal", "-u", "--user", "-o", "--older-than", "-y", "--younger-than", "-n", "--ns", "-Z", "--context"]);

function killallTargets(cmd: SimpleCommand): Target[] {
  const a = cmd.argv;
  let regex = false;
  let ci = false;
  const names: string[] = [];
  const computed: string[] = [];
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (cmd.dynamic[i] === true && !w.startsWith("-")) computed.push(w);
    else if (w === "-r" || w === "--regexp") regex = true;
    else if (w === "-I" || w === "--ignore-case") ci = true;
    else if (KILLALL_VALUED.has(w)) i++;
    else if (w.startsWith("-") && !SIGNAL.test(w) && /^-[a-zA-Z]+$/.test(w)) {
      if (w.includes("r")) regex = true;
      if (w.includes("I")) ci = true;
    } else if (!w.startsWith("-")) names.push(w);
  }
  // `killall -u me` with no name signals every process of that user.
  if (names.length === 0 && a.some((w) => w === "-u" || w === "--user" || w.startsWith("--user="))) return [{ text: ".", match: "regex", fullLine: true }];
  if (computed.length > 0) return [unknown(computed.join(" "))];
  return names.slice(0, MAX_TARGETS).map((n) => (regex ? { text: n, match: "regex" as const, ...(ci ? { ignoreCase: true } : {}) } : { text: n, match: "exact" as const, ...(ci ? { ignoreCase: true } : {}) }));
}

/** `kill`'s pid words that may name any process: a substitution (`$(pgrep x)`), a variable, a loop's word, stdin (xargs). */
function unknownPids(cmd: SimpleCommand): string[] {
  const out: string[] = [];
  const a = cmd.argv;
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w === "-s" || w === "-n") {
      i++;
      continue;
    }
    if (w === "--") continue;
    // A literal pid or job names no process by what it runs; `-1` is every process the user may signal.
    if (w === "-1") out.push(".");
    if (/^-?\d+$|^%/.test(w) || (w.startsWith("-") && !cmd.dynamic[i])) continue;
    // `$!` is the job just started, `$$` the shell itself: known not to be a looked-up process.
    if (!/^"?\$(?:!|\$|\{!\}|PPID|BASHPID)"?$|^\$\(jobs\b/.test(w)) out.push(w);
  }
  return out;
}

/** A plain `$NAME` pid: only a variable set on the line (`pid=$(pgrep x)`, `read pid`) holds what the line looked up. */
function setOnLine(w: string, cmd: SimpleCommand, read: ReadonlySet<string>): boolean {
  const m = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(w);
  if (!m?.[1]) return true;
  return (envOf(cmd) ?? []).includes(m[1]) || read.has(m[1]);
}

/** `kill -0 pid` and `kill -s 0 pid` only ask whether a process exists; `kill -l` lists the signals. */
function signalsNothing(a: readonly string[]): boolean {
  return a[1] === "-0" || (a[1] === "-s" && a[2] === "0") || a[1] === "-l" || a[1] === "-L" || a.length === 1;
}

/** PowerShell named parameters, any unique prefix or alias: `-n`, `-Name`, `-ProcessName`. */
function psValue(a: readonly string[], test: RegExp): string | undefined {
  for (let i = 1; i < a.length - 1; i++) if (test.test(a[i] ?? "")) return a[i + 1];
  return undefined;
}

function psNames(v: string): Target[] {
  return v
    .split(",")
    .map((n) => n.trim().replace(/^['"]|['"]$/g, ""))
    .filter((n) => n !== "")
    .slice(0, MAX_TARGETS)
    .map((n) => ({ text: n, match: "glob" as const, ignoreCase: true }));
}

const UNIT_STOP = /^(?:stop|kill|disable|mask|freeze)$/;

/** Processes one command kills, with what it names; `undefined` when it kills none. */
function killTargets(cmd: SimpleCommand): { what: string; targets: Target[] } | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  if (p === "pkill") return { what: "pkill signals the processes its pattern matches", targets: pgrepTargets(cmd) };
  if (p === "killall" || p === "skill") return { what: `${p} signals processes by name`, targets: killallTargets(cmd) };
  if (p === "stop-process" || p === "spps" || (p === "kill" && POWERSHELL(cmd))) {
    const name = psValue(a, /^-(?:n|na|nam|name|processname|pn)$/i);
    const id = psValue(a, /^-(?:i|id)$/i) ?? a.slice(1).find((w) => !w.startsWith("-"));
    const targets = name !== undefined ? psNames(name) : id !== undefined ? [{ text: id, match: "text" as const }] : [];
    return { what: "Stop-Process ends processes", targets };
  }
  if (p === "kill") {
    if (signalsNothing(a)) return undefined;
    return { what: "kill signals the processes its pids name", targets: unknownPids(cmd).slice(0, MAX_TARGETS).map((w) => (w === "." ? { text: ".", match: "regex" as const, fullLine: true } : { text: w, match: "text" as const })) };
  }
  if (p === "fuser" && a.some((w) => /^-[a-zA-Z]*k/.test(w) || w === "--kill")) {
    // `fuser -k /usr/bin/x`: every process using the file, the program itself when it is one; `fuser -k 7373/tcp`,
    // `fuser -k -n tcp 7373`: the process listening on the port.
    const targets: Target[] = [];
    let net = false;
    for (let i = 1; i < a.length; i++) {
      const w = a[i] ?? "";
      if (w === "-n" || w === "--namespace") {
        net = /^(?:tcp|udp)$/.test(a[i + 1] ?? "");
        i++;
      } else if (w.startsWith("-")) continue;
      else if (cmd.dynamic[i] === true) push(targets, unknown(w));
      else push(targets, (/\/(?:tcp|udp)$/.test(w) || (net && /^\d+$/.test(w)) ? portTarget(w) : undefined) ?? { text: w, match: "text" });
    }
    return { what: "fuser -k kills the processes using its files or ports", targets };
  }
  if (p === "kill-port" || p === "fkill" || p === "killport") {
    // `npx kill-port 3000 7373`, `fkill :7373 node`: ports, or (fkill) process names.
    const targets: Target[] = [];
    for (let i = 1; i < a.length; i++) {
      const w = a[i] ?? "";
      if (w.startsWith("-")) continue;
      if (cmd.dynamic[i] === true) push(targets, unknown(w));
      else for (const part of w.split(",")) push(targets, portTarget(part) ?? { text: part, match: "exact", ignoreCase: true });
    }
    return { what: `${p} kills the processes listening on its ports`, targets };
  }
  if (p === "wmic" && (a[1] ?? "").toLowerCase() === "process" && a.some((w) => /^(?:delete|terminate)$/i.test(w))) {
    return { what: "wmic process ends Windows processes", targets: a.slice(2).filter((w) => !/^(?:where|call|delete|terminate)$/i.test(w)).slice(0, MAX_TARGETS).map((w) => ({ text: w, match: "text" as const })) };
  }
  if (p === "taskkill" || p === "tskill") {
    const targets: Target[] = [];
    for (let i = 1; i < a.length; i++) {
      const w = (a[i] ?? "").toLowerCase();
      if (w === "/im" || w === "-im") push(targets, { text: a[i + 1] ?? "", match: "glob", ignoreCase: true });
      else if (w === "/fi" || w === "-fi") {
        // `/FI "IMAGENAME eq shep*"`: the filter's image name is a wildcard too.
        const m = /^\s*imagename\s+eq\s+(\S+)\s*$/i.exec(a[i + 1] ?? "");
        push(targets, m?.[1] ? { text: m[1], match: "glob", ignoreCase: true } : { text: a[i + 1] ?? "", match: "text" });
      }
      else if (p === "tskill" && !w.startsWith("/")) push(targets, { text: a[i] ?? "", match: "glob", ignoreCase: true });
    }
    return { what: `${p} ends Windows processes`, targets };
  }
  if (p === "systemctl") {
    const ops = a.slice(1).filter((w) => !w.startsWith("-"));
    const now = a.includes("--now");
    if (ops[0] !== undefined && (UNIT_STOP.test(ops[0]) || (ops[0] === "disable" && now))) {
      return { what: `systemctl ${ops[0]} ends a service's processes`, targets: ops.slice(1, 1 + MAX_TARGETS).map((u) => ({ text: u.replace(/\.service$/, ""), match: "glob" as const })) };
    }
    return undefined;
  }
  if (p === "service" && (a[2] === "stop" || a[2] === "kill")) return { what: "service stops a service", targets: [{ text: a[1] ?? "", match: "exact" }] };
  if (p === "launchctl" && /^(?:stop|remove|unload|bootout|kill|disable)$/.test(a[1] ?? "")) return { what: `launchctl ${a[1]} stops a job`, targets: a.slice(2, 2 + MAX_TARGETS).map((w) => ({ text: w, match: "text" as const })) };
  if (p === "stop-service" || p === "spsv") {
    const name = psValue(a, /^-(?:n|na|nam|name|displayname)$/i) ?? a.slice(1).find((w) => !w.startsWith("-"));
    return { what: "Stop-Service stops a service", targets: name !== undefined ? psNames(name) : [] };
  }
  return undefined;
}

/** Programs a line uses to list processes or sockets: what a grep or awk after them picks is a process. */
const PROCESS_LISTERS = new Set(["ps", "pgrep", "top", "htop", "tasklist", "get-process", "gps", "get-ciminstance", "get-wmiobject", "lsof", "fuser", "pstree", "ss", "netstat", "get-nettcpconnection", "get-netudpconnection"]);

/** lsof's selections: `-i [addr]` (sockets, a port or range), `-c name` (command prefix), a file operand. */
function lsofTargets(c: SimpleCommand, out: Target[]): "named" | "every-socket" | "every-process" {
  const a = c.argv;
  let selected = false;
  let sockets = false;
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    const inet = w.startsWith("--") ? null : /^-[a-hj-zA-Z]*i(.*)$/.exec(w);
    if (w === "-c" || (w.startsWith("-c") && w.length > 2 && !w.startsWith("--"))) {
      const name = w === "-c" ? a[++i] : w.slice(2);
      if (name !== undefined) push(out, c.dynamic[i] === true ? unknown(name) : { text: `^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, match: "regex" });
      selected = true;
    } else if (inet) {
      // `-i:7373`, `-ti :7373`, `-iTCP:7373`, `-i tcp:7373`, `-i @127.0.0.1:7373`; `-i` alone or `-i tcp` is every socket.
      const attached = inet[1] ?? "";
      const next = a[i + 1];
      const spec = attached !== "" ? attached : next !== undefined && /^(?:(?:tcp|udp)[46]?|[46])?(?:@|:|$)|^(?:tcp|udp)[46]?:?\d/i.test(next) && !next.startsWith("-") ? next : "";
      const dyn = attached !== "" ? c.dynamic[i] === true : spec !== "" && c.dynamic[i + 1] === true;
      if (attached === "" && spec !== "") i++;
      // `-i 4`, `-i tcp`, `-i @host`: a protocol, IP version or host with no port is every socket of it.
      const port = dyn || /^(?:tcp|udp)?[46]?(?:@[^:]*)?$/i.test(spec) ? undefined : portTarget(spec);
      if (dyn) push(out, unknown(spec));
      else if (port !== undefined) push(out, port);
      else sockets = true;
      if (dyn || port !== undefined) selected = true;
    } else if (!w.startsWith("-") && w.includes("/")) {
      push(out, { text: w, match: "text" });
      selected = true;
    }
  }
  return selected ? "named" : sockets ? "every-socket" : "every-process";
}

/** Ports an ss filter names (`ss -lptn 'sport = :7373'`, `( dport = :7373 )`). */
function ssPorts(c: SimpleCommand, out: Target[]): boolean {
  let named = false;
  for (const [i, w] of c.argv.entries()) {
    if (i === 0 || w.startsWith("-")) continue;
    if (c.dynamic[i] === true && /[:=]/.test(w)) {
      push(out, unknown(w));
      named = true;
    }
    for (const m of w.slice(0, 4096).matchAll(/:(\d{1,5})\b/g)) {
      push(out, { text: m[1] ?? "", match: "port" });
      named = true;
    }
  }
  return named;
}

/**
 * What a line looks processes up by (`pgrep x`, `pidof x`, `ps | grep x`, `awk '/x/'`, `Get-Process x`, a pid file
 * read, the listener of a port: `lsof -t -i :7373`, `ss ... 'sport = :7373'`, `netstat | grep :7373`,
 * `Get-NetTCPConnection -LocalPort 7373`): a later kill of an unknown pid may mean them. A listing of every process
 * or socket that nothing on the line narrows (`ps -eo pid= | xargs kill`, `lsof -t -i | xargs kill`) reaches every
 * port, or, when it is a process listing, what the line does not show.
 */
function lookups(commands: readonly SimpleCommand[]): Target[] {
  const out: Target[] = [];
  let listed = false;
  let everySocket = false;
  let everyProcess = false;
  for (const c of commands) if (PROCESS_LISTERS.has(c.program)) listed = true;
  for (const c of commands) {
    if (out.length >= MAX_TARGETS) break;
    const a = c.argv;
    if (c.program === "pgrep") {
      const t = pgrepTargets(c);
      for (const x of t) push(out, x);
      if (t.length === 0) everyProcess = true;
    } else if (c.program === "pidof") {
      for (const [i, w] of a.entries()) if (i > 0 && !w.startsWith("-")) push(out, c.dynamic[i] === true ? unknown(w) : { text: w, match: "exact" });
    } else if (c.program === "lsof") {
      const got = lsofTargets(c, out);
      if (got === "every-socket") everySocket = true;
      else if (got === "every-process") everyProcess = true;
    } else if (c.program === "ss" || c.program === "netstat") {
      if (!ssPorts(c, out)) everySocket = true;
    } else if (c.program === "get-nettcpconnection" || c.program === "get-netudpconnection") {
      const k = a.findIndex((w) => /^-(?:l|lo|loc|loca|local|localp|localpo|localpor|localport)$/i.test(w));
      const v = k > 0 ? a[k + 1] : undefined;
      if (v === undefined) everySocket = true;
      else if (c.dynamic[k + 1] === true) push(out, unknown(v));
      else for (const part of v.split(",")) push(out, portTarget(part.trim()) ?? unknown(part));
    } else if (c.program === "get-process" || c.program === "gps" || (c.program === "ps" && POWERSHELL(c))) {
      const name = psValue(a, /^-(?:n|na|nam|name|processname)$/i) ?? a.slice(1).find((w) => !w.startsWith("-"));
      if (name !== undefined) for (const t of psNames(name)) push(out, t);
      else everyProcess = true;
    } else if (POWERSHELL(c) && /getprocessesbyname\s*\(/i.test(c.program)) {
      const m = /getprocessesbyname\s*\(\s*['"]([^'"]+)/i.exec(c.program);
      if (m?.[1]) push(out, { text: m[1], match: "exact", ignoreCase: true });
    } else if (c.program === "ps" && !POWERSHELL(c)) {
      // `ps -C shepherd -o pid=`: processes picked by command name.
      const k = a.findIndex((w) => w === "-C" || w === "--command");
      if (k > 0) for (const n of (a[k + 1] ?? "").split(",")) push(out, { text: n, match: "exact" });
      else everyProcess = true;
    } else if (c.program === "where-object" || c.program === "where" || c.program === "?") {
      // `Get-Process | Where-Object {$_.Name -like 'shep*'}`: the filter's wildcard, pattern or name.
      const text = a.slice(1).join(" ");
      for (const m of text.slice(0, 4096).matchAll(/-(c|i)?(like|match|eq)\s+['"]?([^'"\s}]+)/gi)) push(out, /^\$/.test(m[3] ?? "") ? unknown(m[3] ?? "") : /^\d{1,5}$/.test(m[3] ?? "") && /port/i.test(text) ? { text: m[3] ?? "", match: "port" } : { text: m[3] ?? "", match: (m[2] ?? "").toLowerCase() === "like" ? "glob" : (m[2] ?? "").toLowerCase() === "match" ? "regex" : "exact", ignoreCase: (m[1] ?? "").toLowerCase() !== "c" });
    } else if (listed && (c.program === "grep" || c.program === "egrep" || c.program === "rg" || c.program === "select-string" || c.program === "findstr")) {
      if (a.some((w) => /^-[a-zA-Z]*v[a-zA-Z]*$/.test(w) || w === "--invert-match")) continue;
      const ci = a.some((w) => /^-[a-zA-Z]*i[a-zA-Z]*$/.test(w) || w === "--ignore-case");
      const e = a.findIndex((w) => w === "-e" || w === "--regexp");
      const at = e > 0 ? e + 1 : a.findIndex((w, k) => k > 0 && !w.startsWith("-"));
      const pattern = at > 0 ? a[at] : undefined;
      if (pattern === undefined) continue;
      // `netstat -tlnp | grep :7373`: a port picked out of a socket listing.
      const port = /^:?(\d{2,5})$/.exec(pattern) ?? /^:(\d{2,5})\b/.exec(pattern);
      if (c.dynamic[at] === true) push(out, unknown(pattern));
      else if (port?.[1]) push(out, { text: port[1], match: "port" });
      else push(out, { text: pattern, match: c.program === "findstr" ? "text" : "regex", fullLine: true, ...(ci ? { ignoreCase: true } : {}) });
    } else if (listed && (c.program === "awk" || c.program === "gawk" || c.program === "mawk")) {
      const prog = a.slice(1).find((w) => !w.startsWith("-")) ?? "";
      for (const m of prog.slice(0, 4096).matchAll(/\/((?:[^/\\\n]|\\.){1,200})\//g)) push(out, { text: m[1] ?? "", match: "regex", fullLine: true });
    } else if ((c.program === "cat" || c.program === "head" || c.program === "tail" || c.program === "get-content" || c.program === "gc") && a.length > 1) {
      for (const w of a.slice(1)) if (/pid/i.test(w)) push(out, { text: w, match: "text" });
    }
    // `read pid < /run/x.pid`, `cat < x.pid`: a pid file read through a redirection.
    for (const r of c.redirects) if (r.op === "<" && /pid/i.test(r.target)) push(out, { text: r.target, match: "text" });
  }
  // Nothing narrows the listing: `lsof -t -i | xargs kill` reaches every listener, `ps -eo pid= | xargs kill` any process.
  if (out.length === 0 && everySocket) push(out, ALL_PORTS);
  if (out.length === 0 && (everyProcess || listed)) push(out, unknown("pids from a process listing that names nothing"));
  return out;
}

/** Interpreter code that signals a process: `os.kill`, psutil's `.kill()`/`.terminate()`, `process.kill`, `Process.kill`, perl's `kill 9, ...`. */
const CODE_KILL = /\b(?:os\.kill(?:pg)?|process\.kill|Process\.kill|posix_kill)\s*\(|\.(?:kill|terminate|send_signal)\s*\(|\bkill\s*\(?\s*['"]?(?:-?\d+|[A-Z]+)['"]?\s*,/;
/** Code that lists processes or sockets itself (psutil, /proc), not through a command the line already shows. */
const CODE_LISTS = /\b(?:process_iter|pids|net_connections|connections)\s*\(|\/proc\b|Get-Process|getProcesses/;

function codeOf(c: SimpleCommand): string {
  return [...c.argv.slice(1), ...c.redirects.flatMap((r) => (r.body !== undefined ? [r.body] : []))].join("\n").slice(0, 1 << 16);
}

/** What code that lists processes itself picks: its own text (names it compares), the ports it names; or nothing known. */
function codeLookups(code: string): Target[] {
  if (!CODE_LISTS.test(code)) return [];
  const out: Target[] = [{ text: code, match: "text" }];
  if (/net_connections|connections\s*\(|laddr|port/i.test(code)) for (const m of code.matchAll(/\b(\d{2,5})\b/g)) push(out, { text: m[1] ?? "", match: "port" });
  // `[p.kill() for p in psutil.process_iter()]`: no name or port compared, so any process, Shepherd's included.
  if (!/['"][^'"]+['"]/.test(code) && out.length === 1) push(out, unknown("processes the code lists"));
  return out;
}

/** Kills whose targets only the whole line shows: `pid=$(pgrep x); kill $pid`, `ps | grep x | awk | xargs kill`, `gps x | kill`. */
export function killLineEffects(commands: readonly SimpleCommand[], add: (c: SimpleCommand, e: Effect) => void): void {
  let found: Target[] | undefined;
  const read = new Set<string>();
  for (const c of commands) if (c.program === "read" || c.program === "mapfile" || c.program === "readarray") for (const w of c.argv.slice(1)) if (/^[A-Za-z_]\w*$/.test(w) && read.size < 32) read.add(w);
  for (const c of commands) {
    const ps = POWERSHELL(c) && (c.program === "stop-process" || c.program === "spps" || c.program === "kill");
    const posixKill = c.program === "kill" && !POWERSHELL(c) && !signalsNothing(c.argv) && (c.stdinArgs || unknownPids(c).some((w) => setOnLine(w, c, read)));
    // `Stop-Process -Id (Get-NetTCPConnection -LocalPort 7373).OwningProcess`, `-Id $_.OwningProcess`: pids computed on the line.
    const id = ps ? psValue(c.argv, /^-(?:i|id)$/i) : undefined;
    const psPiped = ps && ((psValue(c.argv, /^-(?:n|na|nam|name|processname|pn|i|id)$/i) === undefined && c.argv.slice(1).every((w) => w.startsWith("-"))) || (id !== undefined && !/^[\d,\s]+$/.test(id) && !/^\$pid$/i.test(id)));
    // `Get-Process x | % { $_.Kill() }`, `(Get-Process x).Kill()`: .NET's Process.Kill, on what the line looked up.
    const text = POWERSHELL(c) ? c.argv.join(" ").slice(0, 4096) : "";
    const method = POWERSHELL(c) && /\.kill\s*\(/i.test(text);
    // `python3 -c "os.kill(int(p), 9) for p in os.popen('pgrep x')"`, psutil's `.kill()`: code that signals what it looked up.
    const code = CODE.test(c.program) ? codeOf(c) : "";
    const coded = code !== "" && CODE_KILL.test(code);
    if (!posixKill && !psPiped && !method && !coded) continue;
    found ??= lookups(commands);
    // The code's own text counts as a lookup too: `os.kill(int(open('/run/shepherd.pid').read()), 9)`.
    const targets = method ? [...found, { text, match: "text" as const }] : coded ? [...found, ...codeLookups(code), { text: code, match: "text" as const }] : found;
    if (targets.length > 0) add(c, effect("process-kill", `${c.program} signals processes looked up on the line (${targets.map((t) => t.text).join(", ")})`, [], { targets }));
  }
}

const NPM_LIKE = new Set(["npm", "pnpm", "yarn", "bun", "pi", "brew", "cnpm", "deno"]);
const AGENTS_WITH_EXTENSIONS = new Set(["gemini", "claude", "codex", "copilot", "opencode", "qwen"]);
const REMOVE_VERB = /^(?:uninstall|un|unlink|remove|rm|r|disable)$/;
/** The agents' own groups whose removal verbs take an extension out: `gemini extensions`, `claude mcp`, `claude plugin`. */
const EXTENSION_GROUP = /^(?:extensions?|mcp|plugins?)$/;
/** Options of the package managers that take the next word. */
const PM_VALUED = new Set(["--prefix", "--location", "-w", "--workspace", "--filter", "-F", "--dir", "-C", "--registry", "--cwd", "--scope", "-s", "--loglevel"]);

/** `npm:@scope/name@1.2.0` -> `@scope/name`; `git:github.com/o/x` or a path -> its last segment `x`; `name@local` -> `name`. */
function packageName(w: string): string {
  let s = w.replace(/^(?:npm|jsr|git|github|https?):(?:\/\/)?/i, "");
  if (!s.startsWith("@") && s.includes("/")) s = s.replace(/\/+$/, "").slice(s.replace(/\/+$/, "").lastIndexOf("/") + 1).replace(/\.git$/, "");
  const at = s.indexOf("@", 1);
  if (at > 0) s = s.slice(0, at);
  return s.toLowerCase();
}

/** Packages, extensions, plugins or MCP servers a command removes or disables, by name. */
function uninstallTargets(cmd: SimpleCommand): { what: string; targets: Target[] } | undefined {
  const p = cmd.program;
  if (!NPM_LIKE.has(p) && !AGENTS_WITH_EXTENSIONS.has(p)) return undefined;
  const a = cmd.argv;
  const ops: string[] = [];
  const dyn: boolean[] = [];
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w === "--") continue;
    if (w.startsWith("-")) {
      if (!w.includes("=") && PM_VALUED.has(w)) i++;
      continue;
    }
    ops.push(w);
    dyn.push(cmd.dynamic[i] === true);
  }
  // `npm uninstall x`, `yarn global remove x`, `gemini extensions uninstall x`, `claude mcp remove x`: the verb is the
  // subcommand, or follows yarn's `global` or an agent's extension group; disable counts for the agents only.
  // `claude plugin marketplace remove x` takes out every plugin of that marketplace.
  const verbAt = AGENTS_WITH_EXTENSIONS.has(p) ? (EXTENSION_GROUP.test(ops[0] ?? "") ? (ops[1] === "marketplace" ? 2 : 1) : -1) : p === "yarn" && ops[0] === "global" ? 1 : 0;
  const verb = verbAt >= 0 ? ops[verbAt] : undefined;
  if (verb === undefined || !REMOVE_VERB.test(verb) || (verb === "disable" && !AGENTS_WITH_EXTENSIONS.has(p)) || (verb === "r" && p !== "npm")) return undefined;
  const names = ops.slice(verbAt + 1, verbAt + 1 + MAX_TARGETS);
  if (names.length === 0 && !cmd.stdinArgs) return undefined;
  // A name computed at run time (`$(npm ls -g | grep x)`) is judged by the text it is computed from.
  const targets = names.map((n, k) => (dyn[verbAt + 1 + k] ? { text: n, match: "text" as const } : { text: packageName(n), match: "exact" as const, ignoreCase: true }));
  return { what: `${p} ${ops.slice(0, verbAt + 1).join(" ")} takes out ${names.join(" ") || "what its input names"}`, targets };
}

/** Variables that move an agent's configuration (its hooks and extensions with it) or switch its hooks off. */
const AGENT_ENV = new Set(["HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "PI_CODING_AGENT_DIR", "XDG_CONFIG_HOME", "CLAUDE_CODE_SAFE_MODE", "CLAUDE_CODE_SIMPLE", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG", "OPENCODE_CONFIG_CONTENT", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"]);
/** Claude Code settings keys that switch every hook, or every hook but the managed policy's, off. */
const HOOKS_OFF_KEYS = ["disableAllHooks", "allowManagedHooksOnly"];
/** Wrappers that run a command as another user, whose config home (and hooks) are that user's. */
const OTHER_USER = /^(?:sudo|doas|su|runuser|pkexec|machinectl)\b/;

/**
 * What `claude --settings VALUE` does to the hooks: a JSON text is read as Claude Code reads it (escapes decoded), so
 * `disableAllHooks` or `allowManagedHooksOnly` set true is known; a file, a computed value, unparsable text or a
 * `hooks` key may drop them, which the line does not show.
 */
function claudeSettings(value: string, dynamic: boolean): "off" | "unknown" | "kept" {
  if (dynamic || !value.trimStart().startsWith("{")) return "unknown";
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return "unknown";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "unknown";
  const o = parsed as Record<string, unknown>;
  if (HOOKS_OFF_KEYS.some((k) => Object.hasOwn(o, k) && o[k] !== false && o[k] !== null && o[k] !== undefined)) return "off";
  return Object.hasOwn(o, "hooks") ? "unknown" : "kept";
}
const AGENTS = new Set(["pi", "claude", "codex", "gemini", "copilot", "opencode"]);
/** An agent run from its npm package (`npx @anthropic-ai/claude-code`): the package's last name segment is the program. */
const AGENT_PACKAGES: ReadonlyMap<string, string> = new Map([["claude-code", "claude"], ["gemini-cli", "gemini"], ["pi-coding-agent", "pi"], ["opencode-ai", "opencode"]]);

function flagValue(a: readonly string[], i: number, name: string): string | undefined {
  const w = a[i] ?? "";
  if (w === name) return a[i + 1] ?? "";
  return w.startsWith(`${name}=`) ? w.slice(name.length + 1) : undefined;
}

/** Why an agent started by this command runs without its hooks or extensions; the extensions it loads back as targets. */
function unguardedAgent(cmd: SimpleCommand): { what: string; targets: Target[] } | undefined {
  const p = AGENT_PACKAGES.get(cmd.program) ?? cmd.program;
  if (!AGENTS.has(p)) return undefined;
  const moved = (envOf(cmd) ?? []).filter((n) => AGENT_ENV.has(n));
  const a = cmd.argv;
  const reasons: string[] = moved.map((n) => `${n} set for it`);
  const unknowns: string[] = [];
  const loads: Target[] = [];
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w === "--") break;
    if (!w.startsWith("-")) continue;
    if (p === "pi") {
      if (w === "--no-extensions" || w === "-ne") reasons.push(w);
      const e = flagValue(a, i, "-e") ?? flagValue(a, i, "--extension");
      if (e !== undefined) push(loads, { text: e, match: "text" });
    } else if (p === "claude") {
      if (w === "--bare" || w === "--safe-mode") reasons.push(w);
      const sources = flagValue(a, i, "--setting-sources");
      if (sources !== undefined && !["user", "project", "local"].every((s) => sources.split(",").includes(s))) reasons.push(`--setting-sources ${sources}`);
      const settings = flagValue(a, i, "--settings");
      const judged = settings === undefined ? undefined : claudeSettings(settings, cmd.dynamic[w === "--settings" ? i + 1 : i] === true);
      if (judged === "off") reasons.push("--settings that switch its hooks off");
      else if (judged === "unknown") unknowns.push(`--settings ${settings}`);
    } else if (p === "codex") {
      const v = flagValue(a, i, "--disable") ?? flagValue(a, i, "-c") ?? flagValue(a, i, "--config");
      // `-c features.codex_hooks=true` turns them on; any other value naming hooks may turn them off.
      if (v !== undefined && /hook/i.test(v) && !(w.startsWith("-c") || w.startsWith("--config") ? /^[\w.]*hooks?\s*=\s*true\s*$|=\s*\{\s*\w*hooks?\s*=\s*true\s*\}\s*$/i.test(v) : false)) reasons.push(`${w.split("=")[0]} ${v}`);
    }
  }
  const user = cmd.via.find((v) => OTHER_USER.test(v));
  if (user !== undefined) unknowns.push(`run through ${user}, with another user's config home`);
  // Known reasons block; what only may drop the hooks (a settings file, another user) is asked about.
  if (reasons.length === 0 && unknowns.length > 0) return { what: `${p} starts with ${unknowns.join(", ")}, whose hooks the line does not show`, targets: [unknown(unknowns.join(", "))] };
  if (reasons.length === 0) return undefined;
  // `pi -ne -e ./x.ts` loads only what -e names: those are the extensions it keeps.
  if (p !== "pi" || !reasons.some((r) => r === "-ne" || r === "--no-extensions")) return { what: `${p} starts with ${reasons.join(", ")}`, targets: [] };
  return { what: `${p} starts with ${reasons.join(", ")}${loads.length > 0 ? ` (loads only ${loads.map((t) => t.text).join(", ")})` : ""}`, targets: loads };
}

const REQUESTERS = new Set(["curl", "wget", "http", "https", "xh", "httpie", "invoke-webrequest", "invoke-restmethod", "iwr", "irm", "aria2c", "fetch"]);
// Was /^(?:python[0-9.]*|node|nodejs|bun|deno|perl|ruby|php)$/: the same names, tested with a set lookup (program-names.ts).
const CODE = nameTest(["node", "nodejs", "bun", "deno", "perl", "ruby", "php"], { python: true });
/** A loopback host as a URL names it: localhost, 127/8 in any short form, ::1, 0.0.0.0, 0x7f000001, 2130706433. */
const LOOPBACK = "(?:(?:[\\w-]+\\.)*localhost\\.?|localtest\\.me|lvh\\.me|(?:[\\w-]+\\.)*127\\.0\\.0\\.1\\.(?:nip|sslip)\\.io|\\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\\]|127(?:\\.\\d{1,3}){0,3}|0x7f[0-9a-f]{0,6}|2130706433|0(?:\\.0){0,3}|\\[(?:::1?|::ffff:127(?:\\.\\d{1,3}){3}|0:0:0:0:0:0:0:1)\\])";
const URL_WORD = lazyMatcher(() => new RegExp(`^(?:https?://)?${LOOPBACK}(?::[^/\\s]*)?(/[^\\s]*)?$`, "i"));
const HOST_IN_CODE = lazyMatcher(() => new RegExp(`['"]${LOOPBACK}['"]`, "i"));
const URL_IN_CODE = onFirstUse(() => new RegExp(`https?://${LOOPBACK}(?::[^/\\s'"]*)?(/[^\\s'"]*)`, "gi"));

/** A URL path as a server routes it: no query, `//` and `/./` collapsed, `..` applied, unreserved escapes decoded. */
function routePath(raw: string): string {
  let p = raw.replace(/[?#].*$/s, "");
  try {
    p = p.replace(/%(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2d|2e|5f|7e)/gi, (m) => decodeURIComponent(m));
  } catch {
    // A malformed escape stays as written.
  }
  const segs: string[] = [];
  for (const s of p.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") segs.pop();
    else segs.push(s);
  }
  return `/${segs.join("/")}${p.endsWith("/") && segs.length > 0 ? "/" : ""}`;
}

/** Paths a command requests from this machine's loopback address. */
function localRequests(cmd: SimpleCommand): Target[] {
  const out: Target[] = [];
  if (REQUESTERS.has(cmd.program)) {
    // `curl -x http://127.0.0.1:8787 http://x/v1/...`, `--resolve x:8787:127.0.0.1`: any host's request goes to this machine.
    const a = cmd.argv;
    const rerouted = a.some((w, k) => (/^(?:-x|--proxy|--preproxy|--resolve|--connect-to|-e|--execute)$/.test(a[k - 1] ?? "") || /^--(?:proxy|resolve|connect-to)=/.test(w)) && new RegExp(`(?:^|[/:=@])${LOOPBACK}(?:$|[:/])`, "i").test(w.replace(/^--[\w-]+=/, "")));
    for (let i = 1; i < cmd.argv.length; i++) {
      const w = cmd.argv[i] ?? "";
      const any = rerouted ? /^[\w.-]+(?::\d*)?(\/\S*)$/.exec(w.replace(/^https?:\/\//i, "")) : null;
      if (any) {
        push(out, { text: routePath(any[1] ?? "/"), match: "text", ignoreCase: true });
        continue;
      }
      // httpie's `:8787/v1/x` is localhost.
      const m = URL_WORD.exec(w) ?? ((cmd.program === "http" || cmd.program === "https" || cmd.program === "xh") && /^:\d*(\/\S*)$/.exec(w)) ?? null;
      if (m) push(out, { text: routePath(m[1] ?? "/"), match: "text", ignoreCase: true });
    }
  } else if (CODE.test(cmd.program)) {
    const code = [...cmd.argv.slice(1), ...cmd.redirects.flatMap((r) => (r.body !== undefined ? [r.body] : []))].join("\n").slice(0, 1 << 16);
    for (const m of code.matchAll(URL_IN_CODE())) push(out, { text: routePath(m[1] ?? "/"), match: "text", ignoreCase: true });
    // `http.client.HTTPConnection('localhost', 8787).request('POST', '/v1/hooks/x')`, `{host: '127.0.0.1', path: '/v1/x'}`:
    // a loopback host and a path given apart.
    if (out.length === 0 && HOST_IN_CODE.test(code)) for (const m of code.matchAll(/['"](\/[\w./%-]{1,300})['"]/g)) push(out, { text: routePath(m[1] ?? "/"), match: "text", ignoreCase: true });
  }
  return out;
}

/** Text a command puts out or feeds on: echo/printf words, heredoc and herestring bodies. */
function textOf(c: SimpleCommand): string {
  const parts: string[] = [];
  if (c.program === "echo" || c.program === "printf" || c.program === "write-output") parts.push(c.argv.slice(1).join(" "));
  for (const r of c.redirects) {
    if (r.body !== undefined) parts.push(r.body);
    else if (r.op === "<<<") parts.push(r.target);
  }
  return parts.join("\n").slice(0, 1 << 16);
}

const RAW_CLIENTS = new Set(["nc", "ncat", "netcat", "socat", "telnet", "openssl"]);
const LOOPBACK_WORD = lazyMatcher(() => new RegExp(`^(?:(?:tcp[46]?(?:-connect)?|openssl(?:-connect)?):)?${LOOPBACK}(?::\\d*)?$`, "i"));
const DEV_TCP = lazyMatcher(() => new RegExp(`^/dev/(?:tcp|udp)/${LOOPBACK}/`, "i"));
const REQUEST_LINE = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(\/[^\s\\]*)/g;

/**
 * Requests only the whole line shows: a raw HTTP request written to a loopback socket (`nc 127.0.0.1 8787 <<< 'POST
 * /v1/hooks/x ...'`, `exec 3<>/dev/tcp/127.0.0.1/8787; printf 'POST ...' >&3`), and a Claude Code settings file
 * written on the line with `disableAllHooks` then given to `claude --settings`.
 */
export function controlLineEffects(commands: readonly SimpleCommand[], add: (c: SimpleCommand, e: Effect) => void): void {
  let socket: SimpleCommand | undefined;
  let hookless: Set<string> | undefined;
  for (const c of commands) {
    if (socket === undefined && ((RAW_CLIENTS.has(c.program) && c.argv.slice(1).some((w) => LOOPBACK_WORD.test(w))) || c.redirects.some((r) => DEV_TCP.test(r.target)))) socket = c;
    if (c.argv.length > 0 && c.redirects.length > 0 && /disableAllHooks/.test(textOf(c))) {
      for (const r of c.redirects) if ((r.op === ">" || r.op === ">>" || r.op === ">|") && r.fd !== "2") (hookless ??= new Set()).add(r.target);
    }
    if (c.program === "tee" && /disableAllHooks/.test(textOf(c))) for (const w of c.argv.slice(1)) if (!w.startsWith("-")) (hookless ??= new Set()).add(w);
  }
  if (socket !== undefined) {
    const targets: Target[] = [];
    for (const c of commands) for (const m of textOf(c).matchAll(REQUEST_LINE)) push(targets, { text: routePath(m[1] ?? "/"), match: "text", ignoreCase: true });
    if (targets.length > 0) add(socket, effect("local-request", `${socket.program || "a redirection"} sends a raw HTTP request for ${targets.map((t) => t.text).join(", ")} to this machine`, [], { targets }));
  }
  if (hookless !== undefined) {
    const files = hookless;
    const base = (f: string) => f.slice(f.lastIndexOf("/") + 1);
    for (const c of commands) {
      if (c.program !== "claude") continue;
      const k = c.argv.findIndex((w) => w === "--settings" || w.startsWith("--settings="));
      const f = k < 0 ? undefined : c.argv[k] === "--settings" ? c.argv[k + 1] : c.argv[k]?.slice(11);
      if (f !== undefined && [...files].some((w) => w === f || base(w) === base(f))) add(c, effect("unguarded-agent", `claude starts with --settings ${f}, written on the line with disableAllHooks`, [], { targets: [] }));
    }
  }
}

/** What a kill reaches, for `rules explain`: `: /sh.pherd/ (command lines), shepherd`. */
function describeTargets(targets: readonly Target[]): string {
  if (targets.length === 0) return " (no process it names is known)";
  return `: ${targets.map((t) => (t.match === "unknown" ? `${t.text} (not known before it runs)` : t.match === "port" ? `port ${t.text}` : t.match === "regex" ? `/${t.text}/${t.ignoreCase ? "i" : ""}${t.fullLine ? " (command lines)" : ""}` : t.match === "glob" ? `${t.text} (wildcard)` : t.text)).join(", ")}`;
}

/** Kills, uninstalls, unguarded agent starts and local requests of one command. */
export function controlEffects(cmd: SimpleCommand): Effect[] {
  const out: Effect[] = [];
  const k = killTargets(cmd);
  if (k !== undefined) out.push(effect("process-kill", `${k.what}${describeTargets(k.targets)}`, [], { targets: k.targets }));
  const u = uninstallTargets(cmd);
  if (u !== undefined) out.push(effect("uninstall", u.what, [], { targets: u.targets }));
  const g = unguardedAgent(cmd);
  if (g !== undefined) out.push(effect("unguarded-agent", g.what, [], { targets: g.targets }));
  const l = localRequests(cmd);
  if (l.length > 0) out.push(effect("local-request", `${cmd.program} requests ${l.map((t) => t.text).join(", ")} from this machine`, [], { targets: l }));
  return out;
}

const compiled = new Map<string, { find(s: string): boolean } | undefined>();

/** A command's own regex (a pkill pattern, a grep after ps) on the linear-time engine: the model writes it. */
function targetRegex(t: Target): { find(s: string): boolean } | undefined {
  const key = `${t.ignoreCase ? "i" : ""}:${t.text}`;
  if (compiled.has(key)) return compiled.get(key);
  let re: { find(s: string): boolean } | undefined;
  try {
    const { RE2JS } = re2();
    const r = RE2JS.compile(t.text, t.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    re = { find: (s) => r.matcher(s).find() };
  } catch {
    re = undefined;
  }
  if (compiled.size >= 64) compiled.clear();
  compiled.set(key, re);
  return re;
}

function globRe(text: string, ignoreCase: boolean): RegExp {
  return new RegExp(`^${text.slice(0, 256).replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".")}$`, ignoreCase ? "i" : "");
}

/**
 * True when a target reaches one of `names`: process names (no space or slash) and command lines for a kill,
 * package or extension names, URL paths. A literal name must be equal, a wildcard or a regex must match it
 * (a name-only pattern meets names only), and free text must contain it.
 */
export function reaches(t: Target, names: readonly string[]): boolean {
  const ci = t.ignoreCase === true;
  const eq = (a: string, b: string) => (ci ? a.toLowerCase() === b.toLowerCase() : a === b);
  const nameOnly = (n: string) => !/[\s/]/.test(n);
  switch (t.match) {
    case "exact":
      return names.some((n) => eq(n, t.text));
    case "glob": {
      const g = globRe(t.text, ci);
      return names.some((n) => nameOnly(n) && g.test(n));
    }
    case "text": {
      const text = t.text.toLowerCase();
      return names.some((n) => text.includes(n.toLowerCase()));
    }
    case "port": {
      // `:7373` names a listener; a target range `7000-8000` meets every port in it.
      const [lo, hi] = t.text.split("-").map(Number);
      return names.some((n) => {
        const m = /^:(\d{1,5})$/.exec(n);
        const port = m ? Number(m[1]) : Number.NaN;
        return lo !== undefined && port >= lo && port <= (hi ?? lo);
      });
    }
    case "unknown":
      return false;
    case "regex": {
      const re = targetRegex(t);
      // A pattern the engine cannot read is judged by its text.
      if (re === undefined) return names.some((n) => t.text.toLowerCase().includes(n.toLowerCase()));
      return names.some((n) => (t.fullLine === true || nameOnly(n)) && re.find(n));
    }
  }
}
