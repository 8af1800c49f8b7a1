import { describe, expect, it } from "bun:test";
import { hookEnv } from "./env.ts";

const REAL_HOME = "/home/real";

describe("hookEnv", () => {
  it.each([
    ["PI_CODING_AGENT_DIR inside the cwd", { PI_CODING_AGENT_DIR: "/p/.fake-agent" }, { PI_CODING_AGENT_DIR: undefined }, 1],
    ["PI_CODING_AGENT_DIR relative to the cwd", { PI_CODING_AGENT_DIR: ".pi/x" }, { PI_CODING_AGENT_DIR: undefined }, 1],
    ["PI_CODING_AGENT_DIR inside CLAUDE_PROJECT_DIR", { CLAUDE_PROJECT_DIR: "/q", PI_CODING_AGENT_DIR: "/q/agent" }, { PI_CODING_AGENT_DIR: undefined }, 1],
    ["HOME inside the project", { HOME: "/p/home" }, { HOME: REAL_HOME }, 1],
    ["SHEPHERD_MANAGED_DIR inside the project", { SHEPHERD_MANAGED_DIR: "/p/etc" }, { SHEPHERD_MANAGED_DIR: undefined }, 1],
    ["a real home and agent dir", { HOME: "/home/u", PI_CODING_AGENT_DIR: "/home/u/.pi/agent" }, { HOME: "/home/u", PI_CODING_AGENT_DIR: "/home/u/.pi/agent" }, 0],
    ["a sibling folder that only shares a prefix", { PI_CODING_AGENT_DIR: "/p2/agent" }, { PI_CODING_AGENT_DIR: "/p2/agent" }, 0],
  ] as const)("should judge %s", (_name, env, expected, drops) => {
    const r = hookEnv({ ...env }, "/p", () => REAL_HOME);
    for (const [k, v] of Object.entries(expected)) expect(r.env[k]).toBe(v);
    expect(r.dropped.length).toBe(drops);
  });

  it("should leave HOME alone when the real home itself holds the project", () => {
    expect(hookEnv({ HOME: "/home/real" }, "/home/real", () => REAL_HOME).env.HOME).toBe("/home/real");
  });

  it.each([
    ["/", { HOME: "/tmp/h", PI_CODING_AGENT_DIR: "/srv/agent" }],
    ["/home", { HOME: "/home/x", PI_CODING_AGENT_DIR: "/home/real/.pi/agent" }],
    ["/home/real", { HOME: "/home/real/alt", PI_CODING_AGENT_DIR: "/home/real/.pi/agent" }],
  ] as const)("should not judge a hook started in %s (the root, the home or above it) a repository", (cwd, env) => {
    const r = hookEnv({ ...env }, cwd, () => REAL_HOME);
    expect(r.dropped).toEqual([]);
    expect(r.env).toMatchObject(env);
  });

  it("should not copy the environment when nothing is dropped", () => {
    const env = { HOME: "/home/u" };
    expect(hookEnv(env, "/p", () => REAL_HOME).env).toBe(env);
  });
});

describe("hookEnv without a password database entry", () => {
  it("should put a home that holds nothing in place of a HOME inside the project", () => {
    expect(hookEnv({ HOME: "/p/h" }, "/p", () => undefined).env.HOME).toBe("/nonexistent");
  });
});
