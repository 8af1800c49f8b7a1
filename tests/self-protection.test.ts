/**
 * @module black-box tests of the locked built-in self-protection rules (rules/safety-self.json) against
 * dist/shepherd: every protected target through every writing route is blocked (sidecar and Claude Code
 * hook), reading and look-alikes are not, the shepherd CLI's off-switches are blocked however the binary
 * is named, and only a hand-written `unlockBuiltins` in the global settings unlocks a rule.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { BINARY, Sidecar } from "./helpers/sidecar-client.ts";

interface World {
  root: string;
  home: string;
  agent: string;
  proj: string;
  env: Record<string, string>;
}

function makeWorld(prefix: string, withAgentDir = true): World {
  // Real path: the sidecar resolves symlinked folders (macOS /var -> /private/var) and so must the cases.
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, "home");
  const agent = withAgentDir ? join(root, "agent") : join(home, ".pi", "agent");
  const proj = join(root, "proj");
  for (const d of [home, agent, join(proj, ".pi")]) mkdirSync(d, { recursive: true });
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, SHEPHERD_LOG: "error" };
  if (withAgentDir) env.PI_CODING_AGENT_DIR = agent;
  return { root, home, agent, proj, env };
}

/**
 * A world and a sidecar serving it for one describe block: made before its tests (after `prepare` fills the
 * world), closed and removed after them.
 */
function sidecarWorld(prefix: string, withAgentDir: boolean, prepare: (w: World) => void = () => {}): { readonly w: World; readonly sidecar: Sidecar } {
  const box: { w?: World; sidecar?: Sidecar } = {};
  beforeAll(() => {
    box.w = makeWorld(prefix, withAgentDir);
    prepare(box.w);
    box.sidecar = new Sidecar(box.w.proj, box.w.env);
  });
  afterAll(async () => {
    await box.sidecar?.close();
    if (box.w) rmSync(box.w.root, { recursive: true, force: true });
  });
  return {
    get w(): World {
      if (!box.w) throw new Error("sidecarWorld used outside its tests");
      return box.w;
    },
    get sidecar(): Sidecar {
      if (!box.sidecar) throw new Error("sidecarWorld used outside its tests");
      return box.sidecar;
    },
  };
}

/** Every file the rules protect, for one world. */
function targets(w: World): string[] {
  return [
    join(w.agent, "shepherd-rules.json"),
    join(w.agent, "settings.json"),
    join(w.proj, ".pi", "shepherd-rules.json"),
    join(w.proj, ".pi", "shepherd-rules-team.json"),
    join(w.proj, ".pi", "settings.json"),
    join(w.agent, "shepherd", "plugins", "evil.ts"),
    join(w.proj, ".pi", "shepherd", "plugins", "evil.ts"),
    join(w.agent, "shepherd", "audit", "2026-01-01.jsonl"),
    join(w.agent, "shepherd", "cache", "snapshot.bin"),
    join(w.agent, "shepherd", "approvals.json"),
    join(w.agent, "extensions", "shepherd", "index.ts"),
    realpathSync(BINARY),
    join(w.proj, ".claude", "settings.json"),
    join(w.proj, ".claude", "settings.local.json"),
    join(w.home, ".claude", "settings.json"),
    join(w.home, ".codex", "hooks.json"),
    join(w.proj, ".codex", "hooks.json"),
    join(w.proj, ".gemini", "settings.json"),
    join(w.home, ".gemini", "settings.json"),
    join(w.home, ".config", "opencode", "plugin", "shepherd.ts"),
    join(w.home, ".config", "opencode", "plugin", "shepherd", "opencode-plugin", "index.ts"),
    join(w.proj, ".opencode", "plugin", "shepherd.ts"),
  ];
}

