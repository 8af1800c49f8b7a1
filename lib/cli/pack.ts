/** @module `shepherd pack add <spec> | update [name] | verify`: rule packs, their lock file and their verified copies. */
import { resolve } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { MAX_RULE_FILE_BYTES, readBounded } from "../fs/bounded-read.ts";
import { withFileLock } from "../fs/lock.ts";
import { loadRuleText } from "../engine/load.ts";
import type { LayerName } from "../engine/schema.ts";
import { managedRulesFile } from "../rules/managed.ts";
import { type Env, globalRulesFile, projectRuleFileList, projectRulesFile } from "../rules/paths.ts";
import { loadSettings } from "../rules/settings.ts";
import { acquireAndStore, verifyLocked } from "../rules/packs/acquire.ts";
import { addToExtends } from "../rules/packs/extends-edit.ts";
import { type LockEntry, lockFileFor, readLock, updateLock } from "../rules/packs/lock-file.ts";
import { packAllowed } from "../rules/packs/resolve.ts";
import { type PackRef, parseExtends, parsePackSpec } from "../rules/packs/spec.ts";
import { type CliIO, parseArgv, styleFor, usageError, writeJson } from "./format.ts";

export const PACK_HELP = `Usage: shepherd pack add <spec> [--global | --managed]
       shepherd pack update [name] [--global | --managed]
       shepherd pack verify [--json]

A rules file may extend rule packs: {"extends": ["@acme/shepherd-pack",
{"pack": "git+https://git.example/team/pack.git#<40-hex commit>", "mode": "shadow"}],
"rules": [...]}. A pack's rules load in the layer of the file that extends it, before
that file's own rules, under the same trust: from an untrusted project they may only
add restrictions.

  add <spec>     lock a pack and add it to .pi/shepherd-rules.json (--global:
                 ~/.pi/agent/shepherd-rules.json; --managed: the managed rules file).
                 An npm pack is read from ./node_modules (npm install it first); a git
                 pack is fetched at its pinned commit (https:// or file://).
  update [name]  read the packs (or the one named) from their source again and re-lock
                 them: after an npm update, or to accept a change you have checked.
  verify         check every pack of every layer against its lock (a git pack missing
                 from the cache is fetched at its commit; the lock is never changed).
                 Exit 0 when all match, 1 when one does not or cannot be found.

The lock, shepherd-rules.lock beside the rules file, holds each pack's source, version
or commit and the sha256 of every file. Verified copies are kept in
~/.pi/agent/shepherd/packs/; a load uses one when the pack no longer matches its lock.
`;

interface Target {
  file: string;
  source: LayerName;
}

function targetFor(values: Record<string, unknown>, io: CliIO): Target | string {
  if (values.global === true && values.managed === true) return "--global and --managed do not go together";
  if (values.global === true) return { file: globalRulesFile(io.env), source: "global" };
  if (values.managed === true) return { file: managedRulesFile(io.env), source: "managed" };
  return { file: projectRulesFile(io.cwd), source: "project" };
}

/** The packs a rules file extends now (a missing file extends none). */
function refsOf(file: string): { refs: PackRef[]; error?: string } {
  const read = readBounded(file, MAX_RULE_FILE_BYTES);
  if (!read.ok) return read.reason === "missing" ? { refs: [] } : { refs: [], error: `${file}: ${read.message}` };
  const loaded = loadRuleText(read.text, { file, source: "project" });
  if (!loaded.applies) return { refs: [], error: `${file}: ${loaded.issues[0]?.message ?? "does not load"}` };
  return { refs: parseExtends(loaded.extends).refs };
}

/** Every rules file whose packs `verify` checks, with its layer. */
function allRuleFiles(env: Env, cwd: string): Target[] {
  const { settings, managed } = loadSettings(cwd, env);
  const out: Target[] = [{ file: managedRulesFile(env), source: "managed" }, { file: globalRulesFile(env), source: "global" }];
  if (managed.projectRules) for (const file of projectRuleFileList(cwd, settings.projectRulesPattern).files) out.push({ file, source: "project" });
  return out;
}

function describe(entry: LockEntry): string {
  return entry.kind === "npm" ? `${entry.name}@${entry.version || "?"}` : `${entry.name} ${entry.commit.slice(0, 12)}`;
}

function changedFiles(before: LockEntry | undefined, after: LockEntry): string {
  if (!before) return `${Object.keys(after.files).length} files`;
  const names = new Set([...Object.keys(before.files), ...Object.keys(after.files)]);
  const changed = [...names].filter((n) => before.files[n] !== after.files[n]).sort();
  return changed.length === 0 ? "unchanged" : `changed: ${changed.slice(0, 8).join(", ")}${changed.length > 8 ? ` and ${changed.length - 8} more` : ""}`;
}

