/**
 * @module The pi extension type-checks against the declarations of every pi it serves (0.73.1 from
 * node_modules, 1.x from the test install), under both package scopes.
 */
import { describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePi1, PI073_VERSION, PI1_VERSION } from "./helpers/pi1-install.ts";
import { ROOT } from "./helpers/pi-harness.ts";

interface Declarations {
  version: string;
  /** The folder holding `@<scope>/pi-coding-agent`'s dist/ and its `typebox`. */
  agent: string;
  typebox: string;
}

function declarations(): Declarations[] {
  const pi1 = ensurePi1();
  return [
    { version: PI073_VERSION, agent: join(ROOT, "node_modules", "@mariozechner", "pi-coding-agent"), typebox: join(ROOT, "node_modules", "typebox") },
    { version: PI1_VERSION, agent: pi1.packageDir, typebox: join(pi1.dir, "pi16", "node_modules", "typebox") },
  ];
}

/** The extension's own files (its unit tests import bun:test, which pi never loads). */
function extensionFiles(): string[] {
  const dir = join(ROOT, "pi-extension");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => join(dir, f));
}

function tsconfig(d: Declarations): Record<string, unknown> {
  const index = [join(d.agent, "dist", "index.d.ts")];
  return {
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "bundler",
      lib: ["ES2023", "DOM"],
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules", "@types")],
      strict: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      erasableSyntaxOnly: true,
      verbatimModuleSyntax: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      isolatedModules: true,
      paths: {
        "@mariozechner/pi-coding-agent": index,
        "@earendil-works/pi-coding-agent": index,
        typebox: [join(d.typebox, "build", "index.d.mts")],
      },
    },
    files: extensionFiles(),
  };
}

describe("pi-extension types", () => {
  it.each(declarations().map((d) => [d.version, d] as const))("should type-check against pi %s's declarations", (_version, d) => {
    const dir = join(ROOT, ".tmp", "pi-extension-types");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `tsconfig.${d.version}.json`);
    writeFileSync(file, JSON.stringify(tsconfig(d), null, 2));
    const res = spawnSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", file], { encoding: "utf8" });
    expect(`${res.stdout}${res.stderr}`).toBe("");
    expect(res.status).toBe(0);
  }, 90_000);
});
