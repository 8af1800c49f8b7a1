/**
 * @module files something runs or trusts on its own at a later start, outside the guard's view: a shell's startup
 * files, ssh's keys and rc, desktop and user-service autostart, and the folders agents load code from (pi's global
 * extensions, Gemini CLI's extensions, OpenCode's global plugins). Writing one plants a command for later; the
 * guard's own entries there are `shepherd_state` (lib/engine/protected-paths.ts) and are blocked outright.
 */

/** A shell's (PowerShell's profiles too) or sshd's own files, cron's tables, and the desktop's and the user service manager's autostart folders; any case (NTFS, APFS). */
const SHELL_AND_LOGIN = /\/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|cshrc|tcshrc|inputrc)$|\/\.ssh\/(?:authorized_keys2?|rc|config)$|\/\.config\/fish\/config\.fish$|\/\.config\/autostart\/|\/\.config\/systemd\/user\/|\/Library\/LaunchAgents\/|\/Documents\/(?:Windows)?PowerShell\/[\w.]*profile\.ps1$|\/\.config\/powershell\/[\w.]*profile\.ps1$|^\/var\/spool\/cron\/|^\/etc\/cron(?:tab$|\.d\/|\.(?:hourly|daily|weekly|monthly)\/)/i;

/** Folders an agent loads every file of as code with its own powers, at its next start. */
const AGENT_CODE = /\/\.pi\/agent\/extensions(?:\/|$)|\/\.gemini\/extensions(?:\/|$)|\/\.config\/opencode\/plugins?(?:\/|$)/;

/** Whether writing `p` (a word as written, `~/.bashrc`, or resolved) plants something that runs later. */
export function isStartupFile(p: string): boolean {
  return SHELL_AND_LOGIN.test(p) || AGENT_CODE.test(p);
}

/** Whether `p` is in a folder an agent loads code from: any write there plants code, settings lines included. */
export function isAgentCodePath(p: string): boolean {
  return AGENT_CODE.test(p);
}
