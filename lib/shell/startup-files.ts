/**
 * @module files something runs or trusts on its own at a later start, outside the guard's view: a shell's startup
 * files, ssh's keys and rc, desktop and user-service autostart, and the folders agents load code from (pi's global
 * extensions, Gemini CLI's extensions, OpenCode's global plugins). Writing one plants a command for later; the
 * guard's own entries there are `shepherd_state` (lib/engine/protected-paths.ts) and are blocked outright.
 */
import { lazyMatcher } from "./lazy-regexp.ts";

/** A home directory as the words are expanded (`~`, `/home/u`, `/Users/u`, `/root`, a Windows profile mapped there). */
// (`~root/.ssh/authorized_keys`: another user's home by name.)
const HOME = String.raw`(?:^|^[A-Za-z]:)(?:~[\w.-]*|\/home\/[^/]+|\/Users\/[^/]+|\/root)`;

/**
 * Files a shell, a login, sshd, an editor, a terminal multiplexer, python or npm runs or reads as commands at its own
 * start, in the user's home (a file of the same name in the project or a scratch home under /tmp runs nothing:
 * `dotfiles/.bashrc` is data until someone installs it); any case (NTFS, APFS).
 */
/** What follows a home folder in the path of a start-up file. */
const TAIL = `/(?:\\.(?:bashrc|bash_profile|bash_login|bash_logout|bash_aliases|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|cshrc|tcshrc|inputrc|xprofile|xinitrc|xsession|xsessionrc|tmux\\.conf|vimrc|emacs|npmrc|gitconfig)$` +
    `|\\.ssh\\/(?:authorized_keys2?|rc|config|environment)$|\\.config\\/fish\\/(?:config\\.fish$|conf\\.d\\/|functions\\/)|\\.oh-my-zsh\\/custom\\/|\\.config\\/(?:tmux\\/tmux\\.conf|git\\/config|nvim\\/init\\.(?:vim|lua))$|\\.emacs\\.d\\/init\\.el$` +
    `|\\.config\\/autostart\\/|\\.config\\/systemd\\/user\\/|Library\\/LaunchAgents\\/|\\.local\\/lib\\/python[\\d.]*\\/site-packages\\/(?:[^/]+\\.pth|usercustomize\\.py|sitecustomize\\.py)$` +
    `|Documents\\/(?:Windows)?PowerShell\\/[\\w.]*profile\\.ps1$|\\.config\\/powershell\\/[\\w.]*profile\\.ps1$|AppData\\/Roaming\\/Microsoft\\/Windows\\/Start Menu\\/Programs\\/Startup\\/)`;
const HOME_STARTUP = lazyMatcher(() => new RegExp(`${HOME}${TAIL}`, "i"));
/**
 * The same files under any folder named `home` (a home the line shows, such as a test's `HOME=/tmp/x/home`): outside the
 * command's working directory only, so a project's `tests/fixtures/home/.zshrc` is data.
 */
const ANY_HOME_STARTUP = lazyMatcher(() => new RegExp(`^\\/.+\\/home${TAIL}`, "i"));

/** The machine's own start-up: cron's tables, system-wide shell profiles, launch daemons, the all-users Startup folder. */
const SYSTEM_STARTUP = /^\/var\/spool\/cron\/|^\/etc\/cron(?:tab$|\.d\/|\.(?:hourly|daily|weekly|monthly)\/)|^\/etc\/(?:profile\.d\/|bash\.bashrc$|zsh\/|ld\.so\.preload$)|^\/Library\/Launch(?:Agents|Daemons)\/|^(?:[A-Za-z]:)?\/ProgramData\/Microsoft\/Windows\/Start Menu\/Programs\/StartUp\/|^\/(?:usr|opt|Library|System)\/.*\/(?:site|dist)-packages\/(?:[^/]+\.pth|sitecustomize\.py|usercustomize\.py)$|\/(?:Windows)?PowerShell\/(?:7\/)?profile\.ps1$/i;

