/**
 * @module black-box tests of hostile command lines against `dist/shepherd` (issue 13): long wrapper chains,
 * pipelines, `cd` chains, `;` lists, nested `sh -c`, a 1 MiB line. Each must get its decision (block for
 * a destructive command that is read, ask for a line over the analysis caps) in bounded time, from a hook
 * process and from one `shepherd serve`, whose peak memory stays bounded, as it does over distinct long
 * lines (its parse cache is bounded by bytes).
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { bashEvent, BINARY, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

/** Generous for a loaded 2-CPU machine; the measured times are printed (target: well under 1 s). */
const WALL_MS = 3000;
const MEMORY_MIB = 300;

function nestedShC(levels: number): string {
  let s = "rm -rf ~";
  for (let i = 0; i < levels; i++) s = `sh -c "$(${s})"`;
  return s;
}

const HUGE = (1 << 20) + 1;

/** [name, command, expected decision]: "block" where the destructive command is read, else "ask". */
const CASES: [string, string, "block" | "ask" | "allow"][] = [
  ["64 KB of `command ` then rm -rf ~", `${"command ".repeat(8192)}rm -rf ~`, "block"],
  ["150 KB of `sudo ` then rm -rf ~", `${"sudo ".repeat(30_000)}rm -rf ~`, "block"],
  ["10,000 stacked wrappers then rm -rf ~", `${"sudo env X=1 nice -n 5 timeout 10 nohup ".repeat(1429)}rm -rf ~`, "block"],
  ["10,000 `;`-separated commands ending in rm -rf ~", `${"ls; ".repeat(9999)}rm -rf ~`, "block"],
  ["100,000 pipes", `${"cat | ".repeat(100_000)}rm -rf ~`, "ask"],
  ["20,000 `cd a && ` links then rm -rf ~", `${"cd a && ".repeat(20_000)}rm -rf ~`, "ask"],
  ["200 nested sh -c levels", nestedShC(200), "ask"],
  ["a call of a function with ~ then 5,000 more calls", `f(){ rm -rf "$1"; }; f ~; ${"f a; ".repeat(5000)}f b`, "block"],
  ["20 functions each calling the one below twice", `f0(){ rm -rf "$1"; }; ${Array.from({ length: 20 }, (_, i) => `f${i + 1}(){ f${i} "$1"; f${i} "$1"; }; `).join("")}f20 x; rm -rf ~`, "block"],
  ["a line over 1 MiB", `echo ${"a".repeat(HUGE - 5)}`, "ask"],
  ["a harmless line just under 1 MiB", `echo ${"a".repeat((1 << 20) - 10)}`, "allow"],
];

let p: TempProject;
let sidecar: Sidecar | undefined;
beforeEach(() => {
  p = tempProject("shepherd-shell-limits-");
  mkdirSync(p.env.HOME as string, { recursive: true });
});
afterEach(async () => {
  if (sidecar && sidecar.child.exitCode === null) {
    sidecar.child.kill("SIGKILL");
    await sidecar.exited;
  }
  sidecar = undefined;
  p.cleanup();
});

/** VmRSS and VmHWM (peak) of a live process, in MiB. */
function memoryMiB(pid: number | undefined): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