/** Shell routes that change a file, each as a command line for target `t`. */
const SHELL_ROUTES: [string, (t: string) => string][] = [
  [">", (t) => `echo '{}' > ${t}`],
  [">>", (t) => `echo '{}' >> ${t}`],
  ["tee", (t) => `echo '{}' | tee ${t}`],
  ["sed -i", (t) => `sed -i 's/closed/open/' ${t}`],
  ["perl -i", (t) => `perl -pi -e 's/block/allow/' ${t}`],
  ["mv away", (t) => `mv ${t} /tmp/away`],
  ["mv over", (t) => `mv /tmp/evil ${t}`],
  ["rm", (t) => `rm -f ${t}`],
  ["unlink", (t) => `unlink ${t}`],
  ["chmod", (t) => `chmod 000 ${t}`],
  ["chown", (t) => `chown nobody ${t}`],
  ["ln", (t) => `ln -sf /dev/null ${t}`],
  ["cp over", (t) => `cp /tmp/evil ${t}`],
  ["cp into its folder", (t) => `cp /tmp/${basename(t)} ${dirname(t)}/`],
  ["truncate", (t) => `truncate -s 0 ${t}`],
  ["dd of=", (t) => `dd if=/dev/zero of=${t} count=1`],
  ["install", (t) => `install -m 644 /tmp/evil ${t}`],
  ["rsync", (t) => `rsync /tmp/evil ${t}`],
  ["python", (t) => `python3 -c "open('${t}', 'w').write('{}')"`],
  ["node", (t) => `node -e "require('fs').writeFileSync('${t}', '{}')"`],
  ["sh -c", (t) => `sh -c 'echo x > ${t}'`],
  ["sudo", (t) => `sudo tee ${t} < /tmp/evil`],
  ["cd + relative", (t) => `cd ${dirname(t)} && echo '{}' > ${basename(t)}`],
  ["cd .. + relative", (t) => `cd ${dirname(t)}/sub && rm ../${basename(t)}`],
  ["git checkout", (t) => `git checkout -- ${t}`],
  ["git restore", (t) => `git restore --source HEAD~1 ${t}`],
];

/** Write/edit tools of every agent, each as a tool call for target `t`. */
const TOOL_ROUTES: [string, (t: string) => Record<string, unknown>][] = [
  ["write", (t) => ({ path: t, content: "{}" })],
  ["edit", (t) => ({ path: t, oldText: "a", newText: "b" })],
  ["Write", (t) => ({ file_path: t, content: "{}" })],
  ["Edit", (t) => ({ file_path: t, old_string: "a", new_string: "b" })],
  ["MultiEdit", (t) => ({ file_path: t, edits: [{ old_string: "a", new_string: "b" }] })],
  ["NotebookEdit", (t) => ({ notebook_path: t, new_source: "x" })],
  ["write_file", (t) => ({ file_path: t, content: "{}" })],
  ["replace", (t) => ({ file_path: t, old_string: "a", new_string: "b" })],
  ["apply_patch", (t) => ({ command: `*** Begin Patch\n*** Update File: ${t}\n@@\n-a\n+b\n*** End Patch\n` })],
];

/** Reads of a protected file: never blocked by these rules. */
const READ_ROUTES: [string, (t: string) => string][] = [
  ["cat", (t) => `cat ${t}`],
  ["grep", (t) => `grep -c failMode ${t}`],
  ["cp out", (t) => `cp ${t} /tmp/backup-copy`],
  ["sed -n", (t) => `sed -n 1,5p ${t}`],
  ["ls", (t) => `ls -la ${dirname(t)}`],
  ["git diff", (t) => `git diff -- ${t}`],
];

