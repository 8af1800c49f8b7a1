/** @module unit tests: pack specs and `extends` entries are parsed strictly; anything else is an issue at its path. */
import { describe, expect, it } from "bun:test";
import { MAX_PACKS_PER_FILE, parseExtends, parsePackSpec } from "./spec.ts";

const C = "0123456789abcdef0123456789abcdef01234567";

describe("parsePackSpec", () => {
  it.each([
    ["@acme/pack", { kind: "npm", name: "@acme/pack", spec: "@acme/pack" }],
    ["npm:acme-pack", { kind: "npm", name: "acme-pack", spec: "acme-pack" }],
    [`git+https://git.example/team/rules.git#${C}`, { kind: "git", name: "rules", url: "https://git.example/team/rules.git", commit: C }],
    [`git+file:///srv/pack.git#${C.toUpperCase()}`, { kind: "git", name: "pack", commit: C }],
    [`git+https://Git.Example/a/../team/rules.git#${C}`, { kind: "git", url: "https://git.example/team/rules.git", spec: `git+https://git.example/team/rules.git#${C}` }],
  ])("should accept %s", (raw, want) => {
    const r = parsePackSpec(raw);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.pack).toMatchObject(want);
  });

  it.each([
    ["git+https://git.example/p.git#main", "40-hex commit"],
    ["git+https://git.example/p.git", "must pin a commit"],
    [`git+ssh://git@host/p.git#${C}`, "only https:// and file://"],
    [`git+ext::sh -c evil#${C}`, "only https:// and file://"],
    [`git+not a url#${C}`, "not a URL"],
    [`git+https://user:pw@host/p.git#${C}`, "credentials"],
    ["../escape", "neither an npm package"],
    ["Acme/Pack", "neither an npm package"],
    ["", "1 to 2048"],
  ])("should refuse %s", (raw, message) => {
    const r = parsePackSpec(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });
});

describe("parseExtends", () => {
  it("should read strings and {pack, mode}, reporting bad entries at their path and keeping the good ones", () => {
    const r = parseExtends(["a-pack", { pack: "b-pack", mode: "shadow" }, { pack: "c-pack", mode: "loud" }, 3, "a-pack", { pack: "d-pack", extra: 1 }]);
    expect(r.refs.map((x) => [x.pack.spec, x.mode, x.path])).toEqual([
      ["a-pack", undefined, "extends[0]"],
      ["b-pack", "shadow", "extends[1]"],
      ["d-pack", undefined, "extends[5]"],
    ]);
    expect(r.problems.map((p) => p.path)).toEqual(["extends[2].mode", "extends[3]", "extends[4]", "extends[5].extra"]);
  });

  it("should refuse a value that is not a list, and cap the number of packs", () => {
    expect(parseExtends("a-pack").problems[0]?.path).toBe("extends");
    const many = parseExtends(Array.from({ length: MAX_PACKS_PER_FILE + 3 }, (_, i) => `p${i}`));
    expect(many.refs).toHaveLength(MAX_PACKS_PER_FILE);
    expect(many.problems).toHaveLength(1);
  });
});
