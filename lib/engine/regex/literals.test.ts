/** @module unit tests: required literals are in every match, and regex syntax is read conservatively. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { shapeCode } from "../select/scan.ts";
import { requiredLiteralSets, requiredText } from "./literals.ts";

describe("requiredLiteralSets", () => {
  const cases: [string, string, string[][] | undefined][] = [
    ["\\bgit\\b.*\\bpush\\b", "", [["git"], ["push"]]],
    ["rm\\s+-rf", "", [["rm"], ["-rf"]]],
    ["GIT", "i", [["git"]]],
    ["abc?d", "", [["ab"], ["d"]]],
    ["a{2}bc", "", [["aabc"]]],
    ["x[a-z]{2,}y", "", [["x"], ["y"]]],
    ["ab{2,}c", "", [["abb"], ["bbc"]]],
    ["(foo|bar)baz", "", [["foo", "bar"], ["baz"]]],
    ["(?:foo|ba)?qux", "", [["qux"]]],
    ["foo|bar", "", [["foo", "bar"]]],
    ["foo|", "", []],
    ["foo|.*", "", []],
    ["(?=secret)x", "", [["x"]]],
    ["\\.env$", "", [[".env"]]],
    ["[a-z]+\\d", "", []],
    ["\\x41bc", "", undefined],
    ["(?i)abc", "", undefined],
    ["[]a]bc", "", undefined],
    ["abc", "v", undefined],
    ["\\1abc", "", undefined],
  ];
  for (const [pattern, flags, expected] of cases) {
    it(`/${pattern}/${flags}`, () => expect(requiredLiteralSets(pattern, flags)).toEqual(expected));
  }

  it("every literal of a set it returns occurs in a string the regex matches (for one set member)", () => {
    const atoms = ["a", "b", "ab", "x", "\\.", "\\s", "\\d", ".", "[a-c]", "(?:ab|c)", "(b|x)?", "q+", "k*", "^", "$", "\\b"];
    let checked = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...atoms), { minLength: 1, maxLength: 7 }), fc.string({ maxLength: 12 }), fc.boolean(), (parts, text, ci) => {
        const source = parts.join("");
        const re = new RegExp(source, ci ? "i" : "");
        const sets = requiredLiteralSets(source, ci ? "i" : "");
        if (!sets || !re.test(text)) return;
        checked++;
        const folded = text.toLowerCase();
        for (const set of sets) expect(set.some((l) => folded.includes(l))).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // Only matching texts test the claim: the run must have reached enough of them to mean something.
    expect(checked).toBeGreaterThan(100);
  });
});

describe("requiredText", () => {
  const shapeOfText = (text: string) => [...text].map((c) => (shapeCode(c.charCodeAt(0)) < 0 ? "\u0000" : String.fromCharCode(shapeCode(c.charCodeAt(0))))).join("");
  const cases: [string, string, string[]][] = [
    ["\\s-[a-z]{3}\\d{2}\\s+\\S+\\s+[A-Z]{4}$", "", [" -aaa00 ", " AAAA"]],
    ["v[0-9]+\\.[0-9]+", "", ["a0", "0.0"].filter((s) => s.length >= 3)],
    ["[a-z]{3}", "i", []],
    ["ab{2,}c", "", ["aaa", "aaa"]],
  ];
  for (const [pattern, flags, shapes] of cases) {
    it(`should require the shapes of /${pattern}/${flags}`, () => expect(requiredText(pattern, flags)?.shapes).toEqual(shapes));
  }

  it("should only name shapes every match holds", () => {
    const atoms = ["a", "B", "7", " ", "-", "\\d", "\\s", "[a-z]", "[A-Z]", "[0-9]", "\\d{2}", "[a-z]{2,}", "\\d+", "(?:ab|c)", "x?", "\\w", ".", "\\b", "^", "$", "[a-c]{3}"];
    let checked = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...atoms), { minLength: 1, maxLength: 7 }), fc.string({ maxLength: 14 }), fc.constantFrom("", "i", "u", "iu"), (parts, text, flags) => {
        const source = parts.join("");
        const re = new RegExp(source, flags);
        const req = requiredText(source, flags);
        if (!req || !re.test(text)) return;
        checked++;
        const shaped = shapeOfText(text);
        for (const s of req.shapes) expect(shaped).toContain(s);
        const folded = text.toLowerCase();
        for (const set of req.sets) expect(set.some((l) => folded.includes(l))).toBe(true);
      }),
      { numRuns: 4000 },
    );
    expect(checked).toBeGreaterThan(100);
  });
});