async function add(specArg: string, target: Target, io: CliIO): Promise<number> {
  const style = styleFor(io);
  const parsed = parsePackSpec(specArg);
  if (!parsed.ok) return usageError(io, "pack", parsed.message);
  const { pack } = parsed;
  const { managed } = loadSettings(io.cwd, io.env);
  if (target.source !== "managed" && managed.allowedPacks !== undefined && !packAllowed(pack, managed.allowedPacks)) {
    io.stderr(`shepherd pack add: ${pack.spec} is not allowed by the managed policy's allowedPacks (${managed.allowedPacks.join(", ") || "none"})\n`);
    return 1;
  }
  const got = await acquireAndStore(pack, { cwd: io.cwd, env: io.env });
  if (!got.ok) {
    io.stderr(`shepherd pack add: ${got.message}\n`);
    return 1;
  }
  const lockFile = lockFileFor(target.file);
  let before: LockEntry | undefined;
  const locked = await updateLock(lockFile, (lock) => {
    before = lock.packs[pack.spec];
    return { ...lock, packs: { ...lock.packs, [pack.spec]: got.entry } };
  });
  if (!locked.ok) {
    io.stderr(`shepherd pack add: ${locked.message}\n`);
    return 1;
  }
  const edited = await withFileLock(target.file, () => {
    const read = readBounded(target.file, MAX_RULE_FILE_BYTES);
    if (!read.ok && read.reason !== "missing") return { ok: false as const, message: `${target.file}: ${read.message}` };
    const next = addToExtends(read.ok ? read.text : undefined, pack.spec);
    if (!next.ok) return { ok: false as const, message: `${target.file}: ${next.message}` };
    if (!next.changed) return { ok: true as const, changed: false };
    const check = loadRuleText(next.text, { file: target.file, source: target.source });
    if (!check.applies) return { ok: false as const, message: `${target.file}: the edited file would not load (${check.issues[0]?.message ?? "?"}); left as it was` };
    const written = writeFileAtomic(target.file, next.text);
    return written.ok ? { ok: true as const, changed: true } : { ok: false as const, message: written.reason };
  });
  const result = edited.ok ? edited.value : { ok: false as const, message: edited.reason };
  if (!result.ok) {
    io.stderr(`shepherd pack add: locked in ${lockFile}, but ${result.message}\n`);
    return 1;
  }
  io.stdout(`${style.green("✓")} ${pack.spec}: ${describe(got.entry)}, ${changedFiles(before, got.entry)}; locked in ${lockFile}${result.changed ? `, added to ${target.file}` : ""}\n`);
  return 0;
}

async function update(name: string | undefined, target: Target, io: CliIO): Promise<number> {
  const style = styleFor(io);
  const files = target.source === "project" ? allRuleFiles(io.env, io.cwd).filter((t) => t.source === "project") : [target];
  if (target.source === "project" && files.length === 0) files.push(target);
  let failed = 0;
  let matched = 0;
  for (const t of files) {
    const { refs, error } = refsOf(t.file);
    if (error) {
      io.stderr(`shepherd pack update: ${error}\n`);
      failed++;
      continue;
    }
    for (const ref of refs) {
      if (name !== undefined && ref.pack.name !== name && ref.pack.spec !== name) continue;
      matched++;
      const got = await acquireAndStore(ref.pack, { cwd: io.cwd, env: io.env });
      if (!got.ok) {
        io.stdout(`${style.red("✗")} ${ref.pack.spec}: ${got.message}\n`);
        failed++;
        continue;
      }
      let before: LockEntry | undefined;
      const locked = await updateLock(lockFileFor(t.file), (lock) => {
        before = lock.packs[ref.pack.spec];
        return { ...lock, packs: { ...lock.packs, [ref.pack.spec]: got.entry } };
      });
      if (!locked.ok) {
        io.stdout(`${style.red("✗")} ${ref.pack.spec}: ${locked.message}\n`);
        failed++;
        continue;
      }
      io.stdout(`${style.green("✓")} ${ref.pack.spec}: ${describe(got.entry)}, ${changedFiles(before, got.entry)}\n`);
    }
  }
  // A full update also drops what no rules file beside the lock extends any more (a pack taken out of extends).
  if (name === undefined && failed === 0) {
    const wanted = new Map<string, Set<string>>();
    for (const t of files) {
      const lockFile = lockFileFor(t.file);
      const set = wanted.get(lockFile) ?? new Set<string>();
      for (const ref of refsOf(t.file).refs) set.add(ref.pack.spec);
      wanted.set(lockFile, set);
    }
    for (const [lockFile, specs] of wanted) {
      const current = readLock(lockFile);
      if (!current.ok || current.text === undefined) continue;
      const stale = Object.keys(current.lock.packs).filter((spec) => !specs.has(spec));
      if (stale.length === 0) continue;
      const pruned = await updateLock(lockFile, (lock) => ({ ...lock, packs: Object.fromEntries(Object.entries(lock.packs).filter(([spec]) => specs.has(spec))) }));
      if (!pruned.ok) {
        io.stdout(`${style.red("✗")} ${lockFile}: ${pruned.message}\n`);
        failed++;
      } else io.stdout(`${style.green("✓")} removed from ${lockFile} (no longer extended): ${stale.join(", ")}\n`);
    }
  }
  if (name !== undefined && matched === 0) {
    io.stderr(`shepherd pack update: no rules file extends a pack named "${name}"\n`);
    return 1;
  }
  if (matched === 0 && name === undefined) io.stdout("no packs to update\n");
  return failed > 0 ? 1 : 0;
}

