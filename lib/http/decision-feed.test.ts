/** @module unit tests: the decision feed keeps short entries, a bounded history, and capped subscriber queues. */
import { describe, expect, it } from "bun:test";
import type { Decision, HookEvent } from "../engine/schema.ts";
import { clipText, DecisionFeed } from "./decision-feed.ts";

const event = (command: string, session = "s"): HookEvent => ({ hook: "tool_call", session: { id: session, cwd: "/p" }, tool: { name: "bash", input: { command } } }) as HookEvent;
const decision = (extra: Partial<Decision> = {}): Decision => ({ action: "block", notify: [], steer: [], fired: [], ...extra });

describe("clipText", () => {
  const cases: [string, string, number, string][] = [
    ["a short text as is", "abc", 5, "abc"],
    ["a text of exactly the limit as is", "abcde", 5, "abcde"],
    ["a long text with the count of what is missing", "abcdefgh", 5, "abcde… [3 more characters]"],
  ];
  for (const [name, text, max, expected] of cases) it(`should keep ${name}`, () => expect(clipText(text, max)).toBe(expected));
});

describe("DecisionFeed", () => {
  const big = "x".repeat(4 * 1024 * 1024);
  const fields: [string, (f: DecisionFeed) => string[]][] = [
    ["the subject", (f) => [f.publish(event(big), decision()).subject ?? ""]],
    ["the reason", (f) => [f.publish(event("ls"), decision({ reason: `blocked: ${big}` })).reason ?? ""]],
    ["each steer message", (f) => f.publish(event("ls"), decision({ steer: [big, big] })).steer],
    ["each notify message", (f) => f.publish(event("ls"), decision({ notify: [big] })).notify],
    ["the session id", (f) => [f.publish(event("ls", big), decision()).session]],
  ];
  for (const [name, texts] of fields) {
    it(`should cut ${name} to a few KB with a marker`, () => {
      const out = texts(new DecisionFeed());
      expect(out.length).toBeGreaterThan(0);
      for (const t of out) {
        expect(t.length).toBeLessThan(2_100);
        expect(t).toMatch(/… \[\d+ more characters\]$/);
      }
    });
  }

  it("should keep the shadow mark of a rule that would have acted, and only on it", () => {
    const e = new DecisionFeed().publish(event("rm x"), decision({ action: "allow", fired: [{ rule: "real", source: "global", action: "notify" }, { rule: "s", source: "project", action: "block", shadow: true }] }));
    expect(e.fired).toEqual([{ rule: "real", source: "global", action: "notify" }, { rule: "s", source: "project", action: "block", shadow: true }]);
  });

  it("should cap the number of messages and fired rules kept", () => {
    const many = Array.from({ length: 100 }, (_, i) => `m${i}`);
    const e = new DecisionFeed().publish(event("ls"), decision({ steer: many, fired: many.map((rule) => ({ rule, source: "global", action: "steer" })) }));
    expect(e.steer).toHaveLength(21);
    expect(e.steer[20]).toBe("… [80 more]");
    expect(e.fired).toHaveLength(20);
  });

  it("should bound the history by count and by bytes", () => {
    const byCount = new DecisionFeed({ maxEntries: 5 });
    for (let i = 0; i < 20; i++) byCount.publish(event(`c${i}`), decision());
    expect(byCount.recent().map((e) => e.subject)).toEqual(["c15", "c16", "c17", "c18", "c19"]);
    const byBytes = new DecisionFeed({ maxBytes: 20_000 });
    for (let i = 0; i < 200; i++) byBytes.publish(event("ls"), decision({ reason: "r".repeat(1_500) }));
    expect(byBytes.recentBytes).toBeLessThanOrEqual(20_000);
    expect(byBytes.recent().length).toBeGreaterThan(5);
    expect(byBytes.recent().length).toBeLessThan(20);
  });

  it("should prime a new subscriber with the history, then queue live entries", async () => {
    const feed = new DecisionFeed();
    feed.publish(event("first"), decision());
    const sub = feed.subscribe();
    feed.publish(event("second"), decision());
    const seen = [sub.take(), sub.take()].map((i) => (JSON.parse(i?.data ?? "{}") as { subject: string }).subject);
    expect(seen).toEqual(["first", "second"]);
    expect(sub.take()).toBeUndefined();
    const waiting = sub.wait();
    feed.publish(event("third"), decision());
    await waiting;
    expect(sub.take()?.id).toBe("3");
  });

  const caps: [string, { maxEntries: number; maxBytes: number }, number][] = [
    ["entries", { maxEntries: 10, maxBytes: 1 << 30 }, 11],
    ["bytes", { maxEntries: 1 << 30, maxBytes: 10_000 }, 8],
  ];
  for (const [name, limits, publishes] of caps) {
    it(`should drop a subscriber whose queue passes its cap of ${name}, let its queue go and tell it`, async () => {
      const feed = new DecisionFeed();
      const sub = feed.subscribe(limits);
      for (let i = 0; i < publishes; i++) feed.publish(event("ls"), decision({ reason: "r".repeat(1_500) }));
      await sub.whenDropped;
      expect(sub.dropped?.reason).toMatch(/fell behind/);
      expect(sub.queued).toEqual({ entries: 0, bytes: 0 });
      expect(sub.take()).toBeUndefined();
      expect(feed.subscribers).toBe(0);
    });
  }

  it("should keep a subscriber that reads as fast as decisions come", () => {
    const feed = new DecisionFeed();
    const sub = feed.subscribe({ maxEntries: 3, maxBytes: 1 << 20 });
    for (let i = 0; i < 1_000; i++) {
      feed.publish(event("ls"), decision());
      expect(sub.take()).toBeDefined();
    }
    expect(sub.dropped).toBeUndefined();
    expect(feed.subscribers).toBe(1);
  });
});
