/** @module tests of path resolution and classification. */
import { describe, expect, it } from "bun:test";
import { pathInClass, type PathClass, resolvePath } from "./paths.ts";

describe("resolvePath", () => {
  const cases: [string, string, string][] = [
    ["~", "/p", "/home/u"],
    ["~/x/../y", "/p", "/home/u/y"],
    ["../a//b/./c", "/p/q", "/p/a/b/c"],
    ["/../..", "/p", "/"],
    ["~bob/x", "/p", "~bob/x"],
  ];
  it.each(cases)("should resolve %s in %s to %s", (p, cwd, out) => {
    expect(resolvePath(p, cwd, "/home/u")).toBe(out);
  });
});

describe("pathInClass", () => {
  const cases: [string, PathClass, boolean][] = [
    ["/", "home_or_root", true],
    ["/home/u", "home_or_root", true],
    ["/home", "home_or_root", true],
    ["/*", "home_or_root", true],
    ["/home/u/*", "home_or_root", true],
    ["/etc", "home_or_root", true],
    ["/etc/nginx", "home_or_root", false],
    ["/home/u/proj/x", "inside_project", true],
    ["/home/u/projx", "outside_project", true],
    ["/home/u/proj", "project_root", true],
    ["/home/u/proj/*", "project_root", true],
    ["/home/u/proj/dist", "project_root", false],
    ["relative", "outside_project", false],
  ];
  it.each(cases)("should say %s is %s: %p", (p, cls, out) => {
    expect(pathInClass(p, cls, "/home/u/proj", "/home/u")).toBe(out);
  });
});
