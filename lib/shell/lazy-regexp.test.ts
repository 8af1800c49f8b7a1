import { describe, expect, it } from "bun:test";
import { lazyMatcher, onFirstUse } from "./lazy-regexp.ts";
import { CMD_SECRET_VAR, ENV_SECRET, SECRET_NAME, SECRET_NAME_CORE, SECRET_VAR } from "./secret-names.ts";

describe("onFirstUse", () => {
  it("should build the regex on the first call only, and hand the same object after", () => {
    let built = 0;
    const re = onFirstUse(() => {
      built++;
      return /a+/g;
    });
    expect(built).toBe(0);
    const first = re();
    expect(built).toBe(1);
    expect(re()).toBe(first);
    expect(built).toBe(1);
  });
});

describe("lazyMatcher", () => {
  it("should answer test and exec as the regex it builds", () => {
    let built = 0;
    const m = lazyMatcher(() => {
      built++;
      return /^x(\d+)$/i;
    });
    expect(built).toBe(0);
    const cases = ["x1", "X22", "x", "ax1", "x1\n", ""];
    for (const c of cases) {
      expect([c, m.test(c)]).toEqual([c, /^x(\d+)$/i.test(c)]);
      expect([c, m.exec(c)?.[1]]).toEqual([c, /^x(\d+)$/i.exec(c)?.[1]]);
    }
    expect(built).toBe(1);
  });
});

describe("secret-names' lazy regexes", () => {
  // The patterns as they were built at import, before they became lazy: the same answers on every probe.
  const before: [string, { test(s: string): boolean }, RegExp][] = [
    ["SECRET_NAME", SECRET_NAME, new RegExp(String.raw`^[A-Za-z_]*${SECRET_NAME_CORE}[A-Za-z0-9_]*$`, "i")],
    ["SECRET_VAR", SECRET_VAR, new RegExp(String.raw`\$\{?(?:env:)?[A-Za-z_]*${SECRET_NAME_CORE}[A-Za-z0-9_]*\}?`, "i")],
    ["CMD_SECRET_VAR", CMD_SECRET_VAR, new RegExp(String.raw`%[A-Za-z_]*${SECRET_NAME_CORE}[A-Za-z0-9_]*%`, "i")],
    ["ENV_SECRET", ENV_SECRET, new RegExp(String.raw`(?:environ|ENV|env|getenv)\W{1,3}[A-Za-z_]*${SECRET_NAME_CORE}`, "i")],
  ];
  const names = ["GITHUB_TOKEN", "MAX_TOKENS", "PGPASSWORD", "DB_PASS", "API_URL", "OLDPWD", "DATABASE_URL", "gh_pat", "path"];
  const probes = names.flatMap((n) => [n, `$${n}`, `\${${n}}`, `$env:${n}`, `%${n}%`, `os.environ['${n}']`, `process.env.${n}`, `getenv("${n}")`]);

  it("should answer as the regexes built at import did", () => {
    let hits = 0;
    for (const [name, lazy, re] of before) {
      for (const p of probes) {
        const want = re.test(p);
        if (want) hits++;
        expect([name, p, lazy.test(p)]).toEqual([name, p, want]);
      }
    }
    expect(hits).toBeGreaterThan(10);
  });
});
