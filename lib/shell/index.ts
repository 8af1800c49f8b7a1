/** @module shell-aware matching seam used by the engine: compile a `command` condition into a matcher. */
import type { CommandCondition } from "./command-condition-schema.ts";
import { analyze, canonicalFlags, pushBranches, type Analysis } from "./flags.ts";
import { parseShellLine } from "./parse.ts";
import { exceptGlob, pathInClass, resolvePath, isInside, type PathClass, type PathGuard } from "./paths.ts";
import type { ParseOptions, ParseResult, SimpleCommand } from "./types.ts";
import { effectsOf, lineEffects, onlyPrintsHelp, type Effect } from "./effects.ts";
import { codeMentions, writeTargets } from "./write-targets.ts";
import { reaches } from "./effects/control.ts";

export type { ParseOptions, ParseResult, SimpleCommand } from "./types.ts";
export { effectsOf, lineEffects, type Effect } from "./effects.ts";

export interface ShellContext {
  /** The session's working directory (relative paths resolve against it). */
  cwd: string;
  /** The project root (paths inside it are "inside_project"). */
  projectRoot: string;
  home: string;
  /** The command is PowerShell (a PowerShell tool), not POSIX shell. */
  dialect?: "powershell";
  /** Answers the `shepherd_state` path class; without it that class matches nothing. */
  guard?: PathGuard;
}

/**
 * A path as the command sees it: resolved against its cwd. When a `cd` went somewhere unknowable the path
 * stays relative; it is then judged by its own trailing names (`.claude/settings.json`) under an unknown root.
 */
function resolvedIn(word: string, cwd: string, home: string, cls: PathClass): string {
  const p = resolvePath(word, cwd, home);
  return p.startsWith("/") || p.startsWith("~") || cls !== "shepherd_state" ? p : resolvePath(p, "/", home);
}

/**
 * undefined when the condition holds; otherwise why it did not (for `rules explain`). With `explain` false
 * a failure is only `MISMATCH`: the evaluation asks every event and needs no message, whose building cost
 * more than the check (a git command meets a dozen git rules).
 */
export type CommandMatcher = (command: string, ctx: ShellContext, explain?: boolean) => string | undefined;

/** What a matcher asked not to explain returns on a failure. */
export const MISMATCH = "no match";

let lastCommand = "";
let lastCwd = "";
let lastHome = "";
let lastDialect: "powershell" | undefined;
let lastResult: ParseResult | undefined;

/**
 * Recent lines beyond the last one. Agents repeat lines (`git status`, the test command), and a line is
 * seen again at tool_result; parsing is a third of an evaluation. Results are never mutated (the
 * last-line cache already shares them between rules), so sharing them between events is as safe.
 * Bounded by an estimate of the bytes held, least recently used out first; long lines are not kept at all
 * (a sidecar held 3 GB after 22 distinct 2 MB lines). The last line alone is always kept: it is one
 * line, and the analysis caps bound its result.
 */
/** Program and subcommand pairs one condition keeps its canonical flags for. */
export const FLAG_CACHE_MAX = 256;
export const PARSE_CACHE = { maxEntries: 64, maxBytes: 8 << 20, maxLine: 16 << 10 } as const;
interface Recent {
  cwd: string;
  home: string;
  result: ParseResult;
  bytes: number;
}
const recent = new Map<string, Recent>();
let recentBytes = 0;

/**
 * Rough bytes a cached line and its result hold, on the high side: strings at two bytes a character plus
 * their header, array slots at the cost measured in a sidecar (the flag analysis a rule adds per command,
 * and heap blocks pinned among garbage, included).
 */
function estimateBytes(command: string, cwd: string, home: string, result: ParseResult): number {
  let n = 2 * (command.length + cwd.length + home.length) + 64;
  for (const c of result.commands) {
    n += 256 + 2 * c.cwd.length + 48 * (c.argv.length + c.dynamic.length + c.pipeTo.length + c.via.length);
    for (const w of c.argv) n += 40 + 2 * w.length;
    for (const r of c.redirects) n += 96 + 2 * (r.target.length + (r.body?.length ?? 0));
  }
  return n;
}

function remember(command: string, opts: ParseOptions, result: ParseResult): void {
  if (command.length > PARSE_CACHE.maxLine) return;
  const bytes = estimateBytes(command, opts.cwd, opts.home, result);
  if (bytes > PARSE_CACHE.maxBytes / 4) return;
  while (recent.size > 0 && (recent.size >= PARSE_CACHE.maxEntries || recentBytes + bytes > PARSE_CACHE.maxBytes)) {
    const oldest = recent.keys().next().value as string;
    recentBytes -= recent.get(oldest)?.bytes ?? 0;
    recent.delete(oldest);
  }
  recent.set(command, { cwd: opts.cwd, home: opts.home, result, bytes });
  recentBytes += bytes;
}

