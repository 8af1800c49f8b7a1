/**
 * @module side-by-side: Shepherd's safety pack vs the published peer guard cc-safety-net on the same corpus
 * (catch rate, false alarms, per-command latency in process and per spawned hook). Offline. `--write` updates
 * bench/results-safety.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "../lib/engine/evaluate.ts";
import { SessionStore } from "../lib/engine/state.ts";
import { loadCorpus, loadSafetyPack, runCorpus } from "../tests/safety-corpus-eval.ts";

const ROOT = join(import.meta.dir, "..");
const corpus = loadCorpus();
const { set } = loadSafetyPack();

interface Score {
  caught: number;
  mustStop: number;
  falseAlarms: number;
  mustAllow: number;
  /** per-command in-process latency, microseconds */
  latencies: number[];
  misses: string[];
  alarms: string[];
}

const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}

async function scoreShepherd(): Promise<Score> {
  const rates = await runCorpus(corpus, set);
  const ctx = { rules: set, sessions: new SessionStore(), maxWarnings: 0, projectRoot: corpus.projectRoot, home: corpus.home };
  const latencies: number[] = [];
  for (const [i, c] of corpus.cases.entries()) {
    // A fresh line each time: the parse cache only helps across rules, not across commands.
    const event = { hook: "tool_call" as const, session: { id: `bench-${i}`, cwd: corpus.cwd }, tool: { name: "bash", input: { command: `${c.command}` } } };
    const t = performance.now();
    await evaluate(ctx, event);
    latencies.push((performance.now() - t) * 1000);
  }
  return {
    caught: rates.caught,
    mustStop: rates.mustStop,
    falseAlarms: rates.falseAlarms,
    mustAllow: rates.mustAllow,
    latencies,
    misses: rates.results.filter((r) => r.c.expect === "block" && !r.stopped).map((r) => r.c.command),
    alarms: rates.results.filter((r) => r.c.expect === "allow" && r.stopped).map((r) => r.c.command),
  };
}

/** cc-safety-net resolves paths on the real file system, so it gets a real home/project under a temp dir. */
function sandbox(): { base: string; home: string; cwd: string; map: (cmd: string) => string } {
  const base = mkdtempSync(join(tmpdir(), "shepherd-safety-bench-"));
  const home = join(base, "home", "user");
  const cwd = join(home, "project");
  mkdirSync(cwd, { recursive: true });
  return { base, home, cwd, map: (cmd) => cmd.replaceAll(corpus.home, home) };
}

async function scorePeer(sb: ReturnType<typeof sandbox>): Promise<Score> {
  process.env.HOME = sb.home;
  process.env.CC_SAFETY_NET_HOME = join(sb.base, ".cc-safety-net");
  const api: { checkCommand: (i: { command: string; cwd: string }) => { kind: string } } = await import("cc-safety-net/api");
  const s: Score = { caught: 0, mustStop: 0, falseAlarms: 0, mustAllow: 0, latencies: [], misses: [], alarms: [] };
  for (const c of corpus.cases) {
    const t = performance.now();
    let stopped: boolean;
    try {
      stopped = api.checkCommand({ command: sb.map(c.command), cwd: sb.cwd }).kind !== "allow";
    } catch {
      stopped = true;
    }
    s.latencies.push((performance.now() - t) * 1000);
    if (c.expect === "block") {
      s.mustStop++;
      if (stopped) s.caught++;
      else s.misses.push(c.command);
    } else {
      s.mustAllow++;
      if (stopped) {
        s.falseAlarms++;
        s.alarms.push(c.command);
      }
    }
  }
  return s;
}

/** Median wall time of one spawned hook process (what an agent pays per Bash call). */
function spawnLatency(argv: string[], sb: ReturnType<typeof sandbox>, n: number): number | undefined {
  if (!existsSync(argv[0] ?? "")) return undefined;
  const times: number[] = [];
  const cases = corpus.cases.filter((_, i) => i % Math.max(1, Math.floor(corpus.cases.length / n)) === 0).slice(0, n);
  for (const c of cases) {
    const input = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: sb.map(c.command) }, cwd: sb.cwd, session_id: "bench", transcript_path: "" });
    const t = performance.now();
    spawnSync(argv[0] ?? "", argv.slice(1), { input, env: { ...process.env, HOME: sb.home, CC_SAFETY_NET_HOME: join(sb.base, ".cc-safety-net") }, cwd: sb.cwd });
    times.push(performance.now() - t);
  }
  return quantile(times, 0.5);
}

const sb = sandbox();
try {
  const shepherd = await scoreShepherd();
  const peer = await scorePeer(sb);
  const n = Number(process.env.SPAWN_SAMPLES ?? 20);
  const shepherdSpawn = spawnLatency([join(ROOT, "dist/shepherd"), "hook", "claude-code"], sb, n);
  const peerSpawn = spawnLatency([join(ROOT, "node_modules/.bin/cc-safety-net"), "hook", "-cc"], sb, n);
  const row = (name: string, s: Score, spawn: number | undefined) =>
    `| ${name} | ${s.caught}/${s.mustStop} (${pct(s.caught, s.mustStop)}) | ${s.falseAlarms}/${s.mustAllow} (${pct(s.falseAlarms, s.mustAllow)}) | ${quantile(s.latencies, 0.5).toFixed(1)} / ${quantile(s.latencies, 0.99).toFixed(1)} | ${spawn === undefined ? "n/a" : spawn.toFixed(1)} |`;
  const table = [
    "| guard | caught (block or ask) | false alarms | in-process µs/command p50 / p99 | spawned hook ms (p50) |",
    "|---|---|---|---|---|",
    row("Shepherd safety pack", shepherd, shepherdSpawn),
    row("cc-safety-net 2.4.5", peer, peerSpawn),
  ].join("\n");
  const list = (xs: string[]) => (xs.length === 0 ? "none" : xs.map((x) => `\`${x.replaceAll("\n", "⏎")}\``).join(", "));
  const detail = [
    `Shepherd misses: ${list(shepherd.misses)}`,
    `Shepherd false alarms: ${list(shepherd.alarms)}`,
    `cc-safety-net misses (${peer.misses.length}): ${list(peer.misses)}`,
    `cc-safety-net false alarms (${peer.alarms.length}): ${list(peer.alarms)}`,
  ].join("\n\n");
  console.log(`corpus: ${corpus.cases.length} commands (${shepherd.mustStop} to stop, ${shepherd.mustAllow} to allow)\n\n${table}\n\n${detail}`);
  if (process.argv.includes("--write")) {
    const md = `# Safety pack: measured rates\n\nGenerated by \`bun run bench/safety-bench.ts --write\` on ${new Date().toISOString().slice(0, 10)}.\nCorpus: \`tests/fixtures/safety-corpus.json\`, ${corpus.cases.length} commands (${shepherd.mustStop} that must be stopped, ${shepherd.mustAllow} close look-alikes that must run), cwd = project root = ${corpus.cwd}, home = ${corpus.home}.\n"Caught" counts block and ask (the command does not run without the user). cc-safety-net runs with a real temp home/project (it resolves paths on disk) and the corpus paths mapped into it.\n\n${table}\n\n${detail}\n\nCaveat: the corpus was written together with the pack, so Shepherd's numbers are an upper bound on a held-out set; the peer's misses are partly policy differences (it does not gate publishing, disk tools, \`git stash clear\`, or secrets the same way).\n`;
    writeFileSync(join(ROOT, "bench/results-safety.md"), md);
    console.log("\nwrote bench/results-safety.md");
  }
} finally {
  rmSync(sb.base, { recursive: true, force: true });
}
