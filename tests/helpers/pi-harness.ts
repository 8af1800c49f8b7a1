/**
 * @module Runs the real pi CLI offline: the scripted faux model, the Shepherd extension, and the
 * compiled `dist/shepherd`, in a throwaway project with its own pi agent folder.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..", "..");
/** pi 0.73.1 from the project's devDependencies; pi 1.x comes from tests/helpers/pi1-install.ts. */
export const PI_BIN = join(ROOT, "node_modules", ".bin", "pi");
export const BUN_BIN = join(ROOT, "node_modules", ".bin", "bun");
export const SHEPHERD_BIN = join(ROOT, "dist", "shepherd");
export const EXTENSION = join(ROOT, "pi-extension", "index.ts");
export const FAUX_PROVIDER = join(ROOT, "tests", "helpers", "faux-provider.ts");
export const FAKE_SIDECAR = join(ROOT, "tests", "helpers", "pi-fake-sidecar.ts");

export interface ScriptStep {
  text?: string;
  /** End this LLM call with stopReason "error" (pi may retry it by itself). */
  error?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown>; id?: string }[];
}

export interface ContextMessage {
  role: string;
  text: string;
  customType?: string;
}

export interface PiRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** JSON events pi printed (json mode). */
  events: Record<string, unknown>[];
  /** One entry per LLM call: the messages the model received, flattened to text. */
  contexts: ContextMessage[][];
}

export interface RunOptions {
  prompt?: string;
  /** Extra environment for pi (and so for the extension and the sidecar). */
  env?: Record<string, string | undefined>;
  /** Load the extension from the repo with -e (default) or rely on discovery (after `init pi`). */
  loadExtension?: boolean;
  /** Extra pi extensions to load, e.g. a hint emitter. */
  extraExtensions?: string[];
  /** Keep the session file in this folder instead of --no-session. */
  sessionDir?: string;
  mode?: "json" | "text" | "rpc";
  /**
   * Keep pi's built-in extensions (pi 1.x: codemode, MCP), which `--no-extensions` also drops; the
   * Shepherd extension is still loaded with -e.
   */
  builtins?: boolean;
  /** Replaces the `--tools` list (pi 1.x hides MCP tools unless an entry starts with `mcp__`). */
  tools?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Text of one message as the model got it (pi-ai content parts or a plain string). */
function messageText(message: Record<string, unknown>): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isRecord(part) && part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .join("\n");
}

export class PiProject {
  readonly root: string;
  readonly agentDir: string;
  readonly dir: string;
  readonly binDir: string;
  readonly contextLog: string;
  readonly scriptFile: string;
  /** A per-test name for the sidecar binary, so a test can find exactly its own processes. */
  readonly shepherdBin: string;
  /** The pi executable this project runs (0.73.1 unless a test passes another). */
  readonly piBin: string;

