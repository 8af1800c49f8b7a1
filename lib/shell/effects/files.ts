/** @module file effects: deletes, truncation, moves, permission changes and writes to devices. */
import type { SimpleCommand } from "../types.ts";
import type { Analysis } from "../flags.ts";
import { effect, type Effect } from "./types.ts";
import { isSecretPath } from "./secrets.ts";
import { resolvePath } from "../paths.ts";
import { isAgentCodePath, isStartupDir, isStartupFile, onlySettings } from "../startup-files.ts";
import { literalOutput } from "../parse.ts";
import { sedFiles, sedScripts } from "../option-commands.ts";
import { isMkfsName } from "../program-names.ts";

/** System locations whose files an agent has no business writing (a sudoers line, a binary in /usr/bin). */
const SYSTEM_FILE = /^\/(?:etc|usr|bin|sbin|boot|lib|lib32|lib64|System|Library|opt)\/|^\/(?:vmlinuz|initrd\.img|bootmgr|BOOTMGR|BOOTNXT)(?:\.old)?$/;
/** The machine's own login, audit and kernel logs (not an application's log under /var/log). */
const SYSTEM_LOG = /^\/var\/log\/(?:(?:auth\.log|secure|syslog|messages|kern\.log|wtmp|btmp|lastlog|faillog)$|audit(?:\/|$)|journal(?:\/|$))/;
/** The machine-wide registry hives, as reg.exe and PowerShell's registry drives spell them. */
// `HKLMSOFTWAREPolicies`: the key once bash ate its backslashes (`cmd /c reg delete HKLM\SOFTWARE\x` from the bash tool),
// read as meant, as `C:Usersme` is read as a path under the drive root.
const MACHINE_HIVE = /^(?:Registry::)?(?:HKLM|HKCR|HKU|HKEY_LOCAL_MACHINE|HKEY_CLASSES_ROOT|HKEY_USERS)(?::|\\|\/|$)|^(?:HKLM|HKEY_LOCAL_MACHINE)(?:SOFTWARE|SYSTEM|HARDWARE|SAM|SECURITY)/i;
/** The user's whole hive or its Software/Classes branch: every program's settings at once. */
const USER_HIVE_ROOT = /^(?:Registry::)?(?:HKCU|HKEY_CURRENT_USER):?(?:[\\/]+(?:Software(?:[\\/]+(?:Classes|Microsoft(?:[\\/]+Windows)?|Policies))?)?)?[\\/]*$/i;
/** A backup or scratch copy (`/etc/hosts.bak`, `x.orig`, `x~`), not the file it copies. */
const BACKUP_NAME = /(?:\.(?:bak|backup|old|orig|tmp|swp|save|rej|dpkg-old|dpkg-dist|rpmsave|rpmnew)|~)(?:\.\w{1,4})?$/i;
/** Windows system locations, as the PowerShell and cmd readers spell them. */
const WINDOWS_SYSTEM = /^\/(?:Windows|Program Files(?: \(x86\))?|ProgramData)\//i;
/** A mode that opens a file to everyone, sets an id bit, or locks everyone out. */
const UNSAFE_MODE = /^(?:0?[0-7]?[0-7][0-7]?[2367]|[4-7][0-7]{3}|0?0{3}|.*[ao]\+[rwx]*w|.*[ug]\+[rwx]*s|.*\+s|a=rwx|ugo=rwx|.*o=rwx?|[ugoa]*=)$/;
/**
 * A mode that locks the user out of the home or of ssh: group or others given write (sshd's StrictModes refuses the
 * keys), or the owner's own access to the directory taken away (`chmod -R 600 ~/.ssh` strips its search bit).
 */
function locksOut(mode: string, dir: boolean): boolean {
  const n = /^0?([0-7])([0-7])([0-7])$/.exec(mode);
  if (n) return (Number(n[2]) & 2) !== 0 || (Number(n[3]) & 2) !== 0 || (dir && n[1] !== "7");
  return mode.split(",").some((c) => {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(c);
    if (!m) return false;
    const who = m[1] ?? "";
    const perms = m[3] ?? "";
    if (m[2] === "+" && perms.includes("w") && (who === "" || /[goa]/.test(who))) return true;
    return dir && (m[2] === "-" || m[2] === "=") && (who === "" || /[ua]/.test(who)) && (m[2] === "=" ? !/r/.test(perms) || !/w/.test(perms) || !/x/i.test(perms) : /[rwx]/.test(perms));
  });
}
/**
 * `chown -R $USER ~/.ssh`, `chown user:user /home/user`: the home's own user taking it back (sshd's fix); another
 * owner or group (`nobody`, `root`, `www-data`) and sshd refuses the keys.
 */
function ownOwner(spec: string, target: string, p: string): boolean {
  const me = /^\/(?:home|Users)\/([^/]+)/.exec(target)?.[1] ?? (target.startsWith("/root") ? "root" : undefined);
  const self = (w: string) => w === "" || /^(?:\$USER|\$\{USER\}|\$\(whoami\)|`whoami`|\$\(id -un?\)|\$\(id -gn?\)|\$\(id -u\):\$\(id -g\))$/.test(w) || (me !== undefined && w === me);
  if (p === "chgrp") return self(spec);
  const [owner, group] = spec.split(/[:.]/, 2);
  return self(owner ?? "") && (group === undefined || self(group) || /^(?:staff|users)$/.test(group));
}
/** The home itself, ~/.ssh or a file in it, as the words are written or expanded. */
const HOME_DIR = /^(?:~|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+|\/root)\/?$/;
const SSH_DIR = /^(?:~|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+|\/root)\/\.ssh\/?$/;
const SSH_FILE = /^(?:~|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+|\/root)\/\.ssh\/./;
/** Home directories that hold credentials: a recursive change that lets group or others read them exposes every key there. */
const HOME_SECRET_DIR = /^(?:~|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+|\/root)\/\.(?:ssh|gnupg|aws|config|kube|docker|password-store|azure|gcloud)\/?$/;
/** A symbolic mode that takes read or execute away (`-x`, `a-rx`): on system programs and libraries, nothing runs. */
const TAKES_AWAY = /^[ugoa]*-[rwxXst]*[rx]/;
/** A mode that lets group or others read (for keys). */
const READABLE_MODE = /^(?:0?[0-7][4-7][0-7]|0?[0-7][0-7][4-7]|.*[goa]\+[rwx]*r|.*[go]=r)/;

/**
 * An append to a startup file that plants more than settings: a key into authorized_keys, or a line that runs
 * something at the next start (`echo 'export PATH=...' >> ~/.bashrc` is an ordinary setup step; `echo 'npm run x'
 * >> ~/.bashrc`, an alias or text the line does not show is not). Judged by `onlySettings` (lib/shell/startup-files.ts).
 */
function plantsSomething(cmd: SimpleCommand, target: string): boolean {
  if (isAgentCodePath(target)) return true;
  const text = writtenText(cmd);
  // Text the line does not show (`cat snippet >> ~/.bashrc`, a download, a decoder): whatever it is runs at the next start.
  return text === undefined || !onlySettings(text, target);
}

/** The literal text a command appends: echo/printf/heredoc cat, tee's here-string, heredoc or literal pipe, sed's `$a TEXT`. */
/**
 * `echo "//npm.pkg.github.com/:_authToken=${NODE_AUTH_TOKEN}" >> .npmrc`: an echo whose only unknown parts are values
 * after a literal `key=` still shows which keys it sets.
 */
function keyedEcho(cmd: SimpleCommand): string | undefined {
  if (cmd.program !== "echo" || cmd.redirects.some((r) => r.body !== undefined || r.op === "<<<")) return undefined;
  const words = cmd.argv.slice(1).filter((w) => !/^-[neE]+$/.test(w));
  return words.length > 0 && cmd.argv.every((w, k) => k === 0 || !cmd.dynamic[k] || /^[^$`=]+=[^`]*$/.test(w) && !w.includes("$(")) ? words.join(" ") : undefined;
}

