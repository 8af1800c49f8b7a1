import { describe, expect, it } from "bun:test";
import { isPythonName, isPythonOrPypyName, nameTest } from "./program-names.ts";

const NAMES = ["python", "python3", "python3.12", "python2.7.18", "python.", "pythonx", "python3a", "py", "pypy", "pypy3", "pypy3.10", "pypyx", "xpython3", "", "Python3", "python3\n", "python 3", "ipython", "python3-config"];

describe("isPythonName", () => {
  it("should answer as /^python[0-9.]*$/ does", () => {
    for (const n of NAMES) expect([n, isPythonName(n)]).toEqual([n, /^python[0-9.]*$/.test(n)]);
  });
});

describe("isPythonOrPypyName", () => {
  it("should answer as /^(?:python[0-9.]*|pypy[0-9.]*)$/ does", () => {
    for (const n of NAMES) expect([n, isPythonOrPypyName(n)]).toEqual([n, /^(?:python[0-9.]*|pypy[0-9.]*)$/.test(n)]);
  });
});

describe("nameTest", () => {
  const LISTS: [string[], { python?: boolean; pypy?: boolean }][] = [
    [["node", "nodejs", "bun", "deno", "perl", "ruby", "php"], { python: true }],
    [["cat", "tee", "clip", "clip.exe", "R", "Rscript"], { python: true }],
    [["npx", "bunx", "uv", "uvx"], {}],
    [["node", "lua"], { python: true, pypy: true }],
  ];
  const probes = (names: string[]) => [
    ...names,
    ...names.map((n) => `${n}x`),
    ...names.map((n) => n.slice(0, -1)),
    ...names.map((n) => n.toUpperCase()),
    ...names.map((n) => `/usr/bin/${n}`),
    ...names.map((n) => `${n}\n`),
    ...NAMES,
    "clipxexe",
    "r",
  ];

  it("should answer as the regex of the same names does", () => {
    for (const [names, versions] of LISTS) {
      const alternatives = [...names.map((n) => n.replace(/[.]/g, "\\.")), ...(versions.python ? ["python[0-9.]*"] : []), ...(versions.pypy ? ["pypy[0-9.]*"] : [])];
      const re = new RegExp(`^(?:${alternatives.join("|")})$`);
      const test = nameTest(names, versions);
      for (const p of probes(names)) expect([p, test.test(p)]).toEqual([p, re.test(p)]);
    }
  });
});
