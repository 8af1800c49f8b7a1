/**
 * @module deterministic synthetic rule sets and an event mix for the bench. The rules look like hand-written
 * ones (programs, subcommands, flags, paths, phrases), each with a distinct pattern, spread over hooks and
 * tools; a few have no literal text at all, so a prefilter cannot skip them.
 */
import type { HookEvent } from "../../lib/engine/schema.ts";

const PROGRAMS = ["git", "npm", "rm", "docker", "kubectl", "curl", "psql", "terraform", "cargo", "pip", "make", "ssh", "chmod", "aws", "gh", "yarn", "bun", "node", "python", "go"];
const SUBS = ["push", "reset", "delete", "apply", "install", "publish", "drop", "exec", "run", "deploy", "destroy", "prune"];
const EXTS = ["env", "pem", "key", "lock", "sqlite", "tfstate", "p12", "kube", "secret", "crt"];
const ACTIONS = ["block", "ask", "notify", "steer"] as const;

/** Small deterministic PRNG (mulberry32), so every run benches the same rules. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type RuleJson = Record<string, unknown>;

/** `count` rules with distinct patterns, as the JSON a user would write in `.pi/shepherd-rules.json`. */
export function syntheticRules(count: number, seed = 7): RuleJson[] {
  const r = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const rules: RuleJson[] = [];
  for (let i = 0; i < count; i++) {
    const word = `w${i.toString(36)}x`;
    const prog = pick(PROGRAMS);
    const sub = pick(SUBS);
    const action = pick(ACTIONS);
    const base = { name: `synthetic-${i}`, action, reason: `synthetic rule ${i}: {{command}}{{path}}` };
    const roll = r();
    if (roll < 0.2) rules.push({ ...base, pattern: `\\b${prog}\\b.*\\b${sub}\\b.*--${word}\\b` });
    // Bounded flag run: `(-\w+\s+)*` would be flagged as nested quantifiers and moved to re2js (regex-safety.ts).
    else if (roll < 0.35) rules.push({ ...base, pattern: `^\\s*${prog}\\s+${sub}\\s+(?:-\\w+\\s+){0,3}${word}` });
    else if (roll < 0.45) rules.push({ ...base, pattern: `(?:${prog}|${pick(PROGRAMS)})\\s+.*${word}(\\s|$)` });
    else if (roll < 0.52) rules.push({ ...base, pattern: `${word}[-_]?(token|secret|password)`, flags: "i" });
    else if (roll < 0.55) rules.push({ ...base, pattern: `\\s-[a-z]{${3 + (i % 5)}}\\d{${2 + (i % 7)}}\\s+\\S+\\s+[A-Z]{${4 + (i % 3)}}$` });
    else if (roll < 0.6) rules.push({ ...base, pattern: `\\b${prog}\\b`, conditions: [{ field: "command", pattern: `--${word}=\\d+` }] });
    else if (roll < 0.7) {
      rules.push({ ...base, tool: pick([["edit", "write"], "edit", "write"]), conditions: [{ field: "path", pattern: `(^|/)${word}\\.${pick(EXTS)}$` }] });
    } else if (roll < 0.75) {
      rules.push({ ...base, tool: ["edit", "write"], conditions: [{ field: "text", pattern: `${word}\\s*=\\s*['"][^'"]{8,}` }] });
    } else if (roll < 0.85) {
      const a = pick(["notify", "steer"] as const);
      rules.push({ ...base, action: a, hook: "tool_result", tool: pick(["bash", "*", "edit"]), conditions: [{ field: "output", pattern: `${word}: (command not found|permission denied)` }] });
    } else if (roll < 0.93) {
      rules.push({ ...base, action: pick(["notify", "steer"] as const), hook: "message_end", pattern: `\\b(${word}|${word}s) (is|are) (broken|flaky)\\b`, flags: "i" });
    } else if (roll < 0.97) {
      rules.push({ ...base, hook: "input", action: pick(["block", "steer"] as const), pattern: `\\b${word}\\b.*\\b(production|prod)\\b`, flags: "i" });
    } else {
      rules.push({ ...base, tool: pick(["read", "grep", "find"]), conditions: [{ field: "path", pattern: `${word}/` }] });
    }
  }
  return rules;
}

const LONG_TEXT = "export function parse(input: string): Node[] {\n  const out: Node[] = [];\n  for (const line of input.split('\\n')) out.push(parseLine(line));\n  return out;\n}\n".repeat(8);

/**
 * The events a session sends, in proportion: mostly shell commands, then edits and writes, tool results,
 * messages and prompts. One command is blocked by a built-in rule; the rest are allowed, so every
 * candidate rule is looked at.
 */
export function eventMix(cwd: string, sessionId = "bench-session"): HookEvent[] {
  const session = { id: sessionId, cwd, agent: "bench" };
  const bash = (command: string): HookEvent => ({ hook: "tool_call", session, tool: { name: "bash", input: { command } } });
  return [
    bash("git status --short"),
    bash("npm test -- --watch=false"),
    bash("ls -la src"),
    bash("rg -n 'TODO|FIXME' lib --glob '*.ts'"),
    bash("cat package.json | head -20"),
    bash("git commit -m 'fix(parser): handle quoted heredocs' -- lib/parse.ts"),
    bash("docker compose up -d db && sleep 2 && npm run migrate"),
    bash("git checkout -- src/a.ts"),
    { hook: "tool_call", session, tool: { name: "edit", input: { path: "src/parser/parse.ts", oldText: "const out = [];", newText: "const out: Node[] = [];" } } },
    { hook: "tool_call", session, tool: { name: "write", input: { path: "docs/notes.md", content: LONG_TEXT } } },
    { hook: "tool_call", session, tool: { name: "read", input: { path: "src/index.ts" } } },
    { hook: "tool_result", session, tool: { name: "bash", input: { command: "npm test" } }, result: { text: "12 pass\n0 fail\nRan 12 tests across 3 files. [84.00ms]", isError: false } },
    { hook: "tool_result", session, tool: { name: "edit", input: { path: "README.md", newText: "x" } }, result: { text: "Edited README.md", isError: false } },
    { hook: "message_end", session, message: { text: "I updated the parser to keep quoted heredocs intact and added two tests; all 12 tests pass now. Next I will look at the CLI flags." } },
    { hook: "input", session, prompt: "please add a --json flag to the list command and update the docs" },
  ];
}

/** A bash tool_call that no rule matches: the common case on the agent's critical path. */
export function allowedBashEvent(cwd: string, sessionId = "bench-session"): HookEvent {
  return { hook: "tool_call", session: { id: sessionId, cwd, agent: "bench" }, tool: { name: "bash", input: { command: "git status --short" } } };
}
