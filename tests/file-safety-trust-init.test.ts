/**
 * @module black-box file safety for the CLI writers: several `shepherd trust` processes and `shepherd
 * init claude-code` runs change a settings file while a user's editor saves other keys of the same
 * file. Neither side loses anything, and no temp or lock file is left behind.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject | undefined;
afterEach(() => {
  tp?.cleanup();
  tp = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  code: number | null;
  stderr: string;
}

function shepherd(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(BINARY, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

type Json = Record<string, unknown>;
const readJson = (file: string): Json => JSON.parse(readFileSync(file, "utf8")) as Json;

/**
 * A user saving in an editor without any lock: read, change, write a temp file, rename it over the
 * original. Like an editor that notices a newer file on disk, it starts over if the file changed while
 * it was editing, and checks shortly afterwards that its save is still there. That check comes soon
 * (5 ms): a Shepherd write that lands later from a stale read, as it would without the compare before
 * the rename, undoes the save for good and fails the test. It saves at least `min` times and keeps
 * saving until `done()`, so it overlaps every Shepherd write.
 */
async function editorSaves(file: string, min: number, done: () => boolean, change: (data: Json, i: number) => void, saved: (data: Json, i: number) => boolean): Promise<number> {
  let i = 0;
  for (; i < min || !done(); i++) {
    for (;;) {
      const before = readFileSync(file, "utf8");
      const data = JSON.parse(before) as Json;
      change(data, i);
      const tmp = `${file}.editor.tmp`;
      writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`);
      if (readFileSync(file, "utf8") !== before) continue;
      renameSync(tmp, file);
      await sleep(5);
      if (saved(readJson(file), i)) break;
    }
    await sleep(Math.floor(Math.random() * 20));
  }
  return i;
}

/** How many keys (or hooks) the editor adds before it only updates what it added. */
const SLOTS = 20;

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith(".tmp") || n.endsWith(".lock"));
}

describe("shepherd trust racing an editor", () => {
  it("should lose no trusted folder and no editor key when several trust processes and an editor write settings.json at once", async () => {
    const p = tempProject("shepherd-files-trust-");
    tp = p;
    const file = join(p.agentDir, "settings.json");
    writeFileSync(file, `${JSON.stringify({ defaultModel: "x", shepherd: { maxWarnings: 2 } }, null, 2)}\n`);
    const root = realpathSync(p.root);
    // Rounds of processes started together, so Shepherd writers contend with each other as well as with the editor.
    const rounds = 8;
    const together = 12;
    const dirs: string[][] = [];
    for (let r = 0; r < rounds; r++) {
      dirs.push([]);
      for (let i = 0; i < together; i++) {
        const dir = join(root, `proj-${r}-${i}`);
        mkdirSync(dir);
        dirs[r]?.push(dir);
      }
    }

    let finished = false;
    const failures: string[] = [];
    const trusting = (async () => {
      for (const round of dirs) {
        await Promise.all(
          round.map(async (dir) => {
            const r = await shepherd(["trust", dir], p.project, p.env);
            if (r.code !== 0) failures.push(`trust ${dir}: exit ${r.code}: ${r.stderr}`);
          }),
        );
      }
    })().finally(() => (finished = true));
    const editor = editorSaves(
      file,
      20,
      () => finished,
      // A fixed set of keys, each save updating one: the file stays small however long the race runs.
      (data, i) => (data[`editor.key${i % SLOTS}`] = i),
      (data, i) => data[`editor.key${i % SLOTS}`] === i,
    );
    const [, saves] = await Promise.all([trusting, editor]);

    expect(failures).toEqual([]);
    const final = readJson(file);
    const trusted = (final.shepherd as { trustedProjects?: string[] }).trustedProjects ?? [];
    for (const dir of dirs.flat()) expect(trusted).toContain(dir);
    expect(new Set(trusted).size).toBe(trusted.length);
    // Every key holds the editor's last save of it: no save was undone by a stale Shepherd write.
    for (let i = Math.max(0, saves - SLOTS); i < saves; i++) expect(final[`editor.key${i % SLOTS}`]).toBe(i);
    expect(final.defaultModel).toBe("x");
    expect((final.shepherd as { maxWarnings?: number }).maxWarnings).toBe(2);
    expect(leftovers(p.agentDir)).toEqual([]);
  }, 120_000);
});

describe("shepherd init claude-code racing an editor", () => {
  interface Handler {
    command: string;
  }
  interface Group {
    matcher?: string;
    hooks: Handler[];
  }
  const hooksOf = (data: Json): Record<string, Group[]> => (data.hooks ?? {}) as Record<string, Group[]>;
  const commands = (data: Json, event: string): string[] => (hooksOf(data)[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command));

  it("should keep every hook the editor adds and end with Shepherd's hooks installed once", async () => {
    const p = tempProject("shepherd-files-init-");
    tp = p;
    const dir = join(p.project, ".claude");
    const file = join(dir, "settings.json");
    mkdirSync(dir);
    const mine: Group = { matcher: "Bash", hooks: [{ command: "my-guard" }] };
    writeFileSync(file, `${JSON.stringify({ model: "opus", hooks: { PreToolUse: [mine] } }, null, 2)}\n`);

    let finished = false;
    const failures: string[] = [];
    const init = async (args: string[]) => {
      const r = await shepherd(["init", "claude-code", ...args], p.project, p.env);
      if (r.code !== 0) failures.push(`init ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
    };
    // Shepherd's hooks go on and off, so Shepherd writes as often as the editor saves; four processes
    // at a time, with the same goal (opposite goals at once would each undo the other, rightly).
    const flipping = (async () => {
      const times = (n: number, args: string[]) => Promise.all(Array.from({ length: n }, () => init(args)));
      for (let round = 0; round < 8; round++) {
        await times(4, []);
        await times(4, ["--uninstall"]);
      }
      await times(4, []);
    })()
      .finally(() => (finished = true));
    const userHook = (i: number) => `user-hook-${i}`;
    const editor = editorSaves(
      file,
      20,
      () => finished,
      (data, i) => {
        data.editorSaves = i;
        const hooks = (data.hooks ??= {}) as Record<string, Group[]>;
        if (i < SLOTS) (hooks.PreToolUse ??= []).push({ matcher: "Edit", hooks: [{ command: userHook(i) }] });
      },
      (data, i) => data.editorSaves === i && (i >= SLOTS || commands(data, "PreToolUse").includes(userHook(i))),
    );
    const [, saves] = await Promise.all([flipping, editor]);

    expect(failures).toEqual([]);
    const final = readJson(file);
    expect(final.model).toBe("opus");
    const pre = commands(final, "PreToolUse");
    expect(pre).toContain("my-guard");
    for (let i = 0; i < Math.min(saves, SLOTS); i++) expect(pre).toContain(userHook(i));
    expect(final.editorSaves).toBe(saves - 1);
    const shepherdHook = `${BINARY} hook claude-code`;
    for (const event of ["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd"]) {
      expect(commands(final, event).filter((c) => c === shepherdHook)).toHaveLength(1);
    }
    expect(leftovers(dir)).toEqual([]);
  }, 120_000);
});
