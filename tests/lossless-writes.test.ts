/**
 * @module black-box: Shepherd's writes of files it shares with people (pi's settings.json, the global rules)
 * lose nothing when the disk refuses them: under a file size limit (`ulimit -f`, EFBIG) and on a full disk
 * (a tiny tmpfs in a private mount namespace, ENOSPC) the old file stays byte for byte, no temp or lock file
 * is left, and the command reports the failure; a stale lock left by a crash does not stall the next write.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, run, type RunResult, type Sandbox, shepherdBin } from "./helpers/agent-sandbox.ts";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("lossless");
});
afterEach(() => {
  sb.cleanup();
});

const env = (agentDir = sb.agentDir) => ({ PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: agentDir, SHEPHERD_LOG: "warning" });

/** About 44 KB of pi settings that Shepherd must keep (the trust list is added to it). */
function bigSettings(): string {
  return `${JSON.stringify({ theme: "dark", packages: Array.from({ length: 400 }, (_, i) => `npm:package-${i}-${"x".repeat(80)}`) }, null, 2)}\n`;
}

/** About 44 KB of global rules, locked ones among them: the file whose loss would switch them all off. */
function bigRules(): string {
  const rules = Array.from({ length: 260 }, (_, i) => ({
    name: `keep-${i}`,
    action: "block",
    pattern: `\\bforbidden-${i}\\b`,
    reason: `rule ${i} must survive every failed write of this file`,
    ...(i % 10 === 0 ? { locked: true } : {}),
  }));
  return `${JSON.stringify(rules, null, 2)}\n`;
}

