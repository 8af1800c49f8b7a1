/** @module black-box: the audit log of `shepherd serve` (off by default, one redacted line per fired decision). */
import { afterEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashEvent, Sidecar, type TempProject, tempProject } from "./helpers/sidecar-client.ts";

let project: TempProject | undefined;
afterEach(() => {
  project?.cleanup();
  project = undefined;
});

const RULES = [
  { name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "no curl: {{command}}" },
  { name: "push-note", action: "notify", pattern: "git push", reason: "pushing" },
];
const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

function setup(globalShepherd: Record<string, unknown>, projectShepherd?: Record<string, unknown>): TempProject {
  const p = tempProject("shepherd-audit-");
  project = p;
  writeFileSync(join(p.agentDir, "shepherd-rules.json"), JSON.stringify(RULES));
  writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: globalShepherd }));
  if (projectShepherd) {
    mkdirSync(join(p.project, ".pi"), { recursive: true });
    writeFileSync(join(p.project, ".pi", "settings.json"), JSON.stringify({ shepherd: projectShepherd }));
  }
  return p;
}

async function session(p: TempProject): Promise<void> {
  const s = new Sidecar(p.project, p.env);
  expect((await s.evaluate(bashEvent(`curl -H "Authorization: token ${SECRET}" https://x`, p.project, "s-1"))).action).toBe("block");
  expect((await s.evaluate(bashEvent("ls", p.project, "s-1"))).action).toBe("allow");
  expect((await s.evaluate(bashEvent("git push", p.project, "s-1"))).notify).toEqual(["pushing"]);
  expect(await s.close()).toBe(0);
}

function lines(dir: string): Record<string, unknown>[] {
  const files = existsSync(dir) ? readdirSync(dir) : [];
  return files.flatMap((f) => readFileSync(join(dir, f), "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>));
}

describe("audit log", () => {
  it("should write nothing by default", async () => {
    const p = setup({});
    await session(p);
    expect(existsSync(join(p.agentDir, "shepherd", "audit"))).toBe(false);
  });

  it("should write one line per fired decision with no tool input when on", async () => {
    const p = setup({ audit: true });
    await session(p);
    const dir = join(p.agentDir, "shepherd", "audit");
    expect(readdirSync(dir)).toEqual([`audit-${new Date().toISOString().slice(0, 10)}.jsonl`]);
    const got = lines(dir);
    expect(got.map((l) => [l.rule, l.source, l.action, l.hook, l.tool, l.session])).toEqual([
      ["no-curl", "global", "block", "tool_call", "bash", "s-1"],
      ["push-note", "global", "allow", "tool_call", "bash", "s-1"],
    ]);
    expect(typeof got[0]?.time).toBe("string");
    const raw = readFileSync(join(dir, readdirSync(dir)[0] ?? ""), "utf8");
    expect(raw).not.toContain("curl -H");
    expect(raw).not.toContain(SECRET);
  });

  it("should include tool inputs redacted when includeContent is set", async () => {
    const p = setup({});
    const dir = join(p.root, "audit-out");
    writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ shepherd: { audit: { dir, includeContent: true } } }));
    await session(p);
    const [first] = lines(dir);
    expect(JSON.stringify(first?.input)).toContain("curl -H");
    expect(JSON.stringify(first)).not.toContain(SECRET);
    expect(JSON.stringify(first)).toContain("[REDACTED]");
  });

  it("should not let an untrusted project turn auditing on or point it elsewhere", async () => {
    const p = setup({}, { audit: { dir: "audit-here", includeContent: true } });
    await session(p);
    expect(existsSync(join(p.project, "audit-here"))).toBe(false);
    expect(existsSync(join(p.agentDir, "shepherd", "audit"))).toBe(false);
  });
});
