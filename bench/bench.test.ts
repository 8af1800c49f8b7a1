/** @module smoke test of the bench: the suite at a tiny size yields every row with sane numbers (no speed asserted). */
import { describe, expect, it } from "bun:test";
import { existsSync } from "node:fs";
import { SHEPHERD } from "./lib/paths.ts";
import { renderMarkdown, renderTable, rows } from "./lib/report.ts";
import { runBench } from "./run.ts";
import { canPin } from "./sections/stdio.ts";

describe("bench --quick", () => {
  it("produces every row of the table with finite, positive figures", async () => {
    // `npm test` builds the binary first: a missing one is a failure here, never a reason to skip the bench.
    expect(existsSync(SHEPHERD)).toBe(true);
    const report = await runBench({ quick: true, log: () => {} });
    const table = rows(report);
    const names = table.map((r) => r[0]);
    for (const expected of [
      "stdio round-trip p50",
      "stdio round-trip p99",
      "in-process evaluation",
      "spawn-per-hook median (vs plain node hook)",
      "save-to-effect p50",
      "save-to-effect p99",
      "resident memory after",
      "memory growth",
      "HTTP round-trip",
      "redact a 1",
      "data-flow guard, added per tool call",
      "Claude Code mcp_tool hook round-trip p50",
      "loop rules added per evaluation",
      "rule packs: added to a full load",
      "rule packs: added to a snapshot hook",
      "stdio p50 with telemetry on (vs off)",
      "in-process evaluation, per event, rules that cannot match",
      "stdio round-trip p50 (vs echo server), rules that cannot match",
    ]) {
      expect(names.some((name) => name.startsWith(expected))).toBe(true);
    }
    // Three sizes at the headline placement, plus the other two placements where CPUs can be pinned.
    expect(report.stdio.length).toBe(canPin() ? 5 : 3);
    expect(report.stdio.some((s) => s.warmingUp !== undefined)).toBe(true);
    for (const s of report.stdio) {
      for (const x of [s.shepherd.p50, s.shepherd.p99, s.echo.p50, s.echo.p99, s.ratioP50]) expect(x).toBeGreaterThan(0);
      expect(s.shepherd.p99).toBeGreaterThanOrEqual(s.shepherd.p50);
    }
    for (const p of report.inProcess) {
      expect(Number.isFinite(p.usPerEvent) && p.usPerEvent > 0).toBe(true);
      expect(p.active).toBeGreaterThanOrEqual(p.rules);
    }
    expect(report.spawn?.shepherd.median).toBeGreaterThan(0);
    // The "on" sidecar really exported while it was timed.
    expect(report.telemetry?.exports).toBeGreaterThan(0);
    expect(report.telemetry?.on.p50).toBeGreaterThan(0);
    expect(report.reload?.samples).toBe(3);
    expect(report.memory?.final).toBeGreaterThan(1024 * 1024);
    const text = renderTable(report);
    expect(text).not.toContain("NaN");
    expect(renderMarkdown(report)).toContain("| measurement |");
  }, 120_000);
});
