/**
 * @module the `shepherd_state` path class: Shepherd's own files (rules, settings with the trust list, plugins,
 * audit log, state and cache, the binary, the pi extension) and the agents' hook settings, computed once from
 * the environment. Pure: it takes home, env, the project folder and the binary's path as input and never
 * touches the file system; symlinks are not followed here (a caller may resolve them at load and pass them
 * as `aliases`).
 */
import { isInside, normalizeAbsolute, ON_PATH_DIR, type PathGuard } from "../shell/paths.ts";
import { globToRegExp } from "../glob.ts";

export interface ProtectedPathsInput {
  home: string;
  /** Read: PI_CODING_AGENT_DIR, CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME, XDG_CONFIG_HOME, OPENCODE_CONFIG_DIR, SHEPHERD_MANAGED_DIR, PATH. */
  env: Readonly<Record<string, string | undefined>>;
  /** The session's project folder; relative env values resolve against it. */
  projectRoot: string;
  /** The running binary (process.execPath). */
  execPath?: string;
  /** The `projectRulesPattern` setting (`shepherd-rules-*.json`): those files in any `.pi/` are rule files. */
  projectRulesPattern?: string;
  /** The audit folder when the settings move it out of the state folder. */
  auditDir?: string;
  /** `[link, real]` pairs the caller resolved at load: protected paths under `link` are protected under `real` too. */
  aliases?: readonly (readonly [string, string])[];
  /** The file system ignores case (macOS, Windows defaults): `~/.PI/agent/settings.json` is the same file. */
  caseInsensitive?: boolean;
}

/** Folder names that hold Shepherd's or an agent's hook settings in any project, and the files in them that count. */
const PROJECT_FILES: Record<string, (name: string, rulesFile: RegExp) => boolean> = {
  ".pi": (n, rulesFile) => n === "settings.json" || n === "shepherd-rules.lock" || rulesFile.test(n),
  ".claude": (n) => n === "settings.json" || n === "settings.local.json",
  ".gemini": (n) => n === "settings.json",
  ".codex": (n) => n === "hooks.json" || n === "config.toml",
};

/**
 * Folders under a project's `.github/` that hold Copilot CLI hook settings: every hook file in `hooks/`, and
 * the settings whose `disableAllHooks` turns every hook off (`copilot/`). Checked with their parent, since
 * `hooks/` alone is a common source folder name.
 */
const GITHUB_FILES: Record<string, (name: string) => boolean> = {
  hooks: (n) => n.endsWith(".json"),
  copilot: (n) => n === "settings.json" || n === "settings.local.json",
};

/** `<any>/.pi/shepherd/`: a project's plugins (and anything else Shepherd keeps per project). */
const PROJECT_TREE: readonly [string, string] = [".pi", "shepherd"];

/**
 * `<any>/.opencode/plugin/shepherd*`: the OpenCode plugin `shepherd init opencode --project` writes (its entry
 * `shepherd.ts` and its `shepherd/` folder). OpenCode loads every file of `plugin/`, so removing it is an off-switch.
 */
const OPENCODE_PROJECT: readonly [string, string, string] = [".opencode", "plugin", "shepherd"];

