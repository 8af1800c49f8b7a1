/**
 * @module black-box: `shepherd serve` hands back the binary's clean code pages once warm (lib/rpc/code-pages.ts)
 * and still decides right afterwards: the pages it needs come back from the page cache.
 */
import { describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, bashEvent, disposeAfterEach, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

const live = disposeAfterEach();

/** Resident kB of the executable's mappings that are not writable (its code and read-only data). */
function residentCodeKb(pid: number, exe: string): number {
  let kb = 0;
  for (const block of readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = block.slice(0, block.indexOf("\n"));
    const m = /^\S+ ([r-][w-][x-][ps]) \S+ \S+ \S+\s+(.+)$/.exec(head);
    if (!m || m[2] !== exe || m[1]?.[1] === "w") continue;
    kb += Number(/\nRss:\s+(\d+) kB/.exec(block)?.[1] ?? 0);
  }
  return kb;
}

describe("shepherd serve's code pages", () => {
  it("should keep fewer than 30 MB of the binary's read-only pages resident once warm, and still decide", async () => {
    const p = tempProject("shepherd-code-pages-");
    live.project = p;
    mkdirSync(join(p.project, ".pi"), { recursive: true });
    writeFileSync(join(p.project, ".pi", "shepherd-rules.json"), JSON.stringify([{ name: "rm", action: "block", pattern: "\\brm\\s+-rf\\b", reason: "no rm" }]));
    writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { trustedProjects: [p.project] } }));
    const s = new Sidecar(p.project, p.env);
    live.sidecar = s;
    // The first line is read after the warm-up, which ends with the drop.
    expect((await s.request("ping")).result).toEqual({});
    const pid = s.child.pid as number;
    // Before this module the serving process kept ~40 MB of them (Bun's parser, loader, JIT tiers).
    expect(residentCodeKb(pid, realpathSync(BINARY))).toBeLessThan(30 * 1024);
    expect((await s.evaluate(bashEvent("rm -rf build", p.project))).action).toBe("block");
    expect((await s.evaluate(bashEvent("git status", p.project))).action).toBe("allow");
  });
});
