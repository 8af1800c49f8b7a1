/**
 * @module the cost of rules that cannot match: 10,000 and 100,000 of them (unmatchable-rules.ts), in process
 * and over stdio beside the echo server, each a median over several fresh starts (a new Workspace, new
 * server processes), so one start's JIT or heap layout does not make the figure.
 */
import { Workspace } from "../../lib/rules/workspace.ts";
import { median } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";
import { createUnmatchableProject } from "../lib/unmatchable-rules.ts";
import { benchStdio, type Placement } from "./stdio.ts";

export interface UnmatchableResult {
  rules: number;
  /** Rules active after merge (these + built-in). */
  active: number;
  starts: number;
  /** Median over starts of the mean in-process cost of one event of the mix, in microseconds. */
  usPerEvent: number;
  /** Medians over starts of the stdio p50s and of their per-start ratio. */
  stdio: { placement: Placement; shepherdP50: number; echoP50: number; ratioP50: number };
}

export interface UnmatchableOptions {
  starts: number;
  /** Events timed per in-process start (after as many again of warm-up, up to 20,000). */
  events: number;
  /** stdio requests per start, after `warmup` to each server. */
  requests: number;
  warmup: number;
  placement: Placement;
}

function inProcessOnce(count: number, events: number): { us: number; active: number } {
  const project = createUnmatchableProject(count, "unmatch-inproc");
  try {
    const ws = new Workspace({ env: project.env, cwd: project.cwd, watch: false }, "bench");
    const active = ws.host(project.cwd).ruleSet.rules.length;
    const mix = eventMix(project.cwd);
    const run = (n: number) => {
      for (let i = 0; i < n; i++) ws.evaluate(mix[i % mix.length] as (typeof mix)[number]);
    };
    run(Math.min(20_000, events));
    const t0 = performance.now();
    run(events);
    const us = ((performance.now() - t0) * 1000) / events;
    ws.close();
    return { us, active };
  } finally {
    project.dispose();
  }
}

export async function benchUnmatchable(count: number, opts: UnmatchableOptions): Promise<UnmatchableResult> {
  const inProc: number[] = [];
  let active = 0;
  for (let s = 0; s < opts.starts; s++) {
    const r = inProcessOnce(count, opts.events);
    inProc.push(r.us);
    active = r.active;
  }
  const shepherd: number[] = [];
  const echo: number[] = [];
  const ratios: number[] = [];
  for (let s = 0; s < opts.starts; s++) {
    const r = await benchStdio(count, { runs: 1, requests: opts.requests, warmup: opts.warmup, placement: opts.placement, project: () => createUnmatchableProject(count, "unmatch-stdio") });
    shepherd.push(r.shepherd.p50);
    echo.push(r.echo.p50);
    ratios.push(r.ratioP50);
  }
  return { rules: count, active, starts: opts.starts, usPerEvent: median(inProc), stdio: { placement: opts.placement, shepherdP50: median(shepherd), echoP50: median(echo), ratioP50: median(ratios) } };
}
