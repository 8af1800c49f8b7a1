/**
 * @module JSON-RPC client for `shepherd serve`: spawn on demand, LF framing, a timeout on every
 * request, restart of a dead or hung sidecar, and an orderly end (close stdin, then SIGTERM).
 *
 * The pi process must never wait on this child: a hung sidecar costs one timeout, and a
 * sidecar still alive at exit must not keep `pi -p` running.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { isRecord } from "./wire.ts";

export interface SidecarOptions {
  binary: string;
  args?: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** Applies to every request, `initialize` included. */
  timeoutMs: number;
  /** How long the sidecar gets after stdin closes (and again after SIGTERM). */
  graceMs?: number;
  clientVersion?: string;
  /** The `clientInfo.name` sent in `initialize` (the OpenCode plugin reuses this client). */
  clientName?: string;
  onNotification?: (method: string, params: unknown) => void;
  onLog?: (line: string) => void;
}

/** Why a request got no answer; the message is written for the model and the user. */
export class SidecarUnavailableError extends Error {
  readonly kind: "timeout" | "exited" | "spawn" | "closed" | "protocol";
  constructor(kind: "timeout" | "exited" | "spawn" | "closed" | "protocol", message: string) {
    super(message);
    this.name = "SidecarUnavailableError";
    this.kind = kind;
  }
}

/** The sidecar answered with a JSON-RPC error object. */
export class SidecarRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data: unknown) {
    super(message);
    this.name = "SidecarRpcError";
    this.code = code;
    this.data = data;
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Instance {
  proc: ChildProcess;
  pending: Map<number, Pending>;
  ready: Promise<unknown>;
  exited: boolean;
  exit: Promise<void>;
  stderrTail: string[];
}

const MAX_LINE_CHARS = 64 * 1024 * 1024;
const STDERR_TAIL_LINES = 20;
export const PROTOCOL_VERSION = "2025-06-18";

export class SidecarClient {
  readonly options: SidecarOptions;
  #instance: Instance | undefined;
  #nextId = 1;
  #closed = false;
  #noRestart = false;
  #starts = 0;
  #initializeResult: unknown;

  constructor(options: SidecarOptions) {
    this.options = options;
  }

  /** How many times a sidecar process was spawned (1 = never restarted). */
  get starts(): number {
    return this.#starts;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get pid(): number | undefined {
    return this.#instance?.proc.pid;
  }

  get initializeResult(): unknown {
    return this.#initializeResult;
  }

  /** Starts the sidecar if none is running and waits for its `initialize` answer. */
  async start(): Promise<unknown> {
    const instance = this.#ensure();
    return await instance.ready;
  }

  /**
   * Sends one request. A sidecar found dead is restarted first; a request lost because the
   * process died under it is retried once on a fresh one. A timeout is not retried (that would
   * double the wait): the hung process is killed and the next request starts a new one.
   */
  async request(method: string, params: unknown): Promise<unknown> {
    try {
      return await this.#requestOnce(method, params);
    } catch (error) {
      if (error instanceof SidecarUnavailableError && error.kind === "exited" && !this.#closed && !this.#noRestart) {
        return await this.#requestOnce(method, params);
      }
      throw error;
    }
  }

  /** From now on a dead sidecar stays dead: shutdown has begun and must not spawn anything. */
  stopRestarts(): void {
    this.#noRestart = true;
  }

  notify(method: string, params: unknown): void {
    const instance = this.#instance;
    if (!instance || instance.exited) return;
    this.#write(instance, { jsonrpc: "2.0", method, params });
  }

