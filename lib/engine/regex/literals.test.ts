/** @module unit tests: required literals are in every match, and regex syntax is read conservatively. */
import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { requiredLiteralSets } from "./literals.ts";

describe("requiredLiteralSets", () => {
  const cases: [string, string, string[][] | undefined][] = [
    ["\\bgit\\b.*\\bpush\\b", "", [["git"], ["push"]]],
    ["rm\\s+-rf", "", [["rm"], ["-rf"]]],
    ["GIT", "i", [["git"]]],
    ["abc?d", "", [["ab"], ["d"]]],
    ["a{2}bc", "", [["bc"]]],
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
