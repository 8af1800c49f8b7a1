/** @module recent decisions for the dashboard: a bounded ring buffer plus live subscribers (SSE). */
import type { Decision, HookEvent } from "../engine/schema.ts";
import { commandOf, pathOf } from "../engine/tools.ts";

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

const SUBJECT_MAX = 300;

export class DecisionFeed {
  readonly #max: number;
  readonly #recent: FeedEntry[] = [];
  readonly #subscribers = new Set<(e: FeedEntry) => void>();
  #seq = 0;

  constructor(max = 200) {
    this.#max = max;
  }

  publish(event: HookEvent, decision: Decision): FeedEntry {
    const input = event.tool?.input ?? {};
    const subject = commandOf(input) ?? pathOf(input) ?? event.prompt ?? event.message?.text;
    const entry: FeedEntry = {
      seq: ++this.#seq,
      time: new Date().toISOString(),
      session: event.session.id,
      agent: event.session.agent ?? "",
      hook: event.hook,
      ...(event.tool ? { tool: event.tool.name } : {}),
      ...(subject !== undefined ? { subject: subject.length > SUBJECT_MAX ? `${subject.slice(0, SUBJECT_MAX)}…` : subject } : {}),
      action: decision.action,
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      notify: decision.notify,
      steer: decision.steer,
      fired: decision.fired,
    };
    this.#recent.push(entry);
    if (this.#recent.length > this.#max) this.#recent.shift();
    for (const s of this.#subscribers) {
      try {
        s(entry);
      } catch {
        // one broken stream must not stop the others
      }
    }
    return entry;
  }

  recent(): FeedEntry[] {
    return [...this.#recent];
  }

  subscribe(fn: (e: FeedEntry) => void): () => void {
    this.#subscribers.add(fn);
    return () => this.#subscribers.delete(fn);
  }

  get subscribers(): number {
    return this.#subscribers.size;
  }
}