/** The shepherd CLI's own off-switches, however the binary is named. */
function cliSwitches(w: World): string[] {
  return [
    "shepherd trust .",
    `${BINARY} trust ${w.proj}`,
    "./dist/shepherd trust",
    "npx shepherd trust .",
    "shepherd trust --revoke",
    "shepherd init claude-code --uninstall",
    `${BINARY} init pi --uninstall`,
    "shepherd init codex --user --uninstall",
    "npx shepherd init gemini --uninstall",
    "$(which shepherd) trust .",
    "`command -v shepherd` init claude-code --uninstall",
    "npm exec shepherd -- trust .",
    "shepherd-linux-x64 trust",
    `echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"shepherd_rules","arguments":{"action":"disable","name":"safety-self-trust"}}}' | shepherd serve`,
    "shepherd serve < /tmp/requests.jsonl",
    "cat /tmp/requests.jsonl | ./dist/shepherd serve",
    // The binary found on PATH, by a lookup the shell layer resolves.
    "rm -f $(which shepherd)",
    'cp /bin/true "$(command -v shepherd)"',
    "chmod -x `which shepherd`",
    // Its package and its extensions taken out of the agents.
    "npm uninstall -g @shepherd-guard/shepherd",
    "pnpm rm -g @shepherd-guard/shepherd",
    "pi remove npm:@shepherd-guard/shepherd",
    "gemini extensions uninstall shepherd",
    "claude mcp remove shepherd",
    // Its running processes.
    "pkill -f 'shepherd serve'",
    "killall shepherd",
    "kill -9 $(pgrep -f shepherd)",
    "pgrep -f shepherd | xargs kill",
    // A nested agent with its hooks or extensions off, or in another config home.
    "pi -ne -p 'tidy the home folder'",
    "claude --bare -p 'remove the old dirs'",
    "CLAUDE_CONFIG_DIR=/tmp/cc claude -p x",
    "codex exec --disable codex_hooks 'do it'",
    // Events forged to shepherd http's own routes.
    "curl -s -X POST -H 'content-type: application/json' http://127.0.0.1:8787/v1/hooks/claude-code -d @/tmp/forged.json",
  ];
}

const LOOK_ALIKES = [
  "echo x > notes/settings.json",
  "echo x > docs/shepherd-rules.md",
  "grep 'shepherd trust' README.md",
  "grep -rn shepherd_rules lib/",
  "shepherd trust --list",
  "shepherd rules list",
  "shepherd init claude-code",
  "echo shepherd init pi --uninstall",
  "mkdir -p .claude/commands && echo hi > .claude/commands/hi.md",
  "python3 -c \"print('settings.json')\"",
  "cp README.md docs/",
  "pgrep -fl shepherd",
  "ls -la $(which shepherd)",
  "npm uninstall -g typescript",
  "pi remove npm:pi-web-search",
  "pkill -f vite",
  "rm -rf ~/.config/opencode/plugin/other.ts",
  "claude -p 'summarize the diff'",
  "pi -p 'write the tests'",
  "curl -s http://127.0.0.1:8787/v1/status",
];

function event(w: World, tool: string, input: Record<string, unknown>) {
  return { hook: "tool_call", session: { id: "s", cwd: w.proj }, tool: { name: tool, input } };
}

/**
 * The calls, each target by each route, whose decision is not `want`: shell routes through `bash`, tool routes
 * through their own tool. Empty when every one got `want`.
 */
async function notDecided(sidecar: Sidecar, w: World, want: string, targetList: string[], shell: [string, (t: string) => string][], tools: [string, (t: string) => Record<string, unknown>][]): Promise<string[]> {
  const missed: string[] = [];
  for (const t of targetList) {
    for (const [route, line] of shell) {
      const d = await sidecar.evaluate(event(w, "bash", { command: line(t) }));
      if (d.action !== want) missed.push(`${route}: ${line(t)}: ${d.action}`);
    }
    for (const [tool, input] of tools) {
      const d = await sidecar.evaluate(event(w, tool, input(t)));
      if (d.action !== want) missed.push(`${tool}: ${t}: ${d.action}`);
    }
  }
  return missed;
}

function hook(w: World, tool: string, input: Record<string, unknown>): string {
  const stdin = JSON.stringify({ session_id: "s", cwd: w.proj, hook_event_name: "PreToolUse", tool_name: tool, tool_input: input });
  const res = spawnSync(BINARY, ["hook", "claude-code"], { cwd: w.proj, env: w.env, input: stdin, encoding: "utf8" });
  expect(res.status).toBe(0);
  return res.stdout;
}

