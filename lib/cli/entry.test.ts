/**
 * @module the hook's import graph: what a `shepherd hook` process loads before it answers is what the
 * binary's entry (entry.ts) bundles statically. The latency work rests on that set staying small, so this
 * bundles the entry as build.ts does (code split, so `import()` and lazy `require()` become chunks of their
 * own) and fails when a module outside the allowlist is loaded at start.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ENTRY = join(import.meta.dir, "entry.ts");
const ROOT = join(import.meta.dir, "..", "..");

/** What a hook may load at start: the hook face, its adapters, the engine it evaluates with, and the files it reads. */
const ALLOWED: readonly RegExp[] = [
  /^lib\/cli\/(entry|hook|hook-env|hook-face|hook-deadline|hook-input|hook-watchdog|hook-watchdog-protocol)\.ts$/,
  /^lib\/adapters\/[a-z-]+\.ts$/,
  /^lib\/audit\/[a-z-]+\.ts$/,
  /^lib\/engine\/(?!schema\.ts$)[a-z-]+\.ts$/,
  /^lib\/engine\/regex\/[a-z-]+\.ts$/,
  /^lib\/engine\/select\/[a-z-]+\.ts$/,
  /^lib\/fs\/[a-z-]+\.ts$/,
  /^lib\/rules\/(builtin-rules\.gen|git|hook-snapshot|host|load-cache|load-failure-cache|merge-project|paths|protected-guard|managed|settings|watch|workspace)\.ts$/,
  /^lib\/shell\/(?!command-condition-schema\.ts$)[a-z-]+\.ts$/,
  // The effect model: the safety pack's rules match effects on every tool call.
  /^lib\/shell\/effects\/[a-z-]+\.ts$/,
  // Redaction of tool output and the data-flow guard's fingerprints run on every tool result.
  /^lib\/secrets\/redact\.ts$/,
  /^lib\/[a-z-]+\.ts$/,
  // re2js and regexpp are CommonJS: bundled with the entry, evaluated on their first `require` (lazy-deps.ts);
  // a hook answering from its snapshot parses no pattern (the analyses travel with the rules).
  /^npm:(valibot|re2js|@eslint-community\/regexpp)$/,
];

/** Never at start, whatever the allowlist says: each is another face's, or loaded on first use. */
const FORBIDDEN: readonly RegExp[] = [
  /^lib\/plugins\//,
  /^lib\/http\//,
  /^lib\/rpc\//,
  /^lib\/cli\/(serve|replay|rules-[a-z]+|schema|init-[a-z]+|trust|format|rule-files)\.ts$/,
  /^lib\/rules\/rules-tool/,
  /^lib\/engine\/schema\.ts$/,
  /^main\.ts$/,
  /^npm:(hono|jsonc-parser|@valibot\/to-json-schema)$/,
];

/** A metafile path as a repository path, or `npm:<package>` (node_modules may be a symlink elsewhere). */
function moduleName(path: string): string {
  const nm = path.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = path.slice(nm + "node_modules/".length).split("/");
    return `npm:${rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  return path.replace(/^\.\//, "");
}

let out = "";
let eager: string[] = [];
let lazy: string[] = [];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "shepherd-hook-graph-"));
  const built = await Bun.build({ entrypoints: [ENTRY], root: ROOT, target: "bun", format: "esm", splitting: true, metafile: true, outdir: out });
  const meta = built.metafile;
  if (!built.success || !meta) throw new Error(`bundle failed: ${built.logs.map(String).join("\n")}`);
  const outputs = meta.outputs;
  const start = Object.keys(outputs).find((k) => outputs[k]?.entryPoint?.endsWith("lib/cli/entry.ts"));
  if (!start) throw new Error(`no output for the entry among ${Object.keys(outputs).join(", ")}`);
  // Chunks reached by plain imports load with the entry; `import()` and `require()` ones load on first use.
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const chunk = stack.pop() as string;
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const i of outputs[chunk]?.imports ?? []) if (i.kind === "import-statement") stack.push(i.path);
  }
  const names = (keep: (chunk: string) => boolean) => [...new Set(Object.keys(outputs).filter(keep).flatMap((c) => Object.keys(outputs[c]?.inputs ?? {}).map(moduleName)))].sort();
  eager = names((c) => seen.has(c));
  lazy = names((c) => !seen.has(c));
});

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe("the hook's import graph", () => {
  it("should load at start only modules of the allowlist", () => {
    expect(eager.length).toBeGreaterThan(20);
    expect(eager).toContain("lib/cli/hook.ts");
    expect(eager.filter((m) => !ALLOWED.some((re) => re.test(m)))).toEqual([]);
  });

  it("should load no other face's module and no on-demand dependency at start", () => {
    expect(eager.filter((m) => FORBIDDEN.some((re) => re.test(m)))).toEqual([]);
  });

  it("should still bundle the plugin host, the rule schemas and jsonc-parser, for first use", () => {
    // Proves the walk tells eager from lazy: these are in the bundle, only not loaded at start.
    for (const m of ["lib/plugins/provider.ts", "lib/engine/schema.ts", "npm:jsonc-parser"]) expect(lazy).toContain(m);
  });
});