function writtenText(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  if (p === "") return cmd.stdinText;
  if (p === "echo" || p === "printf" || p === "cat") return literalOutput({ ...cmd, redirects: cmd.redirects.filter((r) => r.body !== undefined) });
  if (p === "tee") {
    const r = cmd.redirects.find((x) => x.body !== undefined || x.op === "<<<");
    return r !== undefined ? (r.body ?? r.target) : cmd.stdinText;
  }
  if (p === "sed") {
    // `sed -i '$a export EDITOR=vim' ~/.zshrc`: one append command, its text shown.
    const scripts = sedScripts(cmd.argv);
    const m = /^\$\s*a\\?\s?(.*)$/s.exec(scripts[0] ?? "");
    return m !== null && scripts.length === 1 ? (m[1] ?? "") : undefined;
  }
  return undefined;
}

/** Directories a file is copied or moved into by name (`cp x /usr/bin`, `mv x /etc`): system and program directories, a home's bins and keys. */
const INSTALL_DIR = /^\/(?:etc|bin|sbin|boot|usr\/(?:s?bin|lib(?:32|64)?|libexec|local\/s?bin|local\/lib)|etc\/(?:cron\.d|profile\.d|sudoers\.d|systemd\/system|init\.d)|opt\/homebrew\/s?bin)$|^\/(?:home|Users)\/[^/]+\/(?:\.local\/bin|bin|\.ssh)$/;

/**
 * Where an archive extracted writes over the machine or the home: the root, a system directory or below one, a home
 * itself. The local administrator's prefixes are where software is installed (`tar -C /usr/local -xzf go.tgz`,
 * `unzip tool.zip -d /opt/tool`), as `/opt` itself already was.
 */
function extractsOver(dir: string): boolean {
  const d = dir.replace(/\/+$/, "") || "/";
  if (/^\/usr\/local(?:\/|$)|^\/opt\/./.test(d)) return false;
  return d === "/" || d === "/var" || SYSTEM_FILE.test(`${d}/`) || /^\/(?:home|Users)\/[^/]+$|^\/root$/.test(d);
}

/** A dotfile directly in a home directory (`/home/user/.gitconfig`, as the words are expanded). */
function isHomeDotfile(p: string): boolean {
  return /^(?:~|\$HOME)\/\.[^/]+$/.test(p) || /^\/(?:home|Users)\/[^/]+\/\.[^/]+$|^\/root\/\.[^/]+$/.test(p);
}

/** Where curl (-o, --output) or wget (-O, --output-document) writes: the named file, not standard output. */
function downloadTargets(a: string[], p: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    const long = p === "curl" ? "--output" : "--output-document";
    if (w.startsWith(`${long}=`)) out.push(w.slice(long.length + 1));
    else if (w === long || (!w.startsWith("--") && (p === "curl" ? /^-[a-zA-Z]*o$/ : /^-[a-zA-Z]*O$/).test(w))) out.push(a[++i] ?? "");
  }
  return out.filter((t) => t !== "" && t !== "-");
}

/** Disk and partition devices (not /dev/null, /dev/tty, /dev/fd/N). */
export const DISK_DEVICE = /^\/unc\/\.\/(?:[Pp]hysical[Dd]rive\d|[A-Za-z]:$)|^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/|loop\d|sr\d|root$|raw|block\/|mem$|kmem$|port$)/;
const HARMLESS_DEVICE = /^\/dev\/(?:null|zero|stdout|stderr|stdin|tty|fd\/|full$|random$|urandom$|shm\/)/;

function positionalWithDynamic(an: Analysis): [string[], boolean[]] {
  return [an.positional, an.positionalDynamic];
}

const PARTITION = new Set(["fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted"]);
/** Per partition editor, the options that only list, dump, verify or pretend (`sgdisk -s` sorts and writes; `sfdisk -s` shows sizes). */
const PARTITION_READS: Record<string, RegExp> = {
  sfdisk: /^(?:-d|--dump|-J|--json|-V|--verify|-s|--show-size|-g|--show-geometry|-T|--list-types|-n|--no-act)$/,
  sgdisk: /^(?:-p|--print|-v|--verify|-P|--pretend|-i|--info|-O|--print-mbr|-L|--list-types)$|^--info=/,
  gdisk: /^-l$/,
  fdisk: /^(?:-l|--list|-x|--list-details)$/,
  parted: /^(?:-l|--list)$/,
};

const COMMON_PROGRAM = /^(?:git|ls|sudo|su|ssh|scp|sftp|python[0-9.]*|pip[0-9.]*|node|npm|npx|pnpm|yarn|bun|deno|bash|sh|zsh|fish|cat|curl|wget|rm|cp|mv|make|go|cargo|rustc|docker|kubectl|gpg|openssl|env|which|code|vim|vi|nano|less|grep|sed|awk|find|tar|ps|top|kill|passwd|login|ruby|perl|java|gh|aws|terraform)$/;
function base(p: string): string {
  const s = p.replace(/\/+$/, "");
  return s.slice(s.lastIndexOf("/") + 1);
}

/** Source operands of cp/mv-like commands: every operand but the destination, unless -t names it. */
function sources(an: Analysis): number {
  return an.flags.has("-t") ? an.positional.length : Math.max(0, an.positional.length - 1);
}

const REPO_STORE = /(?:^|\/)\.git(?:\/(?:objects(?:\/[^/]+)?|refs(?:\/(?:heads|tags))?|logs|\*))?\/?$/;

