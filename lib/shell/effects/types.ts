/** @module the effect vocabulary: what one simple command does to files, git, the network and the machine. */

export const EFFECT_KINDS = [
  "delete",
  "truncate",
  "move-away",
  "discard-work",
  "destroy-history",
  "remote-branch",
  "network-send",
  "remote-code",
  "decoded-code",
  "device-write",
  "permissions",
  "spawn-unbounded",
  "publish",
  "secret-read",
  "system-write",
  "power-off",
  "remote-delete",
  "service-stop",
  "process-kill",
  "uninstall",
  "unguarded-agent",
  "local-request",
] as const;
export type EffectKind = (typeof EFFECT_KINDS)[number];

/** What a network send carries (env, secret, file); for permissions, "secret" (a key made readable) or "unsafe-mode" (777, setuid, 000). */
export const EFFECT_DATA = ["env", "secret", "file", "unsafe-mode"] as const;
export type EffectData = (typeof EFFECT_DATA)[number];

/**
 * What a kill, an uninstall, an agent start or a local request reaches, as the command names it: a literal name
 * (`killall shepherd`, a package, an extension), a regular expression over process names or command lines
 * (`pkill -f 'sh.pherd'`, `pgrep x | xargs kill`), a PowerShell or cmd wildcard (`Stop-Process -Name shep*`),
 * free text a name may occur in (`kill $(cat /run/x.pid)`, a URL path, an extension's path), a TCP or UDP port or
 * range whose listener is killed (`fuser -k 7373/tcp`, `lsof -ti :7000-8000 | xargs kill`; met by a name `:7373`), or
 * what the line does not show (`unknown`: a pattern, port or settings file computed at run time, pids from a process
 * listing that names nothing), which reaches no name and is matched by `unknownTarget`.
 */
export interface Target {
  text: string;
  match: "exact" | "regex" | "glob" | "text" | "port" | "unknown";
  ignoreCase?: boolean;
  /** The regex is tested against whole command lines (`pkill -f`), not only process names. */
  fullLine?: boolean;
}

export interface Effect {
  kind: EffectKind;
  /** Path words it acts on, as written after expansion (resolved against the command's cwd when matched). */
  paths: string[];
  /** Per path: true when it still holds something unresolvable ($UNKNOWN, $(cmd)). */
  dynamic: boolean[];
  recursive: boolean;
  data?: EffectData;
  /** Remote branches it deletes or rewrites (remote-branch). */
  branches?: string[];
  /** Processes, packages, extensions or routes it reaches (process-kill, uninstall, unguarded-agent, local-request). */
  targets?: Target[];
  /** One line for `rules explain`. */
  detail: string;
}

export function effect(kind: EffectKind, detail: string, paths: string[] = [], opts: Partial<Omit<Effect, "kind" | "detail" | "paths">> = {}): Effect {
  return { kind, paths, dynamic: opts.dynamic ?? paths.map(() => false), recursive: opts.recursive ?? false, detail, ...(opts.data ? { data: opts.data } : {}), ...(opts.branches ? { branches: opts.branches } : {}), ...(opts.targets ? { targets: opts.targets } : {}) };
}