/** Entries and estimated bytes the parse cache holds (for tests and diagnostics). */
export function parseCacheSize(): { entries: number; bytes: number } {
  return { entries: recent.size, bytes: recentBytes };
}

/**
 * The simple commands a line runs, and the parse error when it was not valid shell (the commands then come
 * from a plain operator/whitespace split and `fallback` is true), or the cap it is over (`limit`). The last
 * result is cached, because every rule with a `command` condition asks about the same line.
 */
/** On another host or in a container: the trees a system and its databases keep their state in. */
const REMOTE_HOME = /^\/(?:home|Users)\/[^/]+\/?(?:\*)?$/;
const REMOTE_SYSTEM_TREE = /^\/(?:etc|usr|bin|sbin|boot|lib|lib32|lib64|root|data|var\/lib|var\/opt)(?:\/|$)/;

export function parseShell(command: string, opts: ParseOptions): ParseResult {
  // Compared field by field: concatenating a key costs more than the lookup saves, once per rule.
  if (lastResult && command === lastCommand && opts.cwd === lastCwd && opts.home === lastHome && opts.dialect === lastDialect) return lastResult;
  if (opts.dialect === "powershell") {
    // PowerShell lines are rare: parsed each time, but kept as the last line.
    const result = parseShellLine(command, { cwd: opts.cwd, home: opts.home, dialect: "powershell" });
    lastCommand = command;
    lastCwd = opts.cwd;
    lastHome = opts.home;
    lastDialect = opts.dialect;
    lastResult = result;
    return result;
  }
  const hit = command.length > PARSE_CACHE.maxLine ? undefined : recent.get(command);
  let result: ParseResult;
  if (hit && hit.cwd === opts.cwd && hit.home === opts.home) {
    result = hit.result;
    // Most recently used goes last.
    recent.delete(command);
    recent.set(command, hit);
  } else {
    result = parseShellLine(command, { cwd: opts.cwd, home: opts.home });
    if (hit) {
      recent.delete(command);
      recentBytes -= hit.bytes;
    }
    remember(command, opts, result);
  }
  lastCommand = command;
  lastCwd = opts.cwd;
  lastHome = opts.home;
  lastDialect = undefined;
  lastResult = result;
  return result;
}

/** The parse error of a line, or undefined when it parsed (for "unparsable, fell back" reports). */
export function lastParseError(command: string, opts: ParseOptions): string | undefined {
  return parseShell(command, opts).error;
}