/** Over a hundred spawned hooks: on a loaded machine that outlasts bun's default 5 s per test. */
const HOOK_SPAWNS_TIMEOUT = 60_000;

function denied(out: string): boolean {
  return out.includes('"permissionDecision":"deny"');
}

describe("self-protection through the sidecar (shepherd serve)", () => {
  for (const withAgentDir of [true, false]) {
    describe(withAgentDir ? "with PI_CODING_AGENT_DIR" : "with the default ~/.pi/agent", () => {
      const world = sidecarWorld("shepherd-self-", withAgentDir);

      it("should block every shell route to every protected target", async () => {
        const { w, sidecar } = world;
        expect(await notDecided(sidecar, w, "block", targets(w), SHELL_ROUTES, [])).toEqual([]);
      });

      it("should block every write/edit tool of every agent on every protected target", async () => {
        const { w, sidecar } = world;
        expect(await notDecided(sidecar, w, "block", targets(w), [], TOOL_ROUTES)).toEqual([]);
      });

      it("should block a relative path from the project (.claude/settings.json, .pi/shepherd-rules.json)", async () => {
        const { w, sidecar } = world;
        for (const p of [".claude/settings.json", ".pi/shepherd-rules.json", "./.pi/../.pi/settings.json"]) {
          expect((await sidecar.evaluate(event(w, "Write", { file_path: p, content: "{}" }))).action).toBe("block");
          expect((await sidecar.evaluate(event(w, "bash", { command: `echo x > ${p}` }))).action).toBe("block");
        }
      });

      it("should allow reading every protected target, by the read tool and by the shell", async () => {
        const { w, sidecar } = world;
        const blocked: string[] = [];
        for (const t of targets(w)) {
          if ((await sidecar.evaluate(event(w, "Read", { file_path: t }))).action !== "allow") blocked.push(`Read ${t}`);
          for (const [route, line] of READ_ROUTES) {
            const d = await sidecar.evaluate(event(w, "bash", { command: line(t) }));
            if (d.action !== "allow") blocked.push(`${route}: ${line(t)}: ${String(d.reason)}`);
          }
        }
        expect(blocked).toEqual([]);
      });

      it("should block the shepherd CLI's off-switches, however the binary is named", async () => {
        const { w, sidecar } = world;
        const missed: string[] = [];
        for (const c of cliSwitches(w)) if ((await sidecar.evaluate(event(w, "bash", { command: c }))).action !== "block") missed.push(c);
        expect(missed).toEqual([]);
      });

      it("should allow look-alikes of protected names and commands", async () => {
        const { w, sidecar } = world;
        const blocked: string[] = [];
        for (const c of LOOK_ALIKES) {
          const d = await sidecar.evaluate(event(w, "bash", { command: c }));
          if (d.action !== "allow") blocked.push(`${c}: ${String(d.reason)}`);
        }
        for (const p of [join(w.proj, "notes", "settings.json"), join(w.proj, ".pi", "prompts", "x.md"), join(w.proj, ".claude", "commands", "x.md")]) {
          const d = await sidecar.evaluate(event(w, "Write", { file_path: p, content: "x" }));
          if (d.action !== "allow") blocked.push(`Write ${p}`);
        }
        expect(blocked).toEqual([]);
      });
    });
  }
});

