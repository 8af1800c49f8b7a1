/**
 * @module stdio round-trip: `shepherd serve` against the echo floor, the two interleaved request by request
 * so both see the same machine. One request in flight at a time: this is latency, not throughput.
 *
 * Where the processes run decides most of a round-trip on a small VM: a server waking on the client's
 * vCPU answers in ~30 µs, one on the other vCPU in ~80 µs, whatever it computes, and the scheduler keeps
 * a process where it first settled. Left alone, each process start draws one of the two (both servers
 * alike), so an unpinned ratio is either ~1.3x or ~3x from one run to the next. The section therefore
 * measures with CPU affinity set (`taskset`), the client and both servers on one vCPU ("same CPU") and the
 * client on one, both servers on another ("separate CPUs"), and reports an unpinned run beside them. The
 * vCPUs are the first two this process may use; without two, or without taskset, only the unpinned run.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { spawnLineClient } from "../lib/line-client.ts";
import { BUN, ECHO_SERVER, SHEPHERD } from "../lib/paths.ts";
import { type BenchProject, createProject } from "../lib/project.ts";
import { percentile, type RoundTrip, type SideBySide, sideBySide } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";

export const PLACEMENTS = ["same CPU", "separate CPUs", "unpinned"] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** shepherd vs echo p50/p99, and the medians over runs of the per-run ratios. */
export interface StdioResult extends SideBySide {
  rules: number;
  placement: Placement;
  /** The first requests after start, before the JIT has compiled the hot paths (when asked for). */
  warmingUp?: { requests: number; shepherd: RoundTrip; echo: RoundTrip };
}

export interface StdioOptions {
  runs: number;
  requests: number;
  /** Requests to each server before the measured runs: a sidecar serves a session for hours. */
  warmup: number;
  placement: Placement;
  /** Also time this many first requests (part of the warm-up) as their own figure. */
  early?: number;
  /** The project to serve (default: `ruleCount` synthetic rules). */
  project?: () => BenchProject;
}

/** The CPUs this process may run on (`Cpus_allowed_list`, e.g. "0-1" or "2,3,8-9"), or [] off Linux. */
function allowedCpus(): { list: string; ids: number[] } {
  let list = "";
  try {
    list = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? "";
  } catch {
    return { list: "", ids: [] };
  }
  const ids: number[] = [];
  for (const part of list.split(",")) {
    const [a, b] = part.split("-").map(Number);
    if (a === undefined || Number.isNaN(a)) continue;
    for (let id = a; id <= (b ?? a); id++) ids.push(id);
  }
  return { list, ids };
}

/** CPUs for the bench process and the servers, or undefined when affinity cannot be set here. */
export function cpusFor(placement: Placement): { client: string; servers: string; all: string } | undefined {
  if (placement === "unpinned") return undefined;
  const { list, ids } = allowedCpus();
  const [first, second] = ids;
  if (first === undefined || second === undefined) return undefined;
  // taskset must exist and be allowed to pin here (a container may forbid it).
  if (spawnSync("taskset", ["-c", String(second), "true"]).status !== 0) return undefined;
  return { client: String(first), servers: String(placement === "same CPU" ? first : second), all: list };
}

/** Pins every thread of this process (the client) to `cpus`; returns how to undo it. */
export function pinSelf(cpus: string, all: string): () => void {
  spawnSync("taskset", ["-a", "-p", "-c", cpus, String(process.pid)], { stdio: "ignore" });
  return () => void spawnSync("taskset", ["-a", "-p", "-c", all, String(process.pid)], { stdio: "ignore" });
}

/** Whether this machine can run a pinned placement (taskset and at least two allowed CPUs). */
export function canPin(): boolean {
  return cpusFor("separate CPUs") !== undefined;
}

export async function benchStdio(ruleCount: number, opts: StdioOptions): Promise<StdioResult> {
  const cpus = cpusFor(opts.placement);
  const unpin = cpus ? pinSelf(cpus.client, cpus.all) : () => {};
  const prefix = cpus ? ["taskset", "-c", cpus.servers] : [];
  const project = opts.project ? opts.project() : createProject(ruleCount, "stdio");
  const shepherd = spawnLineClient([...prefix, SHEPHERD, "serve"], { cwd: project.cwd, env: project.env });
  const echo = spawnLineClient([...prefix, BUN, ECHO_SERVER], { cwd: project.cwd, env: project.env });
  try {
    await shepherd.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    const lines = eventMix(project.cwd).map((event) => JSON.stringify({ jsonrpc: "2.0", method: "shepherd/evaluate", params: { event } }));
    let k = 0;
    const one = async (client: typeof shepherd): Promise<number> => {
      const id = client.nextId();
      const body = lines[k++ % lines.length] as string;
      const line = `{"id":${id},${body.slice(1)}\n`;
      const t0 = performance.now();
      const res = await client.send(id, line);
      const dt = performance.now() - t0;
      if (!("result" in res)) throw new Error(`bench: evaluate failed: ${JSON.stringify(res)}`);
      return dt;
    };
    let warmingUp: StdioResult["warmingUp"];
    let warmup = opts.warmup;
    if (opts.early) {
      const s: number[] = [];
      const e: number[] = [];
      for (let i = 0; i < opts.early; i++) {
        e.push(await one(echo));
        s.push(await one(shepherd));
      }
      warmingUp = {
        requests: opts.early,
        shepherd: { p50: percentile(s, 50), p99: percentile(s, 99) },
        echo: { p50: percentile(e, 50), p99: percentile(e, 99) },
      };
      warmup = Math.max(0, warmup - opts.early);
    }
    const measured = await sideBySide(shepherd, echo, one, { runs: opts.runs, requests: opts.requests, warmup });
    return { rules: ruleCount, placement: opts.placement, ...measured, ...(warmingUp ? { warmingUp } : {}) };
  } finally {
    await shepherd.close();
    await echo.close();
    project.dispose();
    unpin();
  }
}
