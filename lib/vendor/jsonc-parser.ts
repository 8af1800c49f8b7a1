/**
 * @module jsonc-parser as an entry point of its own in the compiled binary (scripts/build.ts), required by path
 * on first use (lib/lazy-deps.ts). The ES build: the package main is a UMD wrapper whose inner requires the
 * bundler cannot follow.
 */
export * from "jsonc-parser/lib/esm/main.js";
