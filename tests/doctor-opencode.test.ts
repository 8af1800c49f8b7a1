/** @module `shepherd doctor opencode` on the compiled binary: the plugin `init opencode` wrote passes; a missing, doubled or stale one is named with its fix. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, run, type Sandbox, shepherdBin } from "./helpers/agent-sandbox.ts";

interface Report {
  ok: boolean;
  agents: { agent: string; checks: { name: string; ok: boolean; fix?: string }[] }[];
}

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("doctor-opencode");
});
afterEach(() => sb.cleanup());

const env = () => ({ PATH: process.env.PATH, HOME: sb.home, XDG_CONFIG_HOME: join(sb.home, ".config"), PI_CODING_AGENT_DIR: sb.agentDir });

async function shepherd(...args: string[]) {
  return await run(shepherdBin(), args, { cwd: sb.proj, env: env() });
}

async function doctor(): Promise<{ code: number | null; report: Report }> {
  const r = await shepherd("doctor", "opencode", "--json");
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
}

const failing = (report: Report) => (report.agents[0]?.checks ?? []).filter((c) => !c.ok).map((c) => c.name);

describe("shepherd doctor opencode", () => {
  it("should pass for the plugin init just wrote", async () => {
    expect((await shepherd("init", "opencode")).code).toBe(0);
    const { code, report } = await doctor();
    expect(failing(report)).toEqual([]);
    expect(report.agents[0]?.checks.map((c) => c.name)).toEqual(["installed", "entry", "plugin", "binary"]);
    expect(code).toBe(0);
  });

  it("should name a missing plugin with the init that fixes it", async () => {
    const { code, report } = await doctor();
    expect(failing(report)).toEqual(["installed"]);
    expect(report.agents[0]?.checks[0]?.fix).toContain("shepherd init opencode");
    expect(code).toBe(1);
  });

  it("should flag a plugin installed both globally and in the project, which judges every call twice", async () => {
    await shepherd("init", "opencode");
    await shepherd("init", "opencode", "--project");
    expect(failing((await doctor()).report)).toEqual(["once"]);
  });

  it("should flag an entry that is not Shepherd's and a plugin of another version", async () => {
    await shepherd("init", "opencode");
    const dir = join(sb.home, ".config", "opencode", "plugin");
    writeFileSync(join(dir, "shepherd.ts"), "export default async () => ({});\n");
    const install = join(dir, "shepherd", "opencode-plugin", "install.json");
    writeFileSync(install, JSON.stringify({ ...JSON.parse(readFileSync(install, "utf8")), version: "0.0.1" }));
    expect(failing((await doctor()).report)).toEqual(["entry", "plugin"]);
  });
});