  /** Ends the sidecar for good: stdin closed, SIGTERM after the grace period, SIGKILL after another. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    const instance = this.#instance;
    this.#instance = undefined;
    if (!instance) return;
    this.#failAll(instance, new SidecarUnavailableError("closed", "Shepherd is shutting down"));
    if (instance.exited) return;
    const grace = this.options.graceMs ?? 1000;
    instance.proc.stdin?.end();
    if (await settlesWithin(instance.exit, grace)) return;
    instance.proc.kill("SIGTERM");
    if (await settlesWithin(instance.exit, grace)) return;
    instance.proc.kill("SIGKILL");
    await settlesWithin(instance.exit, grace);
  }

  async #requestOnce(method: string, params: unknown): Promise<unknown> {
    const instance = this.#ensure();
    await instance.ready;
    return await this.#send(instance, method, params);
  }

  #ensure(): Instance {
    if (this.#closed) throw new SidecarUnavailableError("closed", "Shepherd is shutting down");
    const current = this.#instance;
    if (current && !current.exited) return current;
    if (this.#noRestart && this.#starts > 0) throw new SidecarUnavailableError("closed", "Shepherd is shutting down and its sidecar is gone");
    const instance = this.#spawn();
    this.#instance = instance;
    return instance;
  }

  #spawn(): Instance {
    this.#starts += 1;
    const { binary, cwd, env } = this.options;
    const args = this.options.args ?? ["serve"];
    let proc: ChildProcess;
    try {
      // Pipes only: in `pi -p --mode json` pi owns fd 1, and a TUI owns the terminal.
      proc = spawn(binary, args, { cwd, env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      throw new SidecarUnavailableError("spawn", `cannot start ${binary}: ${errorText(error)}`);
    }
    const instance = this.#newInstance(proc);
    // A sidecar that outlives pi would keep `pi -p` from exiting; unreferenced, it sees stdin
    // EOF when pi goes away and ends itself.
    proc.unref();
    for (const stream of [proc.stdin, proc.stdout, proc.stderr]) unrefStream(stream);
    instance.ready = this.#send(instance, "initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: this.options.clientName ?? "shepherd-pi", version: this.options.clientVersion ?? "0" },
    }).then((result) => {
      this.#initializeResult = result;
      this.#write(instance, { jsonrpc: "2.0", method: "notifications/initialized" });
      return result;
    });
    instance.ready.catch(() => {});
    return instance;
  }

  #newInstance(proc: ChildProcess): Instance {
    let markExited: () => void = () => {};
    const instance: Instance = {
      proc,
      pending: new Map(),
      ready: Promise.resolve(undefined),
      exited: false,
      exit: new Promise<void>((resolve) => {
        markExited = resolve;
      }),
      stderrTail: [],
    };
    const onGone = (why: string) => {
      if (instance.exited) return;
      instance.exited = true;
      markExited();
      const tail = instance.stderrTail.length > 0 ? ` (stderr: ${instance.stderrTail.slice(-3).join(" | ")})` : "";
      this.#failAll(instance, new SidecarUnavailableError("exited", `the Shepherd sidecar ${why}${tail}`));
      if (this.#instance === instance) this.#instance = undefined;
    };
    proc.on("error", (error) => onGone(`could not run ${this.options.binary}: ${errorText(error)}`));
    proc.on("exit", (code, signal) => onGone(signal ? `was killed by ${signal}` : `exited with code ${String(code)}`));
    // A write into a dead pipe must surface as a failed request, never as an uncaught EPIPE in pi.
    proc.stdin?.on("error", () => {});
    let buffer = "";
    proc.stdout?.setEncoding("utf8");
    proc.stdout?.on("data", (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf("\n");
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.trim() !== "") this.#onLine(instance, line);
        newline = buffer.indexOf("\n");
      }
      if (buffer.length > MAX_LINE_CHARS) {
        buffer = "";
        proc.kill("SIGKILL");
        onGone("sent a line longer than the client accepts");
      }
    });
    let errBuffer = "";
    proc.stderr?.setEncoding("utf8");
    proc.stderr?.on("data", (chunk: string) => {
      errBuffer += chunk;
      const lines = errBuffer.split("\n");
      errBuffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "") continue;
        instance.stderrTail.push(line);
        if (instance.stderrTail.length > STDERR_TAIL_LINES) instance.stderrTail.shift();
        this.options.onLog?.(line);
      }
      if (errBuffer.length > 64 * 1024) errBuffer = errBuffer.slice(-1024);
    });
    return instance;
  }

  #onLine(instance: Instance, line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.options.onLog?.(`unparsable line from sidecar: ${line.slice(0, 200)}`);
      return;
    }
    if (!isRecord(message)) return;
    const { id, method } = message;
    if (typeof method === "string" && id === undefined) {
      this.options.onNotification?.(method, message.params);
      return;
    }
    if (typeof method === "string") {
      // The sidecar has nothing to ask of pi; say so rather than leave it waiting.
      this.#write(instance, { jsonrpc: "2.0", id, error: { code: -32601, message: `unknown method ${method}` } });
      return;
    }
    if (typeof id !== "number") return;
    const pending = instance.pending.get(id);
    if (!pending) return;
    instance.pending.delete(id);
    clearTimeout(pending.timer);
    const error = message.error;
    if (isRecord(error)) {
      const code = typeof error.code === "number" ? error.code : -32603;
      const text = typeof error.message === "string" ? error.message : "sidecar error";
      pending.reject(new SidecarRpcError(code, text, error.data));
      return;
    }
    pending.resolve(message.result);
  }

  #send(instance: Instance, method: string, params: unknown): Promise<unknown> {
    if (instance.exited) {
      return Promise.reject(new SidecarUnavailableError("exited", "the Shepherd sidecar is not running"));
    }
    const id = this.#nextId++;
    const timeoutMs = this.options.timeoutMs;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        instance.pending.delete(id);
        reject(new SidecarUnavailableError("timeout", `the Shepherd sidecar did not answer ${method} within ${timeoutMs} ms`));
        this.#abandon(instance);
      }, timeoutMs);
      instance.pending.set(id, { resolve, reject, timer });
      this.#write(instance, { jsonrpc: "2.0", id, method, params });
    });
  }

  /** A hung sidecar may be stopped (SIGSTOP) and deaf to SIGTERM: kill it outright. */
  #abandon(instance: Instance): void {
    if (this.#instance === instance) this.#instance = undefined;
    if (!instance.exited) instance.proc.kill("SIGKILL");
  }

  #write(instance: Instance, message: unknown): void {
    const stdin = instance.proc.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return;
    stdin.write(`${JSON.stringify(message)}\n`);
  }

  #failAll(instance: Instance, error: Error): void {
    for (const pending of instance.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    instance.pending.clear();
  }
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function unrefStream(stream: unknown): void {
  if (!isRecord(stream)) return;
  const unref = stream.unref;
  if (typeof unref === "function") unref.call(stream);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}
