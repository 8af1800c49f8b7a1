/**
 * @module the hook process's backstop: a watchdog thread (watchdog-worker.ts) that answers with the
 * fail answer when the main thread cannot, because it is stuck in synchronous work. The main thread's
 * own deadline timer answers first whenever the event loop runs; the watchdog fires a little later.
 */
import { bundledModule } from "../bundled-module.ts";
import { claimAnswer, MAIN_ANSWERING, WATCHDOG_ANSWERING, type WatchdogAnswer, type WatchdogMessage } from "./watchdog-protocol.ts";

export interface Watchdog {
  /** (Re)arms the watchdog: at `at` (epoch ms) it answers `answer` unless the main thread answered. */
  arm(at: number, answer: WatchdogAnswer): void;
  /**
   * Called before the main thread writes its answer: true when it may. False means the watchdog is
   * writing one already and is about to end the process, so the caller must write nothing more.
   */
  claim(): boolean;
  /** Waits for the watchdog to end the process (the caller lost the claim). */
  yieldToWatchdog(): never;
}

/** A watchdog thread; undefined where threads with libc access are not available (Deno runs the main-thread deadline only). */
export function startWatchdog(): Watchdog | undefined {
  if (typeof Bun === "undefined" || typeof Worker !== "function" || typeof SharedArrayBuffer !== "function") return undefined;
  const flag = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker;
  try {
    worker = new Worker(bundledModule(import.meta.url, "lib/hook/watchdog-worker.ts", "./watchdog-worker.ts"));
  } catch {
    return undefined;
  }
  // The process ends when the hook has answered, whatever the watchdog is doing.
  (worker as { unref?: () => void }).unref?.();
  let sentFlag = false;
  return {
    arm(at, answer) {
      const msg: WatchdogMessage = { at, answer, ...(sentFlag ? {} : { flag }) };
      sentFlag = true;
      worker.postMessage(msg);
    },
    claim: () => claimAnswer(flag, MAIN_ANSWERING),
    yieldToWatchdog(): never {
      for (;;) Atomics.wait(flag, 0, WATCHDOG_ANSWERING);
    },
  };
}
