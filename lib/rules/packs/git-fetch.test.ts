/** @module unit tests: a git pack is fetched at exactly its commit, checked against the caps, and a fetch that writes too much is stopped. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchGitPack } from "./git-fetch.ts";
import { sha256 } from "../../hash.ts";

let root = "";
let repo = "";
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" };

function git(args: string[]): string {
  const r = spawnSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], { cwd: repo, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

function commit(files: Record<string, string | Buffer>, link?: [string, string]): string {
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(repo, f, ".."), { recursive: true });
    writeFileSync(join(repo, f), text);
  }
  if (link) symlinkSync(link[1], join(repo, link[0]));
  git(["add", "-A"]);
  git(["commit", "-q", "-m", "c"]);
  return git(["rev-parse", "HEAD"]);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-git-fetch-"));
  repo = join(root, "repo");
  mkdirSync(repo);
  git(["init", "-q"]);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("fetchGitPack", () => {
  it("should fetch the files of exactly the pinned commit, hashed, leaving out node_modules", async () => {
    const first = commit({ "shepherd-rules.json": "[1]", "node_modules/x/a.js": "x" });
    commit({ "shepherd-rules.json": "[2]" });
    const r = await fetchGitPack(`file://${repo}`, first);
    if (!r.ok) throw new Error(r.message);
    expect(r.files.map((f) => [f.path, f.sha256])).toEqual([["shepherd-rules.json", sha256("[1]")]]);
  });

  it.each([
    ["a symbolic link", () => commit({ "a.json": "[]" }, ["link.json", "/etc/passwd"]), "symbolic link"],
    ["a commit that is not there", () => (commit({ "a.json": "[]" }), "0".repeat(40)), "failed"],
  ])("should refuse %s", async (_why, make, message) => {
    const c = make();
    const r = await fetchGitPack(`file://${repo}`, c);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });

  it("should stop a fetch that writes more than its cap", async () => {
    const c = commit({ "blob.bin": randomBytes(1024 * 1024) });
    const r = await fetchGitPack(`file://${repo}`, c, { maxFetchBytes: 256 * 1024 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain("stopped: it passed 256 KiB");
  });
});
