/** @module a cheap, stable, non-cryptographic text hash for file names and cache keys (no crypto import on the hook path). */

/** Two 32-bit FNV-1a-style lanes with different multipliers, as 16 hex digits. Not for anything adversarial. */
export function textHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}
