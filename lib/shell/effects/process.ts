/** @module process and release effects: unbounded spawning (fork bombs by structure), publishing, interpreter code. */
import type { SimpleCommand } from "../types.ts";
import type { Analysis } from "../flags.ts";
import { isSecretPath } from "./secrets.ts";
import { ORM_WIPE, SQL_DESTROY } from "./infra.ts";
import { CMD_SECRET_VAR, ENV_SECRET, SECRET_VAR } from "../secret-names.ts";
import { effect, type Effect } from "./types.ts";
import { isPythonName, nameTest } from "../program-names.ts";

const GRADLE_PUBLISH = /(?:^|:)(?:publish(?!ToMavenLocal$)\w*|uploadArchives|closeAndReleaseRepository|closeAndReleaseStagingRepositor(?:y|ies)|releaseRepository|publishPlugins)$/;
const MAVEN_PUBLISH = /^(?:deploy|release:perform|deploy:deploy-file|nexus-staging:(?:release|deploy)|gpg:sign-and-deploy-file|jreleaser:(?:deploy|full-release|release))$/;
const DRY = (cmd: SimpleCommand) => cmd.argv.some((w) => w === "--dry-run" || w === "--dry-run=true" || w === "--dryrun" || w === "-d" || w === "--snapshot" || w === "--skip-publish" || w === "-n" || w === "--just-print");
/** Release tools whose first operand says they publish: `wasm-pack publish`, `nuget push`, `fly deploy`... */
const PUBLISH_VERB: Record<string, RegExp> = {
  "wasm-pack": /^publish$/, maturin: /^(?:publish|upload)$/, nuget: /^push$/, fly: /^deploy$/, flyctl: /^deploy$/, lein: /^deploy$/, snapcraft: /^(?:upload|push|release)$/,
  "ansible-galaxy": /^(?:publish|import)$/, firebase: /^deploy$/, jsr: /^publish$/, conan: /^upload$/, helm: /^push$/, wrangler: /^(?:deploy|publish)$/, heroku: /^(?:releases:rollback|container:release)$/,
  vsce: /^publish$/, ovsx: /^publish$/, twine: /^upload$/, gem: /^(?:push|yank)$/, cargo: /^yank$/, pod: /^trunk$/, hex: /^publish$/, pulumi: /^up$/, serverless: /^deploy$/, sls: /^deploy$/,
};

/** Options of npm and pnpm that take the next word, so that `pnpm --filter ui publish` finds its subcommand. */
const NPM_VALUED = new Set(["--filter", "-F", "--dir", "-C", "--reporter", "--workspace-concurrency", "--loglevel", "--registry", "--prefix", "--workspace", "-w", "--tag", "--otp", "--access"]);
function npmSub(a: readonly string[]): string | undefined {
  for (let i = 1; i < a.length; i++) {
    const w = a[i] ?? "";
    if (!w.startsWith("-")) return w;
    if (!w.includes("=") && NPM_VALUED.has(w)) i++;
  }
  return undefined;
}

