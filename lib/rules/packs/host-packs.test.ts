/**
 * @module unit tests: the rule host loads packs in the layer of the file that extends them, and a hook answering
 * from its snapshot reads and hashes no pack, while any change to a locked file or the lock misses the snapshot.
 */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HookEvent } from "../../engine/schema.ts";
import { fileRuleSnapshots } from "../hook-snapshot.ts";
import { RuleHost } from "../host.ts";
import { acquireAndStore } from "./acquire.ts";
import { updateLock } from "./lock-file.ts";
import { packTreeStats } from "./pack-tree.ts";
import { packSnapshotKey } from "./snapshot-key.ts";
import { parsePackSpec } from "./spec.ts";

let root = "";
let cwd = "";
let env: Record<string, string> = {};
let packDir = "";

const RULE = { name: "pack-no-shred", action: "block", pattern: "\\bshred\\b", reason: "no shred" };
const EVENT: HookEvent = { hook: "tool_call", session: { id: "s", cwd: "" }, tool: { name: "bash", input: { command: "shred x" } } };

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "shepherd-host-packs-"));
  cwd = join(root, "p");
  env = { HOME: root, PI_CODING_AGENT_DIR: join(root, "agent"), SHEPHERD_MANAGED_DIR: join(root, "managed") };
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  mkdirSync(join(root, "agent"), { recursive: true });
  packDir = join(cwd, "node_modules", "acme");
  mkdirSync(packDir, { recursive: true });
  writeFileSync(join(packDir, "shepherd-rules.json"), JSON.stringify([RULE]));
  const parsed = parsePackSpec("acme");
  if (!parsed.ok) throw new Error(parsed.message);
  const got = await acquireAndStore(parsed.pack, { cwd, env });
  if (!got.ok) throw new Error(got.message);
  await updateLock(join(cwd, ".pi", "shepherd-rules.lock"), (l) => ({ ...l, packs: { acme: got.entry } }));
  writeFileSync(join(cwd, ".pi", "shepherd-rules.json"), JSON.stringify({ extends: ["acme"], rules: [] }));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const snapshots = () => fileRuleSnapshots(join(root, "cache"), "salt", [{ ...EVENT, session: { id: "s", cwd } }], root);
const host = () => new RuleHost({ cwd, env, snapshots: snapshots(), lazyCompile: true });
const packRule = (h: RuleHost) => h.ruleSet.rules.find((r) => r.name === RULE.name);

describe("RuleHost with packs", () => {
  it("should load a pack's rules as the extending file's layer, before its own rules", () => {
    writeFileSync(join(cwd, ".pi", "shepherd-rules.json"), JSON.stringify({ extends: ["acme"], rules: [{ name: "own", action: "block", pattern: "own" }] }));
    const h = new RuleHost({ cwd, env });
    const names = h.ruleSet.rules.filter((r) => r.source === "project").map((r) => r.name);
    expect(names).toEqual([RULE.name, "own"]);
    expect(h.issues.filter((i) => i.severity === "error")).toEqual([]);
  });

  it("should answer a second hook from the snapshot without reading or hashing any pack", () => {
    const before = packTreeStats.reads;
    expect(packRule(host())?.source).toBe("project");
    const afterFirst = packTreeStats.reads;
    expect(afterFirst).toBeGreaterThan(before);
    expect(packRule(host())?.source).toBe("project");
    expect(packTreeStats.reads).toBe(afterFirst);
  });

  it("should miss the snapshot once a locked file changes, and report the pack", () => {
    host();
    const key = packSnapshotKey({ cwd, env }, [join(cwd, ".pi", "shepherd-rules.json")], undefined);
    expect(packSnapshotKey({ cwd, env }, [join(cwd, ".pi", "shepherd-rules.json")], undefined)).toBe(key);
    writeFileSync(join(packDir, "shepherd-rules.json"), JSON.stringify([{ ...RULE, reason: "changed" }]));
    expect(packSnapshotKey({ cwd, env }, [join(cwd, ".pi", "shepherd-rules.json")], undefined)).not.toBe(key);
    const reads = packTreeStats.reads;
    const h = host();
    expect(packTreeStats.reads).toBeGreaterThan(reads);
    expect(packRule(h)?.reason).toBe("no shred");
    expect(h.issues.some((i) => i.message.includes('pack "acme" does not match'))).toBe(true);
    // Not snapshotted while refused: the next hook reports it again.
    const again = packTreeStats.reads;
    expect(host().issues.some((i) => i.message.includes('pack "acme" does not match'))).toBe(true);
    expect(packTreeStats.reads).toBeGreaterThan(again);
  });

  it("should key the snapshot on the managed allow-list", () => {
    const files = [join(cwd, ".pi", "shepherd-rules.json")];
    expect(packSnapshotKey({ cwd, env }, files, ["acme"])).not.toBe(packSnapshotKey({ cwd, env }, files, undefined));
  });
});
