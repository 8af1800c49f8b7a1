/** @module counts of "would have" decisions per shadow-mode rule (the `fired` entries with `shadow`). */
import type { Fired } from "./schema.ts";

export interface ShadowCount {
  rule: string;
  source: string;
  /** What the rule would have done. */
  action: string;
  count: number;
}

/** Rule/action pairs kept: bounded by the rule set, and capped so a stream of renamed rules cannot grow it without end. */
export const MAX_SHADOW_KEYS = 10_000;

export class ShadowTally {
  readonly #counts = new Map<string, ShadowCount>();

  /** Counts the shadow entries of one decision's `fired`; the others are ignored. */
  add(fired: readonly Fired[]): void {
    for (const f of fired) {
      if (!f.shadow) continue;
      const key = `${f.rule}\0${f.source}\0${f.action}`;
      const hit = this.#counts.get(key);
      if (hit) hit.count++;
      else if (this.#counts.size < MAX_SHADOW_KEYS) this.#counts.set(key, { rule: f.rule, source: f.source, action: f.action, count: 1 });
    }
  }

  /** Most counted first, then by rule name. */
  list(): ShadowCount[] {
    return [...this.#counts.values()].map((c) => ({ ...c })).sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
  }
}
