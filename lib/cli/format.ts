/** @module terminal output helpers for the CLI faces: injected IO, colour policy, tables, progress, argv parsing. */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** What a command gets instead of touching the process, so tests can capture every byte. */
export interface CliIO {
  stdout(s: string): void;
  stderr(s: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
  isTTY: boolean;
}

export type Paint = (s: string) => string;

export interface Style {
  enabled: boolean;
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  blue: Paint;
  cyan: Paint;
  magenta: Paint;
}

/**
 * Colour only on a terminal, and never when NO_COLOR is set to anything non-empty (no-color.org);
 * FORCE_COLOR lets a user keep colour through a pager.
 */
export function colorEnabled(io: Pick<CliIO, "env" | "isTTY">): boolean {
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== "" && force !== "0" && force !== "false") return true;
  if (io.env.TERM === "dumb") return false;
  return io.isTTY;
}

function sgr(open: number, close: number, on: boolean): Paint {
  if (!on) return (s) => s;
  return (s) => (s === "" ? s : `\x1b[${open}m${s}\x1b[${close}m`);
}

export function makeStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: sgr(1, 22, enabled),
    dim: sgr(2, 22, enabled),
    red: sgr(31, 39, enabled),
    green: sgr(32, 39, enabled),
    yellow: sgr(33, 39, enabled),
    blue: sgr(34, 39, enabled),
    cyan: sgr(36, 39, enabled),
    magenta: sgr(35, 39, enabled),
  };
}

export function styleFor(io: Pick<CliIO, "env" | "isTTY">): Style {
  return makeStyle(colorEnabled(io));
}

// Matches the SGR sequences makeStyle emits, so column widths ignore them.
const ANSI = /\x1b\[[0-9;]*m/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, "");
}

/** Display width: code points, not UTF-16 units, so a "✓" or an accented name does not break alignment. */
export function visibleWidth(s: string): number {
  return [...stripAnsi(s)].length;
}

function padEnd(s: string, width: number): string {
  const gap = width - visibleWidth(s);
  return gap > 0 ? s + " ".repeat(gap) : s;
}

/** Cuts a string to at most `max` code points, marking the cut, and folds newlines so a row stays one line. */
export function clip(s: string, max: number): string {
  const flat = s.replace(/\r?\n/g, "⏎");
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, Math.max(0, max - 1)).join("")}…` : flat;
}

/**
 * Renders rows under a header with columns padded to their widest cell. Cells may carry colour;
 * the last column is not padded so lines have no trailing blanks.
 */
export function table(header: string[], rows: string[][], style: Style): string {
  const widths = header.map((h, i) => Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? ""))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : padEnd(c, widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const out = [style.bold(line(header)), ...rows.map(line)];
  return `${out.join("\n")}\n`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export interface Progress {
  /** Reports `done` of `total` units; throttled so a fast loop does not flood the terminal. */
  update(done: number, total: number, label?: string): void;
  /** Clears the progress line. */
  done(): void;
}

/**
 * A one-line progress indicator on stderr. Only on a terminal: when stderr is captured (tests, CI logs)
 * a carriage-return spinner is noise, so it prints nothing. Throttled by unit count, not time, so its
 * output does not depend on how fast the machine is.
 */
export function progress(io: Pick<CliIO, "stderr" | "isTTY" | "env">, what: string, every = 50): Progress {
  const active = io.isTTY && io.env.CI === undefined;
  let shown = false;
  let last = -every;
  return {
    update(done, total, label) {
      if (!active) return;
      if (done !== total && done - last < every) return;
      last = done;
      const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
      io.stderr(`\r\x1b[2K${what} ${done}/${total} (${pct}%)${label ? ` ${clip(label, 50)}` : ""}`);
      shown = true;
    },
    done() {
      if (active && shown) io.stderr("\r\x1b[2K");
      shown = false;
    },
  };
}

export type ArgSpec = NonNullable<ParseArgsConfig["options"]>;

export type ParsedArgs =
  | { ok: true; values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] }
  | { ok: false; message: string };

/** Strict argv parsing: an unknown flag is a usage error (exit 2), never silently ignored. */
export function parseArgv(argv: string[], options: ArgSpec, allowPositionals = true): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals, strict: true });
    return { ok: true, values: values as Record<string, string | boolean | (string | boolean)[] | undefined>, positionals };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function strList(v: unknown): string[] {
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Prints a usage error with a pointer to --help; returns the conventional exit code 2. */
export function usageError(io: Pick<CliIO, "stderr">, command: string, message: string): number {
  io.stderr(`shepherd ${command}: ${message}\nRun \`shepherd ${command} --help\` for usage.\n`);
  return 2;
}

/** Writes JSON to stdout: pretty, newline-terminated, stable key order as given. */
export function writeJson(io: Pick<CliIO, "stdout">, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** `file:line:col` (or just the file), as editors and terminals make clickable. */
export function location(file: string, line?: number, column?: number): string {
  if (line === undefined) return file;
  return column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`;
}

/** Shortens an absolute path under the working directory to a relative one for display. */
export function displayPath(file: string, cwd: string): string {
  if (file.startsWith("<")) return file;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return file.startsWith(base) ? file.slice(base.length) : file;
}
