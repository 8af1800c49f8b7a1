/** @module re2js as an entry point of its own in the compiled binary (scripts/build.ts), required by path on first use (lib/lazy-deps.ts). */
export * from "re2js";
