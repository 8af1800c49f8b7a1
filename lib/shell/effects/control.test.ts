import { describe, expect, it } from "bun:test";
import { effectsOf, lineEffects } from "../effects.ts";
import { envOf } from "../env-names.ts";
import { parseShell } from "../index.ts";
import { reaches } from "./control.ts";
import type { Target } from "./types.ts";

const OPTS = { cwd: "/home/user/project", home: "/home/user" };
const SHEPHERD = ["shepherd", "shepherd-linux-x64", "shepherd serve", "/usr/local/bin/shepherd serve"];

/** The targets of every effect of `kind` the line's commands have, own and line-wide. */
function targetsOf(line: string, kind: string, dialect?: "powershell"): Target[] {
  const parsed = parseShell(line, dialect ? { ...OPTS, dialect } : OPTS);
  const extra = lineEffects(parsed.commands);
  return parsed.commands.flatMap((c) => [...effectsOf(c), ...(extra.get(c) ?? [])].filter((e) => e.kind === kind).flatMap((e) => e.targets ?? []));
}

function hits(line: string, kind: string, names: string[], dialect?: "powershell"): boolean {
  return targetsOf(line, kind, dialect).some((t) => reaches(t, names));
}

describe("reaches", () => {
  it.each([
    [{ text: "shepherd", match: "exact" }, true],
    [{ text: "SHEPHERD", match: "exact" }, false],
    [{ text: "SHEPHERD", match: "exact", ignoreCase: true }, true],
    [{ text: "shepherdess", match: "exact" }, false],
    [{ text: "shep*", match: "glob", ignoreCase: true }, true],
    [{ text: "sheep*", match: "glob" }, false],
    [{ text: "/run/shepherd.pid", match: "text" }, true],
    [{ text: "sh.pherd", match: "regex" }, true],
    [{ text: "serve", match: "regex" }, false],
    [{ text: "serve", match: "regex", fullLine: true }, true],
    [{ text: "[unclosed", match: "regex" }, false],
    [{ text: "(a+)+$", match: "regex", fullLine: true }, false],
  ] as [Target, boolean][])("should judge %j against Shepherd's names as %p", (t, want) => {
    expect(reaches(t, SHEPHERD)).toBe(want);
  });

  it("should run a model's catastrophic pattern on the linear engine", () => {
    const names = [`${"a".repeat(5000)}!`];
    const t0 = performance.now();
    expect(reaches({ text: "(a+)+$", match: "regex", fullLine: true }, names)).toBe(false);
    expect(reaches({ text: "(a+)+!", match: "regex", fullLine: true }, names)).toBe(true);
    expect(reaches({ text: "(a|aa)+b", match: "regex", fullLine: true }, names)).toBe(false);
    // Generous: the backtracking engine takes far longer than the age of the universe here.
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe("process-kill targets", () => {
  it.each([
    ["pkill -f 'sh.pherd'", true],
    ["pkill shep", true],
    ["pkill -f sheep", false],
    ["pkill -x shep", false],
    ["killall shepherdess", false],
    ["killall -r '^shep'", true],
    ["kill $(pgrep shepherd)", true],
    ["pid=$(pgrep -f shepherd); kill $pid", true],
    ["pgrep -f shepherd; kill $SERVER_PID", false],
    ["ps aux | grep -v grep | grep '[s]hepherd' | awk '{print $2}' | xargs kill", true],
    ["ps aux | grep -v shepherd | awk '{print $2}' | xargs kill", false],
    ["kill -0 $(pgrep shepherd)", false],
    ["kill %1", false],
    ["pkill -P $PPID", true],
    ["pkill -P $$", false],
    ["systemctl --user stop shepherd.service", true],
    ["systemctl --user status shepherd", false],
    ["ps -C shepherd -o pid= | xargs kill", true],
    ["ps -C node -o pid= | xargs kill", false],
    ["fuser -k /usr/bin/shepherd", true],
    ["fuser /usr/bin/shepherd", false],
  ])("should find whether %s reaches Shepherd: %p", (line, want) => {
    expect(hits(line, "process-kill", SHEPHERD)).toBe(want);
  });

  it.each([
    ["Get-Process shepherd | Stop-Process", true],
    ["spps -n SHEP*", true],
    ["Stop-Process -Name notepad", false],
    ["taskkill /IM shepherd.exe /F", true],
    ['taskkill /F /FI "IMAGENAME eq shep*"', true],
    ["Get-Process | Where-Object {$_.Name -like 'shep*'} | Stop-Process", true],
    ["Get-Process | Where-Object {$_.Name -eq 'node'} | Stop-Process", false],
  ])("should read the PowerShell line %s: %p", (line, want) => {
    expect(hits(line, "process-kill", [...SHEPHERD, "shepherd.exe"], "powershell")).toBe(want);
  });
});

describe("uninstall targets", () => {
  it.each([
    ["npm r -g @shepherd-guard/shepherd@1.2.0", ["@shepherd-guard/shepherd"]],
    ["yarn global remove @shepherd-guard/shepherd", ["@shepherd-guard/shepherd"]],
    ["pi uninstall npm:@shepherd-guard/shepherd@latest", ["@shepherd-guard/shepherd"]],
    ["claude plugin disable shepherd@local", ["shepherd"]],
    ["gemini extensions uninstall my-ext", ["my-ext"]],
    ["npm exec -- rm -rf dist", []],
    ["npm install @shepherd-guard/shepherd", []],
    ["claude mcp list", []],
  ])("should name what %s takes out", (line, want) => {
    expect(targetsOf(line, "uninstall").map((t) => t.text)).toEqual(want);
  });
});

describe("unguarded-agent", () => {
  it.each([
    ["export CLAUDE_CODE_SAFE_MODE=1; claude -p x", true],
    ["HOME=/tmp/h; pi -p x", true],
    ["env HOME=/tmp/h nice codex exec x", true],
    ["export NODE_ENV=test; claude -p x", false],
    ["claude -p 'why does --bare skip hooks?'", false],
    ["x=--bare; claude $x -p x", true],
    ["claude --setting-sources user,project,local -p x", false],
    ["claude --setting-sources project -p x", true],
    ["codex -c model=o3 exec x", false],
  ])("should find whether %s starts an agent with its guard off: %p", (line, want) => {
    const parsed = parseShell(line, OPTS);
    const extra = lineEffects(parsed.commands);
    expect(parsed.commands.some((c) => [...effectsOf(c), ...(extra.get(c) ?? [])].some((e) => e.kind === "unguarded-agent"))).toBe(want);
  });

  it("should name the extensions pi -ne loads back as targets", () => {
    expect(targetsOf("pi -ne -e ./x.ts -e /src/pi-extension/index.ts -p x", "unguarded-agent").map((t) => t.text)).toEqual(["./x.ts", "/src/pi-extension/index.ts"]);
  });
});

describe("local-request targets", () => {
  it.each([
    ["curl -d @f http://127.0.0.1:8787/v1/./hooks//claude-code", ["/v1/hooks/claude-code"]],
    ["curl -d @f http://127.1:8787/v1/hooks/../evaluate?x=1", ["/v1/evaluate"]],
    ["curl -d @f http://LocalHost:8787/v1/hoo%6bs/x", ["/v1/hooks/x"]],
    ["curl https://api.example.com/v1/hooks/x", []],
    ["git commit -m 'fix: localhost:8787/v1/hooks'", []],
    ["printf 'POST /v1/hint HTTP/1.1\\r\\n\\r\\n' | nc localhost 8787", ["/v1/hint"]],
    ["curl -x http://127.0.0.1:8787 http://example.com/v1/hooks/x", ["/", "/v1/hooks/x"]],
    ["curl -x http://proxy.corp:3128 https://example.com/v1/hooks/x", []],
  ])("should find the loopback routes %s requests", (line, want) => {
    expect(targetsOf(line, "local-request").map((t) => t.text)).toEqual(want);
  });
});

describe("env on parsed commands", () => {
  it("should carry env's and earlier exports into a nested script, and neither another command's prefix nor a later one", () => {
    const cmds = parseShell("A=1 true; export B=2; env C=3 sh -c 'echo x'; D=4", OPTS).commands;
    const echo = cmds.find((c) => c.program === "echo");
    expect(echo ? [...(envOf(echo) ?? [])].sort() : []).toEqual(["B", "C"]);
    expect(cmds.some((c) => (envOf(c) ?? []).includes("D"))).toBe(false);
  });

  it("should stay bounded on a line of 10,000 assignments", () => {
    const line = `${Array.from({ length: 10_000 }, (_, i) => `V${i}=1`).join("; ")}; claude -p x`;
    const claude = parseShell(line, OPTS).commands.find((c) => c.program === "claude");
    expect(claude ? (envOf(claude)?.length ?? 0) : 99).toBeLessThanOrEqual(32);
  });
});

describe("kills whose target is a port or is computed at run time", () => {
  const SHEPHERD_PORT = [...SHEPHERD, ":7373"];
  const unknownOf = (line: string, kind = "process-kill", dialect?: "powershell") => targetsOf(line, kind, dialect).some((t) => t.match === "unknown");
  it.each([
    ["fuser -k 7373/tcp", true],
    ["fuser -k -n tcp 7373", true],
    ["fuser -k 3000/tcp", false],
    ["kill $(lsof -t -i:7373)", true],
    ["lsof -ti :7373 | xargs kill", true],
    ["lsof -ti tcp:7000-8000 | xargs kill", true],
    ["lsof -ti tcp:3000-3010 | xargs kill", false],
    ["lsof -t -i | xargs kill", true],
    ["lsof -t -i 4 | xargs kill", true],
    ["lsof -t -i @127.0.0.1 | xargs kill", true],
    ["lsof -t -i | grep node | xargs kill", false],
    ["ss -lptn 'sport = :7373' | grep -o 'pid=[0-9]*' | cut -d= -f2 | xargs kill", true],
    ["netstat -tlnp | grep :7373 | awk '{print $7}' | cut -d/ -f1 | xargs kill", true],
    ["netstat -tlnp | grep 3000 | awk '{print $7}' | cut -d/ -f1 | xargs kill", false],
    ["npx kill-port 3000 7373", true],
    ["npx kill-port 3000", false],
    ["port=7373; fuser -k $port/tcp", true],
    ["lsof -i :7373", false],
  ])("should judge whether `%s` reaches Shepherd's port as %p", (line, want) => {
    expect(hits(line, "process-kill", SHEPHERD_PORT)).toBe(want);
  });

  it("should reach a port from PowerShell's socket table", () => {
    expect(hits("Stop-Process -Id (Get-NetTCPConnection -LocalPort 7373).OwningProcess", "process-kill", SHEPHERD_PORT, "powershell")).toBe(true);
    expect(hits("Get-NetTCPConnection -LocalPort 7373 | ForEach-Object { Stop-Process -Id $_.OwningProcess }", "process-kill", SHEPHERD_PORT, "powershell")).toBe(true);
    expect(hits("Stop-Process -Id (Get-NetTCPConnection -LocalPort 3000).OwningProcess", "process-kill", SHEPHERD_PORT, "powershell")).toBe(false);
  });

  it.each([
    ["pkill -f \"$(cat /tmp/n)\"", true],
    ["pkill -f \"$P\"", true],
    ["killall \"$NAME\"", true],
    ["fuser -k $PORT/tcp", true],
    ["kill $(lsof -t -i:$PORT)", true],
    ["kill $(pgrep -f \"$N\")", true],
    ["ps -eo pid= | xargs kill", true],
    ["python3 -c \"import psutil; [p.terminate() for p in psutil.process_iter()]\"", true],
    ["pkill -f vite", false],
    ["kill $SERVER_PID", false],
    ["sleep 9 & kill $!", false],
    ["node s.js & pid=$!; kill $pid", false],
    ["kill $(pgrep -n node)", false],
    ["kill $(cat server.pid)", false],
    ["python3 -c \"import os; os.kill(12345, 15)\"", false],
    ["python3 -c \"import psutil; [p.kill() for p in psutil.process_iter() if p.name() == 'node']\"", false],
  ])("should judge whether the reach of `%s` is unknown as %p", (line, want) => {
    expect(unknownOf(line)).toBe(want);
  });

  it("should never let an unknown target reach a name", () => {
    expect(reaches({ text: "$(cat x)", match: "unknown" }, SHEPHERD_PORT)).toBe(false);
    expect(reaches({ text: "7000-8000", match: "port" }, [":7373"])).toBe(true);
    expect(reaches({ text: "7373", match: "port" }, ["shepherd"])).toBe(false);
  });

  it("should read interpreter code that kills what it looked up", () => {
    expect(hits("python3 -c 'import os; [os.kill(int(p), 9) for p in os.popen(\"pgrep shepherd\").read().split()]'", "process-kill", SHEPHERD)).toBe(true);
    expect(hits("node -e \"process.kill(+require('child_process').execSync('pgrep shepherd'))\"", "process-kill", SHEPHERD)).toBe(true);
    expect(hits("python3 -c \"import psutil; [psutil.Process(c.pid).kill() for c in psutil.net_connections() if c.laddr.port == 7373]\"", "process-kill", SHEPHERD_PORT)).toBe(true);
  });
});

describe("agents given settings the line does not show", () => {
  const unknownAgent = (line: string) => targetsOf(line, "unguarded-agent").some((t) => t.match === "unknown");
  const known = (line: string) => {
    const parsed = parseShell(line, OPTS);
    const extra = lineEffects(parsed.commands);
    return parsed.commands.some((c) => [...effectsOf(c), ...(extra.get(c) ?? [])].some((e) => e.kind === "unguarded-agent" && !(e.targets ?? []).some((t) => t.match === "unknown")));
  };
  it.each([
    ["claude --settings '{\"disable\\u0041llHooks\":true}' -p x", "known"],
    ["claude --settings '{\"allowManagedHooksOnly\": 1}' -p x", "known"],
    ["claude --settings '{\"disableAllHooks\": false}' -p x", "none"],
    ["claude --settings '{\"model\":\"opus\"}' -p x", "none"],
    ["claude --settings '{\"hooks\":{}}' -p x", "unknown"],
    ["claude --settings /tmp/s.json -p x", "unknown"],
    ["claude --settings=\"$(cat /tmp/s)\" -p x", "unknown"],
    ["CLAUDE_CODE_SIMPLE=1 claude -p x", "known"],
    ["GEMINI_CLI_SYSTEM_SETTINGS_PATH=/tmp/s.json gemini -p x", "known"],
    ["codex -c features.codex_hooks=true exec x", "none"],
    ["codex -c 'features={codex_hooks=false}' exec x", "known"],
    ["sudo -u ci claude -p x", "unknown"],
    ["sudo CLAUDE_CONFIG_DIR=/tmp/c claude -p x", "known"],
    ["sudo -u postgres psql", "none"],
  ])("should judge `%s` as %s", (line, want) => {
    expect(known(line) ? "known" : unknownAgent(line) ? "unknown" : "none").toBe(want);
  });
});
