/** @module unit tests: a hook process loads its project once, through the Workspace's openHost seam, plugins or not. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadResult } from "../engine/load.ts";
import { needsPlugins } from "../engine/merge.ts";
import type { RuleSnapshots } from "../rules/hook-snapshot.ts";
import type { RuleLoadCache } from "../rules/load-cache.ts";
import { type PluginProvider, Workspace } from "../rules/workspace.ts";
import { HookLayers } from "./layers.ts";

let root = "";
let cwd = "";
let env: Record<string, string> = {};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-layers-"));
  cwd = join(root, "p");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  env = { HOME: join(root, "home"), PI_CODING_AGENT_DIR: join(root, "agent") };
  mkdirSync(env.PI_CODING_AGENT_DIR as string, { recursive: true });
  writeFileSync(
    join(env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"),
    JSON.stringify([
      { name: "global-block", action: "block", pattern: "shred", reason: "no" },
      { name: "by-plugin", action: "plugin-act", pattern: "deploy" },
    ]),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A load cache in memory that counts how often a file's text is asked for and parsed. */
function countingCache() {
  const entries = new Map<string, LoadResult>();
  const calls = { get: 0, set: 0 };
  const cache: RuleLoadCache = {
    get: (file, source, text) => {
      calls.get++;
      return entries.get(`${file}\0${source}\0${text}`);
    },
    set: (file, source, text, result) => {
      calls.set++;
      entries.set(`${file}\0${source}\0${text}`, result);
    },
  };
  return { cache, calls };
}

function countingSnapshots() {
  const calls = { load: 0, save: 0 };
  const snapshots: RuleSnapshots = {
    load: () => {
      calls.load++;
      return undefined;
    },
    save: () => {
      calls.save++;
    },
  };
  return { snapshots, calls };
}

const provider: PluginProvider = {
  names: () => ({ actions: new Set(["plugin-act"]), checks: new Set() }),
  evalHost: () => ({}),
};

const active = (names: readonly { name: string }[]) => names.map((r) => r.name).sort();

describe("HookLayers", () => {
  it("should hand the Workspace the host it already loaded for the folder", () => {
    const layers = new HookLayers(env, {});
    const first = layers.host(cwd);
    const ws = new Workspace({ env, cwd, watch: false, openHost: layers.open }, "test");
    try {
      expect(ws.host(cwd)).toBe(first);
      expect(layers.host(join(cwd, "."))).toBe(first);
    } finally {
      ws.close();
    }
  });

  it("should merge the rules it read again with the plugins' names, without parsing a file twice or using the snapshot", () => {
    const { cache, calls } = countingCache();
    const snap = countingSnapshots();
    const layers = new HookLayers(env, { loadCache: cache, snapshots: snap.snapshots });
    const host = layers.host(cwd);
    expect(needsPlugins(host.ruleSet)).toBe(true);
    expect(active(host.ruleSet.rules)).not.toContain("by-plugin");
    const before = { ...calls };
    const snapBefore = { ...snap.calls };
    expect(before.get).toBeGreaterThan(0);

    layers.usePlugins(provider);
    expect(layers.host(cwd)).toBe(host);
    expect(active(host.ruleSet.rules)).toContain("by-plugin");
    expect(needsPlugins(host.ruleSet)).toBe(false);
    expect(calls).toEqual(before);
    expect(snap.calls).toEqual(snapBefore);
  });

  it("should ask the snapshot store while no plugin is in", () => {
    const snap = countingSnapshots();
    const layers = new HookLayers(env, { snapshots: snap.snapshots });
    layers.host(cwd);
    expect(snap.calls.load).toBe(1);
  });

  it("should merge with a provider given up front from the first load", () => {
    const layers = new HookLayers(env, { plugins: provider });
    expect(layers.plugins).toBe(provider);
    const rules = active(layers.host(cwd).ruleSet.rules);
    expect(rules).toContain("by-plugin");
    expect(rules).toContain("global-block");
  });
});
