/**
 * @module Drives pi in `--mode rpc` (where pi has a UI: confirm dialogs and notifications travel as
 * `extension_ui_request` lines), for the tests that need a person on the other end.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { parseLines, type PiProject, type RunOptions } from "./pi-harness.ts";

type Event = Record<string, unknown>;

export class PiRpc {
  readonly events: Event[] = [];
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  #buffer = "";
  #waiters: { match: (e: Event) => boolean; done: (e: Event) => void; fail: (err: Error) => void }[] = [];
  #exit: Promise<number | null>;
  #taps: ((e: Event) => void)[] = [];

  constructor(project: PiProject, opts: Omit<RunOptions, "mode" | "prompt"> = {}) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...project.baseEnv(), ...opts.env })) if (v !== undefined) env[k] = v;
    this.child = spawn(project.piBin, project.piArgs({ ...opts, mode: "rpc" }), { cwd: project.dir, env });
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.#onData(chunk));
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    // A safety net, not an assertion: a wedged pi must not outlive the test run.
    const guard = setTimeout(() => this.child.kill("SIGKILL"), 100_000);
    this.#exit = new Promise((done) =>
      this.child.on("close", (code) => {
        clearTimeout(guard);
        for (const w of this.#waiters) w.fail(new Error(`pi exited (${String(code)}) before the awaited event; stderr: ${this.stderr}`));
        this.#waiters = [];
        done(code);
      }),
    );
  }

  #onData(chunk: string): void {
    this.#buffer += chunk;
    const cut = this.#buffer.lastIndexOf("\n");
    if (cut === -1) return;
    const complete = this.#buffer.slice(0, cut);
    this.#buffer = this.#buffer.slice(cut + 1);
    for (const event of parseLines(complete)) {
      this.events.push(event);
      for (const tap of this.#taps) tap(event);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.match(event)) return true;
        w.done(event);
        return false;
      });
    }
  }

  /** Calls `fn` for every event from now on (the demo narrates with it). */
  onEvent(fn: (e: Event) => void): void {
    this.#taps.push(fn);
  }

  send(command: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** Resolves with the first event (already seen or still to come) that matches. */
  waitFor(match: (e: Event) => boolean): Promise<Event> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((done, fail) => this.#waiters.push({ match, done, fail }));
  }

  /** Closes stdin (pi's signal to shut down) and waits for the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return await this.#exit;
  }
}
