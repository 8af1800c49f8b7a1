/**
 * @module owns the plugin worker: spawns it, replays the loaded plugins after a restart, and gives
 * every request a deadline. A request that misses it gets the worker terminated, because a plugin
 * stuck in a synchronous loop can be stopped no other way.
 */
import { bundledModule } from "../bundled-module.ts";
import * as v from "valibot";
import type { WorkerRequest } from "./protocol.ts";
import { type WorkerReply, WorkerReplySchema } from "./protocol.ts";

export type LoadStep = { type: "load-builtin" } | { type: "load"; file: string };
type RequestBody = LoadStep | { type: "call"; file: string; kind: "action" | "check"; name: string; args: unknown };
type Body<R> = R extends unknown ? Omit<R, "id"> : never;

/** A reply, or why there is none: this request timed out, or the worker died under it (another request timed out). */
export type HostReply = Exclude<WorkerReply, { type: "ready" }> | { type: "timeout" } | { type: "crashed"; message: string };

interface Pending {
  resolve: (reply: HostReply) => void;
  timer: ReturnType<typeof setTimeout>;
}

const STARTUP_TIMEOUT_MS = 15_000;

/** Where the worker's code is (an entry point of its own in the compiled binary). */
export function defaultWorkerUrl(): string {
  return bundledModule(import.meta.url, "lib/plugins/plugin-worker.ts", "./plugin-worker.ts");
}

export class WorkerHost {
  #url: string;
  #worker: Worker | undefined;
  #starting: Promise<Worker | string> | undefined;
  #pending = new Map<number, Pending>();
  #seq = 0;
  #plan: LoadStep[] = [];
  #loadTimeoutMs: number;
  #closed = false;
  #log: (message: string) => void;

  constructor(opts: { url?: string; loadTimeoutMs: number; log: (message: string) => void }) {
    this.#url = opts.url ?? defaultWorkerUrl();
    this.#loadTimeoutMs = opts.loadTimeoutMs;
    this.#log = opts.log;
  }

  /** The loads to replay when the worker is restarted, so a restart is invisible except for the time it takes. */
  setPlan(steps: LoadStep[]): void {
    this.#plan = steps;
  }

  get pending(): number {
    return this.#pending.size;
  }

  async request(body: Body<RequestBody>, timeoutMs: number): Promise<HostReply> {
    if (this.#closed) return { type: "crashed", message: "plugin host is closed" };
    const w = await this.#ensure();
    if (typeof w === "string") return { type: "crashed", message: w };
    return this.#send(w, body, timeoutMs);
  }

  #send(w: Worker, body: Body<RequestBody>, timeoutMs: number): Promise<HostReply> {
    const id = ++this.#seq;
    return new Promise<HostReply>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve({ type: "timeout" });
        this.#kill(w, `a plugin ran past its time budget (${timeoutMs} ms)`);
      }, timeoutMs);
      this.#pending.set(id, { resolve, timer });
      try {
        w.postMessage({ ...body, id } as WorkerRequest);
      } catch (err) {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve({ type: "failed", id, message: `arguments cannot be sent to the plugin: ${err instanceof Error ? err.message : String(err)}` });
      }
    });
  }

  #ensure(): Promise<Worker | string> {
    if (this.#worker) return Promise.resolve(this.#worker);
    if (!this.#starting) {
      this.#starting = this.#spawn().finally(() => {
        this.#starting = undefined;
      });
    }
    return this.#starting;
  }

  async #spawn(): Promise<Worker | string> {
    let w: Worker;
    try {
      w = new Worker(this.#url, { type: "module" });
    } catch (err) {
      return `plugin worker could not start (${this.#url}): ${err instanceof Error ? err.message : String(err)}`;
    }
    // The worker must not keep a finished process alive; pending requests hold timers that do.
    (w as unknown as { unref?: () => void }).unref?.();
    const started = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve("plugin worker did not start in time"), STARTUP_TIMEOUT_MS);
      w.addEventListener("message", (e: MessageEvent) => this.#onMessage(w, e, () => {
        clearTimeout(timer);
        resolve(undefined);
      }));
      w.addEventListener("error", (e: Event) => {
        e.preventDefault();
        clearTimeout(timer);
        const msg = (e as ErrorEvent).message || "unknown error";
        resolve(`plugin worker failed: ${msg}`);
        this.#kill(w, `plugin worker failed: ${msg}`);
      });
      w.addEventListener("close", () => this.#kill(w, "plugin worker exited"));
    });
    if (started !== undefined) {
      w.terminate();
      return started;
    }
    this.#worker = w;
    for (const step of this.#plan) {
      const reply = await this.#send(w, step, this.#loadTimeoutMs);
      if (this.#worker !== w) return "plugin worker died while reloading plugins";
      if (reply.type !== "loaded") this.#log(`plugin reload after a restart failed for ${step.type === "load" ? step.file : "the built-in plugins"}`);
    }
    return w;
  }

  #onMessage(w: Worker, e: MessageEvent, onReady: () => void): void {
    const parsed = v.safeParse(WorkerReplySchema, e.data);
    if (!parsed.success) {
      this.#log("ignored a malformed message from the plugin worker");
      return;
    }
    const reply = parsed.output;
    if (reply.type === "ready") {
      onReady();
      return;
    }
    if (this.#worker !== w && this.#worker !== undefined) return;
    const p = this.#pending.get(reply.id);
    if (!p) return;
    clearTimeout(p.timer);
    this.#pending.delete(reply.id);
    p.resolve(reply);
  }

  #kill(w: Worker, why: string): void {
    w.terminate();
    // A late event from a worker already replaced must not fail the requests of its successor.
    if (this.#worker !== w && this.#worker !== undefined) return;
    this.#worker = undefined;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.resolve({ type: "crashed", message: `plugin worker restarted: ${why}` });
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#worker) this.#kill(this.#worker, "plugin host closed");
  }
}
