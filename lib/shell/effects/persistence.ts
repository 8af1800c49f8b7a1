/**
 * @module persistence: what a command sets up to run again on its own, after the session and outside the guard's view
 * (hooks and commands for every repository, units enabled at login, launch agents, login hooks, recurring timers,
 * Windows autorun keys and scheduled tasks, npm's shell and node options, a download put where a hook or a task runs).
 * One-shot delayed runs (`at`, `systemd-run --on-active`) are read where they run, by the parser.
 */
import type { SimpleCommand } from "../types.ts";
import { envOf } from "../env-names.ts";
import { resolvePath } from "../paths.ts";
import { isStartupFile } from "../startup-files.ts";
import { effect, type Effect } from "./types.ts";
import { isSecretPath } from "./secrets.ts";
import { sedFiles } from "../option-commands.ts";

/** Git config keys whose value git runs, loads hooks from, or copies into every new repository. */
const GIT_RUN_KEY = /^(?:core\.(?:hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|init\.templatedir|diff\.external|sequence\.editor|gpg\.(?:\w+\.)?program|credential\.helper|(?:diff|filter|merge)\.[^.]+\.(?:textconv|command|cmd|clean|smudge|process|driver)|pager\.\w+|alias\.[^.]+|remote\.[^.]+\.(?:uploadpack|receivepack))$/i;
/** A folder anyone on the machine may write to. */
const WORLD_WRITABLE = /^\/(?:tmp|var\/tmp|dev\/shm)(?:\/|$)|^[A-Za-z]:\/Users\/Public\//i;
/** A project's git hooks: they run at its next commit, checkout or push, whoever runs git then. */
const HOOK_FILE = /\/\.git\/hooks\/[\w.-]+$/;
/** Windows keys whose values run at logon or in place of a program: Run/RunOnce, Winlogon, logon scripts, debuggers. */
const AUTORUN_KEY = /\\CurrentVersion\\(?:Run|RunOnce|RunOnceEx|RunServices(?:Once)?|Policies\\Explorer\\Run)\\?$|\\Winlogon\\?$|\\Image File Execution Options\\|^(?:HKCU|HKEY_CURRENT_USER):?\\Environment\\?$|\\Command Processor\\?$/i;

function inside(p: string, root: string): boolean {
  return root !== "" && (p === root || p.startsWith(`${root.replace(/\/+$/, "")}/`));
}

/** The programs read here; any other command costs one lookup. */
const READ = new Set(["sed", "git", "systemctl", "loginctl", "launchctl", "defaults", "osascript", "systemd-run", "crontab", "schtasks", "schtasks.exe", "register-scheduledtask", "new-service", "sc", "reg", "reg.exe", "new-itemproperty", "set-itemproperty", "sp", "new-item", "ni", "npm", "pnpm", "yarn"]);
const NONE: Effect[] = [];

export function persistenceEffects(cmd: SimpleCommand): Effect[] {
  const a = cmd.argv;
  const p = cmd.program;
  if (!READ.has(p)) return NONE;
  const out: Effect[] = [];
  const ops = a.slice(1).filter((w) => !w.startsWith("-"));
  if (p === "sed") {
    // `sed '1r ~/.aws/credentials' a.txt`: a file sed's script reads into its output.
    const keys = sedFiles(a).reads.filter((f) => isSecretPath(f));
    if (keys.length > 0) out.push(effect("secret-read", `reads ${keys.join(" ")} into sed's output`, keys));
  }
  if (p === "git") {
    // `git -c core.hooksPath=/tmp/h commit`: hooks the project does not hold, run by this git command.
    for (let i = 1; i < a.length && (a[i] ?? "").startsWith("-"); i++) {
      const kv = a[i] === "-c" ? (a[i + 1] ?? "") : "";
      const m = /^core\.hookspath=(.+)$/i.exec(kv);
      if (m?.[1] && m[1] !== "/dev/null" && !inside(resolvePath(m[1], cmd.cwd, "/nonexistent-home"), cmd.cwd)) out.push(effect("system-write", `runs the git hooks in ${m[1]}, outside the project`, [m[1]]));
    }
    const k = a.indexOf("config");
    if (k > 0) {
      const rest = a.slice(k + 1);
      const scope = rest.some((w) => w === "--global" || w === "--system") || rest.some((w, i) => (w === "--file" || w === "-f") && !inside(resolvePath(rest[i + 1] ?? "", cmd.cwd, "/nonexistent-home"), cmd.cwd));
      const reads = rest.some((w) => /^--(?:get|get-all|get-regexp|list|unset|unset-all|remove-section|show-origin|edit)$|^-l$/.test(w));
      const vals = rest.filter((w, i) => !w.startsWith("-") && !((rest[i - 1] ?? "") === "--file" || (rest[i - 1] ?? "") === "-f"));
      const key = (vals[0] ?? "").toLowerCase();
      const value = vals[1] ?? "";
      if (!reads && vals.length >= 2) {
        // `git config --global core.hooksPath ~/.githooks`, `init.templateDir`: hooks for every repository of the user.
        if ((key === "core.hookspath" && (scope || !inside(resolvePath(value, cmd.cwd, "/nonexistent-home"), cmd.cwd))) || key === "init.templatedir") out.push(effect("system-write", `makes git run the hooks of ${value} in ${key === "init.templatedir" ? "every repository created or cloned from now on" : scope ? "every repository of the user" : "this repository, from outside it"}`, [value]));
        // `git config --global diff.external /tmp/d.sh`: a program anyone may replace, run by git.
        else if (GIT_RUN_KEY.test(key) && WORLD_WRITABLE.test(value.replace(/^!/, ""))) out.push(effect("system-write", `makes git run ${value}, in a folder anyone may write to`, [value]));
        // `url."ext::sh -c ..".insteadOf`: every fetch of the rewritten URLs runs a command.
        if (/ext::/i.test(`${key} ${value}`)) out.push(effect("system-write", "rewrites remote URLs to git's ext:: transport, which runs a command at every fetch", []));
      }
    }
  }
  // `systemctl --user enable x`: a user unit started at every login with the user's powers (`sudo systemctl enable nginx`,
  // an installed package's service, is the machine's administration).
  if (p === "systemctl" && /^(?:enable|reenable|add-wants|add-requires)$/.test(ops[0] ?? "") && a.includes("--user")) out.push(effect("system-write", `enables ${ops.slice(1).join(" ")} to start on its own at every login`, ops.slice(1)));
  if (p === "loginctl" && ops[0] === "enable-linger") out.push(effect("system-write", "lets the user's services run without a login, after the session ends", []));
  if (p === "launchctl" && /^(?:load|bootstrap|enable|submit)$/.test(ops[0] ?? "")) out.push(effect("system-write", `registers a launchd job that starts on its own (launchctl ${ops.join(" ")})`, ops.slice(1)));
  if (p === "defaults" && ops[0] === "write" && /^(?:LoginHook|LogoutHook)$/.test(ops[2] ?? "")) out.push(effect("system-write", `sets a login hook (${ops[3] ?? ""}) run at every login`, [ops[3] ?? ""]));
  if (p === "osascript" && a.some((w) => /\blogin item\b/i.test(w) && /\bmake\b/i.test(w))) out.push(effect("system-write", "adds a login item, started at every login", []));
  // `systemd-run --on-calendar=hourly x`: a timer that fires again and again.
  if (p === "systemd-run" && a.some((w) => /^--on-(?:calendar|boot|startup|unit-active|unit-inactive)\b/.test(w))) out.push(effect("system-write", "starts a recurring timer that runs a command on its own", []));
  // `crontab -e` with an editor set on the line edits the table without anyone looking.
  if (p === "crontab" && a.includes("-e") && (envOf(cmd) ?? []).some((n) => n === "EDITOR" || n === "VISUAL")) out.push(effect("system-write", "edits the user's crontab through an editor set on the line", ["/var/spool/cron"]));
  // Windows: scheduled tasks and autorun keys.
  if ((p === "schtasks" || p === "schtasks.exe") && a.some((w) => /^[/-]create$/i.test(w))) out.push(effect("system-write", "registers a scheduled task that runs on its own", []));
  if (p === "register-scheduledtask" || p === "new-service" || (p === "sc" && /^create$/i.test(a[1] ?? ""))) out.push(effect("system-write", "registers a task or service that runs on its own", []));
  if (p === "reg" || p === "reg.exe") {
    const key = (a[2] ?? "").replace(/\//g, "\\");
    if (/^(?:add|import|copy|restore|load)$/i.test(a[1] ?? "") && AUTORUN_KEY.test(key)) out.push(effect("system-write", `writes the autorun key ${key}`, [key]));
  }
  // `New-Item -ItemType SymbolicLink -Path <Startup>\x.lnk -Target ..`: an entry in a folder that starts it at every logon.
  if ((p === "new-item" || p === "ni") && a.some((w) => /\/Start Menu\/Programs\/Startup\/./i.test(w))) out.push(effect("system-write", "puts an entry in a Startup folder, started at every logon", []));
  if (p === "new-itemproperty" || p === "set-itemproperty" || p === "sp" || p === "new-item" || p === "ni") {
    const k = a.findIndex((w) => /^-(?:path|literalpath|p)$/i.test(w));
    const key = (k > 0 ? (a[k + 1] ?? "") : (a.slice(1).find((w) => !w.startsWith("-")) ?? "")).replace(/\//g, "\\");
    const name = a[a.findIndex((w) => /^-name$/i.test(w)) + 1] ?? "";
    if (AUTORUN_KEY.test(key) && !(/\\Environment\\?$/i.test(key) && !/^UserInitMprLogonScript$/i.test(name))) out.push(effect("system-write", `writes the autorun value ${key} ${name}`, [key]));
  }
  // `npm config set script-shell /tmp/sh`, `node-options '--require /tmp/x.js'`: every npm script or node run loads it.
  if ((p === "npm" || p === "pnpm" || p === "yarn") && ops[0] === "config" && ops[1] === "set" && /^(?:script-shell|node-options|onload-script)$/.test((ops[2] ?? "").replace(/=.*$/, ""))) out.push(effect("system-write", `sets npm's ${ops[2] ?? ""}, run or loaded by every npm script`, []));
  return out;
}

/** Programs whose output is the files they are given: redirected into a hook, the hook is those files. */
const HOOK_READERS: ReadonlySet<string> = new Set(["cat", "tac", "head", "tail", "base64", "xxd"]);

/** A download, copy or link put where a project's hook or a start-up file runs it: content the line does not show. */
export function plantedUnseen(cmd: SimpleCommand, fetchedTo: readonly string[]): Effect[] {
  const p = cmd.program;
  const reads = HOOK_READERS.has(p) && cmd.redirects.some((r) => r.op === ">" || r.op === ">>" || r.op === ">|");
  if (fetchedTo.length === 0 && p !== "cp" && p !== "ln" && p !== "mv" && p !== "install" && !reads) return NONE;
  const out: Effect[] = [];
  for (const f of fetchedTo) {
    const abs = resolvePath(f, cmd.cwd, "/nonexistent-home");
    if (HOOK_FILE.test(abs) || /\/\.vscode\/tasks\.json$/.test(abs) || /\/\.envrc$/.test(abs)) out.push(effect("remote-code", `downloads ${f}, which runs on its own (a git hook, a folder-open task, a direnv file)`, [f]));
    // `Invoke-WebRequest URL -OutFile $PROFILE` (curl's and wget's own downloads into one are the files model's).
    else if (cmd.program !== "curl" && cmd.program !== "wget" && isStartupFile(abs, cmd.cwd)) out.push(effect("system-write", `downloads into ${f}, run or trusted at a later start`, [f]));
  }
  if ((p === "cp" || p === "ln" || p === "mv" || p === "install") && cmd.cwd !== "") {
    // `mv -t .git/hooks /tmp/pre-commit`, `--target-directory=DIR`: the directory comes first, each source lands in it under its own name.
    const t = cmd.argv.findIndex((w) => w === "-t" || w === "--target-directory" || w.startsWith("--target-directory="));
    const dir = t < 0 ? undefined : cmd.argv[t]?.startsWith("--target-directory=") ? cmd.argv[t]?.slice(19) : cmd.argv[t + 1];
    const sep = cmd.argv[t] === "-t" || cmd.argv[t] === "--target-directory";
    const named = cmd.argv.slice(1).filter((w, k) => !w.startsWith("-") && !(sep && k === t));
    const pos = dir === undefined ? named : [...named, `${dir.replace(/\/+$/, "")}/${(named[0] ?? "").slice((named[0] ?? "").lastIndexOf("/") + 1)}`];
    const dest = resolvePath(pos[pos.length - 1] ?? "", cmd.cwd, "/nonexistent-home");
    // A relative link target is read from the link's own folder (`ln -s ../../scripts/x .git/hooks/x` is the project's).
    const from = p === "ln" ? dest.slice(0, dest.lastIndexOf("/")) || "/" : cmd.cwd;
    const srcs = pos.slice(0, -1).map((w) => resolvePath(w, from, "/nonexistent-home"));
    // `cp /tmp/hook .git/hooks/pre-commit`, `ln -sf /tmp/.h .git/hooks/post-commit`: a hook whose code the project does not hold.
    if (pos.length >= 2 && HOOK_FILE.test(dest) && srcs.some((s) => !inside(s, cmd.cwd))) out.push(effect("system-write", `puts ${pos.slice(0, -1).join(" ")}, from outside the project, in place as a git hook`, [dest]));
  }
  // `cat /tmp/payload > .git/hooks/post-commit`: the hook is a file from outside the project, as a copy would make it.
  if (reads && cmd.cwd !== "") {
    const srcs = cmd.argv.slice(1).filter((w) => !w.startsWith("-")).map((w) => resolvePath(w, cmd.cwd, "/nonexistent-home"));
    for (const r of cmd.redirects) {
      const dest = resolvePath(r.target, cmd.cwd, "/nonexistent-home");
      if ((r.op === ">" || r.op === ">>" || r.op === ">|") && HOOK_FILE.test(dest) && srcs.some((s) => !inside(s, cmd.cwd))) out.push(effect("system-write", `writes ${srcs.join(" ")}, from outside the project, into the git hook ${r.target}`, [dest]));
    }
  }
  return out;
}
