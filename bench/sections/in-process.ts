/** @module in-process evaluation cost: the Workspace every face calls, timed over the event mix, no I/O. */
import { Workspace } from "../../lib/rules/workspace.ts";
import { createProject } from "../lib/project.ts";
import { median } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";

export interface InProcessResult {
  rules: number;
  /** Median over runs of the mean cost of one event, in microseconds. */
  usPerEvent: number;
  /** Rules active after merge (synthetic + built-in). */
  active: number;
}

export function benchInProcess(ruleCount: number, opts: { runs: number; events: number }): InProcessResult {
  const project = createProject(ruleCount, "inproc");
  try {
    const ws = new Workspace({ env: project.env, cwd: project.cwd, watch: false }, "bench");
    const host = ws.host(project.cwd);
    const mix = eventMix(project.cwd);
    const evaluateAll = (n: number) => {
      for (let i = 0; i < n; i++) {
        const ev = mix[i % mix.length];
        if (ev) ws.evaluate(ev);
      }
    };
    evaluateAll(Math.min(20_000, opts.events)); // JIT warm-up
    const perRun: number[] = [];
    for (let r = 0; r < opts.runs; r++) {
      const t0 = performance.now();
      evaluateAll(opts.events);
      perRun.push(((performance.now() - t0) * 1000) / opts.events);
    }
    ws.close();
    return { rules: ruleCount, usPerEvent: median(perRun), active: host.ruleSet.rules.length };
  } finally {
    project.dispose();
  }
}
