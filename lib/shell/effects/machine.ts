/**
 * @module the machine's own state as effects: every process signalled at once, the firewall or network taken down,
 * accounts deleted or locked, kernel parameters and mounts of system trees changed, and on Windows the registry,
 * Defender, firewall, adapters, accounts, tasks, event logs and PATH of the machine. One table lookup gates it.
 */
import type { SimpleCommand } from "../types.ts";
import { effect, type Effect } from "./types.ts";

const NONE: Effect[] = [];

/** Daemons whose death takes the machine's logins, network or session with it. */
const CRITICAL_DAEMON = /^(?:sshd?|systemd(?:-\w+)?|init|dbus(?:-daemon)?|NetworkManager|networkd|wpa_supplicant|login|a?getty|Xorg|gdm3?|sddm|lightdm|launchd|csrss(?:\.exe)?|lsass(?:\.exe)?|wininit(?:\.exe)?|winlogon(?:\.exe)?|smss(?:\.exe)?|services(?:\.exe)?|svchost(?:\.exe)?)$/i;
/** A process listing of everything (`ps -e`, `ps aux`, `ps -A`), as a substitution or a producer. */
const LISTS_ALL = /^ps\s+(?:-[a-zA-Z]*[eA]|a?ux|-?ax)/;

/** `kill -9 -1`, `kill -s KILL -1`, `kill -- -1`, `kill 1`, `kill $(ps -e -o pid=)`, `kill $(pgrep sshd)`: the pids kill is given. */
function killsEverything(a: readonly string[], dyn: readonly boolean[]): string | undefined {
  let signal = false;
  let ended = false;
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (!ended && w === "--") {
      ended = true;
      continue;
    }
    if (!ended && (w === "-s" || w === "-n" || w === "--signal")) {
      signal = true;
      i++;
      continue;
    }
    if (!ended && (w === "-l" || w === "-L" || w === "--list" || w === "--table")) return undefined;
    // The first dash word is the signal (`-9`, `-KILL`); after it, `-1` is the pid -1: every process the user may signal.
    if (!ended && !signal && /^-\w+$/.test(w)) {
      signal = true;
      continue;
    }
    if (w === "-1") return "kill -1 signals every process the user may signal";
    if (w === "1") return "kill 1 signals init, the machine's first process";
    if (dyn[i] === true) {
      const inner = /^\$\((.*)\)$|^`(.*)`$/s.exec(w);
      const text = (inner?.[1] ?? inner?.[2] ?? "").trim();
      if (LISTS_ALL.test(text)) return "kill of every process a listing names";
      const named = /^(?:pgrep|pidof)\s+(?:-\w+\s+)*(\S+)$/.exec(text);
      if (named?.[1] !== undefined && CRITICAL_DAEMON.test(named[1].replace(/['"]/g, ""))) return `kill of ${named[1]}, a daemon the machine's logins or network run on`;
      if (/^pgrep\s+(?:-\w+\s+)*-[uU]\s+\S+$/.test(text)) return "kill of every process of a user";
    }
  }
  return undefined;
}

/** `pkill -u USER` with no pattern, `killall -u USER`, `skill -u USER`, `pkill -f .`, `pkill sshd`: by name or user, everything or a daemon. */
function killsByName(p: string, a: readonly string[]): string | undefined {
  const ops: string[] = [];
  let user = false;
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (/^(?:-u|-U|--uid|--euid|--user|-t|--terminal)$/.test(w)) {
      user = true;
      i++;
    } else if (/^(?:-s|--signal|-g|--pgroup|-G|--group|-P|--parent|--ns|--nslist|-o|--older|-y|--younger|-n|-c|--context)$/.test(w)) i++;
    else if (/^--(?:uid|euid|user)=/.test(w)) user = true;
    else if (!w.startsWith("-") || w === "-") ops.push(w);
  }
  if (p === "killall5") return "killall5 signals every process but the kernel's and its own session";
  if (user && ops.length === 0) return `${p} of every process of a user`;
  if (ops.some((w) => /^(?:\.|\.\*|\^|\$|\^\.\*\$?)$/.test(w))) return `${p} with a pattern every process matches`;
  const daemon = ops.find((w) => CRITICAL_DAEMON.test(w));
  return daemon !== undefined ? `${p} of ${daemon}, a daemon the machine's logins or network run on` : undefined;
}

/** iptables and its siblings: a flush, a deleted chain, a DROP policy, or a DROP rule with no narrowing (or on ssh). */
function firewallDown(a: readonly string[]): string | undefined {
  if (a.some((w) => w === "-L" || w === "--list" || w === "-S" || w === "--list-rules" || w === "-C" || w === "--check")) return undefined;
  if (a.some((w) => (/^-[a-zA-Z]*F$/.test(w) && !w.startsWith("--")) || w === "--flush" || w === "-X" || w === "--delete-chain")) return "flushes the firewall's rules or deletes its chains";
  const k = a.findIndex((w) => w === "-P" || w === "--policy");
  if (k > 0 && /^(?:DROP|REJECT)$/i.test(a[k + 2] ?? "")) return `sets the ${a[k + 1] ?? ""} policy to ${a[k + 2]}`;
  const j = a.findIndex((w) => w === "-j" || w === "--jump");
  const adds = a.some((w) => /^-[AI]$|^--(?:append|insert)$/.test(w));
  if (adds && j > 0 && /^(?:DROP|REJECT)$/i.test(a[j + 1] ?? "")) {
    const narrowed = a.some((w) => /^(?:-s|--source|-d|--destination|-p|--protocol|-i|--in-interface|-o|--out-interface|-m|--match|--dport|--sport)$/.test(w));
    const ssh = a.some((w, i) => (w === "--dport" || w === "--dports") && /^(?:22|ssh)$/.test(a[i + 1] ?? ""));
    if (!narrowed || ssh) return ssh ? "drops ssh traffic (a lockout)" : "drops all traffic";
  }
  return undefined;
}

const IPTABLES = /^(?:ip6?tables(?:-legacy|-nft)?|ebtables|arptables)$/;

/** The network taken down: routes and addresses flushed, links down, NetworkManager off, the firewall replaced by nothing. */
function networkDown(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  const ops = a.slice(1).filter((w) => !w.startsWith("-"));
  if (IPTABLES.test(p)) return firewallDown(a);
  if (/^ip6?tables-restore$/.test(p) && (cmd.redirects.some((r) => r.op === "<" && r.target === "/dev/null") || cmd.stdinArgs)) return "replaces the firewall's rules with none";
  if (p === "nft") {
    // `nft 'flush ruleset'`: nft joins its words into one command line.
    const w = ops.join(" ").split(/\s+/);
    return /^(?:flush|delete|destroy)$/.test(w[0] ?? "") && /^(?:ruleset|table|chain)$/.test(w[1] ?? "") ? `nft ${w[0]} ${w[1]} removes firewall rules` : undefined;
  }
  if (p === "ufw") {
    if (ops[0] === "disable" || ops[0] === "reset") return `ufw ${ops[0]} turns the firewall off or wipes its rules`;
    if (ops[0] === "default" && /^(?:deny|reject)$/.test(ops[1] ?? "") && ops[2] === "outgoing") return "ufw blocks every outgoing connection";
    if (/^(?:deny|reject)$/.test(ops[0] ?? "") && /^(?:22|22\/tcp|ssh|OpenSSH)$/.test(ops[1] ?? "")) return "ufw blocks ssh (a lockout)";
    return undefined;
  }
  if (p === "firewall-cmd") return a.includes("--panic-on") ? "firewall-cmd --panic-on drops every packet" : undefined;
  if (p === "ip") {
    const obj = ops[0] ?? "";
    if (/^(?:r|ro|rou|rout|route|-?6?)$/.test(obj) && /^(?:flush|f|del|delete)$/.test(ops[1] ?? "") && (ops[1]?.startsWith("f") || ops.includes("default") || ops.includes("0.0.0.0/0"))) return `ip route ${ops[1]} removes the machine's routes`;
    if (/^(?:a|ad|addr|address)$/.test(obj) && /^(?:flush|f)$/.test(ops[1] ?? "")) return "ip addr flush removes the machine's addresses";
    if (/^(?:l|li|lin|link)$/.test(obj) && ops[1] === "set" && ops.includes("down")) return "ip link set .. down takes an interface down";
    return undefined;
  }
  if (p === "ifdown") return ops.length > 0 || a.includes("-a") ? "ifdown takes an interface down" : undefined;
  if (p === "ifconfig") return ops.includes("down") ? "ifconfig .. down takes an interface down" : undefined;
  if (p === "nmcli") {
    const joined = ops.join(" ");
    if (/^(?:n|ne|net|netw|network|networking) off$/.test(joined) || /^(?:r|radio) (?:wifi|all|wwan) off$/.test(joined)) return `nmcli ${joined} turns networking off`;
    return undefined;
  }
  if (p === "rfkill") return ops[0] === "block" ? "rfkill blocks the radios" : undefined;
  return undefined;
}

/** `userdel`, `passwd -l`, `usermod -L`, `chage -E 0`, `echo u:p | chpasswd`: an account deleted, locked or given a new password. */
function accountChange(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  switch (p) {
    case "userdel":
    case "deluser":
    case "groupdel":
    case "delgroup":
      return `${p} deletes an account of the machine`;
    case "chpasswd":
      return "chpasswd sets account passwords";
    case "passwd":
      return a.some((w) => w === "-l" || w === "--lock" || w === "-e" || w === "--expire") ? "passwd locks or expires an account" : undefined;
    case "usermod":
      if (a.some((w) => w === "-L" || w === "--lock" || w === "-o" || w === "--non-unique")) return "usermod locks an account or gives it another's id";
      if (a.some((w, k) => (w === "-s" || w === "--shell") && /(?:nologin|false)$/.test(a[k + 1] ?? ""))) return "usermod takes an account's shell away";
      if (a.some((w, k) => (w === "-u" || w === "--uid") && a[k + 1] === "0")) return "usermod gives an account root's id";
      if (a.some((w, k) => (w === "-e" || w === "--expiredate") && /^(?:0|1|19\d\d-.*)$/.test(a[k + 1] ?? ""))) return "usermod expires an account";
      return undefined;
    case "chage":
      return a.some((w, k) => (w === "-E" || w === "--expiredate") && /^(?:0|1|19\d\d-.*)$/.test(a[k + 1] ?? "")) ? "chage expires an account" : undefined;
    default:
      return undefined;
  }
}

/** Kernel parameters a developer's tools ask to raise, and the page cache dropped: nothing taken away. */
const RAISED_LIMIT = /^(?:vm[./](?:drop_caches|compact_memory)|fs[./]inotify[./]max_\w+|vm[./]max_map_count|net[./]core[./]somaxconn|kernel[./]perf_event_paranoid)=\d+$/;

/**
 * System trees a mount or unmount changes for everything running: anywhere below the programs, libraries,
 * configuration, boot and kernel trees; the data trees and homes themselves (`/var`, `/home`, `/home/me`), not a
 * folder below them where storage is usually attached (`/srv/data`, `/home/me/nfs`, `/run/media/me/USB`), nor a
 * device named to unmount it (`umount /dev/sdb1`), nor /mnt, /media, /tmp.
 */
const SYSTEM_TREE = /^\/(?:$|(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|proc|sys)(?:\/|$)|(?:var|opt|srv|root|home|dev|run)$|(?:home|Users)\/[^/]+$)/;

/** `umount /`, `umount -a`, `mount -o remount,ro /`, `mount --bind x /etc`, `sysctl -w k=v`, `modprobe -r e1000e`. */
function kernelChange(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  const ops = a.slice(1).filter((w, k) => !w.startsWith("-") && !/^(?:-o|-t|--options|--types|-O|-L|-U|--label|--uuid)$/.test(a[k] ?? ""));
  switch (p) {
    case "umount":
      if (a.some((w) => w === "-a" || w === "--all" || (/^-[a-zA-Z]*a[a-zA-Z]*$/.test(w) && !w.startsWith("--")))) return "umount -a detaches every mounted file system";
      return ops.some((w) => SYSTEM_TREE.test(w.replace(/\/+$/, "") || "/")) ? `umount detaches ${ops.join(" ")}, a tree the running system uses` : undefined;
    case "mount": {
      if (a.some((w) => w === "-f" || w === "--fake" || w === "-l" || w === "--show-labels" || w === "-h")) return undefined;
      const opts = a.flatMap((w, k) => (w === "-o" || w === "--options" ? [a[k + 1] ?? ""] : w.startsWith("--options=") ? [w.slice(10)] : []));
      const target = ops[ops.length - 1] ?? "";
      const system = SYSTEM_TREE.test(target.replace(/\/+$/, "") || "/");
      if (opts.some((o) => /(?:^|,)remount(?:,|$)/.test(o) && /(?:^|,)(?:ro|noexec)(?:,|$)/.test(o)) && system) return `mount remounts ${target} read-only or without programs, under the running system`;
      if (system && (ops.length >= 2 || a.some((w) => /^--(?:r?bind|move)$|^-[a-zA-Z]*[BRM]$/.test(w)))) return `mount puts a file system over ${target}, hiding what the running system reads there`;
      return undefined;
    }
    case "sysctl":
      if (a.some((w) => w === "-a" || w === "--all" || w === "-N" || w === "--names")) return undefined;
      // `sysctl -w vm.drop_caches=3` only empties the page cache; `fs.inotify.max_user_watches=524288` (file watchers),
      // `vm.max_map_count=262144` (Elasticsearch) raise a limit a developer's tool asks for.
      if (ops.length > 0 && ops.every((w) => RAISED_LIMIT.test(w))) return undefined;
      if (a.some((w) => w === "-w" || w === "--write" || w === "-p" || w === "--load" || w.startsWith("--load=")) || ops.some((w) => w.includes("="))) return "sysctl changes a kernel parameter of the running machine";
      return undefined;
    case "modprobe":
      return a.some((w) => w === "-r" || w === "--remove") ? "modprobe -r unloads a kernel module" : undefined;
    case "rmmod":
      return "rmmod unloads a kernel module";
    case "mountvol":
      return a.some((w) => /^\/[dp]$/i.test(w)) ? "mountvol removes a volume's drive letter or mount point" : undefined;
    default:
      return undefined;
  }
}

/** The registry of the machine (HKLM, HKCR, HKU) and the user's environment key, as reg.exe and the registry drives spell them. */
const MACHINE_KEY = /^(?:Registry::)?(?:HKLM|HKCR|HKU|HKEY_LOCAL_MACHINE|HKEY_CLASSES_ROOT|HKEY_USERS)(?::|\\|\/|$)|^(?:HKLM|HKEY_LOCAL_MACHINE)(?:SOFTWARE|SYSTEM|HARDWARE|SAM|SECURITY)/i;
const USER_ENV_KEY = /^(?:Registry::)?(?:HKCU|HKEY_CURRENT_USER):?[\\/]+Environment[\\/]*$/i;
const REGISTRY_WRITERS = new Set(["set-itemproperty", "sp", "new-itemproperty", "remove-itemproperty", "rp", "clear-item", "cli", "clear-itemproperty", "clp", "rename-itemproperty", "rnp", "set-item", "si", "new-item", "ni"]);
/** The value a `-Name Value` pair of a PowerShell command binds (case-insensitive, any unambiguous prefix). */
function psValue(a: readonly string[], name: string): string | undefined {
  const k = a.findIndex((w) => w.startsWith("-") && w.length > 2 && name.startsWith(w.slice(1).toLowerCase().replace(/:.*$/, "")));
  if (k < 0) return undefined;
  const w = a[k] ?? "";
  return w.includes(":") ? w.slice(w.indexOf(":") + 1) : a[k + 1];
}
const TRUE = /^(?:\$true|true|1)$/i;

/** Windows: the machine's registry, Defender, firewall, adapters, accounts, tasks, event logs and PATH. */
function windowsChange(cmd: SimpleCommand, prev: string | undefined): { kind: "system-write" | "service-stop" | "power-off"; detail: string } | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  const low = a.map((w) => w.toLowerCase());
  const ops = a.slice(1).filter((w) => !/^[-/]/.test(w));
  if ((p === "reg" || p === "reg.exe") && low[1] === "add" && (MACHINE_KEY.test(a[2] ?? "") || USER_ENV_KEY.test(a[2] ?? ""))) return { kind: "system-write", detail: `reg add changes the machine's registry (${a[2]})` };
  if (REGISTRY_WRITERS.has(p)) {
    const key = psValue(a, "path") ?? psValue(a, "literalpath") ?? ops[0] ?? "";
    if (MACHINE_KEY.test(key) || (USER_ENV_KEY.test(key) && /path/i.test(psValue(a, "name") ?? ""))) return { kind: "system-write", detail: `${p} changes the registry key ${key}` };
    return undefined;
  }
  if (p === "set-mppreference" || p === "add-mppreference") {
    if (a.some((w, k) => /^-disable/i.test(w) && (w.includes(":") ? TRUE.test(w.slice(w.indexOf(":") + 1)) : a[k + 1] === undefined || a[k + 1]?.startsWith("-") || TRUE.test(a[k + 1] ?? "")))) return { kind: "system-write", detail: "turns Defender's protection off" };
    const ex = psValue(a, "exclusionpath");
    if (psValue(a, "exclusionprocess") !== undefined || psValue(a, "exclusionextension") !== undefined || (ex !== undefined && /^\/(?:$|Windows|Users\/?$|Program Files)|^\/home\/[^/]+\/?$/i.test(ex))) return { kind: "system-write", detail: "excludes a drive, a process or a file type from Defender's scans" };
    return undefined;
  }
  if (p === "net") {
    const verb = low[1] ?? "";
    // `net user bob /delete`, `/active:no`, a new password (`net user bob ""`); `net user bob /domain` only shows it.
    if (verb === "user" && a.slice(3).some((w) => !/^\/(?:domain|y|n)$/i.test(w))) return { kind: "system-write", detail: `net user changes the account ${a[2]}` };
    if (verb === "localgroup" && low.some((w) => w === "/add" || w === "/delete" || w === "/del")) return { kind: "system-write", detail: `net localgroup changes the members of ${a[2]}` };
    return undefined;
  }
  if (/^(?:remove-localuser|disable-localuser|remove-localgroupmember|rename-localuser)$/.test(p)) return { kind: "system-write", detail: `${p} deletes, disables or renames an account` };
  if (p === "set-localuser" && psValue(a, "password") !== undefined) return { kind: "system-write", detail: "Set-LocalUser replaces an account's password" };
  if (p === "add-localgroupmember" && /admin/i.test(psValue(a, "group") ?? psValue(a, "name") ?? ops[0] ?? "")) return { kind: "system-write", detail: "Add-LocalGroupMember grants administrator rights" };
  if (p === "wmic") {
    if (low.includes("useraccount") && low.some((w) => w === "delete" || w === "rename" || w === "set")) return { kind: "system-write", detail: "wmic changes or deletes an account" };
    if (low.includes("os") && low.includes("call") && low.some((w) => /^(?:shutdown|reboot|win32shutdown)$/.test(w))) return { kind: "power-off", detail: "wmic os call shuts the machine down or restarts it" };
    if (low.includes("shadowcopy") && low.includes("delete")) return { kind: "system-write", detail: "wmic deletes the volume shadow copies (the system's backups)" };
    if (low.includes("process") && low.includes("delete")) return { kind: "service-stop", detail: "wmic kills the processes its filter names" };
    if (low.includes("service") && low.includes("call") && low.some((w) => /^(?:stopservice|delete|changestartmode|pauseservice)$/.test(w))) return { kind: "service-stop", detail: "wmic stops, disables or deletes a service" };
    return undefined;
  }
  if ((p === "invoke-cimmethod" || p === "invoke-wmimethod") && /win32_operatingsystem/i.test(a.join(" ")) && /^(?:shutdown|reboot|win32shutdown(?:tracker)?)$/i.test(psValue(a, "methodname") ?? psValue(a, "name") ?? "")) return { kind: "power-off", detail: `${p} shuts the machine down or restarts it` };
  if (/win32shutdown(?:tracker)?\s*\(/.test(p)) return { kind: "power-off", detail: "Win32Shutdown logs off, shuts down or restarts the machine" };
  // `[Environment]::SetEnvironmentVariable('Path', '', 'Machine')`: the search path of every program emptied or replaced.
  const setenv = /^\[(?:system\.)?environment\]::setenvironmentvariable\(\s*['"]path['"]\s*,\s*(''|""|\$null|'[^'%$]*'|"[^"%$]*")\s*,\s*['"]?(machine|user)/.exec(p);
  if (setenv !== null) return { kind: "system-write", detail: `replaces the ${setenv[2]} PATH` };
  // `setx PATH "%PATH%;C:\tools"` keeps what was there; `setx PATH ""` or a literal without it replaces the search path.
  if (p === "setx" && /^path$/i.test(ops[0] ?? "") && !/%path%|\$\{?env:path\b|\$path\b/i.test(ops[1] ?? "") && cmd.dynamic[a.indexOf(ops[1] ?? "")] !== true) return { kind: "system-write", detail: "setx replaces the PATH" };
  if (p === "netsh") {
    const j = low.slice(1).join(" ");
    if (/\badvfirewall\b.*\bstate\s+off\b|\badvfirewall\s+reset\b|\bfirewall\s+set\s+opmode\s+(?:mode=)?disable/.test(j)) return { kind: "service-stop", detail: "netsh turns the Windows firewall off or resets its rules" };
    if (/\binterface\s+set\s+interface\b.*\b(?:disable|disabled)\b/.test(j)) return { kind: "service-stop", detail: "netsh disables a network interface" };
    return undefined;
  }
  if (p === "set-netfirewallprofile" && /^(?:\$false|false|0)$/i.test(psValue(a, "enabled") ?? "")) return { kind: "service-stop", detail: "Set-NetFirewallProfile turns the Windows firewall off" };
  if (p === "remove-netfirewallrule" || p === "disable-netfirewallrule") return a.some((w) => /^-all$/i.test(w)) || (a.length <= 3 && prev === "get-netfirewallrule") ? { kind: "service-stop", detail: `${p} removes every firewall rule` } : undefined;
  if (p === "disable-netadapter" || p === "remove-netipaddress" || (p === "remove-netroute" && /^0\.0\.0\.0\/0$|^::\/0$/.test(psValue(a, "destinationprefix") ?? "0.0.0.0/0"))) return { kind: "service-stop", detail: `${p} takes the machine's network down` };
  if (p === "ipconfig" && low.some((w) => /^\/release6?$/.test(w))) return { kind: "service-stop", detail: "ipconfig /release drops the machine's address" };
  if (p === "schtasks" && low.includes("/delete") && a.some((w, k) => /^\/tn$/i.test(a[k - 1] ?? "") && w === "*")) return { kind: "system-write", detail: "schtasks deletes every scheduled task" };
  if (p === "unregister-scheduledtask" && (psValue(a, "taskname") === "*" || ops[0] === "*" || (prev === "get-scheduledtask" && a.length <= 3))) return { kind: "system-write", detail: "Unregister-ScheduledTask deletes every scheduled task" };
  if (p === "clear-eventlog" || p === "remove-eventlog") return { kind: "system-write", detail: `${p} clears the machine's event logs` };
  if (p === "stop-process" || p === "kill" || p === "spps") {
    const names = [psValue(a, "name"), psValue(a, "processname"), ...ops].filter((w): w is string => w !== undefined);
    if (names.some((w) => w === "*" || CRITICAL_DAEMON.test(w))) return { kind: "service-stop", detail: `Stop-Process of ${names.join(" ")}` };
    if (names.length === 0 && psValue(a, "id") === undefined && (prev === "get-process" || prev === "gps" || prev === "ps")) return { kind: "service-stop", detail: "Stop-Process of every process Get-Process lists" };
    return undefined;
  }
  if (p === "taskkill") {
    const im = a.filter((_, k) => /^\/im$/i.test(a[k - 1] ?? ""));
    const filter = a.filter((_, k) => /^\/fi$/i.test(a[k - 1] ?? ""));
    if (im.some((w) => w === "*" || CRITICAL_DAEMON.test(w)) || filter.some((f) => /^\s*username\s+(?:eq|ne)\b/i.test(f))) return { kind: "service-stop", detail: "taskkill of every process, or of one the session runs on" };
    return undefined;
  }
  if ((p === "grant-smbshareaccess" || p === "new-smbshare") && (/^(?:[a-z]\$|admin\$)$/i.test(psValue(a, "name") ?? "") || /everyone/i.test(a.join(" ")) || /^\/$|^\/Windows|^\/home\/[^/]+\/?$/i.test(psValue(a, "path") ?? ""))) return { kind: "system-write", detail: `${p} opens a drive or the home to the network` };
  if (p === "bootsect" && low.some((w) => /^\/nt(?:52|60)$/.test(w))) return { kind: "system-write", detail: "bootsect rewrites a volume's boot code" };
  if (p === "logoff") return { kind: "service-stop", detail: "logoff ends the session and every program in it" };
  if (SOFTWARE_REMOVE.has(p)) return { kind: "system-write", detail: `${p} takes installed software or a Windows feature off the machine` };
  if (p === "set-service" && /^(?:disabled|stopped)$/i.test(psValue(a, "startuptype") ?? psValue(a, "status") ?? "")) return { kind: "service-stop", detail: "Set-Service disables or stops a service" };
  if (p === "disable-computerrestore") return { kind: "system-write", detail: "Disable-ComputerRestore turns the restore points off" };
  if (p === "fsutil" && low[1] === "usn" && low[2] === "deletejournal") return { kind: "system-write", detail: "fsutil deletes the volume's change journal" };
  if (p === "route" && (low.includes("-f") || (/^(?:del|delete)$/.test(low[1] ?? "") && low.some((w) => w === "default" || w === "0.0.0.0")))) return { kind: "service-stop", detail: "route deletes the default route or flushes the table" };
  return undefined;
}

/** Windows cmdlets that take software or features off the machine (like `apt purge`: asked). */
const SOFTWARE_REMOVE: ReadonlySet<string> = new Set(["uninstall-windowsfeature", "remove-windowsfeature", "disable-windowsoptionalfeature", "remove-windowscapability", "uninstall-package", "remove-appxpackage", "remove-appxprovisionedpackage"]);

/** Credential stores of the machine read out: `reg save HKLM\SAM`, a minidump of lsass (`comsvcs.dll MiniDump`, `procdump lsass`). */
function credentialDump(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  if ((p === "reg" || p === "reg.exe") && /^(?:save|export)$/i.test(a[1] ?? "") && /^(?:HKLM|HKEY_LOCAL_MACHINE)[\\/:]+(?:SAM|SECURITY|SYSTEM)[\\/]*$/i.test(a[2] ?? "")) return `reg ${a[1]} copies out ${a[2]}, the machine's password hashes and their key`;
  if (p === "rundll32" && /comsvcs/i.test(a.join(" ")) && /minidump/i.test(a.join(" "))) return "rundll32 comsvcs.dll MiniDump dumps a process's memory (lsass: every logged-on credential)";
  if ((p === "procdump" || p === "procdump64") && a.some((w) => /^lsass(?:\.exe)?$/i.test(w))) return "procdump dumps lsass, every logged-on credential";
  return undefined;
}

/** Security switches and boot or backup state of Linux and macOS: SELinux, audit, EFI boot entries, SIP, Gatekeeper, NVRAM, snapshots. */
function securityOrBoot(cmd: SimpleCommand): { kind: "system-write" | "device-write" | "service-stop" | "power-off"; detail: string } | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  switch (p) {
    case "setenforce":
      return /^(?:0|permissive)$/i.test(a[1] ?? "") ? { kind: "system-write", detail: "setenforce 0 turns SELinux enforcement off" } : undefined;
    case "auditctl":
      return a.some((w, k) => w === "-D" || (w === "-e" && a[k + 1] === "0")) ? { kind: "system-write", detail: "auditctl deletes the audit rules or turns auditing off" } : undefined;
    case "efibootmgr":
      return a.some((w) => /^(?:-B|--delete-bootnum|-O|--delete-bootorder|-A|--inactive)$/.test(w)) ? { kind: "system-write", detail: "efibootmgr deletes or disables a boot entry" } : undefined;
    case "csrutil":
      return /^(?:disable|clear)$/.test(a[1] ?? "") ? { kind: "system-write", detail: "csrutil turns System Integrity Protection off" } : undefined;
    case "spctl":
      return a.some((w) => /^--(?:master|global)-disable$/.test(w)) ? { kind: "system-write", detail: "spctl turns Gatekeeper off" } : undefined;
    case "nvram":
      return a.some((w) => w === "-c" || w === "-d") ? { kind: "system-write", detail: "nvram clears or deletes firmware variables" } : undefined;
    case "tmutil":
      return /^(?:delete|deletelocalsnapshots|disable|thinlocalsnapshots)$/.test(a[1] ?? "") ? { kind: "device-write", detail: `tmutil ${a[1]} deletes or stops the machine's backups` } : undefined;
    case "timeshift":
      return a.some((w) => w === "--delete" || w === "--delete-all") ? { kind: "device-write", detail: "timeshift deletes the machine's snapshots" } : undefined;
    case "snapper":
      return a.slice(1).some((w) => w === "delete" || w === "rm" || w === "remove") ? { kind: "device-write", detail: "snapper deletes the machine's snapshots" } : undefined;
    case "loginctl":
      return /^(?:terminate-user|kill-user|terminate-session|kill-session|terminate-seat)$/.test(a[1] ?? "") ? { kind: "service-stop", detail: `loginctl ${a[1]} ends every program of the session or user` } : undefined;
    case "launchctl":
      return /^(?:reboot|halt)$/.test(a[1] ?? "") ? { kind: "power-off", detail: `launchctl ${a[1]} restarts or halts the machine` } : undefined;
    case "systemctl":
      return a.includes("set-default") && a.some((w) => /^(?:rescue|emergency|poweroff|halt|reboot)\.target$/.test(w)) ? { kind: "system-write", detail: "systemctl set-default boots the machine into rescue mode or straight into a shutdown" } : undefined;
    case "ip":
      return /^(?:l|li|lin|link)$/.test(a[1] ?? "") && /^(?:del|delete)$/.test(a[2] ?? "") ? { kind: "service-stop", detail: "ip link delete removes a network interface" } : undefined;
    default:
      return undefined;
  }
}

const PROGRAMS: ReadonlySet<string> = new Set([
  "kill", "pkill", "killall", "killall5", "skill", "iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft", "ebtables", "arptables", "iptables-restore", "ip6tables-restore", "nft", "ufw", "firewall-cmd", "ip",
  "ifdown", "ifconfig", "nmcli", "rfkill", "userdel", "deluser", "groupdel", "delgroup", "chpasswd", "passwd", "usermod", "chage", "umount", "mount", "sysctl", "modprobe", "rmmod", "mountvol", "reg", "reg.exe", ...REGISTRY_WRITERS,
  "set-mppreference", "add-mppreference", "net", "remove-localuser", "disable-localuser", "remove-localgroupmember", "rename-localuser", "set-localuser", "add-localgroupmember", "wmic", "invoke-cimmethod", "invoke-wmimethod", "setx", "netsh",
  "set-netfirewallprofile", "remove-netfirewallrule", "disable-netfirewallrule", "disable-netadapter", "remove-netipaddress", "remove-netroute", "ipconfig", "schtasks", "unregister-scheduledtask", "clear-eventlog", "remove-eventlog", "stop-process",
  "spps", "taskkill", "grant-smbshareaccess", "new-smbshare", "bootsect", "init", "telinit", "sv", "chkconfig", "systemctl", "dbus-send", "gdbus", "osascript",
  "logoff", ...SOFTWARE_REMOVE, "set-service", "disable-computerrestore", "fsutil", "route", "rundll32", "procdump", "procdump64", "setenforce", "auditctl", "efibootmgr", "csrutil", "spctl", "nvram", "tmutil", "timeshift", "snapper", "loginctl", "launchctl",
]);

/**
 * Writes into the kernel's parameters (`echo 0 > /proc/sys/kernel/randomize_va_space`) and the device tree's switches
 * that take hardware away (`/sys/block/sda/device/delete`, a CPU offline, `/sys/power/state`); dropping the page cache
 * and a CPU governor or LED setting change nothing lasting.
 */
const KERNEL_FILE = /^\/proc\/sys\/(?!vm\/(?:drop_caches|compact_memory)$)|^\/sys\/(?:.*\/(?:delete|remove|state|online|unbind|offline)$|power\/|firmware\/efi\/efivars\/)/;

/** The machine-state effects of one simple command, read on its own. */
export function machineEffects(cmd: SimpleCommand): Effect[] {
  const p = cmd.program;
  // Most commands are none of these and write no kernel file: one set lookup and no allocation for them.
  if (cmd.redirects.length === 0 && p !== "tee" && !PROGRAMS.has(p) && p.charCodeAt(0) !== 91 && !p.includes("win32shutdown")) return NONE;
  const out: Effect[] = [];
  for (const r of cmd.redirects) if ((r.op === ">" || r.op === ">>" || r.op === ">|") && KERNEL_FILE.test(r.target)) out.push(effect("system-write", `writes ${r.target}, a kernel parameter or device of the running machine`, [r.target]));
  if (p === "tee") for (const w of cmd.argv.slice(1)) if (KERNEL_FILE.test(w)) out.push(effect("system-write", `writes ${w}, a kernel parameter or device of the running machine`, [w]));
  if (!PROGRAMS.has(p) && p.charCodeAt(0) !== 91 && !p.includes("win32shutdown")) return out.length > 0 ? out : NONE;
  if (p === "kill") {
    const k = killsEverything(cmd.argv, cmd.dynamic);
    if (k !== undefined) out.push(effect("service-stop", k));
  } else if (p === "pkill" || p === "killall" || p === "killall5" || p === "skill") {
    const k = killsByName(p, cmd.argv);
    if (k !== undefined) out.push(effect("service-stop", k));
  }
  const net = networkDown(cmd);
  if (net !== undefined) out.push(effect("service-stop", net));
  const acct = accountChange(cmd);
  if (acct !== undefined) out.push(effect("system-write", acct, ["/etc/passwd"]));
  const kern = kernelChange(cmd);
  if (kern !== undefined) out.push(effect("system-write", kern));
  // `init 1`, `telinit s`: single-user mode stops every service; `sv down sshd`, `chkconfig sshd off`.
  if ((p === "init" || p === "telinit") && /^(?:1|s|S|single)$/.test(cmd.argv[1] ?? "")) out.push(effect("service-stop", `${p} ${cmd.argv[1]}: single-user mode stops every service`));
  if (p === "sv" && /^(?:down|d|stop|kill|k|exit|x|force-stop|force-shutdown)$/.test(cmd.argv[1] ?? "")) out.push(effect("service-stop", `sv ${cmd.argv[1]} stops a service`));
  if (p === "chkconfig" && /^(?:off|--del)$/.test(cmd.argv[cmd.argv.length - 1] ?? "") || (p === "chkconfig" && cmd.argv[1] === "--del")) out.push(effect("service-stop", "chkconfig turns a service off"));
  // `systemctl start reboot.target`: the target is the shutdown itself.
  if (p === "systemctl" && cmd.argv.some((w) => /^(?:start|isolate)$/.test(w)) && cmd.argv.some((w) => /^(?:reboot|poweroff|halt|kexec|shutdown)\.target$/.test(w))) out.push(effect("power-off", "systemctl starts the shutdown target"));
  if ((p === "dbus-send" || p === "gdbus") && cmd.argv.some((w) => /login1\.Manager\.(?:PowerOff|Reboot|Halt)\b/.test(w))) out.push(effect("power-off", "asks logind to power off or restart the machine"));
  if (p === "osascript" && cmd.argv.some((w) => /\bto\s+(?:shut\s*down|restart)\b|\b(?:shut\s*down|restart)\s*(?:$|["'])/i.test(w) && /System Events|Finder|loginwindow/i.test(w))) out.push(effect("power-off", "tells macOS to shut down or restart"));
  const win = windowsChange(cmd, undefined) ?? securityOrBoot(cmd);
  if (win !== undefined) out.push(effect(win.kind, win.detail));
  const dump = credentialDump(cmd);
  if (dump !== undefined) out.push(effect("secret-read", dump));
  return out.length > 0 ? out : NONE;
}

/** A producer that lists every process, every one of a user, or a daemon's (`ps -e`, `pgrep -u me`, `pgrep sshd`), piped to kill. */
function listsProcesses(c: SimpleCommand): boolean {
  const a = c.argv;
  if (c.program === "ps") return LISTS_ALL.test(a.join(" ")) || a.length === 1;
  if (c.program !== "pgrep" && c.program !== "pidof") return false;
  const ops = a.slice(1).filter((w, k) => !w.startsWith("-") && !/^(?:-u|-U|-g|-G|-P|-t|-s)$/.test(a[k] ?? ""));
  return ops.length === 0 ? a.some((w) => w === "-u" || w === "-U") : ops.some((w) => CRITICAL_DAEMON.test(w));
}

/**
 * Effects that need the command piping into this one: `ps -e | xargs kill -9`, `Get-Process | Stop-Process`,
 * `Get-ScheduledTask | Unregister-ScheduledTask`, `Get-NetFirewallRule | Remove-NetFirewallRule`.
 */
export function pipedMachineEffects(producer: SimpleCommand, cmd: SimpleCommand): Effect[] {
  if (cmd.program === "kill" && cmd.stdinArgs && listsProcesses(producer)) return [effect("service-stop", `kill of every process ${producer.program} lists`)];
  // `echo '' | iptables-restore`: the firewall's rules replaced by an empty set.
  if (/^ip6?tables-restore$/.test(cmd.program) && producer.pipeTo[0] === cmd.program && (producer.program === "echo" || producer.program === "printf" || producer.program === "true") && producer.argv.slice(1).every((w) => w.trim() === "" || w.startsWith("-"))) return [effect("service-stop", "replaces the firewall's rules with none")];
  if (!cmd.via.includes("powershell") || producer.pipeTo[0] !== cmd.program) return NONE;
  // Only a bare listing (`Get-Process |`) hands on everything; `Get-Process -Name dotnet |` hands on what it names.
  const win = windowsChange(cmd, producer.argv.length === 1 ? producer.program : undefined);
  return win === undefined || windowsChange(cmd, undefined) !== undefined ? NONE : [effect(win.kind, win.detail)];
}