const addBlockRule = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "shepherd_rules", arguments: { action: "add", scope: "global", rule: { name: "added-by-test", action: "block", pattern: "\\bnever-seen\\b", reason: "r" } } },
})}\n`;

/** Names under `dir` (recursively) that a write leaves only when it failed to clean up. */
function leftovers(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true })) {
    const n = String(name);
    if (/\.(tmp|lock|stale)$/.test(n) || /\.lock\./.test(n)) out.push(n);
  }
  return out;
}

type ToolAnswer = { result?: { isError: boolean; content: { text: string }[] } };
function toolAnswer(stdout: string): ToolAnswer {
  const line = stdout.split("\n").find((l) => l.includes('"id":1'));
  return JSON.parse(line ?? "{}") as ToolAnswer;
}

interface Case {
  name: string;
  file: () => string;
  content: () => string;
  args: () => string[];
  input?: string;
  /** Whether the command reported the failure in its own contract. */
  failed: (r: RunResult) => boolean;
  /** Whether the written file carries the change (for the control run without a limit). */
  changed: (text: string) => boolean;
}

const cases: Case[] = [
  {
    name: "shepherd trust (pi's settings.json)",
    file: () => join(sb.agentDir, "settings.json"),
    content: bigSettings,
    args: () => ["trust", sb.proj],
    failed: (r) => r.code !== 0 && /cannot write .*settings\.json/.test(r.stderr),
    changed: (text) => text.includes(sb.proj),
  },
  {
    name: "shepherd_rules add through shepherd serve (the global rules)",
    file: () => join(sb.agentDir, "shepherd-rules.json"),
    content: bigRules,
    args: () => ["serve"],
    input: addBlockRule,
    failed: (r) => toolAnswer(r.stdout).result?.isError === true && /cannot write/.test(toolAnswer(r.stdout).result?.content[0]?.text ?? ""),
    changed: (text) => text.includes("added-by-test"),
  },
];

/** Runs the binary with a file size limit of `kib` KiB (bash's `ulimit -f` counts 1 KiB blocks). */
function runLimited(kib: number | undefined, c: Case): Promise<RunResult> {
  const limit = kib === undefined ? "" : `ulimit -f ${kib}; `;
  return run("bash", ["-c", `${limit}exec "$0" "$@"`, shepherdBin(), ...c.args()], { cwd: sb.proj, env: env(), timeoutMs: 30_000, ...(c.input !== undefined ? { input: c.input } : {}) });
}

describe("a write cut short by the file size limit", () => {
  for (const c of cases) {
    it(`should keep the old file whole, leave nothing behind and report it: ${c.name}`, async () => {
      const old = c.content();
      writeFileSync(c.file(), old);
      // 20 KiB: well under the new file, which is bigger than the old one.
      const r = await runLimited(20, c);
      expect(c.failed(r)).toBe(true);
      expect(readFileSync(c.file(), "utf8")).toBe(old);
      expect(() => JSON.parse(readFileSync(c.file(), "utf8"))).not.toThrow();
      expect(leftovers(sb.agentDir)).toEqual([]);
    });

    it(`should write it when nothing limits it (control): ${c.name}`, async () => {
      writeFileSync(c.file(), c.content());
      const r = await runLimited(undefined, c);
      expect(c.failed(r)).toBe(false);
      expect(c.changed(readFileSync(c.file(), "utf8"))).toBe(true);
      expect(leftovers(sb.agentDir)).toEqual([]);
    });
  }

  it("should keep the old file's mode after a successful write", async () => {
    const file = join(sb.agentDir, "settings.json");
    writeFileSync(file, bigSettings(), { mode: 0o600 });
    expect((await runLimited(undefined, cases[0] as Case)).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe("what a crashed or starved writer leaves behind", () => {
  const deadPid = async () => {
    const p = Bun.spawn(["true"]);
    await p.exited;
    return p.pid;
  };
  const locks: [string, () => Promise<string>, number][] = [
    ["an empty lock (the owner could not write its pid: full disk)", async () => "", 5_000],
    ["an empty lock just made", async () => "", 0],
    ["a lock whose owner is dead", async () => String(await deadPid()), 0],
  ];
  it("should remove a temp file left by a writer that died mid-write, and keep the one of a live writer", async () => {
    const file = join(sb.agentDir, "settings.json");
    writeFileSync(file, "{}\n");
    const dead = join(sb.agentDir, `.settings.json.${await deadPid()}.x.tmp`);
    const sleeper = Bun.spawn(["sleep", "30"]);
    const live = join(sb.agentDir, `.settings.json.${sleeper.pid}.y.tmp`);
    writeFileSync(dead, "{ half");
    writeFileSync(live, "{ being written");
    try {
      const r = await run(shepherdBin(), ["trust", sb.proj], { cwd: sb.proj, env: env(), timeoutMs: 30_000 });
      expect(r.code).toBe(0);
      expect(leftovers(sb.agentDir)).toEqual([`.settings.json.${sleeper.pid}.y.tmp`]);
    } finally {
      sleeper.kill();
    }
  });

  for (const [name, content, ageMs] of locks) {
    it(`should break ${name} without waiting it out`, async () => {
      const file = join(sb.agentDir, "settings.json");
      writeFileSync(file, "{}\n");
      writeFileSync(`${file}.lock`, await content());
      const t = new Date(Date.now() - ageMs);
      utimesSync(`${file}.lock`, t, t);
      const start = Date.now();
      const r = await run(shepherdBin(), ["trust", sb.proj], { cwd: sb.proj, env: env(), timeoutMs: 30_000 });
      const took = Date.now() - start;
      expect(r.code).toBe(0);
      expect(readFileSync(file, "utf8")).toContain(sb.proj);
      expect(leftovers(sb.agentDir)).toEqual([]);
      // A lock waited out would take the 5 s lock wait and fail; breaking it costs at most the 1 s grace
      // for an empty lock, plus process start on a loaded machine.
      expect(took).toBeLessThan(3_500);
    });
  }
});

/**
 * Runs `body` (bash) in a private mount namespace with a 128 KiB tmpfs at $MNT: the mount vanishes with the
 * namespace, so nothing is left mounted whatever happens. Results are copied out to $OUT by `body`.
 */
function inTinyTmpfs(body: string, input?: string): Promise<RunResult> {
  const script = `set -u; mount -t tmpfs -o size=128k tmpfs "$MNT" || exit 97; mkdir "$MNT/agent"; export PI_CODING_AGENT_DIR="$MNT/agent"; ${body}`;
  return run("unshare", ["-rm", "bash", "-c", script], {
    cwd: sb.proj,
    env: { ...env(), MNT: join(sb.root, "mnt"), OUT: join(sb.root, "out"), BIN: shepherdBin(), PROJ: sb.proj },
    timeoutMs: 60_000,
    ...(input !== undefined ? { input } : {}),
  });
}

describe("a write on a full disk (ENOSPC)", () => {
  for (const c of cases) {
    it(`should keep the old file whole, leave no temp or lock file, report it, and write once there is room: ${c.name}`, async () => {
      const name = c.file().slice(sb.agentDir.length + 1);
      writeFileSync(join(sb.root, "orig"), c.content());
      writeFileSync(join(sb.root, "input"), c.input ?? "");
      await Bun.write(join(sb.root, "mnt", ".keep"), "");
      await Bun.write(join(sb.root, "out", ".keep"), "");
      const args = c.args().map((a) => (a === sb.proj ? '"$PROJ"' : a)).join(" ");
      const phase = (n: number) =>
        `"$BIN" ${args} < "${join(sb.root, "input")}" > "$OUT/stdout${n}" 2> "$OUT/stderr${n}"; echo $? > "$OUT/rc${n}"\n` +
        `cp "$MNT/agent/${name}" "$OUT/after${n}"; (cd "$MNT/agent" && find . -name '*.tmp' -o -name '*.lock' -o -name '*.stale') > "$OUT/left${n}"`;
      const body = [
        `cp "${join(sb.root, "orig")}" "$MNT/agent/${name}"`,
        // 1: every free block filled, not even the lock's pid fits.
        `dd if=/dev/zero of="$MNT/fill" bs=1k 2>/dev/null; df -k "$MNT" | tail -1 | awk '{print $4}' > "$OUT/free"`,
        phase(1),
        // 2: room for the lock, not for the new file.
        `truncate -s -8K "$MNT/fill"`,
        phase(2),
        // 3: room for both.
        `rm "$MNT/fill"`,
        phase(3),
      ].join("\n");
      const ns = await inTinyTmpfs(body);
      expect({ code: ns.code, stderr: ns.stderr }).toEqual({ code: 0, stderr: "" });
      const out = (f: string) => readFileSync(join(sb.root, "out", f), "utf8");
      const result = (n: number): RunResult => ({ code: Number(out(`rc${n}`)), stdout: out(`stdout${n}`), stderr: out(`stderr${n}`) });
      expect(out("free").trim()).toBe("0");
      for (const n of [1, 2]) {
        expect(c.failed(result(n))).toBe(true);
        expect(`${result(n).stdout}${result(n).stderr}`).toContain("ENOSPC");
        expect(out(`after${n}`)).toBe(c.content());
        expect(out(`left${n}`)).toBe("");
      }
      // Phase 2 got the lock and failed on the new file itself.
      expect(`${result(2).stdout}${result(2).stderr}`).not.toContain("cannot lock");
      expect(c.failed(result(3))).toBe(false);
      expect(c.changed(out("after3"))).toBe(true);
      expect(() => JSON.parse(out("after3"))).not.toThrow();
      expect(out("left3")).toBe("");
    });
  }
});
