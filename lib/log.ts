/** @module the one stderr logger: stdout is the protocol, so every log line goes here. */
import { writeSync } from "node:fs";

export const LogLevels = { debug: 10, info: 20, warning: 30, error: 40, silent: 100 } as const;
export type LogLevel = Exclude<keyof typeof LogLevels, "silent">;

export interface Logger {
  debug(msg: string, data?: unknown): void;
  info(msg: string, data?: unknown): void;
  warning(msg: string, data?: unknown): void;
  error(msg: string, data?: unknown): void;
}

function threshold(): number {
  const raw = (process.env.SHEPHERD_LOG ?? "info").toLowerCase();
  return raw in LogLevels ? LogLevels[raw as keyof typeof LogLevels] : LogLevels.info;
}

/** Writes `shepherd <level>: msg {data}` lines to fd 2, synchronously so nothing is lost on exit. */
export function createLogger(write: (line: string) => void = (l) => writeSync(2, l)): Logger {
  const min = threshold();
  const emit = (level: LogLevel, msg: string, data?: unknown) => {
    if (LogLevels[level] < min) return;
    let line = `shepherd ${level}: ${msg}`;
    if (data !== undefined) {
      try {
        line += ` ${JSON.stringify(data)}`;
      } catch {
        line += " [unserializable]";
      }
    }
    try {
      write(`${line}\n`);
    } catch {
      // stderr closed: nothing sensible left to do with a log line.
    }
  };
  return {
    debug: (m, d) => emit("debug", m, d),
    info: (m, d) => emit("info", m, d),
    warning: (m, d) => emit("warning", m, d),
    error: (m, d) => emit("error", m, d),
  };
}

export const log: Logger = createLogger();
