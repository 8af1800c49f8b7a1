/**
 * @module the clock of one hook process: answers with the fail answer when the deadline passes, whatever is
 * still running. The main thread's timer answers whenever the event loop turns; the watchdog thread, a
 * little later, when it does not (stuck in synchronous work). Exactly one answer leaves the process.
 */
import type { AgentAnswer } from "../adapters/agent-adapter.ts";
import { deadlineMessage, effectiveDeadline, formatMs } from "../deadline.ts";
import { normalJitPolicy } from "../jit-policy.ts";
import type { Watchdog } from "./watchdog.ts";

/** The watchdog answers this long after the main thread's deadline, which answers first if it can. */
const WATCHDOG_GRACE_MS = 150;
/** A hook still running this long after it started is on a slow path: its watchdog starts then. */
const WATCHDOG_LAZY_MS = 25;

export interface HookDeadlineOptions {
  agent: string;
  /** When the process started: the deadline counts from here. */
  startedAt: number;
  /** The fail answer as things stand (what is parsed so far, the fail mode), for this message. */
  failure: (message: string) => AgentAnswer;
  /** Writes an answer to the agent (called at most once). */
  write: (answer: AgentAnswer) => void;
  watchdog?: () => Watchdog | undefined;
}

export class HookDeadline {
  /** Settles with the exit code of the fail answer once the deadline passed and it was written. */
  readonly late: Promise<number>;
  #opts: HookDeadlineOptions;
  #ms = effectiveDeadline(undefined, undefined);
  #agentTimeoutMs: number | undefined;
  #inputRead = false;
  #answered = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #slow: ReturnType<typeof setTimeout> | undefined;
  #watchdog: Watchdog | undefined;
  #watchdogStarted = false;
  #onLate: () => void = () => {};

  constructor(opts: HookDeadlineOptions) {
    this.#opts = opts;
    this.late = new Promise<number>((resolve) => {
      this.#onLate = () => {
        const message = this.#message();
        const a = opts.failure(message);
        resolve(this.answer(a.stderr ? a : { ...a, stderr: `shepherd hook ${opts.agent}: ${message}\n` }));
      };
    });
    this.#arm();
    // The watchdog thread costs a hook ~3 ms of CPU, as much as a fifth of its usual run: it is started
    // only where synchronous work can grow long (see startWatchdog's callers) or once the hook is slow.
    this.#slow = setTimeout(() => this.startWatchdog(), Math.max(0, opts.startedAt + WATCHDOG_LAZY_MS - Date.now()));
  }

  get ms(): number {
    return this.#ms;
  }

  /** Writes `a` unless an answer already left; returns its exit code. */
  answer(a: AgentAnswer): number {
    if (this.#answered) return a.exitCode;
    if (this.#watchdog && !this.#watchdog.claim()) this.#watchdog.yieldToWatchdog();
    this.#answered = true;
    this.#opts.write(a);
    return a.exitCode;
  }

  /** The input arrived whole: a late answer now speaks of the evaluation. */
  inputRead(): void {
    this.#inputRead = true;
  }

  /** The agent's own timeout for this hook (caps the deadline); re-arms, as the fail answer changed with the parse. */
  parsed(agentTimeoutMs: number | undefined): void {
    this.#agentTimeoutMs = agentTimeoutMs;
    this.#ms = effectiveDeadline(undefined, agentTimeoutMs);
    this.#arm();
  }

  /**
   * The settings are known: `hookDeadlineMs` may move the deadline either way (a project may set it only
   * once trusted), the agent's timeout always caps it. `answerChanged`: the fail mode differs.
   */
  settings(hookDeadlineMs: unknown, answerChanged: boolean): void {
    const next = effectiveDeadline(hookDeadlineMs, this.#agentTimeoutMs);
    if (next === this.#ms && !answerChanged) return;
    this.#ms = next;
    this.#arm();
  }

  /** The hook is on a slow path (a large input, plugins, or simply late): the watchdog, and the normal JIT policy. */
  startWatchdog(): void {
    normalJitPolicy();
    if (this.#watchdogStarted || !this.#opts.watchdog) return;
    this.#watchdogStarted = true;
    this.#watchdog = this.#opts.watchdog();
    this.#postToWatchdog();
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#slow) clearTimeout(this.#slow);
  }

  #message(): string {
    return this.#inputRead ? deadlineMessage(this.#ms) : `the hook input did not end within ${formatMs(this.#ms)}`;
  }

  #arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#onLate, Math.max(0, this.#opts.startedAt + this.#ms - Date.now()));
    this.#postToWatchdog();
  }

  #postToWatchdog(): void {
    if (!this.#watchdog) return;
    const message = this.#message();
    const a = this.#opts.failure(message);
    this.#watchdog.arm(this.#opts.startedAt + this.#ms + WATCHDOG_GRACE_MS, {
      stdout: a.stdout,
      exitCode: a.exitCode,
      stderr: a.stderr ?? `shepherd hook ${this.#opts.agent}: ${message} (watchdog)\n`,
    });
  }
}
