/** @module re-reading a `cmd /c ...` or `powershell -Command ...` line that bash cannot lex, with Windows quoting (a backslash is not an escape). */

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
  if (!m) return requotePowerShell(line);
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

const PS_CALL = /(^|[\s;&|(\\/])(?:powershell|pwsh)(?:\.exe)?(?=\s)/i;

/** `powershell -NoProfile -c "Remove-Item -Recurse C:\Users\x\"`: the same, after up to 8 options before `-c`/`-Command`. */
function requotePowerShell(line: string): string | undefined {
  const m = PS_CALL.exec(line);
  if (!m) return undefined;
  let start = m.index + (m[1]?.length ?? 0);
  while (start > 0 && !/[\s;&|()]/.test(line[start - 1] ?? " ")) start--;
  let i = m.index + m[0].length;
  const opts: string[] = [];
  for (let n = 0; n < 8; n++) {
    while (i < line.length && /\s/.test(line[i] ?? "")) i++;
    let j = i;
    while (j < line.length && !/\s/.test(line[j] ?? "")) j++;
    const word = line.slice(i, j);
    if (/^-(?:c|command)$/i.test(word)) {
      let rest = line.slice(j).replace(/^\s+/, "");
      if (rest.startsWith('"')) {
        const last = rest.lastIndexOf('"');
        rest = last > 0 ? rest.slice(1, last) + rest.slice(last + 1) : rest.slice(1);
      }
      return `${line.slice(0, start)}pwsh ${[...opts, "-Command"].join(" ")} ${singleQuoted(rest)}`;
    }
    // Only plain options (and their plain values) before the command: anything else is not rewritten.
    if (!/^-?[\w.]+$/.test(word)) return undefined;
    opts.push(word);
    i = j;
  }
  return undefined;
}
