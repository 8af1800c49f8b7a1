import { describe, expect, it } from "bun:test";
import { asciiLower, isBinderProgram, isMkfsName, isPythonName, isPythonOrPypyName, nameTest, windowsShellName } from "./program-names.ts";

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

/** Names near each list: the names themselves, changed in case, prefix, suffix, path and line ends, and non-ASCII look-alikes. */
function variants(names: readonly string[]): string[] {
  const extra = ["", "/", "x", "-", ".", "\n", "\r", "\u2028", "_", ".exe", ".EXE", "1", ".ext4", "_x", "_-", ". "];
  const out = new Set<string>(["", "/", "ſ", "K", "ᴋ", "İ", "mk", "newfs", "newfs_", "mkfs.", "mkfs_", "mkfs.\n", "mkfs.\u2029", "newfs_\r", "mkfs_é", "ms", "PſWSH", "pwsh\u017f", "\u212Amd"]);
  for (const n of names) {
    for (const v of [n, n.toUpperCase(), n[0]?.toUpperCase() + n.slice(1), n.slice(0, -1), n.slice(1)]) {
      for (const e of extra) {
        out.add(v + e);
        out.add(e + v);
        out.add(`/usr/bin/${v}${e}`);
        out.add(`a/${v}${e}`);
      }
    }
  }
  return [...out];
}

describe("windowsShellName", () => {
  it("should answer as the case-insensitive regex and toLowerCase did", () => {
    const old = (p: string) => (/^(?:cmd|powershell|pwsh)(?:\.exe)?$/i.test(p) ? p.toLowerCase() : p);
    const probes = variants(["cmd", "powershell", "pwsh", "Cmd.Exe", "PowerShell.exe", "PWSH.EXE", "sh", "bash"]);
    expect(probes.length).toBeGreaterThan(500);
    for (const p of probes) expect([p, windowsShellName(p)]).toEqual([p, old(p)]);
  });
});

describe("asciiLower", () => {
  it("should lowercase A-Z only", () => {
    const cases: [string, string][] = [["", ""], ["abc", "abc"], ["ABC", "abc"], ["aBc.EXE", "abc.exe"], ["İK\u212A", "İk\u212A"], ["[@Z]", "[@z]"]];
    for (const [p, want] of cases) expect([p, asciiLower(p)]).toEqual([p, want]);
  });
});

describe("isBinderProgram", () => {
  it("should answer as /(?:^|\\/)(?:printf|read|alias|ln|cp|install)$/ does", () => {
    const re = /(?:^|\/)(?:printf|read|alias|ln|cp|install)$/;
    for (const p of variants(["printf", "read", "alias", "ln", "cp", "install", "readonly", "scp"])) expect([p, isBinderProgram(p)]).toEqual([p, re.test(p)]);
  });
});

describe("isMkfsName", () => {
  it("should answer as the mkfs regex does", () => {
    const re = /^(?:mkfs(?:\..+)?|mke2fs|mkswap|newfs(?:_.+)?|mkdosfs|mkntfs|mkexfatfs|mkudffs|mkfs_\w+)$/;
    const probes = variants(["mkfs", "mkfs.ext4", "mkfs.xfs", "mke2fs", "mkswap", "newfs", "newfs_msdos", "mkdosfs", "mkntfs", "mkexfatfs", "mkudffs", "mkfs_x", "mkdir", "mktemp"]);
    for (const p of probes) expect([p, isMkfsName(p)]).toEqual([p, re.test(p)]);
  });
});