describe("writes through a symbolic link to a protected file", () => {
  // What a cloned repository can ship (git keeps links), and what the model can make a call earlier.
  const world = sidecarWorld("shepherd-link-", false, (w) => {
    writeFileSync(join(w.agent, "shepherd-rules.json"), "[]");
    mkdirSync(join(w.home, ".claude"), { recursive: true });
    mkdirSync(join(w.proj, "docs"), { recursive: true });
    symlinkSync(join(w.agent, "shepherd-rules.json"), join(w.proj, "docs", "notes.json"));
    symlinkSync(join(w.home, ".claude"), join(w.proj, "docs", "cc"));
    symlinkSync(join(w.proj, "README.md"), join(w.proj, "docs", "readme-link.md"));
    // Dangling until written: the write through it creates Claude Code's settings (hooks) file.
    symlinkSync(join(w.home, ".claude", "settings.json"), join(w.proj, "docs", "cc-settings.json"));
    writeFileSync(join(w.proj, "README.md"), "# x\n");
  });

  it("should block every route that writes through the link, file or folder", async () => {
    const { w, sidecar } = world;
    const shell = SHELL_ROUTES.filter(([r]) => [">", "tee", "sed -i", "cp over", "truncate", "python"].includes(r));
    const tools = TOOL_ROUTES.filter(([n]) => n === "write" || n === "Edit");
    expect(await notDecided(sidecar, w, "block", ["docs/notes.json", join(w.proj, "docs", "notes.json"), "docs/cc/settings.json", "docs/cc-settings.json"], shell, tools)).toEqual([]);
  });

  it("should let writes through a link to an ordinary file, and reads through the protected one, run", async () => {
    const { w, sidecar } = world;
    for (const c of ["echo x >> docs/readme-link.md", "cat docs/notes.json", "sed -n 1p docs/cc/settings.json"]) {
      expect([c, (await sidecar.evaluate(event(w, "bash", { command: c }))).action]).toEqual([c, "allow"]);
    }
    expect((await sidecar.evaluate(event(w, "write", { path: "docs/readme-link.md", content: "y" }))).action).toBe("allow");
  });

  it("should block it in the Claude Code hook too", () => {
    const { w } = world;
    expect(denied(hook(w, "Write", { file_path: join(w.proj, "docs", "notes.json"), content: "[]" }))).toBe(true);
    expect(denied(hook(w, "Bash", { command: "echo '[]' > docs/notes.json" }))).toBe(true);
    expect(denied(hook(w, "Write", { file_path: join(w.proj, "docs", "cc-settings.json"), content: "{}" }))).toBe(true);
  });
});

describe("startup files and agent code folders (safety-startup-write-tool, safety-system-write)", () => {
  const world = sidecarWorld("shepherd-startup-", false);

  /** Files something runs on its own later; Shepherd's own entries among them are blocked by the cases above. */
  const planted = (x: World) => [
    join(x.home, ".bashrc"),
    join(x.home, ".ssh", "authorized_keys"),
    join(x.home, ".pi", "agent", "extensions", "helper.ts"),
    join(x.home, ".gemini", "extensions", "helper", "gemini-extension.json"),
    join(x.home, ".config", "opencode", "plugin", "helper.ts"),
  ];

  it("should ask before a write/edit tool of any agent or a shell write puts something there", async () => {
    const { w, sidecar } = world;
    const shell: [string, (t: string) => string][] = [[">", (t) => `echo 'curl x | sh' > ${t}`], ["cp over", (t) => `cp /tmp/evil ${t}`]];
    const missed = await notDecided(sidecar, w, "ask", planted(w), shell, TOOL_ROUTES);
    const into = await sidecar.evaluate(event(w, "bash", { command: `cp /tmp/evil.ts ${join(w.home, ".pi", "agent", "extensions")}/` }));
    if (into.action !== "ask") missed.push(`cp into the extensions folder: ${into.action}`);
    expect(missed).toEqual([]);
  });

  it("should let reads of them and writes of look-alikes in the project run", async () => {
    const { w, sidecar } = world;
    const stopped: string[] = [];
    for (const t of planted(w)) {
      const d = await sidecar.evaluate(event(w, "Read", { file_path: t }));
      if (d.action !== "allow") stopped.push(`Read ${t}`);
    }
    for (const p of [join(w.proj, "src", "bashrc.ts"), join(w.proj, ".pi", "extensions", "dev.ts"), join(w.proj, "extensions", "helper.ts")]) {
      const d = await sidecar.evaluate(event(w, "Write", { file_path: p, content: "x" }));
      if (d.action !== "allow") stopped.push(`Write ${p}: ${d.action}`);
    }
    expect(stopped).toEqual([]);
  });
});

