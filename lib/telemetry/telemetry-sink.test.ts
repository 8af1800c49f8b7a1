import { describe, expect, it } from "bun:test";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { DEFAULT_SETTINGS, type Settings } from "../engine/schema-core.ts";
import type { Logger } from "../log.ts";
import type { DecisionRecord } from "./decision-record.ts";
import type { OtlpExporter } from "./otlp-exporter.ts";
import { TelemetrySink } from "./telemetry-sink.ts";

const event = (id: string): HookEvent => ({ hook: "tool_call", session: { id, cwd: "/p" }, tool: { name: "bash", input: { command: "ls" } } }) as HookEvent;
const decision: Decision = { action: "allow", notify: [], steer: [], fired: [] } as unknown as Decision;

/** An exporter that records batches and answers as told: each call waits for `gate` when one is set. */
function fakeExporter(answer: () => Promise<string | undefined> = async () => undefined) {
  const batches: DecisionRecord[][] = [];
  let made = 0;
  const load = async () => () => {
    made++;
    const exporter: OtlpExporter = {
      export: (records) => {
        batches.push([...records]);
        return answer();
      },
      shutdown: async () => undefined,
    };
    return exporter;
  };
  return { batches, load, made: () => made };
}

function logger() {
  const lines: string[] = [];
  const log: Logger = { debug: () => undefined, info: () => undefined, warning: (m) => void lines.push(m), error: (m) => void lines.push(m) };
  return { lines, log };
}

const settings = (telemetry: unknown): Settings => ({ ...DEFAULT_SETTINGS, telemetry });
const meta = (s: Settings) => ({ startMs: 1_000, durationMs: 2, settings: s });

