import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditShadowCounts } from "./audit-shadow.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-audit-shadow-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (fired: unknown[]) => JSON.stringify({ action: "allow", fired });

describe("auditShadowCounts", () => {
  it("should count shadow entries across daily files, skip garbage lines, other files and FIFOs", () => {
    writeFileSync(join(dir, "audit-2026-01-01.jsonl"), [line([{ rule: "a", source: "global", action: "block", shadow: true }]), "{not json \"shadow\":true", line([{ rule: "b", source: "global", action: "block" }])].join("\n"));
    writeFileSync(join(dir, "audit-2026-01-02.jsonl"), line([{ rule: "a", source: "global", action: "block", shadow: true }, { rule: "c", source: "project", action: "ask", shadow: true }]));
    writeFileSync(join(dir, "notes.jsonl"), line([{ rule: "x", source: "global", action: "block", shadow: true }]));
    Bun.spawnSync(["mkfifo", join(dir, "audit-2026-01-03.jsonl")]);
    const out = auditShadowCounts({ dir, includeContent: false, retainDays: 30 });
    expect(out.counts).toEqual([
      { rule: "a", source: "global", action: "block", count: 2 },
      { rule: "c", source: "project", action: "ask", count: 1 },
    ]);
    expect(out.files).toBe(2);
    expect(out.skipped).toEqual([join(dir, "audit-2026-01-03.jsonl")]);
  });

  it("should answer with nothing for a missing folder", () => {
    expect(auditShadowCounts({ dir: join(dir, "none"), includeContent: false, retainDays: 30 })).toEqual({ counts: [], files: 0, skipped: [] });
  });
});