export function publishEffects(cmd: SimpleCommand, an: Analysis): Effect[] {
  const p = cmd.program;
  let what: string | undefined;
  if (p === "gradle" || p === "gradlew" || p === "gradlew.bat") {
    const tasks = cmd.argv.slice(1).filter((w) => !w.startsWith("-") && GRADLE_PUBLISH.test(w));
    if (tasks.length > 0 && !cmd.argv.includes("--dry-run") && !cmd.argv.includes("-m")) what = `gradle ${tasks.join(" ")}`;
  } else if (p === "mvn" || p === "mvnw" || p === "mvnw.cmd") {
    const goals = cmd.argv.slice(1).filter((w) => MAVEN_PUBLISH.test(w));
    if (goals.length > 0) what = `maven ${goals.join(" ")}`;
  } else if (p === "semantic-release" || p === "np" || p === "release-it" || p === "jreleaser") {
    if (!DRY(cmd)) what = p;
  } else if ((p === "lerna" || p === "changeset") && an.sub === "publish") {
    if (!DRY(cmd)) what = `${p} publish`;
  } else if (p === "cargo" && an.sub === "release") {
    if (cmd.argv.includes("--execute") || cmd.argv.includes("-x")) what = "cargo release --execute";
  } else if (p === "goreleaser" && (cmd.argv[1] === "release" || cmd.argv.length === 1 || cmd.argv[1]?.startsWith("-"))) {
    if (!DRY(cmd)) what = "goreleaser release";
  } else if ((p === "make" || p === "rake" || p === "just" || p === "task" || p === "mage") && !cmd.recipesRead && cmd.argv.slice(1).some((w) => /^(?:release|publish|deploy|upload)(?::\w+)?$/.test(w)) && !DRY(cmd) && !cmd.argv.includes("--recon")) {
    what = `${p} ${cmd.argv.slice(1).join(" ")}`;
  } else if (p === "sbt" && cmd.argv.slice(1).some((w) => /^\+?(?:publish(?!Local)\w*|release|sonatypeBundleRelease)$/.test(w))) {
    what = "sbt publish";
  } else if (p === "dotnet" && an.sub === "nuget") {
    // Only `dotnet nuget push`/`delete` reach a feed; `locals --clear`, `list source`, `add source` stay on this machine.
    const verb = cmd.argv.slice(2).find((w) => !w.startsWith("-")) ?? "";
    if ((verb === "push" || verb === "delete") && !DRY(cmd)) what = `dotnet nuget ${verb}`;
  } else if ((Object.hasOwn(PUBLISH_VERB, p) ? PUBLISH_VERB[p] : undefined)?.test(cmd.argv.slice(1).find((w) => !w.startsWith("-")) ?? "")) {
    if (!DRY(cmd)) what = `${p} ${cmd.argv.slice(1).find((w) => !w.startsWith("-"))}`;
  } else if ((p === "npm" || p === "pnpm") && /^(?:pub|publish|unpublish|deprecate|dist-tag)$/.test(npmSub(cmd.argv) ?? "") && !DRY(cmd)) {
    what = `${p} ${npmSub(cmd.argv)}`;
  } else if ((p === "npm" || p === "pnpm" || p === "yarn" || p === "bun") && (an.sub === "run" || an.sub === "run-script") && /^(?:release|publish|deploy)(?::\w+)?$/.test(an.positional[0] ?? "") && !DRY(cmd)) {
    what = `${p} run ${an.positional[0]}`;
  } else if ((p === "docker" || p === "podman") && ((an.sub === "image" && an.positional[0] === "push") || ((an.sub === "buildx" || an.sub === "build") && cmd.argv.includes("--push")))) {
    what = `${p} push`;
  } else if ((p === "vercel" && (cmd.argv.includes("--prod") || an.sub === "deploy" && cmd.argv.includes("--prod"))) || (p === "netlify" && an.sub === "deploy" && cmd.argv.includes("--prod"))) {
    what = `${p} --prod`;
  } else if (isPythonName(p) && cmd.argv[1] === "setup.py" && cmd.argv.some((w) => w === "upload" || w === "register")) {
    what = "setup.py upload";
  } else if ((p === "jsr" && an.sub === "publish") || (p === "conan" && an.sub === "upload") || (p === "swift" && an.sub === "package-registry" && an.positional[0] === "publish") || (p === "dart" && an.sub === "pub" && an.positional[0] === "publish") || (p === "flutter" && an.sub === "pub" && an.positional[0] === "publish") || (p === "mix" && /^hex\.publish$/.test(cmd.argv[1] ?? "")) || (p === "poetry" && an.sub === "publish")) {
    if (!DRY(cmd)) what = `${p} ${an.sub ?? ""} publish`;
  } else if ((p === "flutter" || p === "dart") && cmd.argv[1] === "pub" && cmd.argv[2] === "publish" && !DRY(cmd)) {
    what = `${p} pub publish`;
  } else if (p === "ansible-galaxy" && cmd.argv.includes("publish")) {
    what = "ansible-galaxy publish";
  } else if (p === "aws" && cmd.argv.some((w) => /^publish-package-version$|^publish-layer-version$/.test(w))) {
    what = "aws publish";
  } else if (p === "yarn" && cmd.argv.includes("publish") && cmd.argv.includes("npm")) {
    what = "yarn ... npm publish";
  }
  return what === undefined ? [] : [effect("publish", `publishes a release (${what})`)];
}

