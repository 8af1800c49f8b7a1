/** @module what the hook's main thread and its watchdog thread share: one flag saying who answers. */

export const WATCHDOG_FREE = 0;
export const MAIN_ANSWERING = 1;
export const WATCHDOG_ANSWERING = 2;

export interface WatchdogAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The watchdog's orders: fire at `at` (epoch ms) with `answer`; the first message carries the flag. */
export interface WatchdogMessage {
  flag?: Int32Array;
  at: number;
  answer: WatchdogAnswer;
}

/** Exactly one thread writes the answer: whoever turns the flag from free to its own mark. */
export function claimAnswer(flag: Int32Array, who: typeof MAIN_ANSWERING | typeof WATCHDOG_ANSWERING): boolean {
  return Atomics.compareExchange(flag, 0, WATCHDOG_FREE, who) === WATCHDOG_FREE;
}
