/**
 * @module black-box file safety: several sidecars writing the same rule file through `shepherd_rules`
 * while a user saves it (read, edit, atomic replace, no lock), while another sidecar evaluates against
 * it. No rule is lost, no reader sees a torn file, and a writer killed while holding the lock does not
 * block the next write.
 */
import { afterEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let tp: TempProject | undefined;
const sidecars: Sidecar[] = [];
afterEach(async () => {
  for (const s of sidecars.splice(0)) if (s.child.exitCode === null) await s.close();
  tp?.cleanup();
  tp = undefined;
});

function sidecar(p: TempProject): Sidecar {
  const s = new Sidecar(p.project, p.env);
  sidecars.push(s);
  return s;
}

async function add(s: Sidecar, rule: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const res = await s.request("tools/call", { name: "shepherd_rules", arguments: { action: "add", rule } }, );
  const r = res.result as { content: { text: string }[]; isError: boolean };
  return { text: r.content[0]?.text ?? "", isError: r.isError };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function names(file: string): string[] {
  return (JSON.parse(readFileSync(file, "utf8")) as { name: string }[]).map((r) => r.name);
}

/**
 * A user saving in an editor: read, change, write a temp file and rename it over the original, with
 * no lock. Like an editor that notices a newer file on disk, it re-reads if the file changed while it
 * was editing, and checks afterwards that its save is still there.
 */
async function userSaves(file: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    for (;;) {
      const before = readFileSync(file, "utf8");
      const rules = JSON.parse(before) as unknown[];
      rules.push({ name: `user-${i}`, action: "notify", pattern: `user${i}\\b`, reason: "user" });
      const tmp = `${file}.user.tmp`;
      writeFileSync(tmp, `${JSON.stringify(rules, null, 2)}\n`);
      if (readFileSync(file, "utf8") !== before) continue;
      renameSync(tmp, file);
      await sleep(40);
      if (names(file).includes(`user-${i}`)) break;
    }
    await sleep(Math.floor(Math.random() * 8));
  }
}

describe("concurrent writers of one rule file", () => {
  it("should lose no rule when three sidecars and a user's editor write at once, and never show a torn file", async () => {
    const p = tempProject("shepherd-files-");
    tp = p;
    const file = join(p.agentDir, "shepherd-rules.json");
    writeFileSync(file, `${JSON.stringify([{ name: "keep", action: "block", pattern: "\\brm -rf\\b", reason: "kept" }], null, 2)}\n`);
    const writers = [sidecar(p), sidecar(p), sidecar(p)];
    const reader = sidecar(p);
    const perWriter = 8;
    const failures: string[] = [];

    let reading = true;
    const verdicts: string[] = [];
    const readLoop = (async () => {
      while (reading) {
        verdicts.push(String((await reader.evaluate(bashEvent("rm -rf /", p.project))).action));
        await sleep(2);
      }
    })();

    const toolWrites = writers.map(async (w, wi) => {
      const results: boolean[] = [];
      for (let i = 0; i < perWriter; i++) {
        const res = await add(w, { name: `tool-${wi}-${i}`, action: "block", pattern: `t${wi}x${i}\\b`, reason: "tool" });
        if (res.isError) failures.push(res.text);
        results.push(!res.isError);
      }
      return results;
    });
    const [ok] = await Promise.all([Promise.all(toolWrites), userSaves(file, 12)]);
    reading = false;
    await readLoop;

    const final = names(file);
    expect(final).toContain("keep");
    for (let wi = 0; wi < writers.length; wi++) {
      for (let i = 0; i < perWriter; i++) if (ok[wi]?.[i]) expect(final).toContain(`tool-${wi}-${i}`);
    }
    if (failures.length) console.error("FAILURES", failures);
    expect(failures).toEqual([]);
    for (let i = 0; i < 12; i++) expect(final).toContain(`user-${i}`);
    expect(new Set(final).size).toBe(final.length);
    // The rule present throughout governed every evaluation: no reload ever saw half a file.
    expect(verdicts.length).toBeGreaterThan(5);
    expect(verdicts.filter((v) => v !== "block")).toEqual([]);
    // No temp or lock file left behind.
    expect(readdirSync(p.agentDir).filter((n) => n.endsWith(".tmp") || n.endsWith(".lock"))).toEqual([]);
  }, 120_000);

  it("should break the lock of a writer killed while holding it, at once", async () => {
    const p = tempProject("shepherd-files-");
    tp = p;
    const file = join(p.agentDir, "shepherd-rules.json");
    // A pid that existed and is gone: what a sidecar SIGKILLed mid-write leaves in its lock.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(`${file}.lock`, dead);
    const s = sidecar(p);
    const started = Date.now();
    const res = await add(s, { name: "after-crash", action: "block", pattern: "x" });
    expect(res.isError).toBe(false);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(names(file)).toEqual(["after-crash"]);
  });

  it("should wait for a live holder instead of breaking its lock", async () => {
    const p = tempProject("shepherd-files-");
    tp = p;
    const file = join(p.agentDir, "shepherd-rules.json");
    writeFileSync(`${file}.lock`, String(process.pid));
    const s = sidecar(p);
    const pending = add(s, { name: "waited", action: "block", pattern: "x" });
    await sleep(300);
    expect(() => readFileSync(file, "utf8")).toThrow();
    renameSync(`${file}.lock`, join(p.root, "released"));
    expect((await pending).isError).toBe(false);
    expect(names(file)).toEqual(["waited"]);
  });
});
