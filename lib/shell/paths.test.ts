/** @module tests of path resolution and classification. */
import { describe, expect, it } from "bun:test";
import { exceptGlob, pathInClass, type PathClass, resolvePath } from "./paths.ts";

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

describe("exceptGlob", () => {
  const CACHES = "~/{.*,Library,AppData}/**/{Cache,GPUCache,Code Cache}/";
  it.each([
    ["/home/user/.config/Code/Cache", true, undefined],
    ["/home/user/.config/Code/Cache/x/y", true, "/x/y"],
    ["/home/user/.config/Cache", true, undefined],
    ["/home/user/Library/Application Support/Code/Code Cache/js", true, "/js"],
    ["/home/user/.config/google-chrome/Default/GPUCache", true, undefined],
    ["/home/user/Documents/Cache", false, undefined],
    ["/home/user/.config/Code/User", false, undefined],
    ["/home/user/.config/Code/CacheX", false, undefined],
    ["/home/other/.config/Code/Cache", false, undefined],
    ["/home/user", false, undefined],
  ] as [string, boolean, string | undefined][])("should match %s: %p, below it %p", (path, matches, below) => {
    const m = exceptGlob(CACHES, "/home/user").exec(path);
    expect(m !== null).toBe(matches);
    expect(m?.[1]).toBe(below);
  });
  it("should read regex characters in a name as themselves", () => {
    expect(exceptGlob("/opt/a+b/*.d/", "/h").test("/opt/a+b/x.d")).toBe(true);
    expect(exceptGlob("/opt/a+b/*.d/", "/h").test("/opt/aab/x.d")).toBe(false);
    expect(exceptGlob("/opt/a+b/*.d/", "/h").test("/opt/a+b/xyd")).toBe(false);
  });
});
