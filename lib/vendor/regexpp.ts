/** @module @eslint-community/regexpp as an entry point of its own in the compiled binary (scripts/build.ts), required by path on first use (lib/lazy-deps.ts). */
export * from "@eslint-community/regexpp";
