/** @module metamorphic test of the Windows model: semantics-preserving rewrites of the development corpora's PowerShell and cmd cases the pack gets right must keep their verdict, transform by transform. */
import { beforeAll, describe, expect, it } from "bun:test";
import { stride, TRANSFORMS } from "../bench/lib/metamorphic-windows.ts";
import { DEV_CORPORA, metamorphic, type Report } from "../bench/metamorphic-windows.ts";
import { decodeUtf16Base64 } from "../lib/shell/powershell.ts";

/** Seeds per run: a fixed stride over the kept cases, so every run sees the same variants. */
const SAMPLE = 450;

describe("TRANSFORMS", () => {
  it("should encode -EncodedCommand as the base64 of the UTF-16LE text, as PowerShell decodes it", () => {
    const [v] = TRANSFORMS.find((t) => t.name === "encoded-command")?.apply({ command: "Remove-Item ~ -Recurse", tool: "powershell" }) ?? [];
    const b64 = v?.command.split(" ").pop() ?? "";
    expect(decodeUtf16Base64(b64)).toBe("Remove-Item ~ -Recurse");
  });

  it.each([
    ["alias", "Remove-Item ~ -Recurse", ["ri ~ -Recurse", "rm ~ -Recurse", "del ~ -Recurse", "erase ~ -Recurse", "rd ~ -Recurse", "rmdir ~ -Recurse"]],
    ["module-qualified", "Get-Content .env", ["Microsoft.PowerShell.Management\\Get-Content .env"]],
    ["alias", "git status", []],
  ] as const)("should rewrite with %s only where the rewrite is valid (%s)", (name, command, expected) => {
    expect(TRANSFORMS.find((t) => t.name === name)?.apply({ command, tool: "powershell" }).map((v) => v.command)).toEqual([...expected]);
  });
});

describe("metamorphic", () => {
  let report: Report;
  beforeAll(async () => {
    report = await metamorphic(DEV_CORPORA, (seeds) => stride(seeds, SAMPLE));
  }, 120_000);

  it("should start from a sample of seeds the pack gets right", () => {
    expect(report.seeds).toBe(SAMPLE);
  });

  it.each(TRANSFORMS.map((t) => [t.name] as const))("should keep every verdict under the %s transform", (name) => {
    const t = report.perTransform[name];
    // A transform that no longer applies to any seed tests nothing: it must produce variants.
    expect(t?.variants ?? 0).toBeGreaterThan(0);
    expect(report.regressions.filter((r) => r.transform === name).map((r) => `${r.expect} [${r.variant.tool}] ${r.variant.command}`)).toEqual([]);
  });
});