function claudeDecision(out: string): string {
  if (out.trim() === "{}") return "allow";
  const d = (JSON.parse(out) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;
  return d === "deny" ? "block" : (d ?? `unexpected output ${out.slice(0, 200)}`);
}

describe("shepherd hook claude-code on hostile command lines", () => {
  it.each(CASES)("should answer %s in bounded time", (name, command, expected) => {
    const input = JSON.stringify({ session_id: "s", cwd: p.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    const t0 = performance.now();
    const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: p.project, env: p.env, input, encoding: "utf8", maxBuffer: 64 << 20 });
    const ms = performance.now() - t0;
    console.log(`hook: ${name} (${command.length} chars): ${ms.toFixed(0)} ms`);
    expect({ status: res.status, decision: claudeDecision(res.stdout) }).toEqual({ status: 0, decision: expected });
    if (expected === "ask") expect(res.stdout).toContain("cannot analyse this command");
    expect(ms).toBeLessThan(WALL_MS);
  });
});

/** PowerShell and cmd.exe lines, through the PowerShell tool or `cmd /c`: their pipelines once copied every later stage per stage. */
const WINDOWS_CASES: [string, string, "bash" | "powershell", "block" | "allow"][] = [
  ["9,000 PowerShell stages then Remove-Item of the home", `${"Get-ChildItem | ".repeat(9000)}Remove-Item -Recurse -Force ~`, "powershell", "block"],
  ["9,000 PowerShell `env` stages", `${"env | ".repeat(9000)}Out-Null`, "powershell", "allow"],
  ["5,000 cmd.exe stages then rd of the home", `cmd /c "${"type x | ".repeat(5000)}more & rd /s /q %USERPROFILE%"`, "bash", "block"],
];

describe("shepherd serve on hostile PowerShell and cmd.exe pipelines", () => {
  it("should decide each in bounded time and memory", async () => {
    const s = new Sidecar(p.project, p.env);
    try {
      for (const [name, command, tool, expected] of WINDOWS_CASES) {
        const t0 = performance.now();
        const d = await s.evaluate({ hook: "tool_call", session: { id: "w", cwd: p.project }, tool: { name: tool, input: { command } } });
        const ms = performance.now() - t0;
        const mem = memoryMiB(s.child.pid);
        console.log(`serve: ${name}: ${ms.toFixed(0)} ms, VmHWM ${mem.peak.toFixed(0)} MiB`);
        expect({ name, action: d.action }).toEqual({ name, action: expected });
        expect(ms).toBeLessThan(WALL_MS);
      }
      // Before, 8,000 PowerShell stages took 8 s and 587 MB through the hook.
      expect(memoryMiB(s.child.pid).peak).toBeLessThan(MEMORY_MIB);
    } finally {
      expect(await s.close()).toBe(0);
    }
  }, 120_000);
});

describe("shepherd serve on hostile command lines", () => {
  it("should decide every hostile line in bounded time and memory", async () => {
    sidecar = new Sidecar(p.project, p.env);
    const s = sidecar;
    expect((await s.request("ping")).result).toEqual({});
    for (const [name, command, expected] of CASES) {
      const t0 = performance.now();
      const d = await s.evaluate(bashEvent(command, p.project));
      const ms = performance.now() - t0;
      const mem = memoryMiB(s.child.pid);
      console.log(`serve: ${name}: ${ms.toFixed(0)} ms, VmRSS ${mem.rss.toFixed(0)} MiB, VmHWM ${mem.peak.toFixed(0)} MiB`);
      expect({ name, action: d.action }).toEqual({ name, action: expected });
      expect(ms).toBeLessThan(WALL_MS);
    }
    const mem = memoryMiB(s.child.pid);
    expect(mem.peak).toBeLessThan(MEMORY_MIB);
    expect(await s.close()).toBe(0);
  }, 120_000);

  it("should keep its memory bounded over 22 distinct 2 MB lines and 200 distinct 15 KB ones", async () => {
    sidecar = new Sidecar(p.project, p.env);
    const s = sidecar;
    for (let i = 0; i < 22; i++) {
      const d = await s.evaluate(bashEvent(`echo ${i} ${"a ".repeat(1 << 20)}`, p.project, `big${i}`));
      expect(d.action).toBe("ask");
    }
    // Parsed, and short enough to be cached: the parse cache must evict them by bytes.
    for (let i = 0; i < 200; i++) {
      const d = await s.evaluate(bashEvent(`echo ${i} ${"ab ".repeat(5000)}`, p.project, `mid${i % 5}`));
      expect(d.action).toBe("allow");
    }
    const mem = memoryMiB(s.child.pid);
    console.log(`serve after 22 x 2 MB and 200 x 15 KB lines: VmRSS ${mem.rss.toFixed(0)} MiB, VmHWM ${mem.peak.toFixed(0)} MiB`);
    expect(mem.rss).toBeLessThan(MEMORY_MIB);
    expect(mem.peak).toBeLessThan(MEMORY_MIB);
    expect(await s.close()).toBe(0);
  }, 120_000);
});