/** Renders a simple command back as one normalized line, for explanations. */
export function formatCommand(cmd: SimpleCommand): string {
  const words = cmd.argv.map((w) => (/^[\w@%+=:,./~-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`));
  const via = cmd.via.length > 0 ? `  [via ${cmd.via.join(" > ")}]` : "";
  return `${words.join(" ")}${via}`;
}

/** What every `command` condition needs from a line, gathered once per parsed line (see ruledOutBy). */
export interface LineFacts {
  programs: ReadonlySet<string>;
  /** The subcommand of each command (undefined for none). */
  subs: ReadonlySet<string | undefined>;
  /** Effect kinds of its commands, their own and the line's (what an effect condition tests). */
  kinds: ReadonlySet<string>;
  /** Some command changes a path (a `writes` condition needs one). */
  writes: boolean;
}

const factsOfLine = new WeakMap<ParseResult, LineFacts>();

/** A line's facts; `writes` is worked out on first ask (a class: an object literal with a getter cost a new accessor per line). */
class Facts implements LineFacts {
  readonly programs: ReadonlySet<string>;
  readonly subs: ReadonlySet<string | undefined>;
  readonly kinds: ReadonlySet<string>;
  readonly #commands: readonly SimpleCommand[];
  #writes: boolean | undefined = undefined;

  constructor(programs: ReadonlySet<string>, subs: ReadonlySet<string | undefined>, kinds: ReadonlySet<string>, commands: readonly SimpleCommand[]) {
    this.programs = programs;
    this.subs = subs;
    this.kinds = kinds;
    this.#commands = commands;
  }

  get writes(): boolean {
    this.#writes ??= this.#commands.some((cmd) => writeTargets(cmd).length > 0);
    return this.#writes;
  }
}

/** The last parsed line's facts: the selector and every candidate rule ask them of the same line. */
let lastFactsOf: ParseResult | undefined;
let lastFacts: LineFacts | undefined;

export function lineFacts(command: string, ctx: ShellContext): LineFacts {
  const parsed = parseShell(command, ctx);
  if (parsed === lastFactsOf && lastFacts !== undefined) return lastFacts;
  let facts = factsOfLine.get(parsed);
  if (!facts) {
    const programs = new Set<string>();
    const subs = new Set<string | undefined>();
    const kinds = new Set<string>();
    const extra = lineEffects(parsed.commands);
    for (const cmd of parsed.commands) {
      programs.add(cmd.program);
      subs.add(analyze(cmd).sub);
      for (const e of effectsOf(cmd)) kinds.add(e.kind);
      for (const e of extra.get(cmd) ?? []) kinds.add(e.kind);
    }
    // Only a rule with a `writes` condition asks: the write targets are worked out then, once per line.
    facts = new Facts(programs, subs, kinds, parsed.commands);
    factsOfLine.set(parsed, facts);
  }
  lastFactsOf = parsed;
  lastFacts = facts;
  return facts;
}

/** `*` matches any run of characters, as in programMatcher, without building a RegExp. */
export function wildcardHit(pattern: string, name: string): boolean {
  const parts = pattern.split("*");
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!name.startsWith(first) || name.length < first.length + last.length || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const k = name.indexOf(parts[i] as string, at);
    if (k < 0 || k + (parts[i] as string).length > end) return false;
    at = k + (parts[i] as string).length;
  }
  return true;
}

/**
 * True when no command of the line has something the condition requires of the command it holds for (a
 * program it names, its subcommand, an effect of its kinds, a path it changes): the condition cannot hold.
 * Exact, never a guess: each is a check the compiled matcher makes for every command before it can hold.
 * Asked before compiling a rule, so a one-shot hook compiles only the rules a line can meet.
 */
export function ruledOutBy(cond: CommandCondition, facts: LineFacts): boolean {
  // No array is made here: the sidecar asks this of every candidate rule on every event.
  if (cond.program !== undefined && !someOf(cond.program, (p) => p === "*" || (p.includes("*") ? anyProgram(facts.programs, p) : facts.programs.has(p)))) return true;
  if (cond.subcommand !== undefined && !someOf(cond.subcommand, (sub) => facts.subs.has(sub))) return true;
  if (cond.effect !== undefined && !someOf(cond.effect, (k) => facts.kinds.has(k))) return true;
  return cond.writes !== undefined && !facts.writes;
}

function someOf<T extends string>(v: T | readonly T[], test: (x: T) => boolean): boolean {
  if (typeof v === "string") return test(v);
  for (const x of v) if (test(x)) return true;
  return false;
}

function anyProgram(programs: ReadonlySet<string>, pattern: string): boolean {
  for (const name of programs) if (wildcardHit(pattern, name)) return true;
  return false;
}

function list(v: string | string[] | undefined): string[] | undefined {
  return v === undefined ? undefined : Array.isArray(v) ? v : [v];
}

function programMatcher(names: string[]): (p: string) => boolean {
  const exact = new Set(names.filter((n) => !n.includes("*")));
  const globs = names.filter((n) => n.includes("*")).map((n) => new RegExp(`^${n.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`));
  return (p) => exact.has(p) || globs.some((g) => g.test(p));
}

function argWords(cmd: SimpleCommand, an: Analysis): string[] {
  const out = [...an.positional, ...an.values];
  for (const r of cmd.redirects) if (r.op === "<" || r.op === "<>") out.push(r.target);
  return out;
}

/** Compiles a rule's `command` condition once; the matcher is then called per event. */
export function compileCommandCondition(cond: CommandCondition, compile: (pattern: string) => RegExp = (p) => new RegExp(p)): CommandMatcher {
  const programs = list(cond.program) ?? ["*"];
  const kinds = list(cond.effect);
  const dataKinds = list(cond.data);
  const isProgram = programMatcher(programs);
  const subs = list(cond.subcommand);
  // The rule's own regexes go through the caller's compiler, so an untrusted project's pattern gets the
  // same linear-time engine here as in `pattern` and `conditions`.
  const argsRe = cond.args !== undefined ? compile(cond.args) : undefined;
  const notArgsRe = cond.notArgs !== undefined ? compile(cond.notArgs) : undefined;
  const branchRe = cond.branch !== undefined ? compile(cond.branch) : undefined;
  const writesRe = cond.writesTo !== undefined ? compile(cond.writesTo) : undefined;
  const pipeTo = list(cond.pipeTo);
  const pipeMatch = pipeTo ? programMatcher(pipeTo) : undefined;
  const pathClass: PathClass | undefined = cond.paths;
  // `tooComplex` with `program: "*"` alone is about the line, not about a command read from it.
  const lineOnly = cond.tooComplex === true && programs.includes("*") && Object.keys(cond).every((k) => k === "program" || k === "tooComplex");
  // Resolved once per home: an effect rule checks them for every path of every matching effect.
  let exceptHome: string | undefined;
  let exceptList: { path: string; self: boolean; glob?: RegExp }[] = [];
  const excepts = (home: string) => {
    if (home !== exceptHome) {
      // `~/{.*,Library}/**/{Cache,GPUCache}/`: a glob spares every directory it names, at any depth.
      exceptList = (cond.exceptPaths ?? []).map((e) => ({ path: resolvePath(e.replace(/\/+$/, ""), "/", home), self: e.endsWith("/"), ...(/[*{]/.test(e) ? { glob: exceptGlob(e, home) } : {}) }));
      exceptHome = home;
    }
    return exceptList;
  };
  const writesClass: PathClass | undefined = cond.writes;
  const mentionsClass: PathClass | undefined = cond.mentions;
  const spared = (p: string, except: { path: string; self: boolean; glob?: RegExp }[]) =>
    except.some((e) => {
      if (e.glob === undefined) return isInside(p, e.path) && (e.self || p !== e.path);
      const m = e.glob.exec(p);
      return m !== null && (e.self || m[1] !== undefined);
    });
  // Rule flags are canonicalized with the table of the program (and subcommand) they are checked against.
  const flagCache = new Map<string, { all: string[][]; any: string[][]; not: string[][] }>();
  const flagsFor = (program: string, sub: string | undefined) => {
    const key = `${program} ${sub ?? ""}`;
    let f = flagCache.get(key);
    if (!f) {
      const canon = (l: string[] | undefined) => (l ?? []).map((w) => canonicalFlags(w, program, sub));
      f = { all: canon(cond.flags), any: canon(cond.anyFlags), not: canon(cond.notFlags) };
      // A rule for any program meets every name a long-lived sidecar is sent: bounded, started over when full.
      if (flagCache.size >= FLAG_CACHE_MAX) flagCache.clear();
      flagCache.set(key, f);
    }
    return f;
  };

  const pathHit = (w: string, dynamic: boolean, cwd: string, ctx: ShellContext, except: { path: string; self: boolean }[], remote = false): boolean => {
    // A `$X` kept as text is unknown even where the word lost its flag (find "$ROOT" -delete).
    // `cd - && rm -rf *`: a relative path in a directory that cannot be known is unknown too.
    if (dynamic && !w.startsWith("/")) {
      // `xargs -I{} rm -rf ../{}`, `rm -rf ../$X`: whatever the unknown part is, it stays under the literal directory
      // before it, and that one climbs out of the project.
      const cut = w.search(/[$`]/);
      const dir = cut > 0 ? w.slice(0, w.lastIndexOf("/", cut) + 1) : "";
      if (pathClass === "outside_project" && cwd !== "" && /(?:^|\/)\.\.\/$|(?:^|\/)\.\.\/.*\/$/.test(dir)) {
        const p = resolvePath(dir, cwd, ctx.home);
        if (!spared(p, except) && pathInClass(p, "outside_project", ctx.projectRoot, ctx.home, ctx.guard)) return true;
      }
      return pathClass === "any" || (pathClass === "unknown" && (/^[$`]/.test(w) || cwd === ""));
    }
    if (pathClass === "unknown") return false;
    // On another host (`ssh host 'rm -rf /srv/x'`) the project means nothing; only the root, homes and system dirs do.
    // There a system's own trees still hold its state: `ssh db 'rm -rf /var/lib/postgresql/16/main'`, `kubectl exec p -- rm -rf /data/*`.
    // A home there (`/home/deploy`, `/Users/ci`) is a home whoever owns it: only the home itself, not what is below it.
    if (remote && (pathClass === "outside_project" || pathClass === "home_or_root") && REMOTE_HOME.test(resolvePath(w, "/", ctx.home))) return true;
    if (remote && pathClass === "outside_project") return REMOTE_SYSTEM_TREE.test(resolvePath(w, "/", ctx.home));
    if (remote && (pathClass === "project_root" || pathClass === "inside_project")) return false;
    // `~user` is another user's home: outside the project, and a home.
    if (/^~[A-Za-z_]/.test(w)) return pathClass === "any" || pathClass === "home_or_root" || pathClass === "outside_project";
    const p = resolvePath(w, cwd, ctx.home);
    if (spared(p, except)) return false;
    return pathInClass(p, pathClass ?? "any", ctx.projectRoot, ctx.home, ctx.guard);
  };

  const effectHolds = (e: Effect, cmd: SimpleCommand, ctx: ShellContext): boolean => {
    if (cond.recursive !== undefined && e.recursive !== cond.recursive) return false;
    if (cond.target && !(e.targets ?? []).some((t) => reaches(t, cond.target ?? []))) return false;
    if (cond.exceptTarget && (e.targets ?? []).some((t) => reaches(t, cond.exceptTarget ?? []))) return false;
    if (cond.unknownTarget !== undefined && (e.targets ?? []).some((t) => t.match === "unknown") !== cond.unknownTarget) return false;
    if (dataKinds && (e.data === undefined || !dataKinds.includes(e.data))) return false;
    if (branchRe && !(e.branches ?? []).some((b) => branchRe.test(b))) return false;
    const except = excepts(ctx.home);
    const remote = cmd.via.some((v) => v.endsWith("(remote)"));
    if (pathClass) return e.paths.some((w, k) => pathHit(w, e.dynamic[k] ?? false, cmd.cwd, ctx, except, remote));
    if (except.length > 0 && e.paths.length > 0) {
      // Spared only when every path is known and spared: an unknown cwd (`cd "$X" && git reset --hard`) is not.
      // A scratch clone under /tmp is spared; the project itself, wherever it lives (even under /tmp), is not.
      return !e.paths.every((w, k) => {
        const p = resolvePath(w, cmd.cwd, ctx.home);
        return !(e.dynamic[k] ?? false) && p.startsWith("/") && spared(p, except) && !isInside(p, ctx.projectRoot);
      });
    }
    return true;
  };

  const checkEffects = (cmd: SimpleCommand, ctx: ShellContext, explain: boolean, line: readonly SimpleCommand[]): string | undefined => {
    const own = effectsOf(cmd);
    const extra = lineEffects(line).get(cmd);
    const effects = extra ? [...own, ...extra] : own;
    for (const e of effects) if (kinds?.includes(e.kind) && effectHolds(e, cmd, ctx)) return undefined;
    if (!explain) return MISMATCH;
    const same = effects.filter((e) => kinds?.includes(e.kind));
    if (same.length > 0) return `its ${same.map((e) => e.kind).join("/")} effect (${same.map((e) => e.detail).join("; ")}) is not ${describeEffectCondition(cond)}`;
    return effects.length === 0 ? `it has no ${kinds?.join("/")} effect (no effect at all)` : `it has no ${kinds?.join("/")} effect (only ${effects.map((e) => e.kind).join(", ")})`;
  };

  const check = (cmd: SimpleCommand, ctx: ShellContext, explain: boolean, line: readonly SimpleCommand[]): string | undefined => {
    // Help forms do nothing: `git push --force --help`, `mkfs.ext4 --help`, `rm -h`.
    if (onlyPrintsHelp(cmd) && !cond.writesTo) return explain ? "it only prints help" : MISMATCH;
    const an = analyze(cmd);
    if (subs && (an.sub === undefined || !subs.includes(an.sub))) return explain ? `subcommand is ${an.sub ?? "absent"}, not ${subs.join("/")}` : MISMATCH;
    if (cond.flags || cond.anyFlags || cond.notFlags) {
      const f = flagsFor(cmd.program, an.sub);
      const has = (group: string[]) => group.every((c) => an.flags.has(c));
      const missing = f.all.findIndex((g) => !has(g));
      if (missing >= 0) return explain ? `flag ${cond.flags?.[missing]} is absent` : MISMATCH;
      if (f.any.length > 0 && !f.any.some(has)) return explain ? `none of the flags ${cond.anyFlags?.join(" ")} is present` : MISMATCH;
      const present = f.not.findIndex(has);
      if (present >= 0) return explain ? `flag ${cond.notFlags?.[present]} is present` : MISMATCH;
    }
    if (argsRe || notArgsRe) {
      const words = argWords(cmd, an);
      if (argsRe && !words.some((w) => argsRe.test(w))) return explain ? `no argument matches /${cond.args}/` : MISMATCH;
      const bad = notArgsRe ? words.find((w) => notArgsRe.test(w)) : undefined;
      if (bad !== undefined) return explain ? `argument ${bad} matches notArgs /${cond.notArgs}/` : MISMATCH;
    }
    if (kinds) {
      const r = checkEffects(cmd, ctx, explain, line);
      if (r !== undefined) return r;
    } else if (pathClass) {
      const except = excepts(ctx.home);
      const hit = an.positional.some((w, k) => pathHit(w, an.positionalDynamic[k] ?? false, cmd.cwd, ctx, except));
      if (!hit) return explain ? `no path argument is ${pathClass.replace("_", " ")} (${an.positional.join(" ") || "none"})` : MISMATCH;
    }
    if (writesClass) {
      const cwd = cmd.cwd;
      const hit = writeTargets(cmd).some((t) => pathInClass(resolvedIn(t.path, cwd, ctx.home, writesClass), writesClass, ctx.projectRoot, ctx.home, ctx.guard, t.deep));
      if (!hit) return explain ? `no path it changes is ${writesClass.replace("_", " ")}` : MISMATCH;
    }
    if (mentionsClass) {
      const cwd = cmd.cwd;
      const named = codeMentions(cmd);
      const inClass = (p: string) => pathInClass(p, mentionsClass, ctx.projectRoot, ctx.home, ctx.guard, true);
      // `HOME + "/.pi/..."` leaves a word that is absolute only once the home directory is put before it.
      const hit = named.some((w) => inClass(resolvedIn(w, cwd, ctx.home, mentionsClass)) || (w.startsWith("/") && inClass(resolvePath(ctx.home + w, "/", ctx.home))));
      if (!hit) return explain ? `no path its code names is ${mentionsClass.replace("_", " ")}` : MISMATCH;
    }
    if (branchRe && !kinds) {
      const branches = pushBranches(an);
      if (!branches.some((b) => branchRe.test(b))) return explain ? `push branch ${branches.join(",")} does not match /${cond.branch}/` : MISMATCH;
    }
    if (pipeMatch && !cmd.pipeTo.some(pipeMatch)) return explain ? `output does not feed ${pipeTo?.join("/")}` : MISMATCH;
    if (writesRe) {
      const outs = cmd.redirects.filter((r) => (r.op.includes(">") && !r.op.includes("&")) || r.op === "&>" || r.op === "&>>");
      if (!outs.some((r) => writesRe.test(r.target))) return explain ? `no output redirection matches /${cond.writesTo}/` : MISMATCH;
    }
    return undefined;
  };

  return (command, ctx, explain = true) => {
    const parsed = parseShell(command, ctx);
    if (cond.tooComplex) {
      if (parsed.limit === undefined) return explain ? "the line is within the shell analysis limits" : MISMATCH;
      if (lineOnly) return undefined;
    }
    let why: string | undefined;
    for (const cmd of parsed.commands) {
      if (!isProgram(cmd.program)) continue;
      const r = check(cmd, ctx, explain, parsed.commands);
      if (r === undefined) return undefined;
      if (explain) why ??= `${cmd.program}: ${r}`;
    }
    if (!explain) return MISMATCH;
    why ??= kinds ? `no command has a ${kinds.join("/")} effect` : `no command runs ${programs.join("/")}`;
    if (parsed.limit !== undefined) return `${why} (judged unparsable, ${parsed.limit}; only what was read before the limit was checked)`;
    return parsed.fallback ? `${why} (unparsable, fell back to a plain split: ${parsed.error})` : why;
  };
}

function describeEffectCondition(cond: CommandCondition): string {
  const parts: string[] = [];
  if (cond.recursive !== undefined) parts.push(cond.recursive ? "recursive" : "non-recursive");
  if (cond.paths) parts.push(`on a path ${cond.paths.replace("_", " ")}`);
  if (cond.data) parts.push(`sending ${list(cond.data)?.join("/")}`);
  if (cond.branch) parts.push(`on a branch matching /${cond.branch}/`);
  if (cond.exceptPaths) parts.push(`outside ${cond.exceptPaths.join(", ")}`);
  if (cond.target) parts.push(`reaching ${cond.target.join(", ")}`);
  if (cond.exceptTarget) parts.push(`not reaching ${cond.exceptTarget.join(", ")}`);
  if (cond.unknownTarget !== undefined) parts.push(cond.unknownTarget ? "whose reach the line does not show" : "whose reach the line shows");
  return parts.join(", ") || "what the rule asks";
}
