/**
 * @module service effects as one table: which CLIs stop, evict or remove what runs or is installed on a machine or
 * cluster (systemctl stop, kubectl drain, docker stop of every container, apt purge), which volume managers destroy
 * arrays and volumes (mdadm, btrfs, dmsetup, lvreduce), and the command path of a service CLI read past the
 * options that take a value (`aws --profile prod ec2 ...`, `kubectl -n ns delete ...`).
 */
import type { SimpleCommand } from "../types.ts";
import { effect, type Effect } from "./types.ts";

const NONE: ReadonlySet<string> = new Set();

/**
 * The operands of a command, the values of its options skipped: an option in `valued` takes the next word
 * (`-n prod`), `--x=v` and attached short values (`-nprod` when `-n` is valued) carry their own. Stops at `--`.
 */
export function operandsPast(a: readonly string[], valued: ReadonlySet<string>, from = 1): string[] {
  const out: string[] = [];
  for (let i = from; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w === "--") break;
    if (w.length > 1 && w.startsWith("-")) {
      if (!w.includes("=") && valued.has(w)) i++;
      continue;
    }
    out.push(w);
  }
  return out;
}

/**
 * The command path of a CLI whose global options come first and nearly all take a value (aws, az, gcloud):
 * leading options are skipped with their value (booleans named in `flags` alone), then the words up to the next option.
 */
export function leadingPath(a: readonly string[], flags: ReadonlySet<string>): string[] {
  let i = 1;
  for (; i < a.length; i++) {
    const w = a[i] ?? "";
    if (!w.startsWith("-") || w === "-") break;
    if (!w.includes("=") && w.startsWith("--") && !flags.has(w)) i++;
  }
  const out: string[] = [];
  for (; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w.startsWith("-")) break;
    out.push(w);
  }
  return out;
}

/** Global options of kubectl and oc that take a value, and those of `delete`/`scale`/`apply` read here. */
export const KUBECTL_VALUED: ReadonlySet<string> = new Set(["-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s", "--server", "--token", "--as", "--as-group", "-v", "--request-timeout", "--cache-dir", "-f", "--filename", "-k", "--kustomize", "-l", "--selector", "--field-selector", "-o", "--output", "--grace-period", "--timeout", "--replicas", "--current-replicas", "-c", "--container"]);

/** `--replicas=0`, `--replicas 0`: every pod of the workload stops. */
function scalesToZero(a: readonly string[]): boolean {
  return a.some((w, k) => w === "--replicas=0" || (w === "--replicas" && a[k + 1] === "0"));
}

/** What a kubectl/oc command stops or evicts without deleting: drain, cordon, a NoExecute taint, scale to zero. */
function clusterStop(a: readonly string[], verb: string): string | undefined {
  if (verb === "drain" || verb === "cordon") return `${verb} evicts or fences off a node's workloads`;
  // `key=v:NoExecute-` removes the taint; without the dash the node's pods that do not tolerate it are evicted.
  if (verb === "taint" && a.some((w) => /:NoExecute$/.test(w))) return "a NoExecute taint evicts the node's pods";
  if (verb === "scale" && scalesToZero(a)) return "scale to zero stops every pod of the workload";
  return undefined;
}

/** kubectl's `--dry-run[=client|server]` as an option (not another option's value, not after `--`), the last one winning. */
function previews(a: readonly string[]): boolean {
  let preview = false;
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (w === "--") break;
    if (w === "--dry-run") preview = true;
    else if (w.startsWith("--dry-run=")) preview = !/^--dry-run=(?:none|false)$/.test(w);
    else if (!w.includes("=") && KUBECTL_VALUED.has(w)) i++;
  }
  return preview;
}

/** Options of `systemctl` that take a value, so that `-t service stop` still finds `stop`. */
const SYSTEMCTL_VALUED: ReadonlySet<string> = new Set(["-t", "--type", "-p", "--property", "-H", "--host", "-M", "--machine", "-s", "--signal", "--state", "--root", "-n", "--lines", "-o", "--output", "--kill-whom"]);
const SYSTEMCTL_STOPS = /^(?:stop|disable|mask|isolate|kill|freeze)$/;
/** Init systems' per-service scripts: `service NAME stop`, `rc-service NAME stop`, `/etc/init.d/NAME stop`. */
const INIT_SCRIPTS = new Set(["service", "rc-service", "invoke-rc.d"]);