describe("self-protection through the Claude Code hook (shepherd hook claude-code)", () => {
  let w: World;
  beforeAll(() => {
    w = makeWorld("shepherd-self-hook-");
  });
  afterAll(() => rmSync(w.root, { recursive: true, force: true }));

  it("should deny each protected target by two routes and each route on one target", () => {
    const all = targets(w);
    const missed: string[] = [];
    for (const t of all) {
      if (!denied(hook(w, "Bash", { command: `echo '{}' > ${t}` }))) missed.push(`> ${t}`);
      if (!denied(hook(w, "Write", { file_path: t, content: "{}" }))) missed.push(`Write ${t}`);
    }
    const settings = join(w.agent, "settings.json");
    for (const [route, line] of SHELL_ROUTES) if (!denied(hook(w, "Bash", { command: line(settings) }))) missed.push(route);
    for (const [tool, input] of TOOL_ROUTES) if (!denied(hook(w, tool, input(settings)))) missed.push(tool);
    for (const c of cliSwitches(w)) if (!denied(hook(w, "Bash", { command: c }))) missed.push(c);
    expect(missed).toEqual([]);
  }, HOOK_SPAWNS_TIMEOUT);

  it("should let reads and look-alikes through", () => {
    const settings = join(w.agent, "settings.json");
    const outs = [...READ_ROUTES.map(([, line]) => hook(w, "Bash", { command: line(settings) })), ...LOOK_ALIKES.map((c) => hook(w, "Bash", { command: c })), hook(w, "Read", { file_path: settings })];
    expect(outs.filter(denied)).toEqual([]);
  });
});

