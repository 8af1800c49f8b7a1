/**
 * @module the Workspace's plugin seam (`PluginProvider`): one PluginRegistry per project folder, fed
 * with that project's settings and trust, loaded on first use and reloaded on change.
 */
import { join, resolve } from "node:path";
import type { EvalHost } from "../engine/evaluate.ts";
import type { LoadIssue } from "../engine/schema.ts";
import { agentDir, type Env, projectPiDir } from "../rules/paths.ts";
import { loadSettings } from "../rules/settings.ts";
import type { PluginProvider } from "../rules/workspace.ts";
import { type PluginDir, type PluginInfo, PluginRegistry } from "./registry.ts";

/** The three plugin folders of a project: embedded, `~/.pi/agent/shepherd/plugins/`, `<cwd>/.pi/shepherd/plugins/`. */
export function pluginDirs(cwd: string, env: Env): PluginDir[] {
  return [
    { dir: "plugins", source: "builtin" },
    { dir: join(agentDir(env), "shepherd", "plugins"), source: "global" },
    { dir: join(projectPiDir(cwd), "shepherd", "plugins"), source: "project" },
  ];
}

export interface PluginProviderOptions {
  env: Env;
  /** Load failures and runtime failures of plugins, for the log and `notifications/message`. */
  onIssue?: (cwd: string, issue: LoadIssue) => void;
  /** Overrides the plugin folders (tests). */
  dirs?: (cwd: string) => PluginDir[];
}

interface Entry {
  registry: PluginRegistry;
  ready: Promise<void>;
  issues: LoadIssue[];
  listeners: Set<() => void>;
}

export interface WorkspacePlugins extends PluginProvider {
  /** Resolves once the project's plugins are loaded; await it before the first merge of a project (one-shot faces). */
  ready(cwd: string): Promise<void>;
  /** Which plugin file provides which action and check, for `rules list`. */
  describe(cwd: string): PluginInfo[];
  /** Load issues of the last load (untrusted project plugins, broken files, clashes). */
  issues(cwd: string): LoadIssue[];
}

export function createPluginProvider(opts: PluginProviderOptions): WorkspacePlugins {
  const entries = new Map<string, Entry>();
  const dirsOf = opts.dirs ?? ((cwd: string) => pluginDirs(cwd, opts.env));

  const settingsOf = (cwd: string) => {
    const { settings, trusted } = loadSettings(cwd, opts.env);
    return { trusted, timeoutMs: settings.pluginTimeoutMs, failMode: settings.failMode, loadTimeoutMs: settings.pluginLoadTimeoutMs };
  };

  const entry = (cwdIn: string): Entry => {
    const cwd = resolve(cwdIn);
    const found = entries.get(cwd);
    if (found) return found;
    const s = settingsOf(cwd);
    const registry = new PluginRegistry({
      timeoutMs: s.timeoutMs,
      ...(typeof s.loadTimeoutMs === "number" ? { loadTimeoutMs: s.loadTimeoutMs } : {}),
      failMode: s.failMode,
      onIssue: (issue) => opts.onIssue?.(cwd, issue),
    });
    const e: Entry = { registry, issues: [], listeners: new Set(), ready: Promise.resolve() };
    const report = (issues: LoadIssue[]) => {
      e.issues = issues;
      for (const i of issues) opts.onIssue?.(cwd, i);
    };
    e.ready = registry.load(dirsOf(cwd), { trusted: s.trusted, projectDir: cwd }).then((r) => {
      report(r.issues);
      // Rules merged before the plugins were known skipped their plugin actions: merge again.
      if (r.actions.size > 0 || r.checks.size > 0) for (const l of e.listeners) l();
    });
    entries.set(cwd, e);
    return e;
  };

  return {
    names(cwd) {
      const e = entry(cwd);
      const s = settingsOf(cwd);
      e.registry.configure({ timeoutMs: s.timeoutMs, failMode: s.failMode });
      // The trust decision changed (shepherd trust / --revoke): project plugins come or go.
      if (e.registry.trusted !== undefined && e.registry.trusted !== s.trusted) {
        e.ready = e.registry.reload({ trusted: s.trusted, projectDir: resolve(cwd) }).then((r) => {
          e.issues = r.issues;
          for (const i of r.issues) opts.onIssue?.(resolve(cwd), i);
          for (const l of e.listeners) l();
        });
      }
      return e.registry.names();
    },
    evalHost(cwd): EvalHost {
      return entry(cwd).registry.host();
    },
    watch(cwd, onChange) {
      const e = entry(cwd);
      e.listeners.add(onChange);
      e.ready.then(() =>
        e.registry.watch((r) => {
          e.issues = r.issues;
          for (const i of r.issues) opts.onIssue?.(resolve(cwd), i);
          onChange();
        }),
      );
    },
    ready(cwd) {
      return entry(cwd).ready;
    },
    describe(cwd) {
      return entry(cwd).registry.describe();
    },
    issues(cwd) {
      return entry(cwd).issues;
    },
    close() {
      for (const e of entries.values()) e.registry.close();
      entries.clear();
    },
  };
}