/** Folders whose every file runs or loads at a start: a copy into the folder (`cp x.desktop ~/.config/autostart/`) plants it. */
const STARTUP_DIR = lazyMatcher(() => new RegExp(
  `${HOME}/(?:\\.config\\/(?:autostart|systemd\\/user|fish\\/conf\\.d|fish\\/functions)|Library\\/LaunchAgents|\\.oh-my-zsh\\/custom|AppData\\/Roaming\\/Microsoft\\/Windows\\/Start Menu\\/Programs\\/Startup)\\/?$|^\\/etc\\/(?:cron\\.d|cron\\.(?:hourly|daily|weekly|monthly)|profile\\.d)\\/?$|^\\/Library\\/Launch(?:Agents|Daemons)\\/?$|^(?:[A-Za-z]:)?\\/ProgramData\\/Microsoft\\/Windows\\/Start Menu\\/Programs\\/StartUp\\/?$`,
  "i",
));

/** Folders an agent loads every file of as code with its own powers, at its next start. */
const AGENT_CODE = /\/\.pi\/agent\/extensions(?:\/|$)|\/\.gemini\/extensions(?:\/|$)|\/\.config\/opencode\/plugins?(?:\/|$)/;

/** Whether writing `p` (a word as written, `~/.bashrc`, or resolved) plants something that runs later. */
export function isStartupFile(p: string, cwd?: string): boolean {
  if (HOME_STARTUP.test(p) || SYSTEM_STARTUP.test(p) || AGENT_CODE.test(p)) return true;
  return ANY_HOME_STARTUP.test(p) && !(cwd !== undefined && cwd !== "" && p.startsWith(`${cwd.replace(/\/+$/, "")}/`));
}

/** Whether `p` is a start-up file of the user whose home is `home` (the session's, as the engine knows it). */
export function isStartupFileOf(p: string, home: string): boolean {
  return isStartupFile(p) || (home !== "" && home !== "/" && p.startsWith(`${home}/`) && HOME_STARTUP.test(`~${p.slice(home.length)}`));
}

/** Whether `p` is a folder whose files all run or load at a start (autostart, user units, launch agents, cron.d). */
export function isStartupDir(p: string): boolean {
  return STARTUP_DIR.test(p);
}

/** Whether `p` is in a folder an agent loads code from: any write there plants code, settings lines included. */
export function isAgentCodePath(p: string): boolean {
  return AGENT_CODE.test(p);
}