describe("locked built-in self-protection rules", () => {
  let w: World;
  const settingsFile = () => join(w.agent, "settings.json");
  const writeLine = () => `echo '{}' > ${join(w.agent, "settings.json")}`;
  const disableAll = [
    { name: "safety-self-shell-write", enabled: false },
    { name: "safety-self-trust", action: "notify", pattern: "^$", reason: "never" },
  ];
  beforeEach(() => {
    w = makeWorld("shepherd-self-lock-");
  });
  afterEach(() => rmSync(w.root, { recursive: true, force: true }));

  function listJson(): { rules: { name: string; source: string; locked: boolean; status: string; reason?: string }[]; issues: { file: string; path: string; message: string; severity: string }[] } {
    const res = spawnSync(BINARY, ["rules", "list", "--json"], { cwd: w.proj, env: w.env, encoding: "utf8" });
    expect(res.status).toBe(0);
    return JSON.parse(res.stdout);
  }

  it("should give the sidecar's verdict in `rules explain`, with the agent folder from PI_CODING_AGENT_DIR", () => {
    const res = spawnSync(BINARY, ["rules", "explain", "--tool", "bash", "--command", writeLine()], { cwd: w.proj, env: w.env, encoding: "utf8" });
    expect(res.stdout).toContain("decision: block: Blocked by Shepherd's self-protection");
    const read = spawnSync(BINARY, ["rules", "explain", "--tool", "bash", "--command", `cat ${settingsFile()}`], { cwd: w.proj, env: w.env, encoding: "utf8" });
    expect(read.stdout).toContain("decision: allow");
  });

  it("should show every safety-self rule as built-in, locked and active in `rules list`", () => {
    const self = listJson().rules.filter((r) => r.name.startsWith("safety-self-"));
    expect(self.length).toBeGreaterThanOrEqual(6);
    for (const r of self) expect([r.name, r.source, r.locked, r.status]).toEqual([r.name, "builtin", true, "active"]);
  });

  it("should keep blocking when the global rule file disables or replaces them", () => {
    writeFileSync(join(w.agent, "shepherd-rules.json"), JSON.stringify(disableAll));
    expect(denied(hook(w, "Bash", { command: writeLine() }))).toBe(true);
    expect(denied(hook(w, "Bash", { command: "shepherd trust ." }))).toBe(true);
    const skipped = listJson().rules.filter((r) => r.source === "global");
    expect(skipped.map((r) => [r.name, r.status])).toEqual([["safety-self-shell-write", "skipped"], ["safety-self-trust", "skipped"]]);
    for (const r of skipped) expect(r.reason).toContain("locked by builtin");
  });

  it("should keep blocking when a trusted project's rule file disables them", () => {
    writeFileSync(settingsFile(), JSON.stringify({ shepherd: { trustedProjects: [w.proj] } }));
    writeFileSync(join(w.proj, ".pi", "shepherd-rules.json"), JSON.stringify(disableAll));
    expect(denied(hook(w, "Bash", { command: writeLine() }))).toBe(true);
    expect(denied(hook(w, "Bash", { command: "shepherd trust ." }))).toBe(true);
  });

  it("should keep blocking after a hot reload of a disabling global file in a running sidecar", async () => {
    const sidecar = new Sidecar(w.proj, w.env);
    try {
      expect((await sidecar.evaluate(event(w, "bash", { command: writeLine() }))).action).toBe("block");
      writeFileSync(join(w.agent, "shepherd-rules.json"), JSON.stringify(disableAll));
      await sidecar.request("shepherd/reload", {}).catch(() => undefined);
      await Bun.sleep(200);
      expect((await sidecar.evaluate(event(w, "bash", { command: writeLine() }))).action).toBe("block");
    } finally {
      await sidecar.close();
    }
  });

  it("should let the hand-written unlock in the global settings make a rule overridable, and only that rule", () => {
    writeFileSync(settingsFile(), JSON.stringify({ shepherd: { unlockBuiltins: ["safety-self-shell-write"] } }));
    // Unlocked is not off: the rule still blocks until a rule file disables it.
    expect(denied(hook(w, "Bash", { command: writeLine() }))).toBe(true);
    writeFileSync(join(w.agent, "shepherd-rules.json"), JSON.stringify(disableAll));
    expect(denied(hook(w, "Bash", { command: writeLine() }))).toBe(false);
    expect(denied(hook(w, "Bash", { command: "shepherd trust ." }))).toBe(true);
    const list = listJson();
    expect(list.rules.find((r) => r.name === "safety-self-shell-write" && r.source === "builtin")?.locked).toBe(false);
    expect(list.issues).toEqual([]);
  });

  it("should ignore, and report, an unlock in the project's settings even of a trusted project", () => {
    writeFileSync(settingsFile(), JSON.stringify({ shepherd: { trustedProjects: [w.proj] } }));
    writeFileSync(join(w.proj, ".pi", "settings.json"), JSON.stringify({ shepherd: { unlockBuiltins: ["safety-self-shell-write"] } }));
    writeFileSync(join(w.agent, "shepherd-rules.json"), JSON.stringify(disableAll));
    expect(denied(hook(w, "Bash", { command: writeLine() }))).toBe(true);
    const issues = listJson().issues;
    expect(issues).toContainEqual(expect.objectContaining({ file: join(w.proj, ".pi", "settings.json"), path: "shepherd.unlockBuiltins", severity: "error" }));
  });

  it("should report an unlock naming no locked built-in rule, and a malformed unlock value", () => {
    writeFileSync(settingsFile(), JSON.stringify({ shepherd: { unlockBuiltins: ["safety-self-typo", "safety-fork-bomb"] } }));
    const issues = listJson().issues.map((i) => [i.path, i.severity, i.message]);
    expect(issues).toEqual([
      ["shepherd.unlockBuiltins[0]", "error", 'unlockBuiltins: "safety-self-typo" is not a built-in rule; nothing is unlocked'],
      ["shepherd.unlockBuiltins[1]", "error", 'unlockBuiltins: built-in rule "safety-fork-bomb" is not locked; nothing to unlock'],
    ]);
    writeFileSync(settingsFile(), JSON.stringify({ shepherd: { unlockBuiltins: "safety-self-shell-write" } }));
    expect(listJson().issues.some((i) => i.path === "shepherd.unlockBuiltins" && i.severity === "error")).toBe(true);
    expect(denied(hook(w, "Bash", { command: writeLine() }))).toBe(true);
  });
});