describe("TelemetrySink", () => {
  it("should load no exporter and queue nothing while telemetry is off", async () => {
    const fake = fakeExporter();
    const sink = new TelemetrySink({ env: {}, face: "serve", version: "t", load: fake.load, batchMs: 0 });
    sink.record(event("a"), decision, meta(settings(undefined)));
    expect(sink.pending).toBe(false);
    await sink.close(100);
    expect(fake.made()).toBe(0);
    expect(fake.batches).toEqual([]);
  });

  it("should queue on record and export only when the batch timer fires", async () => {
    const fake = fakeExporter();
    const sink = new TelemetrySink({ env: {}, face: "serve", version: "t", load: fake.load, batchMs: 20 });
    const s = settings("http://127.0.0.1:1");
    sink.record(event("a"), decision, meta(s));
    sink.record(event("b"), decision, meta(s));
    // Nothing ran yet: `record` returned with the records queued, the export still to come.
    expect(fake.made()).toBe(0);
    expect(sink.pending).toBe(true);
    await Bun.sleep(80);
    expect(fake.batches.map((b) => b.map((r) => r.attributes["shepherd.session.id"]))).toEqual([["a", "b"]]);
    expect(sink.stats()).toMatchObject({ queued: 2, exported: 2, dropped: 0, failed: 0 });
    await sink.close(100);
  });

  it("should drop the oldest past maxQueue, count it, say so once and tell the receiver", async () => {
    const fake = fakeExporter();
    const { lines, log } = logger();
    const sink = new TelemetrySink({ env: {}, face: "serve", version: "t", load: fake.load, batchMs: 10_000, log });
    const s = settings({ endpoint: "http://127.0.0.1:1", maxQueue: 3 });
    for (const id of ["a", "b", "c", "d", "e"]) sink.record(event(id), decision, meta(s));
    await sink.flush(1_000);
    const [batch] = fake.batches;
    expect(batch?.map((r) => r.attributes["shepherd.session.id"])).toEqual(["c", "d", "e"]);
    expect(batch?.[0]?.attributes["shepherd.telemetry.dropped"]).toBe(2);
    expect(sink.stats().dropped).toBe(2);
    expect(lines.filter((l) => l.includes("queue for")).length).toBe(1);
    await sink.close(100);
  });

  it("should count a failed export, report it once a minute and keep the next records", async () => {
    const fake = fakeExporter(async () => "connect ECONNREFUSED");
    const { lines, log } = logger();
    const sink = new TelemetrySink({ env: {}, face: "serve", version: "t", load: fake.load, batchMs: 10_000, log });
    const s = settings("http://user:pw@127.0.0.1:1");
    for (let round = 0; round < 3; round++) {
      sink.record(event(`r${round}`), decision, meta(s));
      await sink.flush(1_000);
    }
    expect(sink.stats()).toMatchObject({ exported: 0, failed: 3 });
    const reports = lines.filter((l) => l.includes("export to"));
    expect(reports.length).toBe(1);
    expect(reports[0]).toContain("ECONNREFUSED");
    // The URL's credentials never reach the log.
    expect(lines.join("\n")).not.toContain("pw@");
    await sink.close(100);
    expect(lines.at(-1)).toContain("3 not exported");
  });

  it("should give up on an export that never ends at its bound, and flush within its deadline", async () => {
    const fake = fakeExporter(() => new Promise<string | undefined>(() => undefined));
    const sink = new TelemetrySink({ env: {}, face: "hook", version: "t", load: fake.load, batchMs: 10_000, maxExportMs: 50 });
    sink.record(event("a"), decision, meta(settings({ endpoint: "http://127.0.0.1:1", timeoutMs: 5_000 })));
    const t0 = performance.now();
    await sink.close(2_000);
    // The face's cap (50 ms) wins over the setting's 5 s: the export was abandoned, not waited for.
    expect(performance.now() - t0).toBeLessThan(1_500);
    expect(sink.stats().failed).toBe(1);
  });

  it("should never throw from record, whatever the settings hold", () => {
    const sink = new TelemetrySink({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }, face: "serve", version: "t", load: fakeExporter().load });
    const hostile = { ...DEFAULT_SETTINGS, get telemetry(): unknown {
      throw new Error("boom");
    } } as Settings;
    expect(() => sink.record(event("a"), decision, meta(hostile))).not.toThrow();
    void sink.close(0);
  });

  describe("deferred (the sidecar: spans after the answer)", () => {
    it("should build no span during the task nor right after it, then the same spans, in order, once the deferral ends", async () => {
      const s = settings("http://127.0.0.1:1");
      const made = async (deferred: boolean) => {
        const fake = fakeExporter();
        const sink = new TelemetrySink({ env: {}, face: "serve", version: "t", load: fake.load, batchMs: 10_000, deferred, deferMs: 5 });
        for (const id of ["a", "b", "c"]) sink.record(event(id), decision, meta(s));
        const during = sink.stats().queued;
        const pending = sink.pending;
        await Promise.resolve();
        const nextTask = sink.stats().queued;
        // A later timer fires after the sink's 5 ms one (timers run in deadline order).
        await Bun.sleep(30);
        const after = sink.stats().queued;
        await sink.flush(1_000);
        await sink.close(100);
        return { during, pending, nextTask, after, spans: fake.batches.flat() };
      };
      const now = await made(false);
      const later = await made(true);
      expect([later.during, later.pending, later.nextTask, later.after]).toEqual([0, true, 0, 3]);
      expect(now.during).toBe(3);
      expect(later.spans.map((r) => r.attributes["shepherd.session.id"])).toEqual(["a", "b", "c"]);
      expect(later.spans).toEqual(now.spans);
    });

    it("should turn a flood into spans without waiting for the timer, keeping every decision in order", async () => {
      const fake = fakeExporter();
      const sink = new TelemetrySink({ env: {}, face: "serve", version: "t", load: fake.load, batchMs: 10_000, deferred: true, deferMs: 60_000 });
      const s = settings("http://127.0.0.1:1");
      const ids = Array.from({ length: 1_100 }, (_, i) => `s${i}`);
      for (const id of ids) sink.record(event(id), decision, meta(s));
      // Two full drains (512 each) ran inline; the last 76 still wait.
      expect(sink.stats().queued).toBe(1_024);
      await sink.close(1_000);
      expect(fake.batches.flat().map((r) => r.attributes["shepherd.session.id"])).toEqual(ids);
    });

    it("should export what is still deferred when closed at once", async () => {
      const fake = fakeExporter();
      const sink = new TelemetrySink({ env: {}, face: "serve", version: "t", load: fake.load, batchMs: 10_000, deferred: true });
      sink.record(event("a"), decision, meta(settings("http://127.0.0.1:1")));
      await sink.close(1_000);
      expect(fake.batches.flat().map((r) => r.attributes["shepherd.session.id"])).toEqual(["a"]);
      expect(sink.stats()).toMatchObject({ queued: 1, exported: 1 });
    });

    it("should never throw from record, whatever the settings hold", () => {
      const sink = new TelemetrySink({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }, face: "serve", version: "t", load: fakeExporter().load, deferred: true });
      const hostile = { ...DEFAULT_SETTINGS, get telemetry(): unknown {
        throw new Error("boom");
      } } as Settings;
      expect(() => sink.record(event("a"), decision, meta(hostile))).not.toThrow();
      void sink.close(0);
    });
  });
});
