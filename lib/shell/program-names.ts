/**
 * @module program-name tests as plain string checks. The effect families ask them of every command of every
 * line; a regex per question cost more than the families' own work for most commands (each one a separate
 * piece of compiled code, cold when a stream of different commands comes through).
 */

/** `name` followed only by digits and dots: /^name[0-9.]*$/ without a regex. */
function versioned(p: string, name: string): boolean {
  if (!p.startsWith(name)) return false;
  for (let i = name.length; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c !== 46 && (c < 48 || c > 57)) return false;
  }
  return true;
}

/** `python`, `python3`, `python3.12` (/^python[0-9.]*$/). */
export function isPythonName(p: string): boolean {
  return versioned(p, "python");
}

/** `python3`, `pypy3.10` (/^(?:python[0-9.]*|pypy[0-9.]*)$/). */
export function isPythonOrPypyName(p: string): boolean {
  return versioned(p, "python") || versioned(p, "pypy");
}

/** A list of program names as the `test` of a regex /^(?:a|b|...)$/ (with python[0-9.]* and pypy[0-9.]* when asked). */
export interface NameTest {
  test(p: string): boolean;
}

export function nameTest(names: readonly string[], versions: { python?: boolean; pypy?: boolean } = {}): NameTest {
  const set: ReadonlySet<string> = new Set(names);
  const python = versions.python === true;
  const pypy = versions.pypy === true;
  return { test: (p) => set.has(p) || (python && versioned(p, "python")) || (pypy && versioned(p, "pypy")) };
}

/** `p` with A-Z lowercased and nothing else: the folding of a regex's `/i` without `u` on names that are ASCII. */
export function asciiLower(p: string): string {
  let i = 0;
  while (i < p.length && !(p.charCodeAt(i) >= 65 && p.charCodeAt(i) <= 90)) i++;
  if (i === p.length) return p;
  let out = p.slice(0, i);
  for (; i < p.length; i++) {
    const c = p.charCodeAt(i);
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : p[i];
  }
  return out;
}

const WINDOWS_SHELLS: ReadonlySet<string> = new Set(["cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe"]);

/**
 * `p` lowercased when it names cmd, powershell or pwsh (`.exe` or not) in any case, else `p`: what
 * `/^(?:cmd|powershell|pwsh)(?:\.exe)?$/i.test(p) ? p.toLowerCase() : p` gives. Without the `u` flag `/i` folds no
 * non-ASCII letter to an ASCII one, so only A-Z need lowercasing, and a matching name is ASCII.
 */
export function windowsShellName(p: string): string {
  if (p.length > 14) return p;
  const lower = asciiLower(p);
  return WINDOWS_SHELLS.has(lower) ? lower : p;
}

/** Programs whose words bind something for the rest of the line, by name or path: /(?:^|\/)(?:printf|read|alias|ln|cp|install)$/. */
const BINDER_NAMES: ReadonlySet<string> = new Set(["printf", "read", "alias", "ln", "cp", "install"]);

export function isBinderProgram(p: string): boolean {
  return BINDER_NAMES.has(p.slice(p.lastIndexOf("/") + 1));
}

/** /^(?:mkfs(?:\..+)?|mke2fs|mkswap|newfs(?:_.+)?|mkdosfs|mkntfs|mkexfatfs|mkudffs|mkfs_\w+)$/, asked only of names it can match. */
const MKFS = /^(?:mkfs(?:\..+)?|mke2fs|mkswap|newfs(?:_.+)?|mkdosfs|mkntfs|mkexfatfs|mkudffs|mkfs_\w+)$/;

export function isMkfsName(p: string): boolean {
  // Every alternative starts with "mk" or "newfs": any other name never reaches the regex.
  return (p.startsWith("mk") || p.startsWith("newfs")) && MKFS.test(p);
}
