/**
 * @module the project's text hashes, one place: a stable one for file names and cache keys (no crypto import
 * on the hook path), a fast one for cache validation, and the fingerprint change detection compares by.
 * None is for anything adversarial.
 */

/**
 * Two 32-bit FNV-1a-style lanes with different multipliers, fed one char code at a time: the one definition
 * behind textHash and the loop counters' call hash (lib/engine/loops.ts), which feeds a normalized text
 * without building it.
 */
export class HashLanes {
  h1 = 0x811c9dc5;
  h2 = 0x9e3779b1;

  add(c: number): void {
    this.h1 = Math.imul(this.h1 ^ c, 0x01000193);
    this.h2 = Math.imul(this.h2 ^ c, 0x5bd1e995);
  }

  /** 16 hex digits: the same in every runtime. */
  hex(): string {
    return (this.h1 >>> 0).toString(16).padStart(8, "0") + (this.h2 >>> 0).toString(16).padStart(8, "0");
  }
}

/** The two lanes over a whole text, as 16 hex digits: the same in every runtime. */
export function textHash(text: string): string {
  const h = new HashLanes();
  for (let i = 0; i < text.length; i++) h.add(text.charCodeAt(i));
  return h.hex();
}

const bunHash = (globalThis as { Bun?: { hash(data: string, seed?: number): number | bigint } }).Bun?.hash;

/** Bun's native 32-bit hashes, fed whole strings. */
export type NativeHashes = { crc32(data: string): number; xxHash32(data: string, seed?: number): number };

/**
 * Bun's native crc32 and xxHash32 (a write of a file costs them ~0.1 µs, the lanes ~2 µs), or undefined
 * elsewhere. Runtime-dependent like fastHash: only for what the same binary writes and reads back.
 */
export const nativeHashes: NativeHashes | undefined = (() => {
  const h = (globalThis as { Bun?: { hash?: Partial<NativeHashes> } }).Bun?.hash;
  return typeof h?.crc32 === "function" && typeof h.xxHash32 === "function" ? (h as NativeHashes) : undefined;
})();

/**
 * Bun's native wyhash when there is one (microseconds for a MB), else textHash. Its value depends on the
 * runtime: only for what the same binary writes and reads back (a cache entry's text check).
 */
export function fastHash(text: string): string {
  return bunHash ? bunHash(text).toString(36) : textHash(text);
}

/**
 * Identifies a file's text for change detection: its length and two 64-bit hashes with different seeds
 * (a missed change would keep serving old rules, so one hash is not enough). Without Bun's native hash the
 * text itself is kept: exact, and only the memory figure it was replaced for suffers.
 */
export function textFingerprint(text: string): string {
  if (!bunHash) return text;
  return `${text.length}:${bunHash(text, 0).toString(36)}:${bunHash(text, 0x5bd1e995).toString(36)}`;
}

type Hasher = { update(data: string | Uint8Array): Hasher; digest(encoding: "hex" | "base64"): string };
const bunCrypto = (globalThis as { Bun?: { CryptoHasher: new (algorithm: string) => Hasher } }).Bun?.CryptoHasher;

/**
 * SHA-256 of a text or bytes: the one hash here for adversarial input (a remembered approval names the exact
 * call it allows, a pack file its locked content, a secret its fingerprint). Bun's native hasher, else
 * node:crypto taken on first use: importing node:crypto (streams and all) costs a cold Bun process ~2 ms, and
 * a static import anywhere in the hook's bundle is evaluated at every hook's start (lib/hook/entry.test.ts).
 */
export function sha256(data: string | Uint8Array, encoding: "hex" | "base64" = "hex"): string {
  if (bunCrypto) return new bunCrypto("sha256").update(data).digest(encoding);
  const builtin = (process as { getBuiltinModule?: (id: string) => { createHash(algorithm: string): Hasher } | undefined }).getBuiltinModule?.("node:crypto");
  if (!builtin) throw new Error("no SHA-256 implementation in this runtime");
  return builtin.createHash("sha256").update(data).digest(encoding);
}

/** SHA-256 of a text as 64 hex digits. */
export function secureHash(text: string): string {
  return sha256(text, "hex");
}
