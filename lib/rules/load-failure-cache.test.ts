/** @module unit tests: failed rule files are remembered by stat identity, per build, with a bounded issue list. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadIssue } from "../engine/schema.ts";
import { fileFailureCache, MAX_REMEMBERED_ISSUES } from "./load-failure-cache.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-failcache-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = "/p/.pi/shepherd-rules.json";
const issue: LoadIssue = { file, path: "", message: "not a regular file but a FIFO (named pipe): refused unread", severity: "error" };

describe("fileFailureCache", () => {
  it("should give back the issues only for the same file, layer, identity and build", () => {
    const cache = fileFailureCache(dir, "build-1");
    expect(cache.getFailure(file, "project", "1:2:3:4:5")).toBeUndefined();
    cache.setFailure(file, "project", "1:2:3:4:5", { issues: [issue], bytes: 12 });
    expect(cache.getFailure(file, "project", "1:2:3:4:5")).toEqual({ issues: [issue], bytes: 12 });
    expect(cache.getFailure(file, "project", "1:2:3:4:6")).toBeUndefined();
    expect(cache.getFailure(file, "global", "1:2:3:4:5")).toBeUndefined();
    expect(cache.getFailure("/q/.pi/shepherd-rules.json", "project", "1:2:3:4:5")).toBeUndefined();
    expect(fileFailureCache(dir, "build-2").getFailure(file, "project", "1:2:3:4:5")).toBeUndefined();
  });

  it("should keep the first issues of a file with thousands and say how many more", () => {
    const cache = fileFailureCache(dir, "b");
    const many = Array.from({ length: 5000 }, (_, i): LoadIssue => ({ file, path: `[${i}].action`, message: "Invalid type", severity: "error", line: i + 1, column: 3 }));
    cache.setFailure(file, "project", "id", { issues: many, bytes: 0 });
    const back = cache.getFailure(file, "project", "id")?.issues ?? [];
    expect(back.length).toBe(MAX_REMEMBERED_ISSUES + 1);
    expect(back[0]).toEqual(many[0] as LoadIssue);
    expect(back.at(-1)?.message).toContain(`and ${5000 - MAX_REMEMBERED_ISSUES} more issues`);
  });

  it.each([
    ["not JSON", "{"],
    ["too deep", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
    ["issues of the wrong shape", JSON.stringify({ salt: "b", file, source: "project", identity: "id", bytes: 0, issues: [{ file, message: 1 }] })],
    ["no issues", JSON.stringify({ salt: "b", file, source: "project", identity: "id", bytes: 0, issues: [] })],
    ["without its bytes", JSON.stringify({ salt: "b", file, source: "project", identity: "id", issues: [issue] })],
  ])("should ignore an entry that is %s", (_name, text) => {
    const cache = fileFailureCache(dir, "b");
    cache.setFailure(file, "project", "id", { issues: [issue], bytes: 0 });
    expect(cache.getFailure(file, "project", "id")).toBeDefined();
    const [entry] = readdirSync(dir).filter((n) => n.startsWith("failed-"));
    writeFileSync(join(dir, entry as string), text);
    expect(cache.getFailure(file, "project", "id")).toBeUndefined();
  });

  it("should survive an unwritable folder", () => {
    const cache = fileFailureCache("/proc/shepherd-no-such-dir", "b");
    cache.setFailure(file, "project", "id", { issues: [issue], bytes: 0 });
    expect(cache.getFailure(file, "project", "id")).toBeUndefined();
  });
});
