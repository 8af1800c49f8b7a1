/** @module unit tests: the approvals file (scopes, projects apart, bounds, eviction, unreadable files dropped). */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RememberRequest } from "../engine/schema.ts";
import { type Approval, ApprovalStore, isApproval, MAX_APPROVALS, readApprovals, SESSION_APPROVAL_MAX_AGE_MS } from "./approval-store.ts";

let dir: string;
let file: string;
let reports: string[];
let now: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-approval-store-"));
  file = join(dir, "shepherd", "approvals.json");
  reports = [];
  now = 1_000_000;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const store = () => new ApprovalStore({ file, report: (m) => reports.push(m), now: () => now });
const req = (scope: "session" | "project", rule = "r", inputHash = "a".repeat(64)): RememberRequest => ({ rule, source: "project", scope, tool: "bash", inputHash, display: "deploy" });
const q = (scope: "session" | "project", session = "s1", rule = "r", inputHash = "a".repeat(64)) => ({ rule, scope, tool: "bash", inputHash, session: { id: session, agent: "pi" } });

describe("ApprovalStore", () => {
  it("should find a project approval in any session of its project only", async () => {
    const s = store();
    const r = await s.grant({ project: "/p", session: { id: "s1", agent: "pi" }, remember: [req("project")] });
    expect(r.ok).toBe(true);
    const id = r.ok ? r.value[0]?.id : undefined;
    expect(s.lookupFor("/p")(q("project", "s2"))).toBe(id);
    expect(s.lookupFor("/other")(q("project", "s1"))).toBeUndefined();
    expect(s.lookupFor("/p")(q("session", "s1"))).toBeUndefined();
    expect(s.lookupFor("/p")(q("project", "s1", "other-rule"))).toBeUndefined();
    expect(s.lookupFor("/p")(q("project", "s1", "r", "b".repeat(64)))).toBeUndefined();
  });

  it("should find a session approval in its own session and agent only, and forget it when the session ends", async () => {
    const s = store();
    await s.grant({ project: "/p", session: { id: "s1", agent: "pi" }, remember: [req("session")] });
    expect(s.lookupFor("/p")(q("session", "s1"))).toBeDefined();
    expect(s.lookupFor("/p")(q("session", "s2"))).toBeUndefined();
    expect(s.lookupFor("/p")({ ...q("session", "s1"), session: { id: "s1", agent: "claude-code" } })).toBeUndefined();
    await s.endSession({ id: "s1", agent: "pi" });
    expect(s.all()).toEqual([]);
  });

  it("should keep one approval per call when the same one is granted again", async () => {
    const s = store();
    await s.grant({ project: "/p", session: { id: "s1" }, remember: [req("project")] });
    now += 5;
    await s.grant({ project: "/p", session: { id: "s2" }, remember: [req("project")] });
    expect(s.all().map((a) => a.createdAt)).toEqual([now]);
  });

  it(`should keep at most ${MAX_APPROVALS}, evicting the oldest`, async () => {
    const s = store();
    const many = Array.from({ length: MAX_APPROVALS + 3 }, (_, i) => req("project", `r${i}`));
    for (let i = 0; i < many.length; i += 100) {
      now += 1;
      await s.grant({ project: "/p", session: { id: "s" }, remember: many.slice(i, i + 100) });
    }
    const all = s.all();
    expect(all.length).toBe(MAX_APPROVALS);
    expect(all.some((a) => a.rule === "r0")).toBe(false);
    expect(all.some((a) => a.rule === `r${MAX_APPROVALS + 2}`)).toBe(true);
  });

  it("should drop session approvals older than a week at the next write", async () => {
    const s = store();
    await s.grant({ project: "/p", session: { id: "old" }, remember: [req("session"), req("project", "keep")] });
    now += SESSION_APPROVAL_MAX_AGE_MS + 1;
    await s.grant({ project: "/p", session: { id: "new" }, remember: [req("project", "other")] });
    expect(s.all().map((a) => a.rule).sort()).toEqual(["keep", "other"]);
  });

  it("should revoke by id and write the file for its owner only", async () => {
    const s = store();
    const r = await s.grant({ project: "/p", session: { id: "s" }, remember: [req("project"), req("project", "r2")] });
    const first = r.ok ? r.value[0] : undefined;
    const gone = await s.revoke((a) => a.id === first?.id);
    expect(gone.ok ? gone.value.map((a) => a.id) : []).toEqual([first?.id ?? "missing"]);
    expect(s.all().map((a) => a.rule)).toEqual(["r2"]);
    if (process.platform !== "win32") expect((await import("node:fs")).statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each([
    ["not JSON", "{"],
    ["a list", "[]"],
    ["an unknown version", JSON.stringify({ version: 9, approvals: [] })],
    ["an extra key", JSON.stringify({ version: 1, approvals: [], more: 1 })],
    ["a bad entry", JSON.stringify({ version: 1, approvals: [{ id: "x" }] })],
    ["too deep", `{"version":1,"approvals":[${"[".repeat(20)}${"]".repeat(20)}]}`],
    ["too large", `{"version":1,"approvals":[],"x":"${"y".repeat(1024 * 1024)}"}`],
  ])("should allow nothing from a file that is %s, move it aside and report it once", async (_what, text) => {
    const s = store();
    await s.grant({ project: "/p", session: { id: "s" }, remember: [req("project")] });
    writeFileSync(file, text);
    expect(s.lookupFor("/p")(q("project"))).toBeUndefined();
    expect(s.lookupFor("/p")(q("project"))).toBeUndefined();
    expect(reports.length).toBe(1);
    expect(reports[0]).toContain("dropped");
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(dir, "shepherd", "approvals.corrupt.json"), "utf8")).toBe(text);
    // The next yes starts a fresh file.
    await s.grant({ project: "/p", session: { id: "s" }, remember: [req("project")] });
    expect(s.lookupFor("/p")(q("project"))).toBeDefined();
  });

  it("should read a missing file as no approvals, without a report or a write", async () => {
    const s = store();
    expect(s.all()).toEqual([]);
    await s.endSession({ id: "s" });
    await s.revoke(() => true);
    expect(existsSync(file)).toBe(false);
    expect(reports).toEqual([]);
  });
});

describe("isApproval", () => {
  const good: Approval = { id: "0123456789ab", scope: "project", project: "/p", rule: "r", tool: "bash", inputHash: "a".repeat(64), display: "x", createdAt: 1 };
  it.each([
    ["a project approval", good, true],
    ["a session approval", { ...good, scope: "session", session: "s", agent: "pi" }, true],
    ["a session approval without its session", { ...good, scope: "session" }, false],
    ["a project approval naming a session", { ...good, session: "s" }, false],
    ["another scope", { ...good, scope: "forever" }, false],
    ["a short hash", { ...good, inputHash: "abc" }, false],
    ["a relative project", { ...good, project: "p" }, false],
    ["an unknown key", { ...good, extra: 1 }, false],
    ["a NaN time", { ...good, createdAt: Number.NaN }, false],
    ["a prototype key", JSON.parse(`{"__proto__":{"a":1},"id":"0123456789ab"}`) as unknown, false],
    ["an id that is not hex", { ...good, id: "../../etc/pa" }, false],
  ])("should judge %s: %p", (_what, x, ok) => {
    expect(isApproval(x)).toBe(ok);
  });

  it("should read back exactly what the store wrote", async () => {
    await store().grant({ project: "/p", session: { id: "s", agent: "pi" }, remember: [req("session"), req("project", "r2")] });
    const r = readApprovals(file);
    expect(r.ok && r.approvals.length).toBe(2);
  });
});
