/**
 * @module what the loop rules (rules/loops.json) add to one in-process evaluation: the built-in rule set
 * with them against the same set with them turned off (a global patch), over the event mix, plus the
 * per-call tracking (hashing the call) that runs either way, timed on its own. The arms alternate in
 * slices of SLICE events, and each arm's figure is the 10th percentile of its slices: on a shared host a
 * slice the scheduler preempted only takes longer, so the low slices are the ones both arms ran alone.
 *
 *   bun run bench/sections/loops.ts [--quick]     runs this section alone
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { trackCall } from "../../lib/engine/loops.ts";
import { EventView } from "../../lib/engine/match.ts";
import { emptyState } from "../../lib/engine/state.ts";
import { Workspace } from "../../lib/rules/workspace.ts";
import { createProject } from "../lib/project.ts";
import { percentile } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";

export interface LoopsResult {
  /** (with loop rules − without) + tracking, µs per event, each arm the 10th percentile of its slices. */
  usAdded: number;
  usTracking: number;
}

/** Distinct events cycled: below the parse cache's 64 lines. */
const EVENTS = 48;

/** Events per timed slice: short enough that most slices run between two preemptions. */
const SLICE = 250;

/** The 10th percentile of slice means (µs per event): at a load average of 8 on two CPUs most slices wait. */
function low(slices: readonly number[]): number {
  return percentile(slices, 10);
}

const LOOP_RULES = ["loop-same-call-steer", "loop-same-call-block", "loop-failing-call-steer", "loop-failing-call-block"];

/** A workspace on the built-in rules, with the loop rules on or turned off; times `count` evaluations. */
function timer(loopsOn: boolean): { time: (count: number) => number; close: () => void } {
  const project = createProject(0, "loops");
  if (!loopsOn) writeFileSync(join(project.env.PI_CODING_AGENT_DIR as string, "shepherd-rules.json"), JSON.stringify(LOOP_RULES.map((name) => ({ name, enabled: false }))));
  const ws = new Workspace({ env: project.env, cwd: project.cwd, watch: false }, "bench");
  // Every call distinct (a counter appended): what is timed is the cost of the rules, not of their firing.
  const mix = eventMix(project.cwd);
  const events = Array.from({ length: 4_096 }, (_, i) => {
    const ev = mix[i % mix.length] as (typeof mix)[number];
    const command = ev.tool?.input.command;
    return ev.tool && typeof command === "string" ? { ...ev, tool: { ...ev.tool, input: { ...ev.tool.input, command: `${command} #${i}` } } } : ev;
  });
  let at = 0;
  return {
    time: (count) => {
      const t0 = performance.now();
      for (let i = 0; i < count; i++) ws.evaluate(events[at++ % events.length] as (typeof events)[number]);
      return ((performance.now() - t0) * 1000) / count;
    },
    close: () => {
      ws.close();
      project.dispose();
    },
  };
}

/** The tracking alone, in slices: `track(true)` − `track(false)` per event, as 10th percentiles. */
function trackingTimer(): (track: boolean, count: number) => number {
  const mix = eventMix("/bench").filter((e) => e.hook === "tool_call");
  const state = emptyState();
  let at = 0;
  return (track, count) => {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const view = new EventView(mix[at++ % mix.length] as (typeof mix)[number]);
      void view.command;
      if (track) trackCall(state, view);
    }
    return ((performance.now() - t0) * 1000) / count;
  };
}

export function benchLoops(opts: { runs: number; events: number }): LoopsResult {
  const on = timer(true);
  const off = timer(false);
  const track = trackingTimer();
  try {
    on.time(10_000);
    off.time(10_000);
    track(true, 10_000);
    track(false, 10_000);
    const withRules: number[] = [];
    const withoutRules: number[] = [];
    const tracked: number[] = [];
    const untracked: number[] = [];
    const perRun = Math.max(1, Math.round(opts.events / SLICE));
    // Interleaved slice by slice, the order flipped each time: both arms see the same machine.
    for (let s = 0; s < opts.runs * perRun; s++) {
      for (const arm of s % 2 === 0 ? [true, false] : [false, true]) {
        (arm ? withRules : withoutRules).push((arm ? on : off).time(SLICE));
        (arm ? tracked : untracked).push(track(arm, SLICE));
      }
    }
    const tr = Math.max(0, low(tracked) - low(untracked));
    return { usAdded: low(withRules) - low(withoutRules) + tr, usTracking: tr };
  } finally {
    on.close();
    off.close();
  }
}

if (import.meta.main) {
  const quick = process.argv.includes("--quick");
  const r = benchLoops(quick ? { runs: 3, events: 20_000 } : { runs: 7, events: 100_000 });
  process.stdout.write(`loop rules add ${r.usAdded.toFixed(3)} µs per evaluation (of which hashing the call ${r.usTracking.toFixed(3)} µs)\n`);
}