function serviceStop(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  if (p === "systemctl") {
    const verb = operandsPast(a, SYSTEMCTL_VALUED)[0] ?? "";
    return SYSTEMCTL_STOPS.test(verb) ? `systemctl ${verb} stops or disables a service` : undefined;
  }
  if (INIT_SCRIPTS.has(p)) {
    const ops = operandsPast(a, NONE);
    return /^(?:stop|disable|zap)$/.test(ops[1] ?? "") ? `${p} ${ops[0] ?? ""} ${ops[1]} stops a service` : undefined;
  }
  if (/^\/etc\/(?:rc\.d\/)?init\.d\/./.test(a[0] ?? "") && /^(?:stop|disable)$/.test(a[1] ?? "")) return `${a[0]} ${a[1]} stops a service`;
  if (p === "launchctl") return /^(?:bootout|unload|remove|disable|kill)$/.test(a[1] ?? "") ? `launchctl ${a[1]} stops or removes a service` : undefined;
  if (p === "kubectl" || p === "oc") {
    const ops = operandsPast(a, KUBECTL_VALUED);
    return clusterStop(a, ops[0] ?? "");
  }
  if (p === "docker" || p === "podman" || p === "nerdctl") {
    // `docker stop $(docker ps -q)`, `docker ps -q | xargs docker kill`: every running container, not a named one.
    const k = a.findIndex((w, i) => i > 0 && !w.startsWith("-"));
    const verb = a[k] === "container" ? (a[k + 1] ?? "") : (a[k] ?? "");
    if ((verb === "stop" || verb === "kill" || verb === "pause") && (cmd.stdinArgs || a.some((w, i) => i > k && cmd.dynamic[i]) || a.includes("-a") || a.includes("--all"))) return `${p} ${verb} of containers named by a listing (every one)`;
    return undefined;
  }
  if (p === "redis-cli" || p === "valkey-cli") {
    const ops = operandsPast(a, REDIS_VALUED).map((w) => w.toUpperCase());
    if (ops[0] === "SHUTDOWN" || (ops[0] === "DEBUG" && /^(?:SEGFAULT|CRASH-AND-RECOVER|RELOAD|RESTART|SLEEP|OOM|PANIC)$/.test(ops[1] ?? ""))) return `${p} ${ops.slice(0, 2).join(" ")} stops the server`;
    return undefined;
  }
  if (p === "pulumi") return operandsPast(a, NONE)[0] === "cancel" ? "pulumi cancel aborts an update half-way" : undefined;
  if (p === "nomad") {
    const ops = operandsPast(a, NONE);
    return ops[0] === "job" && ops[1] === "stop" ? "nomad job stop stops every allocation of the job" : undefined;
  }
  // `gh workflow disable`, `gh run cancel`: CI stops running, a deploy stops half-way.
  if (p === "gh") {
    const ops = operandsPast(a, GH_VALUED);
    return (ops[0] === "workflow" && ops[1] === "disable") || (ops[0] === "run" && ops[1] === "cancel") ? `gh ${ops[0]} ${ops[1]}` : undefined;
  }
  // HAProxy's runtime API read from a pipe: `echo 'disable server be/web1' | socat stdio /run/haproxy.sock`.
  if ((p === "echo" || p === "printf") && cmd.pipeTo.some((t) => t === "socat" || t === "nc" || t === "ncat")) return HAPROXY_STOP.test(a.slice(1).join(" ")) ? "disables servers or shuts sessions down through HAProxy's runtime API" : undefined;
  // `sudo killall -9 postgres`, `sudo pkill -f nginx`: as root, by name, every matching process of every user.
  if ((p === "killall" || p === "pkill") && cmd.via.some((v) => v === "sudo" || v === "doas") && !a.some((w) => w === "-0" || w === "-l" || w === "--list" || w === "-s0" || w === "--signal=0")) return `${p} as root stops every matching process, services included`;
  if ((p === "sc" || p === "sc.exe" || p === "net") && /^(?:stop|pause)$/i.test(a[1] ?? "")) return `${p} ${a[1]} stops a Windows service`;
  if (p === "stop-service") return "Stop-Service stops a Windows service";
  return undefined;
}

const GH_VALUED: ReadonlySet<string> = new Set(["-R", "--repo", "--hostname"]);
const HAPROXY_STOP = /\b(?:disable\s+(?:server|frontend|backend|health|agent)|shutdown\s+(?:sessions|session|frontend)|set\s+server\s+\S+\s+state\s+(?:maint|drain)|del\s+(?:map|acl|server)|clear\s+(?:table|map|acl))\b/i;

/** Options of redis-cli that take a value, so that `-h host -n 2 FLUSHDB` finds its command. */
export const REDIS_VALUED: ReadonlySet<string> = new Set(["-h", "-p", "-s", "-a", "--user", "--pass", "-u", "-n", "-r", "-i", "--pattern", "--count", "--eval", "--tls-cert", "--key", "--cacert", "--sni", "--quoted-pattern"]);

/** Package managers of the machine (not a project's) and the subcommands that take software off it. */
const PACKAGE_REMOVE: ReadonlyMap<string, RegExp> = new Map([
  ["apt", /^(?:remove|purge|autoremove|autopurge)$/],
  ["apt-get", /^(?:remove|purge|autoremove|autopurge)$/],
  ["aptitude", /^(?:remove|purge)$/],
  ["dnf", /^(?:remove|erase|autoremove)$/],
  ["yum", /^(?:remove|erase|autoremove)$/],
  ["microdnf", /^remove$/],
  ["zypper", /^(?:remove|rm)$/],
  ["apk", /^del$/],
  ["brew", /^(?:uninstall|remove|rm)$/],
  ["port", /^uninstall$/],
  ["snap", /^remove$/],
  ["flatpak", /^(?:uninstall|remove)$/],
  ["choco", /^uninstall$/],
  ["winget", /^uninstall$/],
]);
/** apt's simulate flags, dnf's answer-no: the removal is printed, not done. */
const PACKAGE_DRY = /^(?:-s|--simulate|--dry-run|--just-print|--no-act|--recon|--assumeno|--dryrun|--what-if|-n)$/;

