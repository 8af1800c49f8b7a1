/** @module re-reading a `cmd /c ...` line that bash cannot lex, with cmd.exe's quoting (a backslash is not an escape). */

/** `cmd /c`, `cmd.exe /k`, `C:\Windows\System32\cmd.exe /c` as a command word, and the switch after it. */
const CMD_CALL = /(^|[\s;&|(\\/])cmd(?:\.exe)?\s+(\/[ck])(?=[\s"]|$)\s*/i;

function singleQuoted(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/**
 * `cmd /c "rmdir /S /Q D:\"`: to bash the `\"` escapes the closing quote and the line never ends; to cmd the
 * backslash is a plain character. The rest of the line after `/c` is cmd's: as cmd does, a leading quote and
 * the last quote are stripped, and the text is handed to cmd as one bash word. Undefined when there is no cmd call.
 */
export function requoteCmd(line: string): string | undefined {
  const m = CMD_CALL.exec(line);
  if (!m) return undefined;
  // Back to the start of the word, so a path to cmd.exe goes with it (a scan, not a backtracking pattern).
  let start = m.index + (m[1]?.length ?? 0);
  while (start > 0 && !/[\s;&|()]/.test(line[start - 1] ?? " ")) start--;
  let rest = line.slice(m.index + m[0].length);
  if (rest.startsWith('"')) {
    const last = rest.lastIndexOf('"');
    rest = last > 0 ? rest.slice(1, last) + rest.slice(last + 1) : rest.slice(1);
  }
  // The program is written as plain `cmd`: a Windows path to it (`C:\Windows\System32\cmd.exe`) is mangled by bash's backslashes.
  return `${line.slice(0, start)}cmd ${m[2]} ${singleQuoted(rest)}`;
}
