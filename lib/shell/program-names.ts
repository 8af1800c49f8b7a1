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
