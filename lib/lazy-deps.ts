/**
 * @module dependencies a one-shot hook rarely needs, loaded on first use: jsonc-parser (files with
 * comments or errors), re2js (untrusted or exponential patterns, inputs past the native limit), the
 * valibot rule schemas (a hook answering from its snapshot validates no rule) and the regex parser
 * regexpp (a hook answering from its snapshot parses no pattern: the analyses travel with the rules).
 * Evaluating them costs a hook process ~2 ms of its 15 ms budget, and most hooks need neither.
 *
 * Bun resolves `require` synchronously in ES modules, and its bundler keeps the module in the binary;
 * runtimes without `require` there (Deno, Node) must `await preloadLazyDeps()` before anything runs
 * (main.ts does), or the first use throws instead of quietly doing without. The three packages are entry
 * points of their own in the binary (lib/vendor/, scripts/build.ts), required by path: inside the hook's
 * bundle their ~420 KB were loaded at every hook's start (~0.4 ms) though a snapshot hook uses none.
 */
import type { RegExpValidator } from "@eslint-community/regexpp";
import type * as JsoncParser from "jsonc-parser";
import type * as Re2js from "re2js";
import type * as RuleSchemas from "./engine/schema.ts";
import type * as PackResolve from "./rules/packs/resolve.ts";
import { bundledModulePath } from "./bundled-module.ts";

let jsonc: typeof JsoncParser | undefined;
let re2js: typeof Re2js | undefined;
let schemas: typeof RuleSchemas | undefined;
let packs: typeof PackResolve | undefined;
type Regexpp = typeof import("@eslint-community/regexpp");
let regexppModule: Regexpp | undefined;

export async function preloadLazyDeps(): Promise<void> {
  jsonc ??= await import("jsonc-parser");
  re2js ??= await import("re2js");
  schemas ??= await import("./engine/schema.ts");
  packs ??= await import("./rules/packs/resolve.ts");
  regexppModule ??= await import("@eslint-community/regexpp");
}

function missing(name: string): Error {
  return new Error(`${name} is not loaded: call preloadLazyDeps() first on runtimes without require in ES modules`);
}

export function jsoncParser(): typeof JsoncParser {
  if (jsonc) return jsonc;
  if (typeof require !== "function") throw missing("jsonc-parser");
  jsonc = require(bundledModulePath(import.meta.url, "lib/vendor/jsonc-parser.ts", "./vendor/jsonc-parser.ts")) as typeof JsoncParser;
  return jsonc;
}

export function re2(): typeof Re2js {
  if (re2js) return re2js;
  if (typeof require !== "function") throw missing("re2js");
  re2js = require(bundledModulePath(import.meta.url, "lib/vendor/re2js.ts", "./vendor/re2js.ts")) as typeof Re2js;
  return re2js;
}

export function ruleSchemas(): typeof RuleSchemas {
  if (schemas) return schemas;
  if (typeof require !== "function") throw missing("the rule schemas");
  schemas = require("./engine/schema.ts") as typeof RuleSchemas;
  return schemas;
}

/** Rule pack resolution (lib/rules/packs/): only a load whose rules files extend packs needs it, never a snapshot hit. */
export function packResolver(): typeof PackResolve {
  if (packs) return packs;
  if (typeof require !== "function") throw missing("the pack resolver");
  packs = require("./rules/packs/resolve.ts") as typeof PackResolve;
  return packs;

}

/**
 * The regex parser's validator with these callbacks (regex/syntax.ts reads its events, without regexpp's
 * syntax tree): only a rule being loaded or compiled without its prepared analyses needs it, so a hook
 * answering from its snapshot never evaluates it.
 */
export function regexppValidator(options: RegExpValidator.Options): RegExpValidator {
  return new (regexppLoaded().RegExpValidator)({ ecmaVersion: 2025, ...options });
}

function regexppLoaded(): Regexpp {
  if (!regexppModule) {
    if (typeof require !== "function") throw missing("@eslint-community/regexpp");
    regexppModule = require(bundledModulePath(import.meta.url, "lib/vendor/regexpp.ts", "./vendor/regexpp.ts")) as Regexpp;
  }
  return regexppModule;
}
