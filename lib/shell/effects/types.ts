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
] as const;
export type EffectKind = (typeof EFFECT_KINDS)[number];

/** What a network send carries (env, secret, file); for permissions, "secret" (a key made readable) or "unsafe-mode" (777, setuid, 000). */
export const EFFECT_DATA = ["env", "secret", "file", "unsafe-mode"] as const;
export type EffectData = (typeof EFFECT_DATA)[number];

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
  /** One line for `rules explain`. */
  detail: string;
}

export function effect(kind: EffectKind, detail: string, paths: string[] = [], opts: Partial<Omit<Effect, "kind" | "detail" | "paths">> = {}): Effect {
  return { kind, paths, dynamic: opts.dynamic ?? paths.map(() => false), recursive: opts.recursive ?? false, detail, ...(opts.data ? { data: opts.data } : {}), ...(opts.branches ? { branches: opts.branches } : {}) };
}
