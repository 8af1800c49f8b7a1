/**
 * @module the asks with `remember` that a person has not answered yet, in a long-lived face (the stdio
 * sidecar): each gets a random token that the client (pi's extension) sends back with `shepherd/approve` on
 * a "yes". The token names what the sidecar itself decided, so the client cannot approve anything else, and
 * it lives only in this process's memory, bounded in count and age.
 */
import type { ApprovalGrant } from "./approval-store.ts";

export const MAX_PENDING_OFFERS = 64;
/** A person may leave a dialog open for long; past this the yes is not remembered (the call still runs). */
export const PENDING_OFFER_TTL_MS = 60 * 60 * 1000;

function newToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class PendingOffers {
  readonly #offers = new Map<string, { grant: ApprovalGrant; at: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Keeps a grant until the person answers; gives its token. */
  offer(grant: ApprovalGrant): string {
    this.#expire();
    if (this.#offers.size >= MAX_PENDING_OFFERS) {
      const oldest = this.#offers.keys().next();
      if (!oldest.done) this.#offers.delete(oldest.value);
    }
    const token = newToken();
    this.#offers.set(token, { grant, at: this.#now() });
    return token;
  }

  /** The grant of a token, once: a token is used up by its first answer. */
  take(token: string): ApprovalGrant | undefined {
    this.#expire();
    const hit = this.#offers.get(token);
    this.#offers.delete(token);
    return hit?.grant;
  }

  get size(): number {
    return this.#offers.size;
  }

  #expire(): void {
    const now = this.#now();
    for (const [token, o] of this.#offers) {
      if (now - o.at <= PENDING_OFFER_TTL_MS) break;
      this.#offers.delete(token);
    }
  }
}
