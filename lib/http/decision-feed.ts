/**
 * @module recent decisions for the dashboard: a ring buffer bounded by count and bytes, plus live subscribers
 * (SSE) each with a capped queue. Every text an entry takes from the event or the decision (a command, a
 * path, a reason that quotes the command) is cut to a few KB: the feed keeps what a person reads, not the input.
 */
import type { Decision, HookEvent } from "../engine/schema.ts";
import { commandOf, pathOf } from "../engine/tools.ts";
import { DEFAULT_SUBSCRIBER_LIMITS, type FeedItem, FeedSubscriber, type SubscriberLimits } from "./feed-subscriber.ts";

export interface FeedEntry {
  seq: number;
  time: string;
  session: string;
  agent: string;
  hook: string;
  tool?: string;
  /** The command or path the decision was about, shortened. */
  subject?: string;
  action: Decision["action"];
  reason?: string;
  notify: string[];
  steer: string[];
  fired: Decision["fired"];
}

export interface FeedLimits {
  /** Entries kept for a dashboard that connects later. */
  maxEntries: number;
  /** Bytes (of serialized entries) kept for it. */
  maxBytes: number;
  /** Characters kept of each text field (command, reason, each notify and steer message). */
  fieldMax: number;
  /** Characters kept of names (session, agent, hook, tool, rule). */
  nameMax: number;
  /** Items kept of each list (notify, steer, fired). */
  listMax: number;
  subscriber: SubscriberLimits;
}

export const DEFAULT_FEED_LIMITS: FeedLimits = {
  maxEntries: 200,
  maxBytes: 1024 * 1024,
  fieldMax: 2048,
  nameMax: 256,
  listMax: 20,
  subscriber: DEFAULT_SUBSCRIBER_LIMITS,
};

const SUBJECT_MAX = 300;

/**
 * `text` cut to `max` characters with a marker saying how much is missing. The result is always a fresh
 * string: a slice (or a reason built around the command) may share the whole input's memory otherwise.
 */
export function clipText(text: string, max: number): string {
  const kept = text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
  return Buffer.from(kept, "utf8").toString("utf8");
}

function clipList(list: readonly string[], limits: FeedLimits): string[] {
  const out = list.slice(0, limits.listMax).map((s) => clipText(s, limits.fieldMax));
  if (list.length > limits.listMax) out.push(`… [${list.length - limits.listMax} more]`);
  return out;
}

type Kept = { entry: FeedEntry; item: FeedItem };

export class DecisionFeed {
  readonly #limits: FeedLimits;
  readonly #recent: Kept[] = [];
  #recentBytes = 0;
  readonly #subscribers = new Set<FeedSubscriber>();
  #seq = 0;

  constructor(limits: Partial<FeedLimits> = {}) {
    this.#limits = { ...DEFAULT_FEED_LIMITS, ...limits };
  }

  publish(event: HookEvent, decision: Decision): FeedEntry {
    const l = this.#limits;
    const name = (s: string) => clipText(s, l.nameMax);
    const input = event.tool?.input ?? {};
    const subject = commandOf(input) ?? pathOf(input) ?? event.prompt ?? event.message?.text;
    const entry: FeedEntry = {
      seq: ++this.#seq,
      time: new Date().toISOString(),
      session: name(event.session.id),
      agent: name(event.session.agent ?? ""),
      hook: name(event.hook),
      ...(event.tool ? { tool: name(event.tool.name) } : {}),
      ...(subject !== undefined ? { subject: clipText(subject, Math.min(SUBJECT_MAX, l.fieldMax)) } : {}),
      action: decision.action,
      ...(decision.reason !== undefined ? { reason: clipText(decision.reason, l.fieldMax) } : {}),
      notify: clipList(decision.notify, l),
      steer: clipList(decision.steer, l),
      fired: decision.fired.slice(0, l.listMax).map((f) => ({ rule: name(f.rule), source: name(f.source), action: name(f.action), ...(f.shadow ? { shadow: true as const } : {}), ...(f.approval ? { approval: name(f.approval) } : {}) })),
    };
    const item: FeedItem = { id: String(entry.seq), data: JSON.stringify(entry) };
    this.#recent.push({ entry, item });
    this.#recentBytes += item.data.length;
    while (this.#recent.length > l.maxEntries || (this.#recentBytes > l.maxBytes && this.#recent.length > 1)) {
      const old = this.#recent.shift();
      if (old) this.#recentBytes -= old.item.data.length;
    }
    for (const s of this.#subscribers) s.offer(item);
    return entry;
  }

  recent(): FeedEntry[] {
    return this.#recent.map((k) => k.entry);
  }

  /** Bytes the history holds (serialized entries). */
  get recentBytes(): number {
    return this.#recentBytes;
  }

  /**
   * A live reader, its queue primed with the history. It leaves the feed when dropped or closed; a reader
   * never holds more than its limits, whatever it does.
   */
  subscribe(limits: SubscriberLimits = this.#limits.subscriber): FeedSubscriber {
    const sub = new FeedSubscriber(limits, (s) => this.#subscribers.delete(s));
    for (const k of this.#recent) sub.offer(k.item);
    this.#subscribers.add(sub);
    return sub;
  }

  unsubscribe(sub: FeedSubscriber): void {
    this.#subscribers.delete(sub);
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }
}
