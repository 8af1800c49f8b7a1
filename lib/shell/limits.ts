/**
 * @module caps of shell analysis. The line comes from the model; past a cap it is judged too complex to
 * analyse (`ParseResult.limit`), never half-read and passed as harmless: the built-in safety pack asks
 * (rule `safety-command-too-complex`), and whatever was seen before the cap can still block.
 */

export const SHELL_LIMITS = {
  /** Characters of the line: longer is not analysed at all. */
  maxLength: 1 << 20,
  /** Words and operators lexed, nested scripts included, plus the fields variables expand to. */
  maxWords: 100_000,
  /** Characters that variable and substitution values add when expanded (`X=$X$X` doubles). */
  maxExpansion: 1 << 22,
  /** Simple commands recorded, wrappers and nested scripts included. */
  maxCommands: 10_000,
  /** Scripts inside scripts: `sh -c`, `eval`, `$(...)`, a heredoc fed to a shell. */
  maxDepth: 8,
  /** Quotes, substitutions and subshells nested inside one another. */
  maxNesting: 64,
  /** Wrappers of one command recorded one by one (`sudo env nice timeout ... cmd`); the innermost is still found. */
  maxWrappers: 16,
  /** Length of a working directory followed through `cd` (PATH_MAX). */
  maxCwd: 4096,
  /** Distinct programs a pipeline stage's output is recorded as feeding. */
  maxPipeTo: 64,
} as const;

/** Thrown at a cap that ends the analysis; the commands recorded until then are kept. */
export class ShellLimitError extends Error {}

/** The note every limit starts with, so reports and rules read the same. */
export function limitNote(what: string): string {
  return `too complex to analyse: ${what}`;
}