/** A PATH lookup of a program, as a command names a file: `$(which shepherd)`, `` `command -v shepherd` ``. */
const PROGRAM_LOOKUP = /^(?:\$\(|`)(?:\s*(?:readlink\s+-[a-z]*f|realpath|dirname)\s+["']?(?:\$\(|`))*\s*(?:which|command\s+-v|type\s+-[aPp]+|whereis(?:\s+-b)?|hash\s+-t)\s+["']?([\w.+-]+)/;
/** Names the shepherd binary goes by (`shepherd`, `shepherd-linux-x64`). */
const SHEPHERD_PROGRAM = /^shepherd(?:-[\w.-]+)?$/;

/** A protected set, asked per path by the shell layer and the `paths` key of tool rules. */
export class ProtectedPaths implements PathGuard {
  readonly files: ReadonlySet<string>;
  /** Folders protected with everything in them. */
  readonly trees: readonly string[];
  /** Folders whose entries starting with a prefix are protected trees: `extensions/shepherd*`. */
  readonly prefixed: readonly (readonly [string, string])[];
  /** Folders that hold protected files: removing, moving, relinking or re-permissioning them counts. */
  readonly containers: ReadonlySet<string>;
  readonly #rulesFile: RegExp;
  readonly #fold: boolean;
  /** `trees` each with its trailing slash, and `prefixed` as one prefix: made once, not per path asked about. */
  readonly #treeHeads: readonly string[];
  readonly #prefixHeads: readonly (readonly [string, string])[];
  /** What a glob may match in the home set: the files, trees and prefixed entries (and, for a deep write, the folders holding them). */
  readonly #home: readonly string[];
  readonly #homeDeep: readonly string[];

  /** With `fold`, every path given is already lower-cased, and so is each path asked about. */
  constructor(files: Set<string>, trees: string[], prefixed: [string, string][], containers: Set<string>, rulesFile: RegExp, fold = false) {
    this.files = files;
    this.trees = trees;
    this.prefixed = prefixed;
    this.containers = containers;
    this.#rulesFile = rulesFile;
    this.#fold = fold;
    this.#treeHeads = trees.map((t) => `${t}/`);
    this.#prefixHeads = prefixed.map(([dir, prefix]) => [dir, `${dir}/${prefix}`] as const);
    this.#home = [...files, ...trees, ...this.#prefixHeads.map(([, h]) => h)];
    this.#homeDeep = [...this.#home, ...containers];
  }

  covers(path: string, deep: boolean): boolean {
    const p = this.#fold ? path.toLowerCase() : path;
    if (this.files.has(p)) return true;
    // `rm .claude/*.json`, `mv ~/.cl*/settings.json x`, git's `'*settings*'`: a glob covers what it may match.
    if (GLOB_CHAR.test(p) && !/\$\(|`/.test(p)) return this.#globCovers(p, deep);
    // The shell layer keeps a lookup (`rm $(which shepherd)`) as the word itself: it is the binary, wherever PATH has it.
    const sub = p.includes("$(") || p.includes("`") ? p.search(/\$\(|`/) : -1;
    if (sub >= 0) {
      const looked = PROGRAM_LOOKUP.exec(p.slice(p.lastIndexOf("/", sub) + 1));
      if (looked && SHEPHERD_PROGRAM.test(looked[1] ?? "")) return true;
    }
    // isInside, with each tree's head made once.
    const trees = this.trees;
    const heads = this.#treeHeads;
    for (let i = 0; i < trees.length; i++) {
      const t = trees[i] as string;
      if (t === "/" || p === t || p.startsWith(heads[i] as string)) return true;
    }
    for (const [dir, head] of this.#prefixHeads) {
      if (p.length > dir.length + 1 && p.startsWith(head)) return true;
    }
    const segs = p.split("/");
    const n = segs.length;
    const last = segs[n - 1] ?? "";
    const parent = segs[n - 2] ?? "";
    const inFolder = PROJECT_FILES[parent];
    if (inFolder?.(last, this.#rulesFile)) return true;
    if (segs[n - 3] === ".github" && GITHUB_FILES[parent]?.(last)) return true;
    for (let i = 1; i + 1 < n; i++) if (segs[i] === PROJECT_TREE[0] && segs[i + 1] === PROJECT_TREE[1]) return true;
    for (let i = 1; i + 2 < n; i++) {
      if (segs[i] === OPENCODE_PROJECT[0] && segs[i + 1] === OPENCODE_PROJECT[1] && (segs[i + 2] ?? "").startsWith(OPENCODE_PROJECT[2])) return true;
    }
    if (!deep) return false;
    return this.containers.has(p) || Object.hasOwn(PROJECT_FILES, last) || (parent === ".github" && Object.hasOwn(GITHUB_FILES, last));
  }

  /**
   * A glob covers a protected path when it may match one: each protected file, tree and folder of the home set, and
   * the project files and folders under the glob's fixed head (the folder before its first wildcard). Bounded: the
   * set has a few dozen entries, the project shapes a dozen, each tested once on the linear-time glob matcher.
   */
  /** Globs already judged (`rm -rf dist/*` is asked about by several rules): 64 keys of at most 4 KiB, cleared when full. */
  readonly #globSeen = new Map<string, boolean>();

  #globCovers(p: string, deep: boolean): boolean {
    // A long glob is judged, not kept: 64 keys of a 1 MiB command each would hold 64 MiB.
    if (p.length > 4096) return this.#globJudge(p, deep);
    const key = `${deep ? "d" : "f"}${p}`;
    const seen = this.#globSeen.get(key);
    if (seen !== undefined) return seen;
    const hit = this.#globJudge(p, deep);
    if (this.#globSeen.size >= 64) this.#globSeen.clear();
    this.#globSeen.set(key, hit);
    return hit;
  }

  #globJudge(p: string, deep: boolean): boolean {
    const cut = p.search(GLOB_CHAR);
    const headEnd = p.lastIndexOf("/", cut) + 1;
    const head = p.slice(0, headEnd);
    // Inside a protected tree (`~/.pi/agent/shepherd/*`), whatever the glob matches is protected.
    if (head !== "" && this.covers(`${head}x`, false)) return true;
    const fits = globFits(p.slice(headEnd, headEnd + 1024), deep);
    for (const c of deep ? this.#homeDeep : this.#home) if (c.length > head.length && c.startsWith(head) && fits(c.slice(head.length))) return true;
    for (const rel of projectRelPaths(deep)) if (fits(rel)) return true;
    // The head is itself such a folder: `.claude/*`, `.github/hooks/*.json`.
    for (const [dir, names] of PROJECT_SHAPES) if (head.endsWith(`/${dir}/`) || head === `${dir}/`) for (const n of names) if (fits(n)) return true;
    return false;
  }
}

const GLOB_CHAR = /[*?[]/;

/** Project folders that hold protected files, with a name of each file kind (rule files by their default name). */
const PROJECT_SHAPES: readonly (readonly [string, readonly string[]])[] = [
  [".pi", ["settings.json", "shepherd-rules.json", "shepherd-rules-local.json", "shepherd-rules.lock", "shepherd"]],
  [".claude", ["settings.json", "settings.local.json"]],
  [".gemini", ["settings.json"]],
  [".codex", ["hooks.json", "config.toml"]],
  [".github/hooks", ["hooks.json"]],
  [".github/copilot", ["settings.json", "settings.local.json"]],
  [".opencode/plugin", ["shepherd.ts", "shepherd"]],
];

/**
 * Paths under any folder that a glob may name: each project shape's files, and (deep) its folders and their parents.
 * Made on the first glob write: a hook that meets none does not pay for them at start.
 */
let projectRel: { flat: readonly string[]; deep: readonly string[] } | undefined;

function projectRelPaths(deep: boolean): readonly string[] {
  if (projectRel === undefined) {
    const flat = PROJECT_SHAPES.flatMap(([dir, names]) => names.map((n) => `${dir}/${n}`));
    projectRel = { flat, deep: [...flat, ...new Set(PROJECT_SHAPES.flatMap(([dir]) => [dir, dir.split("/")[0] as string]))] };
  }
  return deep ? projectRel.deep : projectRel.flat;
}

/**
 * A glob (relative to its fixed head) as the shell matches it against a relative path: `*` and `?` within one name,
 * `[...]` a class, and a name starting with a dot only by a pattern segment that starts with one; with `**` (git's
 * pathspecs, globstar) a wildcard crosses folders and meets dot names too. A deep write also meets what is under a
 * path it matches. Matched by the greedy two-pointer walk, never a backtracking regex: the model writes the glob.
 */
function globFits(glob: string, deep: boolean): (rel: string) => boolean {
  if (glob.includes("**")) {
    const g = glob.replace(/\*{2,}/g, "*");
    return (rel) => {
      if (wildMatch(g, rel, true)) return true;
      if (!deep) return false;
      for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1)) if (wildMatch(g, rel.slice(0, i), true)) return true;
      return false;
    };
  }
  const segs = glob.split("/");
  return (rel) => {
    const parts = rel.split("/");
    if (parts.length < segs.length || (parts.length > segs.length && !deep)) return false;
    for (let i = 0; i < segs.length; i++) {
      const g = segs[i] as string;
      const part = parts[i] as string;
      if (!g.startsWith(".") && part.startsWith(".")) return false;
      if (!wildMatch(g, part, false)) return false;
    }
    return true;
  };
}

/** `*`, `?` and `[...]` (`[!...]` negated) over `s`; `*` crosses `/` only when `anyDepth`. O(|g|·|s|) at worst. */
function wildMatch(g: string, s: string, anyDepth: boolean): boolean {
  let gi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    const c = g[gi];
    if (c === "*") {
      star = gi++;
      mark = si;
      continue;
    }
    const one = c === undefined ? -1 : c === "?" ? (s[si] !== "/" || anyDepth ? 1 : -1) : c === "[" ? classAt(g, gi, s[si] as string) : c === s[si] ? 1 : -1;
    if (one >= 0) {
      gi = c === "[" ? one : gi + 1;
      si++;
      continue;
    }
    // Back to the last `*`, which takes one more character (never a `/` unless any depth).
    if (star < 0 || (!anyDepth && s[mark] === "/")) return false;
    gi = star + 1;
    si = ++mark;
  }
  while (g[gi] === "*") gi++;
  return gi === g.length;
}

/** At a `[` of `g`: the index after the class when `ch` is in it, -1 when not (or when the class does not close). */
function classAt(g: string, at: number, ch: string): number {
  let i = at + 1;
  const negate = g[i] === "!" || g[i] === "^";
  if (negate) i++;
  let hit = false;
  let first = true;
  for (; i < g.length && (g[i] !== "]" || first); i++) {
    first = false;
    const lo = g[i] as string;
    if (g[i + 1] === "-" && g[i + 2] !== undefined && g[i + 2] !== "]") {
      if (ch >= lo && ch <= (g[i + 2] as string)) hit = true;
      i += 2;
    } else if (lo === ch) hit = true;
  }
  if (i >= g.length) return ch === "[" ? at + 1 : -1;
  return hit !== negate && ch !== "/" ? i + 1 : -1;
}

/** The protected set for one project and environment. */
export function protectedPaths(input: ProtectedPathsInput): ProtectedPaths {
  const home = normalizeAbsolute(input.home || "/");
  const abs = (p: string) => normalizeAbsolute(p.startsWith("/") ? p : `${input.projectRoot}/${p}`);
  const envDir = (key: string) => {
    const v = input.env[key];
    return v ? abs(v.startsWith("~/") ? home + v.slice(1) : v) : undefined;
  };
  const files = new Set<string>();
  const trees: string[] = [];
  const prefixed: [string, string][] = [];
  const containers = new Set<string>();
  const container = (dir: string) => {
    if (dir !== "/" && dir !== home) containers.add(dir);
  };

  // Each folder a variable moves stays protected at its default place too: a later process may not set the
  // variable (and a repository's files may have set it for this one), so both places are the user's.
  const both = (key: string, fallback: string) => [...new Set([fallback, envDir(key) ?? fallback])];
  for (const agent of both("PI_CODING_AGENT_DIR", `${home}/.pi/agent`)) {
    files.add(`${agent}/shepherd-rules.json`);
    // The pack lock (lib/rules/packs/): which hashes a pack must have. The pack cache is under `${agent}/shepherd`.
    files.add(`${agent}/shepherd-rules.lock`);
    files.add(`${agent}/settings.json`);
    // Plugins, audit log, session state, caches and the remembered approvals (approvals.json) all live here.
    trees.push(`${agent}/shepherd`);
    prefixed.push([`${agent}/extensions`, "shepherd"]);
    container(agent);
    container(`${agent}/extensions`);
    const agentParent = agent.slice(0, agent.lastIndexOf("/")) || "/";
    container(agentParent);
  }
  if (input.auditDir) trees.push(abs(input.auditDir));

  for (const claude of both("CLAUDE_CONFIG_DIR", `${home}/.claude`)) {
    files.add(`${claude}/settings.json`);
    files.add(`${claude}/settings.local.json`);
    container(claude);
  }
  for (const codex of both("CODEX_HOME", `${home}/.codex`)) {
    files.add(`${codex}/hooks.json`);
    files.add(`${codex}/config.toml`);
    container(codex);
  }
  for (const geminiHome of both("GEMINI_CLI_HOME", home)) {
    files.add(`${geminiHome}/.gemini/settings.json`);
    container(`${geminiHome}/.gemini`);
  }
  for (const copilot of both("COPILOT_HOME", `${home}/.copilot`)) {
    files.add(`${copilot}/settings.json`);
    container(copilot);
  }
  // OpenCode loads every file of its plugin folders; `shepherd init opencode` puts `shepherd.ts` and `shepherd/` there.
  const opencodeDirs = [...both("XDG_CONFIG_HOME", `${home}/.config`).map((d) => `${d}/opencode`), envDir("OPENCODE_CONFIG_DIR")];
  for (const dir of opencodeDirs) {
    if (dir === undefined) continue;
    prefixed.push([`${dir}/plugin`, "shepherd"]);
    container(`${dir}/plugin`);
    container(dir);
  }

  // The managed policy folder (lib/rules/managed.ts), with everything in it.
  // The default folder stays protected when the variable moves it: a later process may not set it.
  for (const managed of new Set(["/etc/shepherd", envDir("SHEPHERD_MANAGED_DIR") ?? "/etc/shepherd"])) {
    trees.push(managed);
    container(managed);
  }

  if (input.execPath) files.add(abs(input.execPath));
  for (const dir of (input.env.PATH ?? "").split(":")) if (dir.startsWith("/")) files.add(normalizeAbsolute(`${dir}/shepherd`));
  // `rm "$(which shepherd)"`: the shell layer reads a PATH lookup as a file in ON_PATH_DIR.
  files.add(`${ON_PATH_DIR}/shepherd`);

  for (const [link, real] of input.aliases ?? []) {
    const from = normalizeAbsolute(link);
    const to = normalizeAbsolute(real);
    if (from === to) continue;
    const moved = (p: string) => (isInside(p, from) ? to + p.slice(from.length) : undefined);
    for (const f of [...files]) { const m = moved(f); if (m) files.add(m); }
    for (const t of [...trees]) { const m = moved(t); if (m) trees.push(m); }
    for (const [d, pre] of [...prefixed]) { const m = moved(d); if (m) prefixed.push([m, pre]); }
    for (const c of [...containers]) { const m = moved(c); if (m) container(m); }
  }

  const pattern = input.projectRulesPattern ?? "shepherd-rules-*.json";
  const custom = globToRegExp(pattern);
  const fold = input.caseInsensitive === true;
  const rulesFile = new RegExp(`^shepherd-rules[^/]*\\.json$|${custom.source}`, fold ? "i" : "");
  if (!fold) return new ProtectedPaths(files, trees, prefixed, containers, rulesFile);
  const lower = (x: string) => x.toLowerCase();
  return new ProtectedPaths(
    new Set([...files].map(lower)),
    trees.map(lower),
    prefixed.map(([d, pre]) => [lower(d), lower(pre)]),
    new Set([...containers].map(lower)),
    rulesFile,
    true,
  );
}

const defaults = new Map<string, ProtectedPaths>();

/**
 * The set a context without one gets (inline tests, replay, tools built before the env is known): the
 * home-based defaults, memoized per home and project.
 */
export function defaultProtectedPaths(home: string, projectRoot: string): ProtectedPaths {
  const key = `${home}\0${projectRoot}`;
  let hit = defaults.get(key);
  if (!hit) {
    if (defaults.size >= 64) defaults.clear();
    hit = protectedPaths({ home, env: {}, projectRoot });
    defaults.set(key, hit);
  }
  return hit;
}
