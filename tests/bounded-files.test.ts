/**
 * @module black-box tests of bounded inputs (issue 13): a repository commits its `.pi/shepherd-rules.json`
 * or `.pi/settings.json` as a link to /dev/urandom, a FIFO, 800,000 nested arrays, a 50 MB file, or many
 * rule files. Every face of the compiled binary still answers, promptly and in bounded memory, with the
 * built-in rules in force, and `rules check` names the file and exits 1.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

/** Generous: the target is under a second, but two CPUs are shared by every test running at once. */
const WALL_MS = 3000;
/** The issue's bound for any face on hostile input. */
const RSS_KB = 300 * 1024;
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

type Placement = "rules" | "settings";
interface Hostile {
  name: string;
  /** Makes the hostile file at `path`. */
  make: (path: string, p: TempProject) => void;
  /** What `rules check` says about it. */
  message: RegExp;
  /** Only as rule files (many files). */
  rulesOnly?: boolean;
  /** The project is in the global trust list. */
  trusted?: boolean;
  /** Where `rules check FILE` places the problem (line:column and JSON path). */
  at?: string;
}

const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

const mkfifo = (path: string) => expect(spawnSync("mkfifo", [path]).status).toBe(0);

/** About `bytes` of valid rules, each with its own name. */
function rulesOfSize(prefix: string, bytes: number): string {
  const rules: unknown[] = [];
  let size = 2;
  for (let i = 0; size < bytes - 200; i++) {
    const r = { name: `${prefix}-${i}`, action: "block", pattern: `\\bw${i.toString(36)}x\\b`, reason: `rule ${i}` };
    size += JSON.stringify(r).length + 1;
    rules.push(r);
  }
  return JSON.stringify(rules);
}

function manyRuleFiles(rulesFile: string, count: number, bytes: number): void {
  const dir = join(rulesFile, "..");
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `shepherd-rules-${String(i).padStart(2, "0")}.json`), rulesOfSize(`m${i}`, bytes));
}

const HOSTILE: Hostile[] = [
  { name: "a link to /dev/urandom", make: (p) => symlinkSync("/dev/urandom", p), message: /not a regular file but a character device: refused unread/ },
  { name: "a FIFO", make: (p) => mkfifo(p), message: /not a regular file but a FIFO \(named pipe\): refused unread/ },
  {
    // The issue's reproducer, 1.6 MB: over an untrusted project's rule budget and the settings cap, so refused unread there.
    name: "800,000 nested arrays",
    make: (p) => writeFileSync(p, nested(800_000)),
    message: /nested more than 64 levels deep at [\[\]0-9]+: refused before parsing|add up to more than 256 KiB|larger than the 1 MiB limit/,
    at: ":1:65  (file)  error: nested more than 64 levels deep at [0][0]",
  },
  {
    name: "800,000 nested arrays in a trusted project",
    trusted: true,
    make: (p) => writeFileSync(p, nested(800_000)),
    message: /nested more than 64 levels deep at [\[\]0-9]+: refused before parsing|larger than the 1 MiB limit/,
  },
  { name: "100,000 nested arrays", make: (p) => writeFileSync(p, nested(100_000)), message: /nested more than 64 levels deep at [\[\]0-9]+: refused before parsing/, at: ":1:65  (file)  error: nested more than 64 levels deep at [0][0]" },
  { name: "a 50 MB file", make: (p) => (writeFileSync(p, "[]"), truncateSync(p, 50 * 1024 * 1024)), message: /larger than the (4|1) MiB limit: refused unread/ },
  {
    // Each over an untrusted project's whole budget: refused unread.
    name: "64 files of 1 MiB of valid rules",
    rulesOnly: true,
    make: (p) => manyRuleFiles(p, 64, 1024 * 1024),
    message: /not loaded: (the project's rule files add up to more than 256 KiB|a project loads at most 32 rule files)/,
  },
  {
    // Two are loaded (a cold load of 2,600 rules), the budget refuses the next 30, the count cap the last 32.
    name: "64 files of 100 KiB of valid rules",
    rulesOnly: true,
    make: (p) => manyRuleFiles(p, 64, 100 * 1024),
    message: /not loaded: (the project's rule files add up to more than 256 KiB|a project loads at most 32 rule files)/,
  },
];

const CASES: [string, Placement, Hostile][] = [];
for (const h of HOSTILE) {
  CASES.push([h.name, "rules", h]);
  if (!h.rulesOnly) CASES.push([h.name, "settings", h]);
}

let p: TempProject;
let sidecar: Sidecar | undefined;
const measured: string[] = [];

beforeEach(() => {
  p = tempProject("shepherd-bounded-");
  mkdirSync(join(p.project, ".pi"), { recursive: true });
});
afterEach(async () => {
  if (sidecar && sidecar.child.exitCode === null) {
    sidecar.child.kill("SIGKILL");
    await sidecar.exited;
  }
  sidecar = undefined;
  p.cleanup();
});
afterAll(() => {
  // The measured times go to the report (stderr: stdout belongs to the test runner).
  process.stderr.write(`bounded-files measurements:\n${measured.join("\n")}\n`);
});

function place(h: Hostile, where: Placement): string {
  if (h.trusted) writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [p.project] } }));
  const file = join(p.project, ".pi", where === "rules" ? "shepherd-rules.json" : "settings.json");
  h.make(file, p);
  return file;
}