// Was /^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|bun|deno|perl|ruby|php|Rscript|R|awk|gawk|mawk|nawk|lua|luajit|julia|tclsh|wish|jshell|groovy|scala|elixir|erl|swift|osascript|raku|qjs)$/: the same names, tested with a set lookup (program-names.ts).
const INTERPRETER = nameTest(["node", "nodejs", "bun", "deno", "perl", "ruby", "php", "Rscript", "R", "awk", "gawk", "mawk", "nawk", "lua", "luajit", "julia", "tclsh", "wish", "jshell", "groovy", "scala", "elixir", "erl", "swift", "osascript", "raku", "qjs"], { python: true, pypy: true });
const LOOP = /\b(?:while|loop|until|repeat|setInterval)\b|\bfor\s*\(\s*;\s*;|iter\(\s*int|itertools\.count|\bfor\s*\{/;
const FORK = /(?:\b|_)fork\s*(?:\(|\b)|child_process['"]\s*\)\s*\.\s*(?:exec\w*|spawn\w*)\s*\(|\bProcess\s*\((?:[^()]|\([^()]{0,100}\)){0,200}\)\s*\.\s*start\s*\(|\bspawn\s*\(|\bPopen\s*\(|\bexec[lv]p?e?\s*\(|ForkExec|\b(?:os\.execute|system|os\.system|io\.popen|exec)\s*\(?\s*['"][^'"]*&\s*['"]/;
const DECODE = /b64decode|Base64\.decode|decode64|Buffer\.from\([^)]{0,200}['"]base64['"]|\batob\s*\(|base64_decode|MIME::Base64|unpack\(['"]m/;
const RUN = /\bexec\s*\(|\beval\s*\(|\bsystem\s*\(|os\.system|subprocess|execSync|child_process|\bspawn|`|%x|\bshell_exec|\bpassthru|\beval\b/;
const FETCH_CODE = /urlopen|requests\.get|\bget\s*\(\s*['"]https?:|LWP::Simple|fetch\s*\(|http\.get|Net::HTTP|open-uri|URI\.open|file_get_contents\s*\(\s*['"]https?:|curl_exec/;
const REVERSE = /socket|create_connection|TCPSocket|IO::Socket|net\.connect|fsockopen/;
const PTY = /pty\.spawn|dup2|\/bin\/(?:ba)?sh|exec\s*\(\s*['"](?:ba)?sh|spawn\(['"](?:\/bin\/)?(?:ba)?sh/;
const DEVICE_CODE = /['"]\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d)[^'"]{0,64}['"]\s*,\s*['"][rwab+]{0,3}w/;
const ENV_WHOLE = /\bENVIRON\s*\[\s*[A-Za-z_]\w*\s*\]|\$ENV\{\s*\$\w+\s*\}|\bos\.environ\[\s*[A-Za-z_]\w*\s*\]|\bprocess\.env\[\s*[A-Za-z_]\w*\s*\]|Deno\.env\.toObject|\bos\.environ\b(?!\s*(?:\[|\.get\b))|\bprocess\.env\b(?!\s*(?:\.|\[))|%ENV\b|\bENV\.(?:to_h|to_a|each|inspect)\b|\$_ENV\b(?!\s*\[)|\bgetenv\(\s*\)/;

const SENDS = /\burlopen\b|\brequests\.\w+\(|\bfetch\s*\(|\bhttps?\.request\b|\bhttp\.client\b|\bsocket\b|Net::HTTP|LWP|IO::Socket|\bcurl_exec\b|\bfile_get_contents\s*\(\s*['"]https?:|\baxios\b|XMLHttpRequest|\.post\s*\(/;
const ENV_NAMES_ONLY = /\bObject\.(?:keys|getOwnPropertyNames)\(\s*process\.env\s*\)|\blen\(\s*os\.environ\s*\)|\bos\.environ\.keys\(\s*\)|\bkeys\s+%ENV\b|\bENV\.(?:keys|size|length)\b/g;
/** A call that hands a string to a database driver: `query(`, `execute(`, `exec(`, `run(`, `raw(`. */
const SQL_CALL = /\b(?:query|execute|executescript|executemany|exec|run|raw|sql|prepare|\$executeRawUnsafe|\$queryRawUnsafe)\s*\(/;
/**
 * Whether a variable is set, never its value: `!!process.env.X`, `'X' in os.environ`, `os.getenv('X') is None`,
 * `bool(os.environ.get('X'))`, `defined $ENV{X}`, `ENV.key?('X')`, `isset($_ENV['X'])`, `process.env.X ? a : b`.
 */
const PRESENCE_TEST = /!!\s*process\.env(?:\.\w+|\[[^\]]{1,80}\])|Boolean\(\s*process\.env(?:\.\w+|\[[^\]]{1,80}\])\s*\)|['"]\w{1,80}['"]\s+(?:not\s+)?in\s+(?:os\.environ|process\.env|ENV)\b|os\.(?:getenv|environ\.get)\([^()]{1,80}\)\s+is\s+(?:not\s+)?None|bool\(\s*os\.(?:getenv|environ\.get)\([^()]{1,80}\)\s*\)|(?:defined|exists)\s*\(?\s*\$ENV\{[^}]{1,80}\}|ENV\.(?:key|has_key|include)\?\s*\(?[^()]{1,80}\)?|isset\(\s*\$_ENV\[[^\]]{1,80}\]\s*\)|process\.env\.\w+\s*\?(?!\?|\.)|\b\w{1,80}\s+in\s+process\.env/g;
/** A call that prints its argument: the text just before a string literal. */
const PRINTS_LITERAL = /(?:console\.(?:log|error|info|warn)|\bprint|\bputs|\becho|\bsay|\bprintf|\bprintln|\bp)\s*\(?\s*$/;
const STRING = /(['"])(?:(?!\1)[^\\]|\\.)*\1/g;
const QUOTED = /(['"])((?:(?!\1)[^\\\n]|\\.){1,300})\1/g;

/** Effects of interpreter code given on the command line (the deletes and commands it runs are unwrapped elsewhere). */
export function codeEffects(cmd: SimpleCommand): Effect[] {
  if (!INTERPRETER.test(cmd.program)) return [];
  // Capped: a one-liner is short, and the scans below stay linear in what is kept.
  // `exec('import os\nwhile 1: os.fork()')`: an escaped newline inside a string is a line break of the code it runs.
  const code = cmd.argv.slice(1).filter((w) => !/^-[A-Za-z]+$/.test(w)).join("\n").slice(0, 1 << 16).replace(/\\[nt]/g, "\n");
  if (code.length === 0) return [];
  const out: Effect[] = [];
  // `perl -e 'print "fork while 1\n"'` prints the words: the loop is code outside strings, unless the code runs a string (`exec('...')`).
  const bare = code.replace(STRING, '""');
  if ((LOOP.test(bare) && FORK.test(code)) || (RUN.test(bare) && LOOP.test(code) && FORK.test(code))) out.push(effect("spawn-unbounded", "forks in an endless loop (fork bomb)"));
  if (DECODE.test(code) && RUN.test(code)) out.push(effect("decoded-code", "decodes data and runs it as code"));
  if (FETCH_CODE.test(code) && /\beval\b|\bexec\s*\(|\bsystem\s*\(|instance_eval/.test(code)) out.push(effect("remote-code", "runs code fetched from the network"));
  if (REVERSE.test(code) && PTY.test(code)) out.push(effect("remote-code", "opens a reverse shell (a socket wired to a shell)"));
  if (DEVICE_CODE.test(code)) out.push(effect("device-write", "opens a disk device for writing"));
  for (const m of code.matchAll(/\bchmod\s*\(\s*['"](\/[^'"]{1,200})['"]\s*,\s*0o?(?:[0-7]?777|[0-7]?666|[4-7][0-7]{3})\b/g)) out.push(effect("permissions", `sets an unsafe mode on ${m[1]}`, [m[1] ?? "/"], { data: "unsafe-mode" }));
  const secrets: string[] = [];
  for (const m of code.matchAll(QUOTED)) {
    // perl's and ruby's two-argument open: `open F, "<.env"`, `"+<key.pem"`, `"< ~/.netrc"`.
    const s = (m[2] ?? "").replace(/^\+?<\s*/, "");
    // `console.log('~/.ssh/id_rsa')`, `print("see .env")`: a name handed straight to a print call is text, not a file opened.
    if (isSecretPath(s) && !PRINTS_LITERAL.test(code.slice(Math.max(0, (m.index ?? 0) - 24), m.index))) secrets.push(s);
  }
  if (ENV_SECRET.test(code.replace(PRESENCE_TEST, ""))) secrets.push("a secret environment variable");
  // `Object.keys(process.env)`, `len(os.environ)`, `keys %ENV`: the names or their count, not the values.
  const envCode = code.replace(ENV_NAMES_ONLY, "").replace(PRESENCE_TEST, "");
  // `node -e "db.query('DELETE FROM clinics')"`: a statement run through a database driver, not printed.
  const sql = SQL_CALL.test(code) ? SQL_DESTROY.exec([...code.matchAll(QUOTED)].map((m) => m[2] ?? "").join("\n")) : null;
  if (sql !== null) out.push(effect("remote-delete", `deletes remote data or infrastructure (runs ${sql[0].trim()} through a database driver)`));
  else if (ORM_WIPE.test(code.replace(STRING, '""'))) out.push(effect("remote-delete", "deletes remote data or infrastructure (an ORM call that deletes every row of a model)"));
  if (ENV_WHOLE.test(envCode) && SENDS.test(code)) out.push(effect("network-send", "sends the environment over the network", [], { data: "env" }));
  else if (ENV_WHOLE.test(envCode)) secrets.push("the whole environment");
  if (secrets.length > 0) out.push(effect("secret-read", `reads secrets: ${secrets.join(" ")}`, secrets.filter((s) => !s.startsWith("a ") && !s.startsWith("the "))));
  return out;
}

/**
 * `${#TOKEN}` (its length), `${TOKEN:+set}` / `${TOKEN+x}` (a word in its place when set): the value never shows.
 * cmd's `%GITHUB_TOKEN%` is the same variable as `$GITHUB_TOKEN`.
 */
const NOT_THE_VALUE = /\$\{#\w+\}|\$\{\w+:?\+[^}]*\}/g;
const secretValue = (w: string): boolean => {
  const v = w.replace(NOT_THE_VALUE, "");
  return SECRET_VAR.test(v) || CMD_SECRET_VAR.test(v);
};
/** Programs that print what their standard input holds (`cat <<< "$TOKEN"`); `[`, `read`, `test` and counters do not. */
// Was /^(?:cat|tee|tac|rev|head|tail|base64|base32|xxd|od|hexdump|sed|awk|gawk|tr|cut|sort|uniq|nl|fold|less|more|strings|jq|yq|column|paste|grep|rg|python[0-9.]*|node|perl|ruby|pbcopy|xclip|xsel|clip|clip\.exe)$/: the same names, tested with a set lookup (program-names.ts).
const ECHOES_STDIN = nameTest(["cat", "tee", "tac", "rev", "head", "tail", "base64", "base32", "xxd", "od", "hexdump", "sed", "awk", "gawk", "tr", "cut", "sort", "uniq", "nl", "fold", "less", "more", "strings", "jq", "yq", "column", "paste", "grep", "rg", "node", "perl", "ruby", "pbcopy", "xclip", "xsel", "clip", "clip.exe"], { python: true });

/** `echo $AWS_SECRET_ACCESS_KEY`, `cat <<< "$GITHUB_TOKEN"`: a credential printed into the conversation. */
export function printsSecretVar(cmd: SimpleCommand): Effect[] {
  const hit = cmd.program === "echo" || cmd.program === "printf" ? cmd.argv.slice(1).filter((w, k) => cmd.dynamic[k + 1] && secretValue(w)) : [];
  if (cmd.redirects.length > 0 && ECHOES_STDIN.test(cmd.program)) for (const r of cmd.redirects) if (r.op === "<<<" && secretValue(r.target)) hit.push(r.target);
  return hit.length > 0 ? [effect("secret-read", `prints ${hit.join(" ")}`)] : [];
}

export function spawnEffects(cmd: SimpleCommand): Effect[] {
  return cmd.selfSpawn ? [effect("spawn-unbounded", `${cmd.program || "a command"} spawns copies of itself without bound (fork bomb)`)] : [];
}

/** Programs that shut the machine down or restart it; their cancel, dry and status forms do nothing of the sort. */
const POWER = new Set(["shutdown", "shutdown.exe", "reboot", "halt", "poweroff", "stop-computer", "restart-computer", "systemctl", "loginctl", "init", "telinit"]);

/** Shutting down or restarting the machine (`shutdown /s /t 0`, `Stop-Computer -Force`, `systemctl poweroff`): everything running stops. */
export function powerEffects(cmd: SimpleCommand): Effect[] {
  const p = cmd.program;
  // `echo b > /proc/sysrq-trigger`: the kernel reboots, crashes or powers off at once.
  if ((cmd.redirects.length > 0 && cmd.redirects.some((r) => r.op.includes(">") && r.target === "/proc/sysrq-trigger")) || (p === "tee" && cmd.argv.includes("/proc/sysrq-trigger"))) return [effect("power-off", "writes to /proc/sysrq-trigger: the kernel stops or restarts the machine at once")];
  if (!POWER.has(p)) return [];
  const a = cmd.argv.slice(1).map((w) => w.toLowerCase());
  if (p === "systemctl" || p === "loginctl") return a.some((w) => /^(?:poweroff|reboot|halt|kexec|suspend|hibernate|soft-reboot)$/.test(w)) ? [effect("power-off", `${p} ${a.find((w) => !w.startsWith("-"))}: the machine stops or restarts`)] : [];
  if (p === "init" || p === "telinit") return a[0] === "0" || a[0] === "6" ? [effect("power-off", `${p} ${a[0]}: the machine stops or restarts`)] : [];
  // shutdown -c / /a cancels, -k only warns; `shutdown /?` is help.
  if (a.some((w) => w === "-c" || w === "/a" || w === "-k" || w === "--no-wall" && a.length === 1 || w === "/?" || w === "-whatif")) return [];
  return [effect("power-off", `${p}: the machine stops or restarts (running work, other sessions and unsaved files included)`)];
}