/** A value that runs something when the line is read: a substitution, or a PATH that starts in a folder anyone may write. */
const RUNS_IN_VALUE = /\$\(|`|<\(/;
/** A search path (PATH, MANPATH, ...) that starts in a folder anyone may write: a `git` or `ls` put there runs instead. */
const WORLD_WRITABLE_FIRST = /^["']?(?:\/tmp|\/var\/tmp|\/dev\/shm)\b/;
/** Variables that name one program to run: a single word there runs that program, as the user chose. */
const PROGRAM_VARS = /^(?:PAGER|EDITOR|VISUAL|MANPAGER|SYSTEMD_PAGER|GIT_EDITOR|GIT_PAGER)$/;
/** Variables whose value the loader, the shell or a program runs or loads as code. */
const CODE_VARS = /^(?:LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PROMPT_COMMAND|PS0|BASH_ENV|ENV|ZDOTDIR|PYTHONSTARTUP|PYTHONPATH|NODE_OPTIONS|PERL5OPT|RUBYOPT|GIT_SSH|GIT_SSH_COMMAND|GIT_PROXY_COMMAND|GIT_ASKPASS|GIT_EXTERNAL_DIFF|LESSOPEN|LESSCLOSE|SSH_ASKPASS|SUDO_ASKPASS)$/;

/** Whether `NAME=value` only sets data: not a variable run as code, no substitution, no world-writable search path, one program word for a pager or editor. */
function plainAssignment(name: string, value: string): boolean {
  if (CODE_VARS.test(name) || RUNS_IN_VALUE.test(value)) return false;
  if (/PATH$/.test(name) && WORLD_WRITABLE_FIRST.test(value)) return false;
  return !PROGRAM_VARS.test(name) || /^["']?[\w./~$-]+(?:\s+-[\w-]+)*["']?$/.test(value);
}

/** One line of a start-up file that only sets something: a variable, a shell option, a key binding, a comment. */
function settingLine(line: string, kind: "sh" | "ps" | "rc" | "npmrc" | "pth" | "gitconfig"): boolean {
  const l = line.trim();
  if (l === "" || l.startsWith("#") || (kind === "rc" && l.startsWith('"'))) return true;
  if (kind === "pth") return !/^import\b|;/.test(l);
  if (kind === "npmrc") {
    const key = /^([\w.:/@-]+)\s*=/.exec(l)?.[1]?.toLowerCase();
    return key !== undefined && !/^(?:script-shell|node-options|onload-script|shell|git|editor|browser|viewer|init-module|prefix|globalconfig|userconfig)$/.test(key) && !RUNS_IN_VALUE.test(l.slice(l.indexOf("=") + 1).trim());
  }
  if (kind === "gitconfig") {
    if (/^\[[^\]]*\]$/.test(l)) return !/ext::/i.test(l);
    const m = /^([\w.-]+)\s*=\s*(.*)$/.exec(l);
    return m !== null && !/^(?:hookspath|fsmonitor|sshcommand|pager|editor|askpass|external|textconv|command|cmd|clean|smudge|process|program|helper|gitproxy|templatedir|uploadpack|receivepack|tool)$/i.test(m[1] ?? "") && !(m[2] ?? "").startsWith("!");
  }
  if (kind === "rc") return /^(?:(?:set|setw|set-option|set-window-option|setlocal|unbind|syntax|filetype|colorscheme|let)\b|vim\.(?:opt|o|g|wo|bo)\.[\w.]+\s*=)/.test(l) && !/run-shell|system|!|\$\(|`/.test(l);
  if (kind === "ps") {
    // `$env:EDITOR = 'code'`, `$env:Path += ';C:\tools'`, `Set-PSReadLineOption -EditMode Emacs`.
    if (/^\$(?:env:)?\w+\s*[+]?=\s*(?:'[^']*'|"[^"$`]*"|[\w.:\\/-]+)\s*;?$/i.test(l)) return !/^\$env:(?:PSModulePath|ComSpec)\b/i.test(l);
    return /^Set-PSReadLine(?:Option|KeyHandler)\s+-(?!ScriptBlock)[\w-]+(?:\s+[\w'"-]+)*$/i.test(l);
  }
  // fish: `set -gx NAME value`, `fish_add_path ~/.local/bin`; POSIX: assignments and exports, options, bindings, umask.
  const fish = /^set\s+-[gxUu]+\s+(\w+)\s+(.*)$/.exec(l);
  if (fish) return plainAssignment(fish[1] ?? "", fish[2] ?? "");
  if (/^fish_add_path\s+[~\w/.$-]+$/.test(l)) return !WORLD_WRITABLE_FIRST.test(l.slice(14).trim());
  const assign = /^(?:export\s+|typeset\s+-x\s+|declare\s+-x\s+)?([A-Za-z_]\w*)=(.*)$/.exec(l);
  if (assign) return plainAssignment(assign[1] ?? "", assign[2] ?? "");
  if (/^export\s+[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*$/.test(l)) return true;
  return /^(?:shopt\s+-[su]|set\s+[-+]o|setopt|unsetopt|bindkey|umask\s+0?[0-7]{3}$|stty\s)/.test(l) && !/[;&|`]|\$\(/.test(l);
}

/** The language a start-up file is read in, for judging the lines written to it. */
function kindOf(path: string): "sh" | "ps" | "rc" | "npmrc" | "pth" | "gitconfig" | undefined {
  if (/\.ps1$/i.test(path)) return "ps";
  if (/\/\.npmrc$/.test(path)) return "npmrc";
  if (/\.pth$/.test(path)) return "pth";
  if (/\/\.gitconfig$|\/\.config\/git\/config$/.test(path)) return "gitconfig";
  if (/\/\.(?:tmux\.conf|vimrc)$|\/tmux\/tmux\.conf$|\/nvim\/init\.(?:vim|lua)$/.test(path)) return "rc";
  if (/\/\.ssh\/|customize\.py$|\/\.emacs|\/autostart\/|\/systemd\/|LaunchAgents|LaunchDaemons|\/cron|Startup\//i.test(path)) return undefined;
  return "sh";
}

/**
 * Whether `text` written into the start-up file `path` only sets things (variables, options, bindings, comments), so
 * that nothing new runs at the next start. A line that runs a program, an alias or function that changes what a name
 * runs, a trap, a variable the loader or shell runs as code, or a PATH that starts in a world-writable folder is not a
 * setting; ssh's files, autostart entries, units and schedules never hold only settings.
 */
export function onlySettings(text: string, path: string): boolean {
  const kind = kindOf(path);
  if (kind === undefined) return false;
  const lines = text.split(/\r?\n|\\n/);
  return lines.length <= 256 && lines.every((l) => settingLine(l, kind));
}
