/**
 * @module spawn-per-hook: one Claude Code PreToolUse hook process from spawn to answer, for Shepherd (with
 * the project's rules loaded), a plain node script doing one regex check, and a published guard. The three
 * are run in turn, round after round, so they share the machine's state.
 */
import { join } from "node:path";
import { BARE_HOOK, BUN, NODE, NODE_HOOK, PEER_GUARD, SHEPHERD, hasPeerGuard } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { median, percentile } from "../lib/stats.ts";

export interface SpawnTiming {
  name: string;
  median: number;
  p90: number;
  /** Median CPU time of the process (user + system, its threads included): what a busy host does not inflate. */
  cpuMedian: number;
}

export interface SpawnResult {
  rules: number;
  shepherd: SpawnTiming;
  node: SpawnTiming;
  peer?: SpawnTiming;
  /** The same check compiled by `bun build --compile`: Bun's own start-up, the floor for any compiled hook. */
  bare?: SpawnTiming;
}

/** Compiles the bare hook with Shepherd's build flags; undefined if the compiler is not at hand. */
function compileBareHook(outDir: string): string | undefined {
  const out = join(outDir, "bare-hook");
  const res = Bun.spawnSync([BUN, "build", "--compile", "--minify", "--format=esm", "--bytecode", "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig", BARE_HOOK, "--outfile", out], { stdout: "ignore", stderr: "pipe" });
  return res.exitCode === 0 ? out : undefined;
}

function hookInput(cwd: string, command: string): string {
  return JSON.stringify({
    session_id: "bench-spawn",
    transcript_path: "/dev/null",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "bench" },
    tool_use_id: "toolu_bench",
  });
}

/** Runs one hook to completion; returns wall and CPU time in ms and what it wrote. */
function runOnce(cmd: string[], input: string, cwd: string, env: Record<string, string>): { ms: number; cpuMs: number; stdout: string; code: number } {
  const t0 = performance.now();
  const res = Bun.spawnSync(cmd, { cwd, env, stdin: Buffer.from(input), stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  const cpuMs = Number(res.resourceUsage?.cpuTime.total ?? 0n) / 1000;
  return { ms, cpuMs, stdout: res.stdout.toString(), code: res.exitCode ?? -1 };
}

/** `shepherdOnly`: time Shepherd alone (e.g. with the built-in rules only, to see what N rules add). */
export function benchSpawn(ruleCount: number, opts: { runs: number; warmup: number; shepherdOnly?: boolean }): SpawnResult {
  const project = createProject(ruleCount, "spawn");
  const env = { ...project.env, CC_SAFETY_NET_HOME: `${project.root}/cc-safety-net` };
  const contenders: { name: string; cmd: string[] }[] = [
    { name: "shepherd hook claude-code", cmd: [SHEPHERD, "hook", "claude-code"] },
    { name: "plain node hook", cmd: [NODE, NODE_HOOK] },
  ];
  if (opts.shepherdOnly) contenders.splice(1);
  else if (hasPeerGuard()) contenders.push({ name: "cc-safety-net 2.4.5", cmd: [NODE, PEER_GUARD, "--claude-code"] });
  const bare = opts.shepherdOnly ? undefined : compileBareHook(project.root);
  if (bare) contenders.push({ name: "bare compiled Bun hook", cmd: [bare] });
  try {
    // Each contender must really answer: block the discard, allow the harmless command.
    for (const c of contenders) {
      const blocked = runOnce(c.cmd, hookInput(project.cwd, "git checkout -- src/a.ts"), project.cwd, env);
      if (!blocked.stdout.includes('"deny"')) throw new Error(`bench: ${c.name} did not block (exit ${blocked.code}): ${blocked.stdout.slice(0, 300)}`);
    }
    // Two commands in turn: one command again and again is a loop, which the built-in loop rules stop.
    const inputs = [hookInput(project.cwd, "git status --short"), hookInput(project.cwd, "git status")];
    const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    const cpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    for (let r = 0; r < opts.warmup + opts.runs; r++) {
      for (const c of contenders) {
        const { ms, cpuMs, code, stdout } = runOnce(c.cmd, inputs[r % 2] as string, project.cwd, env);
        if (code !== 0 || stdout.includes('"deny"')) throw new Error(`bench: ${c.name} failed on an allowed command (exit ${code}): ${stdout.slice(0, 300)}`);
        if (r >= opts.warmup) {
          samples.get(c.name)?.push(ms);
          cpu.get(c.name)?.push(cpuMs);
        }
      }
    }
    const timing = (name: string): SpawnTiming => {
      const s = samples.get(name) ?? [];
      return { name, median: median(s), p90: percentile(s, 90), cpuMedian: median(cpu.get(name) ?? []) };
    };
    return {
      rules: ruleCount,
      shepherd: timing("shepherd hook claude-code"),
      node: timing("plain node hook"),
      ...(hasPeerGuard() && !opts.shepherdOnly ? { peer: timing("cc-safety-net 2.4.5") } : {}),
      ...(bare ? { bare: timing("bare compiled Bun hook") } : {}),
    };
  } finally {
    project.dispose();
  }
}
