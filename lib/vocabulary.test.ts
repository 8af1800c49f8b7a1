/** @module the vocabulary is defined once: a second list of actions, tool hooks, text hash or glob translation fails here. */
import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..");

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules") continue;
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".gen.ts") && name !== "test-helpers.ts") out.push(path);
  }
  return out;
}

const FILES = [...sources(join(ROOT, "lib")), ...sources(join(ROOT, "pi-extension")), ...sources(join(ROOT, "opencode-plugin"))].map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, "utf8") }));

describe("the vocabulary", () => {
  it.each([
    ["the core actions", /["']block["'],\s*["']ask["'],\s*["']notify["'],\s*["']steer["'],\s*["']rewrite["']|action === ["']block["'] \|\| action === ["']ask["'] \|\| action === ["']notify["']/, ["lib/engine/schema-core.ts"]],
    ["the tool hooks", /new Set\(\[\s*["']tool_call["'],\s*["']tool_result["']\s*\]\)/, ["lib/engine/schema-core.ts"]],
    ["the FNV text hash", /0x811c9dc5/i, ["lib/hash.ts"]],
    ["Bun's native hash", /Bun\?\.hash\b|\b[Bb]un\.hash\(/, ["lib/hash.ts"]],
    ["glob to regex", /\.replace\(\/\\\*\/g, ["']\[\^\/\]\*["']\)/, ["lib/glob.ts"]],
  ])("should define %s in one place", (_what, pattern, where) => {
    expect(FILES.filter((f) => pattern.test(f.text)).map((f) => f.path)).toEqual(where);
  });
});