interface VerifyRow {
  pack: string;
  rulesFile: string;
  layer: LayerName;
  ok: boolean;
  detail: string;
}

async function verify(io: CliIO, json: boolean): Promise<number> {
  const style = styleFor(io);
  const rows: VerifyRow[] = [];
  const { managed } = loadSettings(io.cwd, io.env);
  for (const t of allRuleFiles(io.env, io.cwd)) {
    const { refs, error } = refsOf(t.file);
    if (error) rows.push({ pack: "-", rulesFile: t.file, layer: t.source, ok: false, detail: error });
    if (refs.length === 0) continue;
    const lockFile = lockFileFor(t.file);
    const lock = readLock(lockFile);
    for (const ref of refs) {
      const row = (ok: boolean, detail: string) => rows.push({ pack: ref.pack.spec, rulesFile: t.file, layer: t.source, ok, detail });
      if (t.source !== "managed" && managed.allowedPacks !== undefined && !packAllowed(ref.pack, managed.allowedPacks)) {
        row(false, "not allowed by the managed policy's allowedPacks");
        continue;
      }
      if (!lock.ok) {
        row(false, `${lockFile}: ${lock.message}`);
        continue;
      }
      const entry = lock.lock.packs[ref.pack.spec];
      if (!entry) {
        row(false, `not in ${lockFile}: run \`shepherd pack add ${ref.pack.spec}\``);
        continue;
      }
      const v = await verifyLocked(ref.pack, entry, { cwd: io.cwd, env: io.env });
      if (!v.ok) row(false, v.message);
      else row(true, `${describe(entry)}, ${Object.keys(entry.files).length} files match ${lockFile} (${v.dir})${v.fetched ? ", fetched" : ""}${v.stored ? ", verified copy stored" : ""}`);
    }
  }
  const failed = rows.filter((r) => !r.ok).length;
  if (json) writeJson(io, { ok: failed === 0, packs: rows });
  else {
    for (const r of rows) io.stdout(`${r.ok ? style.green("✓") : style.red("✗")} ${r.pack} (${r.layer}, ${r.rulesFile}): ${r.detail}\n`);
    if (rows.length === 0) io.stdout("no rules file extends a pack\n");
  }
  return failed > 0 ? 1 : 0;
}

export async function runPack(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseArgv(argv, { help: { type: "boolean", short: "h" }, global: { type: "boolean" }, managed: { type: "boolean" }, json: { type: "boolean" } });
  if (!parsed.ok) return usageError(io, "pack", parsed.message);
  const { values, positionals } = parsed;
  const [sub, ...args] = positionals;
  if (values.help === true || sub === undefined) {
    if (sub === undefined && values.help !== true) return usageError(io, "pack", "expected add, update or verify");
    io.stdout(PACK_HELP);
    return 0;
  }
  const target = targetFor(values, { ...io, cwd: resolve(io.cwd) });
  if (typeof target === "string") return usageError(io, "pack", target);
  switch (sub) {
    case "add":
      if (args.length !== 1) return usageError(io, "pack", "add takes one pack spec");
      return add(args[0] as string, target, io);
    case "update":
      if (args.length > 1) return usageError(io, "pack", "update takes at most one pack name");
      return update(args[0], target, io);
    case "verify":
      if (args.length > 0) return usageError(io, "pack", "verify takes no argument");
      return verify(io, values.json === true);
    default:
      return usageError(io, "pack", `expected add, update or verify, not "${sub}"`);
  }
}
