/**
 * @module side-by-side: Shepherd's safety pack vs the published peer guard cc-safety-net on the same corpus
 * (stopped %, false alarms %, overall and per family, per-command latency in process and per spawned hook). Offline.
 * `--corpus FILE` picks the corpus (default: the legacy tests/fixtures/safety-corpus.json); `--write` updates that
 * corpus's section of bench/results-safety.md. A held-out corpus (`"heldout": true`) reports totals only.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "../lib/engine/evaluate.ts";
import { SessionStore } from "../lib/engine/state.ts";
import { type CorpusCase, LEGACY_CORPUS, loadCorpus, loadSafetyPack, runCorpus, type Tally, tallyByFamily } from "../tests/safety-corpus-eval.ts";

const ROOT = join(import.meta.dir, "..");
const argv = process.argv.slice(2);
const corpusArg = argv.indexOf("--corpus");
const corpusFile = corpusArg >= 0 ? (argv[corpusArg + 1] ?? LEGACY_CORPUS) : LEGACY_CORPUS;
const corpus = loadCorpus(corpusFile);
const legacy = corpusFile.replace(/^\.\//, "") === LEGACY_CORPUS;
const heldout = corpus.heldout === true;
const { set } = loadSafetyPack();

interface Score {
  verdicts: { c: CorpusCase; stopped: boolean }[];
  /** per-command in-process latency, microseconds */
  latencies: number[];
}

const pct = (a: number, b: number) => (b === 0 ? "n/a" : `${((a / b) * 100).toFixed(1)}%`);
const frac = (a: number, b: number) => `${a}/${b} (${pct(a, b)})`;
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
    const event = { hook: "tool_call" as const, session: { id: `bench-${i}`, cwd: corpus.cwd }, tool: { name: c.tool ?? "bash", input: { command: `${c.command}` } } };
    const t = performance.now();
    await evaluate(ctx, event);
    latencies.push((performance.now() - t) * 1000);
  }
  return { verdicts: rates.results.map((r) => ({ c: r.c, stopped: r.stopped })), latencies };
}

/** cc-safety-net resolves paths on the real file system, so it gets a real home/project under a temp dir. */
function sandbox(): { base: string; home: string; cwd: string; map: (cmd: string) => string } {
  const base = mkdtempSync(join(tmpdir(), "shepherd-safety-bench-"));
  const home = join(base, "home", "user");
  const cwd = join(home, "project");
  mkdirSync(cwd, { recursive: true });
  return { base, home, cwd, map: (cmd) => cmd.replaceAll(corpus.home, home) };
}

/** The peer has one entry point for shell text; PowerShell cases go to it as they are (what a user of it would get). */
async function scorePeer(sb: ReturnType<typeof sandbox>): Promise<Score> {
  process.env.HOME = sb.home;
  process.env.CC_SAFETY_NET_HOME = join(sb.base, ".cc-safety-net");
  const api: { checkCommand: (i: { command: string; cwd: string }) => { kind: string } } = await import("cc-safety-net/api");
  const s: Score = { verdicts: [], latencies: [] };
  for (const c of corpus.cases) {
    const t = performance.now();
    let stopped: boolean;
    try {
      stopped = api.checkCommand({ command: sb.map(c.command), cwd: sb.cwd }).kind !== "allow";
    } catch {
      stopped = true;
    }
    s.latencies.push((performance.now() - t) * 1000);
    s.verdicts.push({ c, stopped });
  }
  return s;
}

/** Median wall time of one spawned hook process (what an agent pays per Bash call). */
function spawnLatency(argvSpawn: string[], sb: ReturnType<typeof sandbox>, n: number): number | undefined {
  if (!existsSync(argvSpawn[0] ?? "")) return undefined;
  const times: number[] = [];
  const bash = corpus.cases.filter((c) => (c.tool ?? "bash") === "bash");
  const cases = bash.filter((_, i) => i % Math.max(1, Math.floor(bash.length / n)) === 0).slice(0, n);
  for (const c of cases) {
    const input = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: sb.map(c.command) }, cwd: sb.cwd, session_id: "bench", transcript_path: "" });
    const t = performance.now();
    spawnSync(argvSpawn[0] ?? "", argvSpawn.slice(1), { input, env: { ...process.env, HOME: sb.home, CC_SAFETY_NET_HOME: join(sb.base, ".cc-safety-net") }, cwd: sb.cwd });
    times.push(performance.now() - t);
  }
  return quantile(times, 0.5);
}

const misses = (s: Score) => s.verdicts.filter((x) => x.c.expect === "block" && !x.stopped).map((x) => x.c);
const alarms = (s: Score) => s.verdicts.filter((x) => x.c.expect === "allow" && x.stopped).map((x) => x.c);
const show = (c: CorpusCase) => `\`${c.command.replaceAll("\n", "⏎")}\`${c.tool === "powershell" ? " (PowerShell)" : ""}`;
const list = (xs: CorpusCase[]) => (xs.length === 0 ? "none" : xs.map(show).join(", "));

