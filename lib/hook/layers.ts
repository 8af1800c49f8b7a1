/**
 * @module how a hook process loads a project's rules: once, compiled on first use, from the disk caches
 * (load-cache.ts, hook-snapshot.ts). This is the one-shot side of the Workspace's `openHost` seam: the
 * long-running service knows nothing of snapshots, load caches or lazy compiling.
 */
import type { RuleSnapshots } from "../rules/hook-snapshot.ts";
import { RuleHost, type RuleHostOptions } from "../rules/host.ts";
import type { RuleLoadCache } from "../rules/load-cache.ts";
import type { Env } from "../rules/paths.ts";
import type { PluginProvider } from "../rules/workspace.ts";
import { normalJitPolicy } from "../jit-policy.ts";

export interface HookLayerSources {
  /** Loaded rule files kept across hook processes; none in tests. */
  loadCache?: RuleLoadCache;
  /** Merged rule sets kept across hook processes, already narrowed to this process's events. */
  snapshots?: RuleSnapshots;
  /** A provider given up front (tests): rules are then merged with its names from the start. */
  plugins?: PluginProvider;
}

/**
 * The rule hosts of one hook process. Plugins are decided after the first load (few rule sets need them,
 * and loading them starts a worker): `usePlugins` merges the rules already read again with the plugins'
 * names, so the process loads its project once and evaluates through one Workspace.
 */
export class HookLayers {
  readonly #env: Env;
  readonly #sources: HookLayerSources;
  #plugins: PluginProvider | undefined;
  readonly #hosts = new Map<string, RuleHost>();

  constructor(env: Env, sources: HookLayerSources) {
    this.#env = env;
    this.#sources = sources;
    this.#plugins = sources.plugins;
  }

  get plugins(): PluginProvider | undefined {
    return this.#plugins;
  }

  /** The rules of a project folder, loaded on first ask. */
  host(cwd: string): RuleHost {
    return this.open({ cwd, env: this.#env });
  }

  /** The Workspace's `openHost`: the host this process already loaded for the folder, or a new one. */
  readonly open = (base: RuleHostOptions): RuleHost => {
    const known = this.#hosts.get(base.cwd);
    if (known) return known;
    const { loadCache } = this.#sources;
    const snapshots = this.#snapshots();
    const host = new RuleHost({
      ...(base.builtin ? { builtin: base.builtin } : {}),
      cwd: base.cwd,
      env: this.#env,
      lazyCompile: true,
      ...(loadCache ? { loadCache } : {}),
      ...(snapshots ? { snapshots } : {}),
      plugins: () => this.#plugins?.names(base.cwd),
    });
    this.#hosts.set(base.cwd, host);
    this.#hosts.set(host.cwd, host);
    return host;
  };

  /** Merges every loaded project again with the plugins' names (their files are not parsed again). */
  usePlugins(provider: PluginProvider): void {
    this.#plugins = provider;
    for (const host of new Set(this.#hosts.values())) host.reload();
  }

  /** A snapshot holds no plugin-provided rules: once plugins are in, rules are loaded and merged in full. */
  #snapshots(): RuleSnapshots | undefined {
    const store = this.#sources.snapshots;
    if (!store) return undefined;
    return {
      load: (cwd, key) => {
        const rules = this.#plugins ? undefined : store.load(cwd, key);
        // A miss loads, checks and compiles every rule: work the JIT pays for (lib/jit-policy.ts).
        if (!rules) normalJitPolicy();
        return rules;
      },
      save: (cwd, key, set, prints) => {
        if (!this.#plugins) store.save(cwd, key, set, prints);
      },
      prints: (cwd) => (this.#plugins ? undefined : store.prints?.(cwd)),
      refreshPrints: (cwd, key, prints) => {
        if (!this.#plugins) store.refreshPrints?.(cwd, key, prints);
      },
    };
  }
}