  constructor(piBin: string = PI_BIN) {
    this.piBin = piBin;
    this.root = mkdtempSync(join(tmpdir(), "shepherd-pi-e2e-"));
    this.agentDir = join(this.root, "agent");
    this.dir = join(this.root, "project");
    this.binDir = join(this.root, "bin");
    this.contextLog = join(this.root, "contexts.jsonl");
    this.scriptFile = join(this.root, "script.json");
    for (const d of [this.agentDir, this.dir, this.binDir, join(this.dir, ".pi")]) mkdirSync(d, { recursive: true });
    this.shepherdBin = join(this.binDir, "shepherd");
    symlinkSync(SHEPHERD_BIN, this.shepherdBin);
  }

  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  write(rel: string, text: string): void {
    const file = this.path(rel);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, text);
  }

  read(rel: string): string {
    return readFileSync(this.path(rel), "utf8");
  }

  exists(rel: string): boolean {
    return existsSync(this.path(rel));
  }

  rules(rules: unknown[]): void {
    this.write(".pi/shepherd-rules.json", `${JSON.stringify(rules, null, 2)}\n`);
  }

  globalRules(rules: unknown[]): void {
    writeFileSync(join(this.agentDir, "shepherd-rules.json"), `${JSON.stringify(rules, null, 2)}\n`);
  }

  /** pi settings key `shepherd` in the isolated agent folder (global layer). */
  settings(shepherd: Record<string, unknown>): void {
    this.piSettings({ shepherd });
  }

  /** Merges top-level keys into pi's own global settings.json (e.g. `retry`). */
  piSettings(keys: Record<string, unknown>): void {
    const file = join(this.agentDir, "settings.json");
    const current: unknown = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
    writeFileSync(file, `${JSON.stringify({ ...(isRecord(current) ? current : {}), ...keys }, null, 2)}\n`);
  }

  trust(): void {
    this.settings({ trustedProjects: [this.dir] });
  }

  script(steps: ScriptStep[]): void {
    writeFileSync(this.scriptFile, JSON.stringify(steps, null, 2));
  }

  /** A wrapper executable for the fake sidecar (tests/helpers/pi-fake-sidecar.ts). */
  fakeSidecar(): string {
    const file = join(this.binDir, "fake-shepherd");
    writeFileSync(file, `#!/bin/sh\nexec "${BUN_BIN}" "${FAKE_SIDECAR}" "$@"\n`, { mode: 0o755 });
    return file;
  }

  baseEnv(): Record<string, string | undefined> {
    const env: Record<string, string | undefined> = { ...process.env };
    // The machine's own pi state and a parent pi's marker must not take part.
    delete env.SHEPHERD_SUBAGENT;
    delete env.SHEPHERD_BIN;
    return {
      ...env,
      PI_CODING_AGENT_DIR: this.agentDir,
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
      PI_FAUX_SCRIPT: this.scriptFile,
      PI_FAUX_CONTEXT_LOG: this.contextLog,
      SHEPHERD_BIN: this.shepherdBin,
      SHEPHERD_LOG: "warning",
    };
  }

  /** The pi command line (without the binary), as used by run() and by nested sub-agent runs. */
  piArgs(opts: RunOptions = {}): string[] {
    const mode = opts.mode ?? "json";
    const args = ["--mode", mode, ...(mode === "rpc" ? [] : ["-p"])];
    args.push(...(opts.sessionDir ? ["--session-dir", opts.sessionDir] : ["--no-session"]));
    if (opts.loadExtension === false) {
      // Discovery must be on for an installed extension to load.
      args.push("-e", FAUX_PROVIDER);
    } else if (opts.builtins) {
      args.push("-e", FAUX_PROVIDER, "-e", EXTENSION);
    } else {
      args.push("--no-extensions", "-e", FAUX_PROVIDER, "-e", EXTENSION);
    }
    for (const extra of opts.extraExtensions ?? []) args.push("-e", extra);
    args.push(
      "--no-skills",
      "--no-prompt-templates",
      "--no-context-files",
      "--no-themes",
      "--provider",
      "faux",
      "--model",
      "faux-1",
      "--tools",
      opts.tools ?? "bash,read,edit,write,shepherd_rules",
    );
    if (mode !== "rpc") args.push(opts.prompt ?? "do the task");
    return args;
  }

  async run(opts: RunOptions = {}): Promise<PiRun> {
    const env = { ...this.baseEnv(), ...opts.env };
    const child = spawn(this.piBin, this.piArgs(opts), { cwd: this.dir, env: clean(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    // A safety net, not an assertion: a wedged pi must not outlive the test run.
    const guard = setTimeout(() => child.kill("SIGKILL"), 100_000);
    const code = await new Promise<number | null>((done) => child.on("close", (c) => done(c)));
    clearTimeout(guard);
    return { code, stdout, stderr, events: parseLines(stdout), contexts: this.contexts() };
  }

  contexts(): ContextMessage[][] {
    if (!existsSync(this.contextLog)) return [];
    const out: ContextMessage[][] = [];
    for (const entry of parseLines(readFileSync(this.contextLog, "utf8"))) {
      const context = entry.context;
      if (!isRecord(context) || !Array.isArray(context.messages)) continue;
      out.push(
        context.messages.filter(isRecord).map((m) => {
          const msg: ContextMessage = { role: String(m.role), text: messageText(m) };
          if (typeof m.customType === "string") msg.customType = m.customType;
          return msg;
        }),
      );
    }
    return out;
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function clean(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

export function parseLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) out.push(value);
    } catch {
      // pi may print a non-JSON line (warnings); the tests look at JSON events only.
    }
  }
  return out;
}

/** Everything the model was sent on LLM call `index`, one message per line. */
export function contextText(run: PiRun, index: number): string {
  return (run.contexts[index] ?? []).map((m) => `${m.role}${m.customType ? `(${m.customType})` : ""}: ${m.text}`).join("\n");
}

/** The tool results pi reported (json mode), in order. */
export interface ToolResultSeen {
  toolName: string;
  isError: boolean;
  text: string;
  /** pi 1.x: the machine-readable result beside the text. */
  structuredContent?: unknown;
  parentToolCallId?: string;
}

export function toolResults(run: PiRun): ToolResultSeen[] {
  const out: ToolResultSeen[] = [];
  for (const event of run.events) {
    if (event.type !== "tool_execution_end") continue;
    const result = isRecord(event.result) ? event.result : {};
    const seen: ToolResultSeen = { toolName: String(event.toolName), isError: event.isError === true, text: messageText(result) };
    if (result.structuredContent !== undefined) seen.structuredContent = result.structuredContent;
    if (typeof event.parentToolCallId === "string") seen.parentToolCallId = event.parentToolCallId;
    out.push(seen);
  }
  return out;
}

/** The stop reason of every assistant message pi finished (json mode), in order. */
export function assistantStops(run: PiRun): string[] {
  const out: string[] = [];
  for (const event of run.events) {
    const message = event.type === "message_end" && isRecord(event.message) ? event.message : undefined;
    if (message?.role === "assistant") out.push(String(message.stopReason));
  }
  return out;
}