function familyTable(shepherd: Score, peer: Score): string {
  const a = tallyByFamily(shepherd.verdicts).families;
  const b = tallyByFamily(peer.verdicts).families;
  const cell = (t: Tally | undefined, stop: boolean) => (t === undefined ? "n/a" : stop ? frac(t.caught, t.mustStop) : frac(t.falseAlarms, t.mustAllow));
  const rows = [...a.keys()].sort().map((f) => {
    const s = a.get(f);
    const p = b.get(f);
    return `| ${f} | ${s?.mustStop ?? 0} / ${s?.mustAllow ?? 0} | ${cell(s, true)} | ${cell(s, false)} | ${cell(p, true)} | ${cell(p, false)} |`;
  });
  return [
    "| family | cases (stop / allow) | Shepherd stopped | Shepherd false alarms | cc-safety-net stopped | cc-safety-net false alarms |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** Replaces (or appends) this corpus's section of the results file, keeping the other corpora's sections. */
function upsertSection(md: string, key: string, body: string): string {
  const start = `<!-- corpus: ${key} -->`;
  const end = `<!-- /corpus: ${key} -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const i = md.indexOf(start);
  const j = md.indexOf(end);
  if (i >= 0 && j > i) return md.slice(0, i) + section + md.slice(j + end.length);
  return `${md.trimEnd()}\n\n${section}\n`;
}

const HEADER = `# Safety pack: measured rates

Generated by \`bun run bench/safety-bench.ts [--corpus FILE] --write\`; one section per corpus. "Stopped" counts block and ask (the command does not run without the user). cc-safety-net runs with a real temp home/project (it resolves paths on disk) and the corpus paths mapped into it. Environment of every corpus: cwd = project root = /home/user/project, home = /home/user.
`;

const sb = sandbox();
try {
  const shepherd = await scoreShepherd();
  const peer = await scorePeer(sb);
  const n = Number(process.env.SPAWN_SAMPLES ?? 20);
  const shepherdSpawn = spawnLatency([join(ROOT, "dist/shepherd"), "hook", "claude-code"], sb, n);
  const peerSpawn = spawnLatency([join(ROOT, "node_modules/.bin/cc-safety-net"), "hook", "-cc"], sb, n);
  const row = (name: string, s: Score, spawn: number | undefined) => {
    const t = tallyByFamily(s.verdicts).total;
    return `| ${name} | ${frac(t.caught, t.mustStop)} | ${frac(t.falseAlarms, t.mustAllow)} | ${quantile(s.latencies, 0.5).toFixed(1)} / ${quantile(s.latencies, 0.99).toFixed(1)} | ${spawn === undefined ? "n/a" : spawn.toFixed(1)} |`;
  };
  const table = [
    "| guard | stopped (block or ask) | false alarms | in-process µs/command p50 / p99 | spawned hook ms (p50) |",
    "|---|---|---|---|---|",
    row("Shepherd safety pack", shepherd, shepherdSpawn),
    row("cc-safety-net 2.4.5", peer, peerSpawn),
  ].join("\n");
  const total = tallyByFamily(shepherd.verdicts).total;
  const summary = `corpus: \`${corpusFile}\`, ${corpus.cases.length} commands (${total.mustStop} to stop, ${total.mustAllow} to allow)`;
  let detail: string;
  let written: string;
  if (heldout) {
    // Held out: totals only, so nobody tunes rules to its misses.
    detail = "Held-out corpus: per-family figures and the cases missed are not shown.";
    written = detail;
  } else if (legacy) {
    detail = [
      `Shepherd misses: ${list(misses(shepherd))}`,
      `Shepherd false alarms: ${list(alarms(shepherd))}`,
      `cc-safety-net misses (${misses(peer).length}): ${list(misses(peer))}`,
      `cc-safety-net false alarms (${alarms(peer).length}): ${list(alarms(peer))}`,
    ].join("\n\n");
    written = `${detail}\n\nCaveat: this corpus was written together with the pack, so Shepherd's numbers are an upper bound on a held-out set; the peer's misses are partly policy differences (it does not gate publishing, disk tools, \`git stash clear\`, or secrets the same way).`;
  } else {
    const byFamily = (xs: CorpusCase[]) => {
      const m = new Map<string, CorpusCase[]>();
      for (const c of xs) m.set(c.family ?? "(none)", [...(m.get(c.family ?? "(none)") ?? []), c]);
      return [...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([f, cs]) => `- ${f} (${cs.length}): ${list(cs)}`).join("\n");
    };
    const families = familyTable(shepherd, peer);
    detail = `${families}\n\nShepherd misses by family:\n${byFamily(misses(shepherd))}\n\nShepherd false alarms by family:\n${byFamily(alarms(shepherd))}`;
    written = families;
  }
  console.log(`${summary}\n\n${table}\n\n${detail}`);
  if (argv.includes("--write")) {
    const file = join(ROOT, "bench/results-safety.md");
    const old = existsSync(file) ? readFileSync(file, "utf8") : "";
    // A results file from before sections existed holds the legacy corpus only: start it afresh.
    const base = old.includes("<!-- corpus: ") ? old : HEADER;
    const body = `## \`${corpusFile}\`${heldout ? " (held out)" : ""}\n\nMeasured on ${new Date().toISOString().slice(0, 10)}: ${summary}.\n\n${table}\n\n${written}\n`;
    writeFileSync(file, upsertSection(base, corpusFile, body));
    console.log("\nwrote bench/results-safety.md");
  }
} finally {
  rmSync(sb.base, { recursive: true, force: true });
}
