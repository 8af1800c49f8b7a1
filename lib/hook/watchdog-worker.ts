/**
 * @module entry point of the hook watchdog: a thread that answers for a hook process whose main thread is
 * stuck where no timer can fire (a synchronous read of a FIFO, a native regex that backtracks). At the
 * deadline it writes the fail answer itself and ends the whole process with the answer's exit code.
 * Must be a separate entry point of `bun build --compile` (see scripts/build.ts).
 */
import { writeSync } from "node:fs";
import { type WatchdogMessage, claimAnswer, WATCHDOG_ANSWERING } from "./watchdog-protocol.ts";

interface WorkerScope {
  addEventListener(type: "message", listener: (e: MessageEvent<WatchdogMessage>) => void): void;
}
const scope = globalThis as unknown as WorkerScope;

let flag: Int32Array | undefined;
let answer: WatchdogMessage["answer"] = { stdout: "", stderr: "", exitCode: 2 };
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * `process.exit` in a worker ends only the worker: libc's `_exit` ends the process, with the code the
 * agent reads as a block. If it cannot be reached, SIGKILL still ends the process (the agent's own
 * fail-closed switch, `onFailure: "block"`, covers a signal).
 */
function endProcess(code: number): never {
  try {
    const ffi = require("bun:ffi") as typeof import("bun:ffi");
    const lib = process.platform === "darwin" ? "libSystem.B.dylib" : "libc.so.6";
    const libc = ffi.dlopen(lib, { _exit: { args: [ffi.FFIType.i32], returns: ffi.FFIType.void } });
    libc.symbols._exit(code);
  } catch {
    // fall through to the signal
  }
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable: the process was ended");
}

function fire(): void {
  if (!flag || !claimAnswer(flag, WATCHDOG_ANSWERING)) return; // the main thread answered first
  try {
    if (answer.stdout) writeSync(1, answer.stdout);
    if (answer.stderr) writeSync(2, answer.stderr);
  } finally {
    endProcess(answer.exitCode);
  }
}

scope.addEventListener("message", (e) => {
  const msg = e.data;
  if (msg.flag) flag = msg.flag;
  answer = msg.answer;
  if (timer) clearTimeout(timer);
  timer = setTimeout(fire, Math.max(0, msg.at - Date.now()));
});