/** One `shepherd hook claude-code` run: answer, wall time and peak RSS (when /usr/bin/time is there). */
function hook(command: string): { out: string; status: number | null; ms: number; rssKb: number | undefined } {
  const input = JSON.stringify({ session_id: "s", cwd: p.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
  const argv = TIME ? [TIME, "-f", "RSSKB=%M", BINARY, "hook", "claude-code"] : [BINARY, "hook", "claude-code"];
  const started = performance.now();
  const res = spawnSync(argv[0] as string, argv.slice(1), { cwd: p.project, env: p.env, input, encoding: "utf8", timeout: 30_000 });
  const ms = performance.now() - started;
  const rss = /RSSKB=(\d+)/.exec(res.stderr ?? "")?.[1];
  return { out: res.stdout, status: res.status, ms, rssKb: rss === undefined ? undefined : Number(rss) };
}

function denied(out: string): boolean {
  return (JSON.parse(out) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision === "deny";
}

describe("shepherd hook claude-code with a hostile file", () => {
  it.each(CASES)("should answer deny to rm -rf / promptly with %s as the project %s file", (name, where, h) => {
    place(h, where);
    // Twice: the second hook finds the failure remembered (or the rules cached) and must not pay again.
    const runs = [hook("rm -rf /"), hook("rm -rf /")];
    for (const r of runs) {
      expect(r.status).toBe(0);
      expect(denied(r.out)).toBe(true);
      expect(r.ms).toBeLessThan(WALL_MS);
      if (r.rssKb !== undefined) expect(r.rssKb).toBeLessThan(RSS_KB);
    }
    // An ordinary command still goes through: the hostile file did not turn the guard into "deny all".
    const ls = hook("ls");
    expect(ls.out.trim()).toBe("{}");
    measured.push(`hook, ${name} as ${where}: ${runs.map((r) => `${Math.round(r.ms)} ms${r.rssKb ? ` ${Math.round(r.rssKb / 1024)} MB` : ""}`).join(", then ")}`);
  }, 120_000);

  it("should remember a failed rule file in the load cache, by the file's identity", () => {
    place(HOSTILE[1] as Hostile, "rules");
    hook("rm -rf /");
    const cache = join(p.agentDir, "shepherd", "cache");
    const entries = readdirSync(cache).filter((n) => n.startsWith("failed-"));
    expect(entries.length).toBe(1);
    const entry = JSON.parse(readFileSync(join(cache, entries[0] as string), "utf8")) as { file: string; issues: { message: string }[] };
    expect(entry.file).toBe(join(p.project, ".pi", "shepherd-rules.json"));
    expect(entry.issues[0]?.message).toContain("FIFO");
  });
});

function vmHwmKb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

describe("shepherd serve with a hostile file", () => {
  it.each(CASES)("should answer initialize and evaluate promptly with %s as the project %s file", async (name, where, h) => {
    const file = place(h, where);
    const started = performance.now();
    sidecar = new Sidecar(p.project, p.env);
    const init = await sidecar.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect(init.result).toMatchObject({ serverInfo: { name: "shepherd" } });
    const decision = await sidecar.evaluate(bashEvent("rm -rf /", p.project));
    const ms = performance.now() - started;
    expect(decision.action).toBe("block");
    expect(ms).toBeLessThan(WALL_MS);
    const status = (await sidecar.request("shepherd/status", { cwd: p.project })).result as { issues: { file: string; message: string }[] };
    const named = status.issues.filter((i) => (h.rulesOnly ? i.file.startsWith(join(p.project, ".pi")) : i.file === file));
    expect(named.map((i) => i.message).join("\n")).toMatch(h.message);
    const hwm = vmHwmKb(sidecar.child.pid as number);
    // Linux, where these tests run, always has /proc: a missing reading is a failure, not a skip.
    expect(hwm).toBeDefined();
    expect(hwm as number).toBeLessThan(RSS_KB);
    measured.push(`serve, ${name} as ${where}: initialize + evaluate ${Math.round(ms)} ms${hwm ? `, VmHWM ${Math.round(hwm / 1024)} MB` : ""}`);
  }, 120_000);
});

describe("shepherd rules check on a hostile file", () => {
  it.each(CASES)("should name %s as the project %s file, with no stack, and exit 1", (_name, where, h) => {
    const file = place(h, where);
    const target = h.rulesOnly ? [] : [file];
    // stdout to a file: thousands of warnings through a non-blocking pipe can hit EAGAIN in the CLI's writer (not what this tests).
    const outFile = join(p.root, "check.out");
    const fd = openSync(outFile, "w");
    const res = spawnSync(BINARY, ["rules", "check", "--no-tests", ...target], { cwd: p.project, env: p.env, encoding: "utf8", timeout: 30_000, stdio: ["ignore", fd, "pipe"] });
    closeSync(fd);
    const stdout = readFileSync(outFile, "utf8");
    expect(res.status).toBe(1);
    expect(stdout).toMatch(h.message);
    expect(stdout).toContain(h.rulesOnly ? ".pi/shepherd-rules-" : `.pi/${where === "rules" ? "shepherd-rules.json" : "settings.json"}`);
    if (h.at) expect(stdout).toContain(h.at);
    expect(res.stderr).not.toMatch(/RangeError|at .*\(/);
  }, 120_000);
});

describe("the shepherd_rules tool on a hostile global rules file", () => {
  it.each([
    ["a FIFO", (f: string) => mkfifo(f), /FIFO/],
    ["800,000 nested arrays", (f: string) => writeFileSync(f, nested(800_000)), /nested more than 64 levels deep/],
  ])("should refuse to edit %s at once and keep serving", async (_name, make, message) => {
    const file = join(p.agentDir, "shepherd-rules.json");
    make(file);
    sidecar = new Sidecar(p.project, p.env);
    const started = performance.now();
    const res = await sidecar.request("tools/call", { name: "shepherd_rules", arguments: { action: "add", rule: { name: "no-curl", action: "block", pattern: "curl" } } });
    expect(performance.now() - started).toBeLessThan(WALL_MS);
    const r = res.result as { content: { text: string }[]; isError: boolean };
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toContain(file);
    expect(r.content[0]?.text).toMatch(message);
    expect((await sidecar.evaluate(bashEvent("rm -rf /", p.project))).action).toBe("block");
  }, 60_000);
});
