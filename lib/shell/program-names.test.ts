import { describe, expect, it } from "bun:test";
import { isPythonName, isPythonOrPypyName } from "./program-names.ts";

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
