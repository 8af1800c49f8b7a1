/** @module unit tests: the per-session state file shared by separate hook processes. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { previousStateFile, pruneStateFiles, readStateFile, sessionStateDir, stateFileName, withSessionState } from "./session-state.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-state-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("stateFileName", () => {
  const cases: [string, string, RegExp][] = [
    ["a uuid as is", "a683c167-8afb-44f3", /^claude-code-a683c167-8afb-44f3\.json$/],
    ["a path-like id as a hash", "../../etc/passwd", /^claude-code-h[0-9a-f]{16}\.json$/],
    ["a dot file id as a hash", ".hidden", /^claude-code-h[0-9a-f]{16}\.json$/],
  ];
  for (const [name, id, re] of cases) it(`should keep ${name}`, () => expect(stateFileName("claude-code", id)).toMatch(re));
});

describe("sessionStateDir", () => {
  it("should live under PI_CODING_AGENT_DIR", () => {
    expect(sessionStateDir({ PI_CODING_AGENT_DIR: "/x/agent" })).toBe(resolve("/x/agent/shepherd/sessions"));
  });
});

describe("withSessionState", () => {
  it("should keep counters across calls", async () => {
    for (let i = 0; i < 3; i++) await withSessionState(dir, "codex", "s", (s) => void s.errors++);
    expect(readStateFile(join(dir, stateFileName("codex", "s"))).errors).toBe(3);
  });

  it("should serialize concurrent updates of one session", async () => {
    const bump = () =>
      withSessionState(dir, "codex", "s", async (s) => {
        const seen = s.calls;
        await new Promise((r) => setTimeout(r, 1));
        s.calls = seen + 1;
      });
    await Promise.all(Array.from({ length: 20 }, bump));
    expect(readStateFile(join(dir, stateFileName("codex", "s"))).calls).toBe(20);
  });

  it("should serialize concurrent processes", async () => {
    const script = join(dir, "bump.ts");
    writeFileSync(
      script,
      `import { withSessionState } from ${JSON.stringify(resolve(import.meta.dir, "session-state.ts"))};\n` +
        `for (let i = 0; i < 10; i++) await withSessionState(${JSON.stringify(dir)}, "gemini", "p", (s) => { s.errors++; });\n`,
    );
    const procs = Array.from({ length: 6 }, () => Bun.spawn([process.execPath, script], { stderr: "pipe" }));
    expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(readStateFile(join(dir, stateFileName("gemini", "p"))).errors).toBe(60);
  });

  it("should take over a lock left by a crashed hook", async () => {
    const lock = join(dir, `${stateFileName("codex", "s")}.lock`);
    writeFileSync(lock, "999999");
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await withSessionState(dir, "codex", "s", (s) => void s.calls++);
    expect(existsSync(lock)).toBe(false);
  });

  it("should restart from empty state when the file is corrupt", async () => {
    writeFileSync(join(dir, stateFileName("codex", "s")), "{not json");
    const calls = await withSessionState(dir, "codex", "s", (s) => s.calls);
    expect(calls).toBe(0);
  });

  it("should delete the state and its previous version when asked to remove it", async () => {
    await withSessionState(dir, "codex", "s", (s) => void s.calls++);
    await withSessionState(dir, "codex", "s", (s) => void s.calls++);
    expect(existsSync(previousStateFile(join(dir, stateFileName("codex", "s"))))).toBe(true);
    await withSessionState(dir, "codex", "s", () => undefined, { remove: true });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("should read the previous version when the state file is missing (a write cut between its renames)", async () => {
    const file = join(dir, stateFileName("codex", "s"));
    for (let i = 0; i < 3; i++) await withSessionState(dir, "codex", "s", (s) => void s.calls++);
    expect(readStateFile(file).calls).toBe(3);
    rmSync(file);
    expect(readStateFile(file).calls).toBe(2);
    await withSessionState(dir, "codex", "s", (s) => void s.calls++);
    expect(readStateFile(file).calls).toBe(3);
  });
});

describe("pruneStateFiles", () => {
  it("should drop only files idle longer than the limit", () => {
    writeFileSync(join(dir, "old.json"), "{}");
    writeFileSync(join(dir, "new.json"), "{}");
    const old = new Date(Date.now() - 10 * 86_400_000);
    utimesSync(join(dir, "old.json"), old, old);
    expect(pruneStateFiles(dir, 7 * 86_400_000)).toBe(1);
    expect(readdirSync(dir)).toEqual(["new.json"]);
  });
});
