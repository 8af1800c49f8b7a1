/** @module unit tests for the shared secret redaction: the corpus targets, the patterns' risk, and hostile input. */
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzePattern } from "../engine/regex-safety.ts";
import { describeCounts, detectorPatterns, findSecrets, redactSecrets } from "./redact.ts";

interface Corpus {
  samples: { kind: string; text: string; secret: string }[];
  lookAlikes: { kind: string; text: string }[];
}
const corpus = JSON.parse(readFileSync(join(import.meta.dir, "../../tests/fixtures/redaction-corpus.json"), "utf8")) as Corpus;

describe("redactSecrets", () => {
  it("should hold a corpus of at least 300 secrets of 30 kinds and 300 look-alikes", () => {
    expect(corpus.samples.length).toBeGreaterThanOrEqual(300);
    expect(new Set(corpus.samples.map((s) => s.kind)).size).toBeGreaterThanOrEqual(30);
    expect(corpus.lookAlikes.length).toBeGreaterThanOrEqual(300);
  });

  it("should redact at least 98% of the secret samples, and count them without their values", () => {
    const missed = corpus.samples.filter((s) => redactSecrets(s.text).text.includes(s.secret));
    expect(missed.length / corpus.samples.length).toBeLessThanOrEqual(0.02);
    for (const s of corpus.samples.slice(0, 50)) {
      const r = redactSecrets(s.text);
      expect(r.total).toBeGreaterThan(0);
      expect(JSON.stringify(r.counts)).not.toContain(s.secret);
    }
  });

  it("should touch at most 1% of the look-alikes", () => {
    const touched = corpus.lookAlikes.filter((l) => redactSecrets(l.text).text !== l.text);
    expect(touched.length / corpus.lookAlikes.length).toBeLessThanOrEqual(0.01);
  });

  it.each([
    ["GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghij", "GITHUB_TOKEN=[REDACTED:"],
    ["origin https://x-access-token:hunter2abc@github.com/a/b (fetch)", "hunter2abc", "https://x-access-token:[REDACTED:url-credentials]@github.com"],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\nafter", "MIIEow", "[REDACTED:private-key]\nafter"],
    ["-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n(cut)", "MHcCAQEEIB", "[REDACTED:private-key]"],
    ["Authorization: Bearer abcdefghijklmnop1234", "abcdefghijklmnop1234", "Bearer [REDACTED:bearer-token]"],
  ])("should redact %s", (text, secret, kept) => {
    const out = redactSecrets(text).text;
    expect(out).not.toContain(secret);
    expect(out).toContain(kept);
  });

  it("should leave text without secrets identical (the same string)", () => {
    const text = "git log --oneline\n3f2a1bc fix: x\n";
    expect(redactSecrets(text).text).toBe(text);
    expect(redactSecrets(text).total).toBe(0);
  });

  it("should find a secret across a window boundary of a large output", () => {
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const text = `${"x ".repeat((1 << 19) - 10)}${token} ${"y ".repeat(1 << 19)}${token}`;
    const r = redactSecrets(text);
    expect(r.counts["github-token"]).toBe(2);
    expect(r.text).not.toContain(token);
    expect(r.text.length).toBe(text.length - 2 * token.length + 2 * "[REDACTED:github-token]".length);
  });

  it("should redact a 50 MB output whole, window by window", () => {
    const token = "AKIAABCDEFGHIJKLMNOP";
    const line = "2026-12-01T10:00:00Z INFO request served in 12 ms path=/api/v1/items?page=3\n";
    const text = `${token}\n${line.repeat(Math.ceil((50 << 20) / line.length))}${token}\n`;
    const start = performance.now();
    const r = redactSecrets(text);
    expect(r.counts["aws-access-key-id"]).toBe(2);
    expect(r.text.length).toBe(text.length + 2 * ("[REDACTED:aws-access-key-id]".length - token.length));
    expect(r.truncated).toBe(false);
    expect(performance.now() - start).toBeLessThan(30_000);
  });

  it("should cut and mark an output over maxChars", () => {
    const r = redactSecrets("a".repeat(5000), { maxChars: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.text).toStartWith("a".repeat(1000));
    expect(r.text).toContain("output cut at 1000 characters of 5000");
  });

  it("should handle binary output and invalid UTF-8 and still redact", () => {
    const bytes = new Uint8Array(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131) & 0xff;
    const text = `${new TextDecoder().decode(bytes)}\u0000\uD800 AKIAABCDEFGHIJKLMNOP \uDFFF`;
    const r = redactSecrets(text);
    expect(r.text).not.toContain("AKIAABCDEFGHIJKLMNOP");
    expect(r.counts["aws-access-key-id"]).toBe(1);
  });

  it("should answer hostile input of 1 MiB in bounded time", () => {
    const hostile = ["=".repeat(1 << 20), "PASSWORD=".repeat(116_508), "-----BEGIN ".repeat(95_325), "sk-".repeat(349_525), "Bearer ".repeat(149_796), "x://a:".repeat(174_762), "eyJ".repeat(349_525), "token: ".repeat(149_796)];
    const start = performance.now();
    for (const h of hostile) expect(typeof redactSecrets(h).total).toBe("number");
    expect(performance.now() - start).toBeLessThan(10_000);
  });

  it("should use only patterns without an exponential or high-degree risk", () => {
    for (const re of detectorPatterns()) {
      const risk = analyzePattern(re.source, re.flags.replace(/[gy]/g, "")).risk;
      expect({ pattern: re.source, risky: risk !== undefined && (risk.kind === "exponential" || (risk.degree ?? 2) > 2) }).toEqual({ pattern: re.source, risky: false });
    }
  });
});

describe("findSecrets", () => {
  it("should report spans whose kind names the shape", () => {
    const spans = findSecrets("key AIzaSyA1234567890abcdefghijklmnopqrstuv ok");
    expect(spans.map((s) => s.kind)).toEqual(["google-api-key"]);
  });
});

describe("describeCounts", () => {
  it("should say how many and of what kind", () => {
    expect(describeCounts({ "github-token": 2, "private-key": 1 })).toBe("3 secrets (2× github-token, private-key)");
  });
});