export function fileEffects(cmd: SimpleCommand, an: Analysis): Effect[] {
  const p = cmd.program;
  const out: Effect[] = [];
  const [pos, dyn] = positionalWithDynamic(an);
  switch (p) {
    case "rm":
    case "srm":
    case "wipe":
    case "rimraf":
    case "del-cli":
    case "trash-put":
    case "trash":
    case "gio-trash": {
      // `rm -f /etc/*`, `rm ~/*`: every entry of a directory named by an absolute path, as good as its tree.
      const recursive = an.flags.has("-r") || (p !== "rm" && p !== "srm" && p !== "wipe") || pos.some((w, k) => !dyn[k] && /^\/(?:[^*?]*\/)?\*$/.test(w));
      if (p === "wipe" || p === "srm") out.push(effect("truncate", `overwrites ${pos.join(" ")} beyond recovery`, pos, { dynamic: dyn }));
      if (pos.length > 0) out.push(effect("delete", `${recursive ? "recursively deletes" : "deletes"} ${pos.join(" ")}`, pos, { dynamic: dyn, recursive }));
      // The repository, its object store (`.git/objects/pack`), branches and tags, reflogs or every entry (`.git/*`),
      // also reached from inside it (`cd .git && rm -rf objects`).
      const git = pos.filter((w, k) => !dyn[k] && [w, cmd.cwd === "" ? w : resolvePath(w, cmd.cwd, "/nonexistent-home")].some((x) => REPO_STORE.test(x)));
      if (recursive && git.length > 0) out.push(effect("destroy-history", `deletes the repository itself (${git.join(" ")}): all history and stashes`, git));
      break;
    }
    case "gio":
      if (pos[0] === "trash" && pos.length > 1) out.push(effect("delete", `moves ${pos.slice(1).join(" ")} to the trash`, pos.slice(1), { dynamic: dyn.slice(1), recursive: true }));
      break;
    case "rclone":
      if ((pos[0] === "delete" || pos[0] === "purge" || pos[0] === "deletefile") && pos[1] !== undefined && !/^[\w-]+:/.test(pos[1])) out.push(effect("delete", `deletes ${pos[1]} (rclone ${pos[0]})`, [pos[1]], { dynamic: [dyn[1] ?? false], recursive: true }));
      break;
    case "sed":
    case "perl":
    case "ruby": {
      // In-place edits of a shell's startup files or authorized_keys (persistence, or a lockout), or of a system
      // file (`sed -i ... /etc/hosts`): the same as a redirection into it.
      if (!cmd.argv.some((w) => /^-[a-zA-Z]*i/.test(w) || w.startsWith("--in-place"))) break;
      // A secret file of the project (`sed -i ... .env.build`) is the agent's own work to edit; one elsewhere is not.
      const inProject = (w: string) => cmd.cwd !== "" && resolvePath(w, cmd.cwd, "/nonexistent-home").startsWith(`${cmd.cwd.replace(/\/+$/, "")}/`);
      const hit = pos.filter((w, k) => isStartupFile(w, cmd.cwd) ? p !== "sed" || plantsSomething(cmd, w) : (isSecretPath(w) && !inProject(w)) || (!dyn[k] && SYSTEM_FILE.test(resolvePath(w, cmd.cwd, "/nonexistent-home"))) || (isHomeDotfile(resolvePath(w, cmd.cwd, "/nonexistent-home")) && !THROWAWAY_DOTFILE.test(w)));
      if (hit.length > 0) out.push(effect("system-write", `edits ${hit.join(" ")} in place`, hit));
      break;
    }
    case "passwd":
      if (an.flags.has("-d") || an.flags.has("--delete") || an.flags.has("-u")) out.push(effect("system-write", `removes or unlocks the password of ${pos.join(" ") || "the user"}`, ["/etc/shadow"]));
      break;
    case "usermod":
    case "gpasswd":
    case "adduser":
      if (cmd.argv.some((w) => /^(?:sudo|wheel|admin|root|docker)$/.test(w))) out.push(effect("system-write", "grants administrator rights", ["/etc/group"]));
      break;
    case "reg":
    case "reg.exe": {
      // `reg delete HKLM\Software\X /f`: the machine's configuration (the user's own hive, HKCU, is the user's).
      const key = cmd.argv[2] ?? "";
      // The user's whole software or classes branch (`reg delete HKCU\Software /f`) is every program's settings at once.
      if ((cmd.argv[1] ?? "").toLowerCase() === "delete" && (MACHINE_HIVE.test(key) || USER_HIVE_ROOT.test(key))) out.push(effect("system-write", `deletes the registry key ${key}`, [key]));
      break;
    }
    case "setfacl": {
      // The ACL spec after -m/-x/--set.. is no path; `-R` walks each target like `chmod -R`.
      const targets: string[] = [];
      const tdyn: boolean[] = [];
      for (let i = 1; i < cmd.argv.length; i++) {
        const w = cmd.argv[i] ?? "";
        if (/^-[^-]*[mxMX]$|^--(?:modify|remove|set|modify-file|remove-file|set-file)$/.test(w)) i++;
        else if (!w.startsWith("-")) {
          targets.push(w);
          tdyn.push(cmd.dynamic[i] ?? false);
        }
      }
      const unsafe = targets.some((w) => SYSTEM_FILE.test(w) || SYSTEM_FILE.test(`${w}/`) || w === "/" || isSecretPath(w));
      const recursive = cmd.argv.some((w) => /^-[^-]*R/.test(w) || w === "--recursive");
      if (targets.length > 0 && (unsafe || recursive)) out.push(effect("permissions", `changes the ACL of ${targets.join(" ")}`, targets, { dynamic: tdyn, recursive, ...(unsafe ? { data: "unsafe-mode" } : {}) }));
      break;
    }
    case "badblocks":
      // -w writes test patterns over the whole device (-n, non-destructive, puts each block back).
      if (an.flags.has("-w") && pos.some((w) => DISK_DEVICE.test(w))) out.push(effect("device-write", `writes test patterns over ${pos.filter((w) => DISK_DEVICE.test(w)).join(" ")}`, pos.filter((w) => DISK_DEVICE.test(w))));
      break;
    case "curl":
    case "wget": {
      // `curl -o ~/.ssh/authorized_keys URL`, `wget -O ~/.bashrc URL`: a download put in place of a startup file or key.
      const out2 = downloadTargets(cmd.argv, p);
      const persist = out2.filter((t) => isStartupFile(t, cmd.cwd) || SYSTEM_FILE.test(t));
      if (persist.length > 0) out.push(effect("system-write", `downloads into ${persist.join(" ")}`, persist));
      const keys = out2.filter((t) => !isStartupFile(t, cmd.cwd) && (isSecretPath(t) || isHomeDotfile(t)));
      if (keys.length > 0) out.push(effect("truncate", `replaces ${keys.join(" ")} with a download`, keys));
      break;
    }
    case "ddrescue":
    case "pv":
      if (pos.some((w) => DISK_DEVICE.test(w))) out.push(effect("device-write", `writes onto ${pos.filter((w) => DISK_DEVICE.test(w)).join(" ")}`, pos.filter((w) => DISK_DEVICE.test(w))));
      break;
    case "unlink":
    case "rmdir":
      if (pos.length > 0) out.push(effect("delete", `deletes ${pos.join(" ")}`, pos, { dynamic: dyn }));
      break;
    case "shred": {
      const devices = pos.filter((w) => w.startsWith("/dev/"));
      if (devices.length > 0) out.push(effect("device-write", `destroys the data on ${devices.join(" ")}`, devices));
      const files = pos.filter((w) => !w.startsWith("/dev/"));
      if (files.length > 0) out.push(effect("truncate", `overwrites ${files.join(" ")} beyond recovery${an.flags.has("-u") ? " and deletes them" : ""}`, files, { dynamic: dyn.filter((_, k) => !(pos[k] ?? "").startsWith("/dev/")) }));
      break;
    }
    case "truncate":
      if (pos.length > 0) out.push(effect("truncate", `truncates ${pos.join(" ")}`, pos, { dynamic: dyn }));
      break;
    case "cp":
      if (pos.length >= 2 && DISK_DEVICE.test(pos[pos.length - 1] ?? "")) out.push(effect("device-write", `copies onto the device ${pos[pos.length - 1]}`, [pos[pos.length - 1] ?? ""]));
      if (pos[0] === "/dev/null" && pos.length >= 2) out.push(effect("truncate", `empties ${pos.slice(1).join(" ")}`, pos.slice(1), { dynamic: dyn.slice(1) }));
      break;
    case "mv": {
      const n = sources(an);
      if (n > 0) out.push(effect("move-away", `moves ${pos.slice(0, n).join(" ")} away`, pos.slice(0, n), { dynamic: dyn.slice(0, n), recursive: true }));
      // Moving the key store away (`mv ~/.ssh /tmp/`) loses it where it is needed.
      const stores = pos.slice(0, n).filter((w) => /\/\.(?:ssh|gnupg|aws)\/?$/.test(w));
      if (stores.length > 0) out.push(effect("delete", `moves the key store ${stores.join(" ")} away`, stores, { recursive: true }));
      // `mv ~/Documents /dev/null`: moved into nothing, it is gone.
      if (n > 0 && !an.flags.has("-t") && pos[pos.length - 1] === "/dev/null") out.push(effect("delete", `moves ${pos.slice(0, n).join(" ")} onto /dev/null`, pos.slice(0, n), { dynamic: dyn.slice(0, n), recursive: true }));
      // `mv ~/Documents /tmp/trash`: a temp directory is reaped (at boot, by age); a home or system tree moved there is
      // deleted with a delay. The rules judge the source's place: a project's build moved to /tmp stays a move.
      const into = an.flags.has("-t") ? undefined : pos[pos.length - 1];
      if (n > 0 && into !== undefined && /^\/(?:tmp|var\/tmp|dev\/shm)(?:\/|$)/.test(into)) out.push(effect("delete", `moves ${pos.slice(0, n).join(" ")} into ${into}, where temp files are reaped`, pos.slice(0, n), { dynamic: dyn.slice(0, n), recursive: true }));
      break;
    }
    case "rsync": {
      if (an.flags.has("-n") || an.flags.has("--dry-run")) break;
      // --remove-source-files: what is copied is deleted where it was.
      if (an.flags.has("--remove-source-files") && pos.length >= 2) out.push(effect("delete", `deletes ${pos.slice(0, -1).join(" ")} once copied`, pos.slice(0, -1), { dynamic: dyn.slice(0, -1), recursive: true }));
      if (![...an.flags].some((f) => f === "--delete" || f.startsWith("--delete-")) || pos.length < 2) break;
      const dest = pos[pos.length - 1] ?? "";
      if (/^[\w.-]+@?[\w.-]*:/.test(dest) && !dest.startsWith("/")) break;
      out.push(effect("delete", `deletes whatever in ${dest} is not in the source`, [dest], { dynamic: [dyn[dyn.length - 1] ?? false], recursive: true }));
      break;
    }
    case "unzip": {
      // `unzip x.zip -d /etc/`: extracting into a system directory writes over what the archive names (-l, -v, -t, -Z only list or test).
      const k = cmd.argv.findIndex((w, j) => j > 0 && (w === "-d" || /^-d\/./.test(w)));
      const dir = cmd.argv[k] === "-d" ? cmd.argv[k + 1] : cmd.argv[k]?.slice(2);
      if (k > 0 && dir !== undefined && !cmd.argv.some((a) => /^-[a-zA-Z]*[lvtZ]/.test(a)) && extractsOver(dir)) out.push(effect("truncate", `extracts an archive over ${dir}`, [dir], { dynamic: [cmd.dynamic[k] ?? false] }));
      break;
    }
    case "tar":
    case "bsdtar":
    case "gtar": {
      // `tar -xf x.tar -C /`: extracting into the root, a system or a home directory writes over what the archive names there.
      const dir = tarDir(cmd.argv);
      if (dir !== undefined && extractsOver(dir) && tarExtracts(cmd.argv)) out.push(effect("truncate", `extracts an archive over ${dir}`, [dir], { dynamic: [cmd.dynamic[cmd.argv.indexOf(dir)] ?? false] }));
      if (!cmd.argv.includes("--remove-files")) break;
      const archive = tarArchive(cmd.argv);
      const files = pos.filter((w) => w !== archive);
      if (files.length > 0) out.push(effect("delete", `archives then deletes ${files.join(" ")}`, files, { recursive: true }));
      break;
    }
    case "zip": {
      // `zip -rm a.zip ~/Documents`: -m (--move) deletes the files once they are in the archive.
      if (!cmd.argv.some((w, k) => k > 0 && (w === "--move" || /^-[a-zA-Z0-9]*m[a-zA-Z0-9]*$/.test(w)))) break;
      const ops = zipOperands(cmd);
      const files = ops.slice(1);
      if (files.length > 0) out.push(effect("delete", `archives then deletes ${files.map(([w]) => w).join(" ")}`, files.map(([w]) => w), { dynamic: files.map(([, d]) => d), recursive: cmd.argv.some((w, k) => k > 0 && (w === "--recurse-paths" || /^-[a-zA-Z0-9]*r/.test(w))) }));
      break;
    }
    case "7z":
    case "7za":
    case "7zz":
    case "rar": {
      // `7z a -sdel a.7z ~/Pictures`, `rar m a.rar ~/x`, `rar a -df ..`: the sources are deleted once archived.
      const moves = p === "rar" ? pos[0] === "m" || (pos[0] === "a" && cmd.argv.includes("-df")) : pos[0] === "a" && cmd.argv.some((w) => w.toLowerCase() === "-sdel");
      const files = pos.slice(2);
      if (moves && files.length > 0) out.push(effect("delete", `archives then deletes ${files.join(" ")}`, files, { dynamic: an.positionalDynamic.slice(2), recursive: true }));
      // `7z x x.7z -o/usr/bin/`: extracting into a system directory writes over what the archive names.
      const o = p === "rar" ? -1 : cmd.argv.findIndex((w, j) => j > 1 && /^-o./.test(w));
      const dir = cmd.argv[o]?.slice(2);
      if (o > 1 && dir !== undefined && /^[xe]$/.test(cmd.argv[1] ?? "") && extractsOver(dir)) out.push(effect("truncate", `extracts an archive over ${dir}`, [dir], { dynamic: [cmd.dynamic[o] ?? false] }));
      break;
    }
    case "chmod":
    case "chown":
    case "chgrp": {
      const ref = cmd.argv.some((w) => w.startsWith("--reference"));
      // `chmod -rwx ~`, `chmod -x /bin/*`: a mode that starts with a dash reads like an option, but it is the mode.
      const dashMode = p === "chmod" && !ref ? cmd.argv.slice(1).find((w) => /^-[rwxXst]+(?:,[ugoa]*[-+=][rwxXst]*)*$/.test(w)) : undefined;
      const mode = ref ? "" : (dashMode ?? pos[0] ?? "");
      const operands = ref || dashMode !== undefined ? pos : pos.slice(1);
      // find DIR -exec chmod ... {}: every file below DIR, a recursive change of DIR.
      const walked = operands.some((t) => t.endsWith("/{}"));
      const targets = operands.map((t) => (t.endsWith("/{}") ? t.slice(0, -3) || "/" : t));
      if (targets.length === 0) break;
      const recursive = an.flags.has("-R") || walked;
      const secret = (targets.some((t) => isSecretPath(t) && (p === "chmod" ? READABLE_MODE.test(mode) || ref : !ownOwner(pos[0] ?? "", t, p)))) || (p === "chmod" && recursive && READABLE_MODE.test(mode) && targets.some((t) => HOME_SECRET_DIR.test(t)));
      // The home or ~/.ssh made group-writable or unreadable to its owner, or handed to another owner: ssh logins stop.
      const lockout = p === "chmod" ? targets.some((t) => ((HOME_DIR.test(t) || SSH_DIR.test(t)) && locksOut(mode, true)) || (SSH_FILE.test(t) && locksOut(mode, false))) : targets.some((t) => (HOME_DIR.test(t) || SSH_DIR.test(t) || SSH_FILE.test(t)) && !ownOwner(pos[0] ?? "", t, p));
      const unsafe = lockout || (p === "chmod" ? UNSAFE_MODE.test(mode) || ref || (TAKES_AWAY.test(mode) && targets.some((t) => SYSTEM_FILE.test(t) || SYSTEM_FILE.test(`${t}/`))) : targets.some((t) => SYSTEM_FILE.test(t) || t === "/"));
      const data = secret ? "secret" : unsafe ? "unsafe-mode" : undefined;
      out.push(effect("permissions", `changes ${p === "chmod" ? `permissions (${mode || "as a reference file"})` : "ownership"} of ${targets.join(" ")}`, targets, { dynamic: ref || dashMode !== undefined ? dyn : dyn.slice(1), recursive, ...(data ? { data } : {}) }));
      break;
    }
    case "chattr": {
      // `chattr +i /etc/passwd`, `chattr -R +a /usr`: an immutable or append-only system file stops updates, logins and
      // package upgrades; whether the target is outside the project is the rules' call.
      const attrs = pos.filter((w) => /^[-+=][aAcCdDeEFijmPsStTux]+$/.test(w));
      const targets = pos.filter((w) => !attrs.includes(w));
      if (attrs.some((w) => /^[+=].*[ia]/.test(w)) && targets.length > 0) out.push(effect("permissions", `makes ${targets.join(" ")} immutable or append-only`, targets, { recursive: an.flags.has("-R"), data: "unsafe-mode" }));
      break;
    }
    case "sdelete":
    case "sdelete64": {
      // Sysinternals sdelete: -c/-z clean a drive's free space (like `cipher /w`); otherwise it overwrites then deletes its
      // operands, the whole tree with -s.
      const ops: string[] = [];
      const odyn: boolean[] = [];
      for (let i = 1; i < cmd.argv.length; i++) {
        const w = cmd.argv[i] ?? "";
        if (/^[-/]p$/i.test(w)) i++;
        else if (!/^[-/]/.test(w) || w.startsWith("/home") || w.startsWith("/Users") || w === "/") {
          ops.push(w);
          odyn.push(cmd.dynamic[i] ?? false);
        }
      }
      if (cmd.argv.some((w) => /^[-/][cz]$/i.test(w))) out.push(effect("device-write", "overwrites the free space of a drive"));
      else if (ops.length > 0) {
        const recursive = cmd.argv.some((w) => /^[-/][sr]$/i.test(w));
        out.push(effect("truncate", `overwrites ${ops.join(" ")} beyond recovery`, ops, { dynamic: odyn }), effect("delete", `${recursive ? "recursively deletes" : "deletes"} ${ops.join(" ")}`, ops, { dynamic: odyn, recursive }));
      }
      break;
    }
    case "hdparm":
      // ATA secure erase, TRIM of sector ranges, raw sector writes: the drive's data is gone.
      if (cmd.argv.some((w) => /^--(?:security-erase(?:-enhanced)?|trim-sector-ranges(?:-stdin)?|write-sector|make-bad-sector|please-destroy-my-drive|dco-restore|fwdownload\S*)$/.test(w))) out.push(effect("device-write", `erases or writes raw sectors of ${pos.filter((w) => w.startsWith("/dev/")).join(" ") || "a drive"}`, pos.filter((w) => w.startsWith("/dev/"))));
      break;
    case "sg_format":
    case "sg_sanitize":
      if (cmd.argv.some((w) => /^--(?:format|crypto|block|overwrite|fail)$|^-[FBCO]$/.test(w)) || p === "sg_sanitize") out.push(effect("device-write", `formats or sanitizes ${pos.join(" ")}`, pos));
      break;
    case "tee": {
      const devices = pos.filter((w) => DISK_DEVICE.test(w));
      if (devices.length > 0) out.push(effect("device-write", `writes over the device ${devices.join(" ")}`, devices));
      const sys = pos.filter((w) => SYSTEM_FILE.test(w) || WINDOWS_SYSTEM.test(w));
      if (sys.length > 0) out.push(effect("system-write", `writes into system files ${sys.join(" ")}`, sys));
      const appends = an.flags.has("-a") || an.flags.has("--append");
      const persist = pos.filter((w) => isStartupFile(w, cmd.cwd) && (!appends || plantsSomething(cmd, w)));
      if (persist.length > 0) out.push(effect("system-write", `writes into ${persist.join(" ")}, run at every login`, persist));
      if (!appends) {
        const gone = pos.filter((w) => isSecretPath(w) || isHomeDotfile(w));
        if (gone.length > 0) out.push(effect("truncate", `overwrites ${gone.join(" ")}`, gone));
      }
      break;
    }
    case "dc3dd":
      // `dc3dd wipe=/dev/sdb`, `hwipe=`: the tool's own wipe modes.
      for (const w of cmd.argv) if (/^h?wipe=|^h?of=\/dev\//.test(w) && !HARMLESS_DEVICE.test(w.slice(w.indexOf("=") + 1))) out.push(effect("device-write", `wipes or writes ${w.slice(w.indexOf("=") + 1)}`, [w.slice(w.indexOf("=") + 1)]));
      break;
    case "dcfldd":
    case "dd": {
      const of = cmd.argv.find((w) => w.startsWith("of="))?.slice(3);
      if (of !== undefined && ((of.startsWith("/dev/") && !HARMLESS_DEVICE.test(of)) || /PhysicalDrive\d|^\\\\?\.\\?[A-Za-z]:$/i.test(of))) out.push(effect("device-write", `writes raw data to ${of}`, [of]));
      // `dd if=/dev/zero of=~/.bashrc`: without conv=notrunc dd truncates a regular file first.
      else if (of !== undefined && of !== "" && !of.startsWith("/dev/") && !cmd.argv.some((w) => /^conv=.*notrunc/.test(w))) out.push(effect("truncate", `overwrites ${of}`, [of]));
      // `dd if=key.pub of=~/.ssh/authorized_keys oflag=append conv=notrunc`: data the line does not show, put in a start-up file.
      if (of !== undefined && isStartupFile(resolvePath(of, cmd.cwd, "/nonexistent-home"), cmd.cwd)) out.push(effect("system-write", `writes into ${of}, run or trusted at a later start`, [of]));
      break;
    }
    case "crontab":
      if (an.flags.has("-r")) out.push(effect("truncate", "deletes the user's crontab", ["/var/spool/cron"]));
      // `crontab <<< '@reboot x'`, `echo .. | crontab`: no file named, the table is read from standard input.
      else if (pos[0] === "-" || (pos.length > 0 && !an.flags.has("-l") && !an.flags.has("-T")) || (pos.length === 0 && !an.flags.has("-l") && !an.flags.has("-e") && (cmd.stdinText !== undefined || cmd.redirects.some((r) => r.op === "<<<" || r.body !== undefined || r.op === "<")))) out.push(effect("system-write", "replaces the user's crontab (commands run on a schedule)", ["/var/spool/cron"]));
      break;
    case "wipefs":
      if (an.flags.has("-n") || an.flags.has("--no-act") || !pos.some((w, k) => w.startsWith("/dev/") || dyn[k])) break;
      if (an.flags.has("-a") || an.flags.has("--all") || an.flags.has("-o") || an.flags.has("--offset")) out.push(effect("device-write", `erases file system signatures on ${pos.join(" ")}`, pos));
      break;
    case "format-volume":
      out.push(effect("device-write", `formats or wipes the volume or disk ${pos.join(" ") || cmd.argv.slice(1).join(" ")}`, pos));
      break;
    case "bcdedit":
      // The boot configuration changed or an entry deleted (`/enum`, `/v` only list it).
      if (/^\/(?:set|delete|deletevalue|import|createstore|bootsequence|default|timeout|bootems|ems|recoveryenabled)$/i.test(cmd.argv[1] ?? "")) out.push(effect("system-write", `changes the boot configuration (${cmd.argv.slice(1).join(" ")})`, ["/Windows/Boot"]));
      break;
    case "cipher":
      if (cmd.argv.some((w) => /^\/w(?::|$)/i.test(w))) out.push(effect("device-write", "overwrites the free space of a volume (what was deleted there can never be recovered)"));
      break;
    case "wbadmin":
      if ((cmd.argv[1] ?? "").toLowerCase() === "delete") out.push(effect("device-write", "deletes the system's backups"));
      break;
    case "wevtutil":
      if (/^(?:cl|clear-log)$/i.test(cmd.argv[1] ?? "")) out.push(effect("system-write", `clears the ${cmd.argv[2] ?? ""} event log`, ["/Windows/System32/winevt"]));
      break;
    case "sc":
      // `sc.exe delete SERVICE`, `sc config SERVICE start= disabled`: the machine's services.
      if (/^(?:delete|config|failure)$/i.test(cmd.argv[1] ?? "")) out.push(effect("system-write", `changes or deletes the service ${cmd.argv[2] ?? ""}`, ["/Windows/System32"]));
      break;
    case "takeown":
    case "icacls": {
      // `takeown /f C:\Windows /r`, `icacls C:\Users\me /grant Everyone:F /t`: ownership or access of a whole tree.
      const recursive = cmd.argv.some((w) => /^\/[rt]$/i.test(w));
      const changes = p === "takeown" || cmd.argv.some((w) => /^\/(?:grant|deny|remove|reset|setowner|inheritance|setintegritylevel)/i.test(w));
      const targets = p === "takeown" ? cmd.argv.filter((w, k) => /^\/f$/i.test(cmd.argv[k - 1] ?? "")) : cmd.argv.slice(1, 2);
      // `/grant Everyone:R` on ~/.ssh, `/grant Users:F` anywhere: everyone on the machine may read or change it.
      const grants = cmd.argv.filter((w, k) => /^\/grant/i.test(cmd.argv[k - 1] ?? "") && /^(?:\*?S-1-1-0|\*?S-1-5-11|everyone|users|authenticated users|guests?|anonymous logon)(?::|$)/i.test(w));
      // Any access to a key is too much; elsewhere only a right that writes (`F`, `M`, `W`) opens the tree up.
      const keyTarget = targets.some((t) => isSecretPath(t) || SSH_DIR.test(t) || SSH_FILE.test(t));
      const data = grants.length > 0 && keyTarget ? "secret" : grants.some((g) => /:(?:\([A-Z]+\))*\(?(?:F|M|W|[A-Z,]*\bW[A-Z]*)\)?$/i.test(g)) ? "unsafe-mode" : undefined;
      if (changes && targets.some((t) => WINDOWS_SYSTEM.test(t) || WINDOWS_SYSTEM.test(`${t}/`))) out.push(effect("system-write", `takes over ${targets.join(" ")}, a system directory`, targets));
      else if (changes && targets.length > 0) out.push(effect("permissions", `changes ${p === "takeown" ? "the owner" : "the access rights"} of ${targets.join(" ")}${recursive ? " and everything below" : ""}`, targets, { ...(recursive ? { recursive: true } : {}), ...(data ? { data } : {}) }));
      break;
    }
    case "set-acl": {
      // `Set-Acl C:\ $acl`, `Set-Acl -Path ~\.ssh -AclObject ..`: the whole access list of the target replaced.
      const k = cmd.argv.findIndex((w) => /^-(?:path|literalpath|p|lp)$/i.test(w));
      const target = k > 0 ? cmd.argv[k + 1] : cmd.argv.slice(1).find((w, i) => !w.startsWith("-") && !/^-/.test(cmd.argv[i] ?? ""));
      if (target !== undefined && !target.startsWith("$")) out.push(effect("permissions", `replaces the access list of ${target}`, [target], { data: isSecretPath(target) || SSH_DIR.test(target) ? "secret" : "unsafe-mode" }));
      break;
    }
    case "wsl":
    case "wsl.exe":
      if (cmd.argv.some((w) => /^--unregister$/i.test(w))) out.push(effect("remote-delete", `deletes the WSL distribution ${pos.find((w) => !w.startsWith("-")) ?? ""} and its whole file system`));
      break;
    case "vssadmin":
      // `resize shadowstorage /maxsize=..`: shrinking the storage deletes the shadow copies that no longer fit.
      if (pos[0]?.toLowerCase() === "delete" || (pos[0]?.toLowerCase() === "resize" && cmd.argv.some((w) => /^\/maxsize=/i.test(w)))) out.push(effect("device-write", "deletes the volume shadow copies (the system's backups)", pos));
      break;
    case "diskpart":
      // diskpart /s script.txt runs a partition script (clean, format, delete partition): as good as a disk wipe.
      if (cmd.argv.some((w, k) => k > 0 && /^[/-]s$/i.test(w))) out.push(effect("device-write", "runs a diskpart script (it can clean, format or delete partitions)", pos));
      break;
    case "blkdiscard":
      out.push(effect("device-write", `discards every block of ${pos.join(" ")}`, pos));
      break;
    default:
      if (isMkfsName(p)) {
        // mke2fs -n only says what it would do.
        if (an.flags.has("-n") && /^(?:mkfs\.ext[234]|mke2fs|mkfs)$/.test(p)) break;
        // mkfs.xfs -N prints the geometry it would use.
        if (p === "mkfs.xfs" && (cmd.argv.includes("-N") || cmd.argv.includes("--dry-run"))) break;
        const devices = pos.filter((w) => w.startsWith("/dev/"));
        if (devices.length > 0 || (pos.length > 0 && pos.every((_, k) => dyn[k]))) out.push(effect("device-write", `makes a file system on ${pos.join(" ")}, erasing it`, pos));
      } else if (PARTITION.has(p)) {
        // Listing, dumping, verifying and pretending (`sfdisk -J`, `sgdisk -v`, `sgdisk --pretend`, `sfdisk --no-act`) write nothing.
        const listing = an.flags.has("-l") || an.flags.has("--list") || pos.includes("print") || cmd.argv.includes("-l") || cmd.argv.some((w) => (PARTITION_READS[p] ?? /^$/).test(w));
        const onDevice = pos.length === 0 || pos.some((w, k) => w.startsWith("/dev/") || dyn[k]);
        if (!listing && onDevice) out.push(effect("device-write", `edits the partition table of ${pos.join(" ") || "a disk"}`, pos));
      } else if (p === "pvcreate" || p === "vgremove" || p === "lvremove" || p === "pvremove" || p === "cryptsetup" || p === "zpool" || p === "diskutil") {
        const verb = pos[0] ?? "";
        const onDev = pos.some((w, k) => w.startsWith("/dev/") || dyn[k] || /^(?:disk\d|vg|lv|\w+\/)/.test(w)) || p === "vgremove" || p === "zpool";
        const destroys = !onDev ? false : p === "diskutil" ? /^(?:erase\w*|partitionDisk|zeroDisk|randomDisk|secureErase|reformat)$/i.test(verb) : p === "cryptsetup" ? /^(?:luksFormat|erase|luksErase)$/.test(verb) : p === "zpool" ? /^(?:destroy|create|labelclear)$/.test(verb) : true;
        if (destroys) out.push(effect("device-write", `destroys volume data (${p} ${pos.join(" ")})`, pos));
      }
  }
  for (const r of cmd.redirects) {
    if (!(r.op === ">" || r.op === ">|" || r.op === "&>" || r.op === "<>" || r.op === ">>" || r.op === "&>>")) continue;
    // `for f in ~/.bashrc ~/.zshrc; do echo .. >> "$f"; done`: a loop's list, each of its files written.
    const each = r.target.includes(" /") ? r.target.split(/ (?=\/)/) : [r.target];
    if (each.some((t) => isStartupFile(t, cmd.cwd)) && (r.op !== ">>" || each.some((t) => isStartupFile(t, cmd.cwd) && plantsSomething(cmd, t)))) out.push(effect("system-write", `writes into ${r.target}, run at every login or trusted for ssh`, [r.target]));
    // A project's `.vscode/tasks.json` with a task set to run on folder open runs it whenever the folder is opened;
    // its `.npmrc` with a shell or node options loads them into every npm script.
    else if (/\/\.vscode\/tasks\.json$/.test(r.target) && /"runOn"\s*:\s*"folderOpen"/.test(writtenText(cmd) ?? "folderOpen")) out.push(effect("system-write", `writes a task into ${r.target} that runs on its own when the folder is opened`, [r.target]));
    else if (/(?:^|\/)\.npmrc$/.test(r.target) && !onlySettings(writtenText(cmd) ?? keyedEcho(cmd) ?? "script-shell=?", "/.npmrc")) out.push(effect("system-write", `sets in ${r.target} a shell or node options that every npm script loads`, [r.target]));
    if (DISK_DEVICE.test(r.target)) out.push(effect("device-write", `writes over the device ${r.target}`, [r.target]));
    else if (SYSTEM_FILE.test(r.target)) out.push(effect("system-write", `writes into the system file ${r.target}`, [r.target]));
    // `cat /dev/null > /var/log/auth.log`: the machine's login and audit record emptied.
    else if ((r.op === ">" || r.op === ">|") && SYSTEM_LOG.test(r.target)) out.push(effect("truncate", `empties the system log ${r.target}`, [r.target]));

    else if ((r.op === ">" || r.op === ">|") && (isSecretPath(r.target) || /^\/[^/]+\/[^/]+\/\.[^/]+$/.test(r.target)) && !(p === "" || p === ":" || p === "true") && r.fd !== "2") out.push(effect("truncate", `overwrites ${r.target}`, [r.target]));
    else if ((p === "" || p === ":" || p === "true") && (r.op === ">" || r.op === ">|") && !HARMLESS_DEVICE.test(r.target)) out.push(effect("truncate", `empties ${r.target}`, [r.target]));
  }
  // `cp x ~/.ssh/authorized_keys`, `mv x ~/.bashrc`, `ln -sf /dev/null ~/.bashrc`, `install x /etc/hosts`,
  // `cp x /usr/local/bin/git`: a file put in place of a startup file, a key, a system file or a program on PATH.
  if ((p === "cp" || p === "mv" || p === "install" || p === "ln" || p === "rsync") && pos.length >= 2 && !an.flags.has("-t")) {
    const destWord = pos[pos.length - 1] ?? "";
    const destAbs = resolvePath(destWord, cmd.cwd, "/nonexistent-home");
    // `install -m 755 ./bin/tool ~/.local/bin/tool`: the project's own program under its own name is an install; a
    // payload put in as `git`, `ls` or `sudo` (or under another name) shadows a program the user runs.
    const srcs = pos.slice(0, -1).filter((w) => !/^0?[0-7]{3,4}$/.test(w));
    // `cp malware /usr/bin/`, `mv file /etc`: into a directory, each file keeps its name there.
    // (A tree copied, `cp -r x/ /etc/`, is judged as a tree below; rsync's trailing slash copies a directory's content.)
    const tree = p === "rsync" || [...an.flags].some((f) => /^-[a-zA-Z]*[rRa]/.test(f) || f === "--recursive" || f === "--archive");
    const intoDir = !tree && p !== "ln" && (destWord.endsWith("/") || INSTALL_DIR.test(destAbs.replace(/\/+$/, "")));
    const targets = intoDir ? srcs.map((src) => `${destWord.replace(/\/+$/, "")}/${base(src.replace(/\/+$/, ""))}`) : [destWord];
    for (const dest of targets) {
      const abs = resolvePath(dest, cmd.cwd, "/nonexistent-home");
      const ownName = srcs.length === 1 && base(srcs[0] ?? "") === base(dest) && !COMMON_PROGRAM.test(base(dest));
      const onPath = /^\/(?:home|Users)\/[^/]+\/(?:\.local\/bin|bin)\/[^/]+$/.test(abs) && !ownName;
      // `cp ./dist/mytool /usr/local/bin/`: the local administrator's bin takes the project's own program as an install too.
      const localInstall = ownName && /^\/(?:usr\/local|opt\/homebrew)\/s?bin\/[^/]+$/.test(abs);
      // `cp evil.ts ~/.pi/agent/extensions/`: into a folder an agent loads code from, whatever the file's name.
      if (!(dyn[pos.length - 1] ?? false) && isAgentCodePath(abs)) out.push(effect("system-write", `puts code where an agent loads it at its next start (${dest})`, [dest]));
      // `cp x.desktop ~/.config/autostart/`, `cp agent.plist ~/Library/LaunchAgents/`: into a folder whose every file starts on its own.
      else if (!(dyn[pos.length - 1] ?? false) && (isStartupDir(abs) || isStartupDir(abs.replace(/\/[^/]*$/, "")))) out.push(effect("system-write", `puts ${dest} where it starts on its own at every login`, [dest]));
      else if (!(dyn[pos.length - 1] ?? false) && !dest.endsWith("/") && !BACKUP_NAME.test(abs) && !localInstall) {
        if (isStartupFile(abs, cmd.cwd) || SYSTEM_FILE.test(abs) || WINDOWS_SYSTEM.test(abs) || onPath) out.push(effect("system-write", `puts a file in place of ${dest}`, [dest]));
        else if (isSecretPath(dest) || isHomeDotfile(abs)) out.push(effect("truncate", `replaces ${dest}`, [dest]));
      }
    }
  }
  // `cp -r backup/. /etc`, `rsync -a dotfiles/ ~`: a tree copied over a system directory, or its content over the home,
  // replaces whatever files of the same names were there (`cp -r x /etc` still writes into /etc); below /etc and /boot
  // every directory is the machine's configuration (`cp -r dist/. /etc/nginx/`).
  if ((p === "cp" || p === "rsync") && pos.length >= 2 && !an.flags.has("-t") && !an.flags.has("-n") && !an.flags.has("--dry-run") && [...an.flags].some((f) => /^-[a-zA-Z]*[rRa]/.test(f) || f === "--recursive" || f === "--archive")) {
    const dest = pos[pos.length - 1] ?? "";
    const abs = resolvePath(dest, cmd.cwd, "/nonexistent-home").replace(/\/+$/, "") || "/";
    const content = pos.slice(0, -1).some((w) => /\/\.?$|\/\*$/.test(w) || (p === "rsync" && w.endsWith("/")));
    const home = abs === resolvePath("~", "/", "/nonexistent-home") || /^\/(?:home|Users)\/[^/]+$|^\/root$/.test(abs);
    // `rsync -a --delete empty/ ~/` already deletes there, `cp -a x/ /boot/grub` already replaces a system file: one effect
    // for one destination.
    const deleted = out.some((e) => (e.kind === "delete" || e.kind === "system-write") && e.paths.includes(dest));
    // `cp -r templates/* ~/.config/nvim/`: a tree copied into a tool's configuration under the home replaces its files.
    const homeConfig = HOME_CONFIG_DIR.test(abs) && !HOME_CACHE_DIR.test(abs);
    if (!deleted && !(dyn[pos.length - 1] ?? false) && (/^\/(?:etc|usr|bin|sbin|boot|lib|lib32|lib64|opt|System|Library)?$/.test(abs) || /^\/(?:etc|boot)\//.test(abs) || (home && content) || homeConfig)) out.push(effect("system-write", `copies a tree over ${dest}`, [dest]));
  }
  // `rm /etc/passwd`, `sudo rm /etc/hosts`, `cd /; rm etc/passwd`: deleting one system file changes the machine;
  // `rm ~/.ssh/id_rsa`: deleting a key or credential loses it. A single file elsewhere outside the project runs.
  for (const e of out.slice()) {
    if (e.kind !== "delete" && e.kind !== "move-away") continue;
    // PowerShell's registry drives: `Remove-Item HKLM:\Software\X -Recurse` deletes machine configuration.
    const hive = e.paths.filter((w) => MACHINE_HIVE.test(w) || USER_HIVE_ROOT.test(w));
    if (hive.length > 0) out.push(effect("system-write", `deletes the registry key ${hive.join(" ")}`, hive));
    const sys: string[] = [];
    const keys: string[] = [];
    const dots: string[] = [];
    e.paths.forEach((w, k) => {
      // `rm -f /boot/initrd.img-$(uname -r)`: the unknown part is a name inside a system directory the word shows.
      if (e.dynamic[k]) {
        const head = w.slice(0, w.search(/[$`]/));
        if (head.lastIndexOf("/") > 0 && SYSTEM_FILE.test(head.slice(0, head.lastIndexOf("/") + 1))) sys.push(w);
        return;
      }
      const abs = resolvePath(w, cmd.cwd, "/nonexistent-home");
      // A backup or scratch copy (`/etc/hosts.bak`, `x.orig`, `x~`) is not the system file itself.
      if ((SYSTEM_FILE.test(abs) || WINDOWS_SYSTEM.test(abs) || SYSTEM_LOG.test(abs)) && !BACKUP_NAME.test(abs)) sys.push(w);
      else if (isSecretPath(w) && e.kind === "delete") keys.push(w);
      else if (isHomeDotfile(abs) && !BACKUP_NAME.test(abs) && !THROWAWAY_DOTFILE.test(abs) && !e.recursive) dots.push(w);
      else if (isHomeDotfile(abs) && !BACKUP_NAME.test(abs) && !THROWAWAY_DOTFILE.test(abs) && e.kind === "move-away") dots.push(w);
    });
    // `rm -f ~/.zshrc`, `mv ~/.bashrc ./backup`: a file the shell or a tool reads from the home, gone from there.
    if (dots.length > 0) out.push(effect(e.kind === "delete" ? "truncate" : "system-write", `${e.kind === "delete" ? "deletes" : "moves away"} the home configuration file${dots.length > 1 ? "s" : ""} ${dots.join(" ")}`, dots));
    if (sys.length > 0) out.push(effect("system-write", `deletes the system file${sys.length > 1 ? "s" : ""} ${sys.join(" ")}`, sys));
    if (keys.length > 0) out.push(effect("truncate", `deletes the key or credential file${keys.length > 1 ? "s" : ""} ${keys.join(" ")}`, keys));
  }
  // `find . -fprint ~/.bashrc`, `git diff --output=/etc/profile.d/x.sh`, `sort -o ~/.ssh/config`: a file the program
  // is told to write has the same stakes as `> FILE`.
  for (const f of outputFiles(cmd)) {
    const abs = resolvePath(f, cmd.cwd, "/nonexistent-home");
    if (DISK_DEVICE.test(abs)) out.push(effect("device-write", `writes over the device ${f}`, [f]));
    else if (isStartupFile(abs, cmd.cwd) || SYSTEM_FILE.test(abs) || WINDOWS_SYSTEM.test(abs)) out.push(effect("system-write", `writes ${f} (${p} output file)`, [f]));
    else if ((isSecretPath(f) || isHomeDotfile(abs)) && !THROWAWAY_DOTFILE.test(abs)) out.push(effect("truncate", `overwrites ${f} (${p} output file)`, [f]));
  }
  // `echo select disk 0 & echo clean | diskpart`: a script fed to diskpart.
  // A literal script that only lists (`"list disk" | diskpart`) changes nothing.
  const listsOnly = (p === "echo" || p === "printf") && cmd.pipeTo.includes("diskpart") && !cmd.dynamic.some(Boolean) && !/\b(?:clean|format|delete|convert|create|assign|remove|extend|shrink|active|inactive|online|offline|attributes|gpt|uniqueid|set)\b/i.test(cmd.argv.slice(1).join(" "));
  if (cmd.pipeTo.includes("diskpart") && !listsOnly && (p === "echo" || p === "type" || p === "cat" || p === "printf" || p === "get-content")) out.push(effect("device-write", "feeds a script to diskpart (it can clean, format or delete partitions)"));
  // `cd - && rm -rf *`: everything in a directory the guard cannot know is an unknown target.
  if (cmd.cwd === "") for (const e of out) if (e.kind === "delete" && e.recursive) e.dynamic = e.paths.map((w, k) => (e.dynamic[k] ?? false) || /^(?:\.\/?|\*|\.\/\*|\.\.(?:\/.*)?)$/.test(w));
  return out;
}

/** Files a program writes through an option: find's -fprint/-fprint0/-fprintf/-fls, git's --output, sort's -o. */
function outputFiles(cmd: SimpleCommand): string[] {
  const a = cmd.argv;
  const out: string[] = [];
  const p = cmd.program;
  if (p === "find") {
    for (let i = 1; i < a.length - 1; i++) if (/^-(?:fprint0?|fprintf|fls)$/.test(a[i] ?? "")) out.push(a[i + 1] ?? "");
  } else if (p === "sed") {
    // `sed 'w ~/.bashrc' f`, `sed 's/x/y/w out' f`: the files its script writes.
    out.push(...sedFiles(a).writes);
  } else if (p === "xxd" && a.some((w) => /^-[a-z]*r/.test(w))) {
    // `xxd -r dump.hex OUT`: the second operand is written.
    const ops = a.slice(1).filter((w, k) => !w.startsWith("-") && !/^-(?:c|g|l|o|s|seek|cols|len|offset)$/.test(a[k] ?? ""));
    if (ops[1] !== undefined) out.push(ops[1]);
  } else if (p === "plutil") {
    for (let i = 1; i < a.length - 1; i++) if (a[i] === "-o") out.push(a[i + 1] ?? "");
  } else if (p === "git" || p === "sort" || p === "base64") {
    const short = p === "git" ? undefined : "-o";
    for (let i = 1; i < a.length; i++) {
      const w = a[i] ?? "";
      if (w.startsWith("--output=")) out.push(w.slice(9));
      else if (w === "--output" || w === short) out.push(a[i + 1] ?? "");
    }
  }
  return out.filter((f) => f !== "" && f !== "-" && !f.startsWith("/dev/std") && f !== "/dev/null");
}

/** A directory of dotfiles under a home (`~/.config/nvim`, `~/.ssh`, `~/.claude`), and the caches among them. */
const HOME_CONFIG_DIR = /^\/(?:home\/[^/]+|Users\/[^/]+|root)\/\.[^/]+(?:\/.*)?$/;
/** zip's operands (the archive, then the files), with their dynamic marks: past its options and their values, before `-x`/`-i` lists. */
function zipOperands(cmd: SimpleCommand): [string, boolean][] {
  const valued = new Set(["-b", "-n", "-P", "-t", "-tt", "-O", "-Z", "-s", "-sp", "--password", "--temp-path", "--suffixes", "--output-file", "--compression-method", "--split-size"]);
  const out: [string, boolean][] = [];
  for (let k = 1; k < cmd.argv.length; k++) {
    const w = cmd.argv[k] ?? "";
    if (w === "-x" || w === "-i" || w === "--exclude" || w === "--include") break;
    if (valued.has(w)) k++;
    else if (!w.startsWith("-") || w === "-") out.push([w, cmd.dynamic[k] ?? false]);
  }
  return out;
}

const HOME_CACHE_DIR = /^\/(?:home\/[^/]+|Users\/[^/]+|root)\/\.(?:cache|npm|yarn|pnpm-store|bun|deno|gradle|m2|cargo|nuget|ccache|pub-cache|local\/share\/(?:Trash|pnpm))(?:\/|$)/;

/** Home dotfiles that are caches or histories of a viewer, recreated at will (`rm ~/.zcompdump`). */
const THROWAWAY_DOTFILE = /\/\.(?:zcompdump[^/]*|DS_Store|lesshst|wget-hsts|sudo_as_admin_successful|cache|viminfo|python_history|node_repl_history)$/;

/** The directory `tar -C DIR` / `--directory=DIR` works in. */
function tarDir(argv: string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "-C" || a === "--directory") return argv[i + 1];
    if (a.startsWith("--directory=")) return a.slice(12);
  }
  return undefined;
}

function tarExtracts(argv: string[]): boolean {
  const first = argv[1] ?? "";
  return argv.some((w) => w === "--extract" || w === "--get") || (/^-?[A-Za-z]+$/.test(first) && !first.startsWith("--") && first.includes("x")) || argv.some((w) => /^-[A-Za-z]*x[A-Za-z]*$/.test(w));
}

function tarArchive(argv: string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a.startsWith("--file=")) return a.slice(7);
    if (a === "--file" || a === "-f") return argv[i + 1];
    if (/^-?[A-Za-z]+$/.test(a) && !a.startsWith("--") && a.includes("f") && (i === 1 || a.startsWith("-"))) return argv[i + 1];
  }
  return undefined;
}
