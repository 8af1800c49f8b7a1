/**
 * @module the `shepherd hook <agent>` face: wires the disk caches and the plugin provider into runHook.
 * Bundled into the binary's entry (lib/hook/entry.ts), apart from main.ts, so a hook process loads only the modules it needs.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { HookEvent } from "../engine/schema.ts";
import { log } from "../log.ts";
import { fileRuleSnapshots } from "../rules/hook-snapshot.ts";
import { fileLoadCache } from "../rules/load-cache.ts";
import { agentDir, homeDir } from "../rules/paths.ts";
import { VERSION } from "../version.ts";
import { hookEnv } from "./env.ts";
import { runHook } from "./run.ts";
import { startWatchdog } from "./watchdog.ts";
import { TelemetrySink } from "../telemetry/telemetry-sink.ts";
import { telemetryStatusFile } from "../telemetry/telemetry-status.ts";

/**
 * A hook process exports its decision's span after the answer is written, within this bound: the agent waits
 * for the process to end, so an endpoint that is slow costs at most this, and one that is down about nothing.
 * With telemetry off nothing is queued and the SDK is never loaded.
 */
export const HOOK_TELEMETRY_MS = 300;

/** `startedAt`: when the process began (the entry's first line), which is where the deadline counts from. */
export async function runHookFace(agent: string, given: Record<string, string | undefined>, cwd: string, startedAt = Date.now()): Promise<number> {
  const { env, dropped } = hookEnv(given, cwd);
  for (const why of dropped) log.warning(`shepherd hook: ${why}`);
  // Entries of another build are ignored: the binary's size and mtime stand for the loader's version.
  const self = statSync(process.execPath);
  const cacheDir = join(agentDir(env), "shepherd", "cache");
  const salt = `${VERSION}:${self.size}:${self.mtimeMs}`;
  const loadCache = fileLoadCache(cacheDir, salt);
  const snapshots = (events: readonly HookEvent[]) => fileRuleSnapshots(cacheDir, salt, events, homeDir(env));
  // Imported on demand: the plugin host's modules cost every hook process start-up time, and few need them.
  const loadPlugins = async () =>
    (await import("../plugins/provider.ts")).createPluginProvider({
      env,
      onIssue: (_cwd, issue) => {
        const level = issue.severity === "error" ? "error" : "warning";
        log[level](`plugin ${issue.file}${issue.path ? ` ${issue.path}` : ""}: ${issue.message}`);
      },
    });
  // No timer fires before the flush below: the batch waits for the answer (an export must never race it).
  const telemetry = new TelemetrySink({ env, face: "hook", version: VERSION, log, batchMs: 3_600_000, maxExportMs: HOOK_TELEMETRY_MS - 50, reportMarker: join(cacheDir, "telemetry-reported"), statusFile: telemetryStatusFile(env) });
  const code = await runHook(agent, { env, cwd, loadCache, snapshots, loadPlugins, startedAt, watchdog: startWatchdog, telemetry });
  // The answer is on stdout already: only now may telemetry take any time.
  if (telemetry.pending) await telemetry.close(HOOK_TELEMETRY_MS);
  return code;
}
