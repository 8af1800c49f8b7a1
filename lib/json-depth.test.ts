import { describe, expect, it } from "bun:test";
import { jsonDepthProblem, MAX_JSON_DEPTH } from "./json-depth.ts";

const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

describe("jsonDepthProblem", () => {
  it.each([
    ["a flat rule file", '[{"name": "a", "action": "block"}]', undefined],
    ["exactly the cap", nested(MAX_JSON_DEPTH), undefined],
    ["brackets inside strings", `["${"[".repeat(500)}", "\\"[[[["]`, undefined],
    ["brackets inside comments", `// ${"[".repeat(500)}\n/* ${"{".repeat(500)} */ []`, undefined],
    ["broken JSON, closing more than it opens", "]]]]}}}[1]", undefined],
    ["an unterminated string", '["abc', undefined],
  ])("should accept %s", (_name, text) => {
    expect(jsonDepthProblem(text)).toBe(undefined);
  });

  it("should refuse one level past the cap, at the bracket that goes too deep", () => {
    const p = jsonDepthProblem(nested(MAX_JSON_DEPTH + 1));
    expect(p?.offset).toBe(MAX_JSON_DEPTH);
    expect(p?.line).toBe(1);
    expect(p?.column).toBe(MAX_JSON_DEPTH + 1);
    expect(p?.message).toContain(`more than ${MAX_JSON_DEPTH} levels`);
  });

  it("should name the JSON path of the value that is too deep", () => {
    const text = '{\n  "rules": [\n    {"a": 1},\n    {"name": "x", "options": {"deep": [[[[1]]]]}}\n  ]\n}';
    const p = jsonDepthProblem(text, 5);
    expect(p?.path).toBe("rules[1].options.deep[0]");
    expect(p?.line).toBe(4);
    expect(text.slice(p?.offset ?? 0, (p?.offset ?? 0) + 4)).toBe("[[[1");
  });

  it("should count nesting across a comment and a key with brackets", () => {
    const p = jsonDepthProblem('{"k[": /* { */ {"j": [[1]]}}', 3);
    expect(p?.path).toBe("k[.j[0]");
  });

  it("should scan 800,000 nested arrays at once, without recursion", () => {
    const text = nested(800_000);
    const started = performance.now();
    const p = jsonDepthProblem(text);
    expect(p?.offset).toBe(MAX_JSON_DEPTH);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
