/**
 * @module one live reader of the decision feed: a queue capped by entries and bytes. A reader that falls
 * behind the cap (it stopped reading, or reads slower than decisions come) is dropped, not buffered for.
 */

export interface SubscriberLimits {
  maxEntries: number;
  maxBytes: number;
}

export const DEFAULT_SUBSCRIBER_LIMITS: SubscriberLimits = { maxEntries: 1_000, maxBytes: 2 * 1024 * 1024 };

export interface Dropped {
  reason: string;
  /** Entries that were queued or offered when it was dropped and never sent. */
  missed: number;
}

/** A serialized entry and its sequence number; the string is shared by every subscriber, not copied per reader. */
export interface FeedItem {
  id: string;
  data: string;
}

export class FeedSubscriber {
  readonly #limits: SubscriberLimits;
  readonly #queue: (FeedItem | undefined)[] = [];
  #head = 0;
  #bytes = 0;
  #dropped: Dropped | undefined;
  #wake: (() => void) | undefined;
  readonly #whenDropped: Promise<void>;
  #signalDropped: () => void = () => undefined;
  readonly #onDrop: (s: FeedSubscriber) => void;

  constructor(limits: SubscriberLimits, onDrop: (s: FeedSubscriber) => void) {
    this.#limits = limits;
    this.#onDrop = onDrop;
    this.#whenDropped = new Promise<void>((resolve) => {
      this.#signalDropped = resolve;
    });
  }

  /** Resolves once dropped: a write blocked on a reader that stopped reading races this. */
  get whenDropped(): Promise<void> {
    return this.#whenDropped;
  }

  get dropped(): Dropped | undefined {
    return this.#dropped;
  }

  get queued(): { entries: number; bytes: number } {
    return { entries: this.#queue.length - this.#head, bytes: this.#bytes };
  }

  /** Queues one entry; past the cap the whole queue is let go and the subscriber is dropped. */
  offer(item: FeedItem): void {
    if (this.#dropped) return;
    const entries = this.#queue.length - this.#head + 1;
    if (entries > this.#limits.maxEntries || this.#bytes + item.data.length > this.#limits.maxBytes) {
      this.drop(`fell behind by more than ${this.#limits.maxEntries} decisions or ${this.#limits.maxBytes} bytes`, entries);
      return;
    }
    this.#queue.push(item);
    this.#bytes += item.data.length;
    this.#wake?.();
  }

  drop(reason: string, missed = this.#queue.length - this.#head): void {
    if (this.#dropped) return;
    this.#dropped = { reason, missed };
    this.#queue.length = 0;
    this.#head = 0;
    this.#bytes = 0;
    this.#onDrop(this);
    this.#signalDropped();
    this.#wake?.();
  }

  take(): FeedItem | undefined {
    const item = this.#queue[this.#head];
    if (item === undefined) return undefined;
    this.#queue[this.#head++] = undefined;
    this.#bytes -= item.data.length;
    // Compact now and then, so a long-lived reader's array does not keep every slot it ever had.
    if (this.#head > 64 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Resolves when an entry is queued, the subscriber is dropped, or `poke` is called. */
  wait(): Promise<void> {
    if (this.#dropped || this.#head < this.#queue.length) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }

  /** Wakes a waiting reader (a heartbeat, the stream closing). */
  poke(): void {
    this.#wake?.();
  }
}
