/** @module test helper: spawns `dist/shepherd serve` in a temp project and talks JSON-RPC to it. */
import { afterEach } from "bun:test";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const BINARY = resolve(import.meta.dir, "../../dist/shepherd");

export interface TempProject {
  root: string;
  project: string;
  agentDir: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function tempProject(prefix = "shepherd-test-"): TempProject {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const project = join(root, "project");
  const agentDir = join(root, "agent");
  mkdirSync(project, { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    PI_CODING_AGENT_DIR: agentDir,
    SHEPHERD_LOG: "warning",
  };
  return { root, project, agentDir, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Message {
  jsonrpc: "2.0";
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class Sidecar {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  readonly notifications: Message[] = [];
  stderr = "";
  #buf = "";
  #waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  #nextId = 1;
  readonly exited: Promise<number | null>;

  constructor(cwd: string, env: Record<string, string>, args: string[] = ["serve"]) {
    this.child = spawn(BINARY, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.#buf += chunk;
      let nl = this.#buf.indexOf("\n");
      while (nl >= 0) {
        const line = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        if (line.trim()) this.#receive(JSON.parse(line) as Message);
        nl = this.#buf.indexOf("\n");
      }
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (c: string) => {
      this.stderr += c;
    });
    this.exited = new Promise((r) => this.child.on("exit", (code) => r(code)));
  }

  #receive(m: Message): void {
    if (m.method) this.notifications.push(m);
    else this.messages.push(m);
    this.#waiters = this.#waiters.filter((w) => {
      if (!w.test(m)) return true;
      w.resolve(m);
      return false;
    });
  }

  waitFor(test: (m: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    const found = [...this.messages, ...this.notifications].find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting; stderr: ${this.stderr}`)), timeoutMs);
      this.#waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  sendRaw(text: string): void {
    this.child.stdin.write(text);
  }

  async request(method: string, params?: unknown): Promise<Message> {
    const id = this.#nextId++;
    this.sendRaw(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`);
    return this.waitFor((m) => m.id === id);
  }

  async evaluate(event: unknown): Promise<Record<string, unknown>> {
    const res = await this.request("shepherd/evaluate", { event });
    if (res.error) throw new Error(`evaluate failed: ${JSON.stringify(res.error)}`);
    return res.result as Record<string, unknown>;
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

export function bashEvent(command: string, cwd: string, session = "t1") {
  return { hook: "tool_call", session: { id: session, cwd }, tool: { name: "bash", input: { command } } };
}

/** Ends a test's sidecar at once (SIGKILL, then waits for it) and removes its project; either may be absent. */
async function disposeSidecar(sidecar: Sidecar | undefined, project: TempProject | undefined): Promise<void> {
  sidecar?.child.kill("SIGKILL");
  await sidecar?.exited;
  project?.cleanup();
}

/** What a test started, to be disposed after it: the test fills the slots, the hook empties them. */
export interface LiveSidecar {
  project?: TempProject;
  sidecar?: Sidecar;
}

/** Registers (in the calling file) an `afterEach` that disposes the slots' sidecar and project, then clears them. */
export function disposeAfterEach(): LiveSidecar {
  const live: LiveSidecar = {};
  afterEach(async () => {
    await disposeSidecar(live.sidecar, live.project);
    live.project = undefined;
    live.sidecar = undefined;
  });
  return live;
}
