/** @module tests of the `shepherd_state` path class: which paths count, from which environment. */
import { describe, expect, it } from "bun:test";
import { defaultProtectedPaths, protectedPaths, type ProtectedPathsInput } from "./protected-paths.ts";

const HOME = "/home/u";
const base: ProtectedPathsInput = { home: HOME, env: { PATH: "/usr/local/bin:/usr/bin:relative/bin" }, projectRoot: "/work/p", execPath: "/opt/shepherd/bin/shepherd" };

describe("protectedPaths", () => {
  const cases: [string, string, boolean, boolean][] = [
    // [why, path, deep, expected]
    ["global rules", `${HOME}/.pi/agent/shepherd-rules.json`, false, true],
    ["global settings (trust list, failMode)", `${HOME}/.pi/agent/settings.json`, false, true],
    ["global plugin", `${HOME}/.pi/agent/shepherd/plugins/x.ts`, false, true],
    ["audit log", `${HOME}/.pi/agent/shepherd/audit/2026-01-01.jsonl`, false, true],
    ["state folder itself", `${HOME}/.pi/agent/shepherd`, false, true],
    ["hook cache", `${HOME}/.pi/agent/shepherd/cache/snapshot-1.bin`, false, true],
    ["remembered approvals", `${HOME}/.pi/agent/shepherd/approvals.json`, false, true],
    ["approvals moved aside", `${HOME}/.pi/agent/shepherd/approvals.corrupt.json`, false, true],
    ["pi extension", `${HOME}/.pi/agent/extensions/shepherd/index.ts`, false, true],
    ["pi extension under another name", `${HOME}/.pi/agent/extensions/shepherd-dev`, false, true],
    ["another pi extension", `${HOME}/.pi/agent/extensions/other/index.ts`, false, false],
    ["pi's sessions", `${HOME}/.pi/agent/sessions/x.jsonl`, false, false],
    ["project rules", "/work/p/.pi/shepherd-rules.json", false, true],
    ["project rules by pattern", "/work/p/.pi/shepherd-rules-team.json", false, true],
    ["project pack lock", "/work/p/.pi/shepherd-rules.lock", false, true],
    ["global pack lock", `${HOME}/.pi/agent/shepherd-rules.lock`, false, true],
    ["pack cache copy", `${HOME}/.pi/agent/shepherd/packs/acme-0123/files/rules.json`, false, true],
    ["another project's settings", "/elsewhere/q/.pi/settings.json", false, true],
    ["project plugin", "/work/p/.pi/shepherd/plugins/x.ts", false, true],
    ["pi prompt", "/work/p/.pi/prompts/x.md", false, false],
    ["Claude project settings", "/work/p/.claude/settings.json", false, true],
    ["Claude local settings", "/work/p/.claude/settings.local.json", false, true],
    ["Claude user settings", `${HOME}/.claude/settings.json`, false, true],
    ["Claude command", "/work/p/.claude/commands/x.md", false, false],
    ["Codex hooks", `${HOME}/.codex/hooks.json`, false, true],
    ["Codex config", "/work/p/.codex/config.toml", false, true],
    ["Gemini settings", `${HOME}/.gemini/settings.json`, false, true],
    ["Copilot user settings (inline hooks)", `${HOME}/.copilot/settings.json`, false, true],
    ["Copilot repository hook file", "/work/p/.github/hooks/shepherd.json", false, true],
    ["another Copilot repository hook file", "/elsewhere/q/.github/hooks/other.json", false, true],
    ["Copilot repository settings (disableAllHooks)", "/work/p/.github/copilot/settings.json", false, true],
    ["Copilot repository local settings", "/work/p/.github/copilot/settings.local.json", false, true],
    ["Copilot hooks folder, removed whole", "/work/p/.github/hooks", true, true],
    ["a source folder named hooks", "/work/p/src/hooks/config.json", false, false],
    ["a GitHub workflow", "/work/p/.github/workflows/ci.yml", false, false],
    ["running binary", "/opt/shepherd/bin/shepherd", false, true],
    ["shepherd on PATH", "/usr/local/bin/shepherd", false, true],
    ["other binary on PATH", "/usr/local/bin/node", false, false],
    ["look-alike name", "/work/p/notes/settings.json", false, false],
    ["look-alike rules name", "/tmp/shepherd-rules.json", false, false],
    ["agent folder, shallow change", `${HOME}/.pi/agent`, false, false],
    ["agent folder, deep change", `${HOME}/.pi/agent`, true, true],
    ["~/.pi, deep", `${HOME}/.pi`, true, true],
    ["extensions folder, deep", `${HOME}/.pi/agent/extensions`, true, true],
    ["a project's .claude, deep", "/work/p/.claude", true, true],
    ["any .pi folder, deep", "/x/y/.pi", true, true],
    ["home itself is not a holder", HOME, true, false],
    ["the project root is not a holder", "/work/p", true, false],
    ["the root is not a holder", "/", true, false],
    // Globs, as the shell expands them: a name starting with a dot only for a pattern starting with one.
    ["a glob of a project's hook settings", "/work/p/.claude/*.json", false, true],
    ["a class in the file name", "/work/p/.claude/settings.[jl]*", false, true],
    ["a glob of the folder name", "/work/p/.cl*/settings.json", false, true],
    ["`*` does not match a dot folder", "/work/p/*/settings.json", false, false],
    ["`*.*` does not match a dot name", "/work/p/build/*.*", true, false],
    ["a deep glob of a folder holding global settings", `${HOME}/.p*`, true, true],
    ["the same glob, not deep", `${HOME}/.p*`, false, false],
    ["a deep glob inside the agent folder", `${HOME}/.pi/*`, true, true],
    ["git's `**` crosses folders and dots", "/work/p/**.json", false, true],
    ["a glob of other files", "/work/p/src/*.ts", false, false],
    ["a glob of a cache under home", `${HOME}/.cache/*`, true, false],
  ];
  const guard = protectedPaths(base);
  it.each(cases)("should judge %s (%s, deep %p) as %p", (_why, p, deep, expected) => {
    expect(guard.covers(p, deep)).toBe(expected);
  });

  it("should follow PI_CODING_AGENT_DIR, CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME, and keep their default folders", () => {
    const g = protectedPaths({ ...base, env: { PI_CODING_AGENT_DIR: "/data/pi", CLAUDE_CONFIG_DIR: "~/cc", CODEX_HOME: "/data/codex", GEMINI_CLI_HOME: "/data/g" } });
    const expected: [string, boolean][] = [
      ["/data/pi/settings.json", true],
      ["/data/pi/shepherd-rules.json", true],
      ["/data/pi/shepherd/plugins/a.ts", true],
      ["/data/pi/extensions/shepherd/index.ts", true],
      [`${HOME}/cc/settings.json`, true],
      ["/data/codex/hooks.json", true],
      ["/data/g/.gemini/settings.json", true],
      // The default folders stay protected: a later process may not set the variables (a repository may have).
      [`${HOME}/.pi/agent/shepherd-rules.json`, true],
      [`${HOME}/.claude/settings.json`, true],
      [`${HOME}/.codex/config.toml`, true],
      [`${HOME}/.gemini/settings.json`, true],
      ["/data/pi/notes.md", false],
    ];
    for (const [p, want] of expected) expect([p, g.covers(p, false)]).toEqual([p, want]);
  });

  it("should protect a custom rules pattern and a moved audit folder", () => {
    const g = protectedPaths({ ...base, projectRulesPattern: "guard-*.json", auditDir: "/var/log/shepherd" });
    expect(g.covers("/work/p/.pi/guard-x.json", false)).toBe(true);
    expect(g.covers("/work/p/.pi/shepherd-rules-y.json", false)).toBe(true);
    expect(g.covers("/var/log/shepherd/2026.jsonl", false)).toBe(true);
    expect(g.covers("/work/p/guard-x.json", false)).toBe(false);
  });

  it("should protect the real paths of symlinked folders it is given", () => {
    const g = protectedPaths({ ...base, aliases: [[`${HOME}/.pi/agent`, "/dotfiles/pi-agent"]] });
    expect(g.covers("/dotfiles/pi-agent/settings.json", false)).toBe(true);
    expect(g.covers("/dotfiles/pi-agent/shepherd/plugins/x.ts", false)).toBe(true);
    expect(g.covers("/dotfiles/pi-agent", true)).toBe(true);
    expect(g.covers("/dotfiles/other.json", false)).toBe(false);
  });
});

describe("protectedPaths on a case-insensitive file system", () => {
  it("should match any spelling of a protected path, and only with caseInsensitive", () => {
    const folded = protectedPaths({ ...base, caseInsensitive: true });
    const exact = protectedPaths(base);
    for (const p of [`${HOME}/.PI/Agent/Settings.json`, "/work/p/.Claude/SETTINGS.json", `${HOME}/.pi/agent/Shepherd/plugins/x.ts`, "/work/p/.pi/Shepherd-Rules-x.JSON"]) {
      expect([p, folded.covers(p, false)]).toEqual([p, true]);
      expect([p, exact.covers(p, false)]).toEqual([p, false]);
    }
    expect(folded.covers("/work/p/notes/Settings.json", false)).toBe(false);
  });
});

describe("defaultProtectedPaths", () => {
  it("should give the home-based set, the same object for the same home and project", () => {
    const a = defaultProtectedPaths("/home/x", "/p");
    expect(a.covers("/home/x/.pi/agent/settings.json", false)).toBe(true);
    expect(defaultProtectedPaths("/home/x", "/p")).toBe(a);
  });
});