function packageRemove(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  if (p === "pacman" && a.some((w) => /^-R[a-zA-Z]*$/.test(w) || w === "--remove") && !a.some((w) => w === "-p" || w === "--print")) return "pacman -R removes installed packages";
  const verbs = PACKAGE_REMOVE.get(p);
  if (verbs === undefined || a.some((w) => PACKAGE_DRY.test(w))) return undefined;
  const verb = operandsPast(a, new Set(["-o", "-c", "-t", "--option", "--config-file", "--target-release"])).find((w) => verbs.test(w));
  return verb === undefined ? undefined : `${p} ${verb} takes installed software off the machine`;
}

/** Volume managers whose subcommands or flags destroy arrays, subvolumes and logical volumes. */
function volumeDestroy(cmd: SimpleCommand): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  const ops = p === "btrfs" || p === "dmsetup" || p === "diskutil" ? operandsPast(a, NONE) : [];
  switch (p) {
    case "mdadm":
      return a.some((w) => /^(?:--stop|-S|--remove|-r|--fail|-f|--zero-superblock|--create|-C|--grow|-G)$/.test(w)) ? "mdadm stops, recreates or takes a drive out of a RAID array" : undefined;
    case "btrfs":
      return (/^(?:subvolume|sub|su)$/.test(ops[0] ?? "") && /^(?:delete|del|de)$/.test(ops[1] ?? "")) || (/^(?:device|dev)$/.test(ops[0] ?? "") && /^(?:remove|delete|del)$/.test(ops[1] ?? "")) ? `btrfs ${ops[0]} ${ops[1]} destroys a subvolume or takes a device out` : undefined;
    case "dmsetup":
      return /^(?:remove|remove_all|wipe_table|clear)$/.test(ops[0] ?? "") ? `dmsetup ${ops[0]} removes device mappings` : undefined;
    case "lvreduce":
      return "lvreduce shrinks a logical volume (the data past the new end is lost)";
    case "lvresize":
      return a.some((w) => /^-[lL]-|^--size=-|^--extents=-/.test(w)) || a.some((w, k) => (w === "-L" || w === "-l" || w === "--size" || w === "--extents") && (a[k + 1] ?? "").startsWith("-")) ? "lvresize shrinks a logical volume" : undefined;
    case "vgreduce":
      return "vgreduce takes a physical volume out of a volume group";
    case "umount":
      // A forced or lazy unmount of a busy file system: writes in flight are lost.
      return a.some((w) => /^-[a-zA-Z]*[fl][a-zA-Z]*$/.test(w) && !w.startsWith("--")) || a.includes("--force") || a.includes("--lazy") ? "umount -f detaches a busy file system" : undefined;
    case "diskutil":
      return /^apfs$/i.test(ops[0] ?? "") && /^(?:delete\w*|erase\w*)$/i.test(ops[1] ?? "") ? `diskutil apfs ${ops[1]} deletes APFS volumes` : undefined;
    default:
      return undefined;
  }
}

const PROGRAMS: ReadonlySet<string> = new Set(["systemctl", ...INIT_SCRIPTS, "launchctl", "kubectl", "oc", "docker", "podman", "nerdctl", "redis-cli", "valkey-cli", "pulumi", "sc", "sc.exe", "net", "stop-service", "nomad", "gh", "echo", "printf", "killall", "pkill", "pacman", "mdadm", "btrfs", "dmsetup", "lvreduce", "lvresize", "vgreduce", "umount", "diskutil"]);

/**
 * What stops services (`service-stop`), takes software off the machine (`system-write`) or destroys volumes
 * (`device-write`); help forms print and do nothing.
 */
export function serviceEffects(cmd: SimpleCommand): Effect[] {
  // Most commands are none of these: one set lookup before any scan of the words.
  if (!PROGRAMS.has(cmd.program) && !PACKAGE_REMOVE.has(cmd.program) && !(cmd.argv[0] ?? "").startsWith("/etc/")) return [];
  // Help, and kubectl's client or server dry run (`--dry-run=none` runs for real).
  // `-h` alone is help; after other words it may be a host (`redis-cli -h cache SHUTDOWN`).
  if ((cmd.argv.length === 2 && cmd.argv[1] === "-h") || cmd.argv[1] === "help" || cmd.argv.includes("--help") || previews(cmd.argv)) return [];
  const out: Effect[] = [];
  const stop = serviceStop(cmd);
  if (stop !== undefined) out.push(effect("service-stop", stop));
  const removed = packageRemove(cmd);
  if (removed !== undefined) out.push(effect("system-write", removed, ["/usr"]));
  const vol = volumeDestroy(cmd);
  if (vol !== undefined) out.push(effect("device-write", vol, operandsPast(cmd.argv, NONE)));
  return out;
}
