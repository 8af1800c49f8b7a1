/** @module which paths hold secrets, and which programs read the files they are given. */
import type { SimpleCommand } from "../types.ts";
import type { Analysis } from "../flags.ts";
import { effect, type Effect } from "./types.ts";

import { SECRET_NAME, SECRET_PATTERN } from "../secret-names.ts";

/** Base names of files that hold secrets (templates such as .env.example are not secrets). */
const SECRET_NAMES = new Set([
  ".envrc", ".dev.vars", ".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".vault-token", "accesstokens.json", "logins.json", "cookies.sqlite", "key4.db",
  ".htpasswd", "credentials", "credentials.json", "credentials.toml", "credentials.yml", "credentials.yaml", "credentials.db", "credentials.xml", "credentials.csv",
  "application_default_credentials.json", "credentials.tfrc.json", "secret.yml", "secret.yaml", "secret.json", "secret.toml", "secret.env", "secrets.yml", "secrets.yaml",
  "secrets.json", "secrets.toml", "secrets.env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", ".ssh", ".gnupg", ".aws", ".password-store",
  ".boto", ".s3cfg", ".vault-token", "rclone.conf", "msal_token_cache.json", "msal_token_cache.bin", "accesstokens.json", "service_principal_entries.json",
]);
/** Files that hold a tool's login only inside its own folder: `~/.m2/settings.xml`, `~/.fly/config.yml` (the same name elsewhere is ordinary). */
const STORE_FILES: Record<string, readonly string[]> = {
  ".m2": ["settings.xml", "settings-security.xml"],
  ".gradle": ["gradle.properties"],
  "github-copilot": ["hosts.json", "apps.json"],
  doctl: ["config.yaml"],
  ".netlify": ["config.json"],
  ".fly": ["config.yml"],
  ".cargo": ["credentials", "credentials.toml"],
  ".gem": ["credentials"],
  ".terraform.d": ["credentials.tfrc.json"],
  ".azure": ["msal_token_cache.json", "accesstokens.json", "service_principal_entries.json"],
};
const SECRET_STORE_SUFFIXES = [".keychain", ".keychain-db", ".keyring", ".kdbx"];
const ENV_TEMPLATES = new Set(["example", "sample", "template", "dist", "defaults"]);
const SECRET_SUFFIXES = [".key", ".tfvars", ".p12", ".pfx", ".keystore", ".jks"];
/** Directories every file of which is a secret, as the parent's base name. */
const SECRET_DIRS = new Set([".ssh", ".aws", ".gnupg", ".password-store"]);

/** Inside ~/.ssh, what is public. */
const SSH_PUBLIC = new Set(["known_hosts", "known_hosts.old", "config", "authorized_keys"]);

/** Data files (not code) whose name says they hold credentials: `gcp-credentials.json`, `oauth_creds.json`, `db-secret.yaml`, `firebase-service-account.json`, `kubeconfig`. */
const CREDENTIAL_WORD = /(?:^|[-_.])(?:credentials?|creds|secrets?|service[-_]?account(?:[-_]?key)?|serviceaccountkey|kubeconfig)(?:[-_.]|$)/;
const DATA_EXT = /\.(?:json|ya?ml|toml|env|ini|xml|txt|conf|cfg|properties|csv|tsv)$/;
/** A template, a schema or a fake names the shape of a secret, not one. */
const NOT_REAL = /(?:^|[-_.])(?:example|sample|template|tmpl|dist|schema|mock|fake|dummy|placeholder)(?:[-_.]|$)/;

function namedCredentialFile(base: string): boolean {
  if (base.length > 255) return false;
  // Both ways to a true below need one of these: most names are out after two cheap tests.
  if (!base.includes("kubeconfig") && (!base.includes(".") || !DATA_EXT.test(base))) return false;
  if (NOT_REAL.test(base)) return false;
  // kubeconfig has no extension as often as it has one (`./kubeconfig`, `prod.kubeconfig`).
  if (/^(?:[\w.-]+[-_.])?kubeconfig(?:[-_.][\w-]+)?(?:\.ya?ml)?$/.test(base)) return true;
  return DATA_EXT.test(base) && CREDENTIAL_WORD.test(base.replace(/\.[^.]+$/, ""));
}

/**
 * Whether a path word names a secret file. Pure text, in time linear in the word (no backtracking pattern:
 * a hostile 64 KB argument costs one pass). No file is read: a link already in the project that points to a
 * secret is not seen here (the read tool's own rule sees the path it is given).
 */
function isSecretName(word: string): boolean {
  // `https://example.com/.env` names a file on another host, not this one (`file://` is this one).
  if (/^(?:https?|ftps?|s3|gs|wss?):\/\//i.test(word)) return false;
  // `@.env`, `HEAD:.env`, `if=.env`, `f=@k.yaml`: the name starts after the last separator.
  const cut = Math.max(word.lastIndexOf("/"), word.lastIndexOf("@"), word.lastIndexOf("="), word.lastIndexOf(":"));
  const base = word.slice(cut + 1).toLowerCase();
  const slash = word.lastIndexOf("/");
  const parent = slash > 0 ? word.slice(word.lastIndexOf("/", slash - 1) + 1, slash).toLowerCase() : "";
  const grand = slash > 0 ? word.slice(0, slash) : "";
  if (word.length === 4 && word.toLowerCase() === "env:") return true;
  // PowerShell's env: drive: `Get-Content env:GITHUB_TOKEN`.
  // (The regexes below run only on words that can match them: this is asked of every word of most commands.)
  if ((word.charCodeAt(0) | 32) === 101 && /^env:\/?\w+$/i.test(word)) return SECRET_NAME.test(word.replace(/^env:\/?/i, ""));
  // `~/.ssh/config.example`, `credentials.sample`: a template holds no secret.
  if (base.includes(".") && /\.(?:example|sample|template|tmpl|dist)$/.test(base)) return false;
  // The system's password hashes.
  if (word.startsWith("/etc/") && /^\/etc\/g?shadow-?$|^\/etc\/master\.passwd$/.test(word)) return true;
  if (parent === ".ssh") return !base.endsWith(".pub") && !SSH_PUBLIC.has(base);
  // `~/.aws/config` holds profiles and regions; the keys are in `credentials` (and the SSO and CLI caches).
  if (parent === ".aws") return base !== "config";
  if (SECRET_DIRS.has(parent)) return true;
  // The stores themselves, named as directories (`rsync -a ~/.config/gh/ x`, `cp -r ~/.kube x`).
  if (parent === ".config" && (base === "gh" || base === "gcloud" || base === "op" || base === "hub")) return true;
  if (slash > 0 && /^\.(?:ssh|aws|gnupg|password-store|kube|azure)$/.test(base)) return true;
  if (base === ".env") return true;
  if (base.startsWith(".env.")) return !ENV_TEMPLATES.has(base.slice(5)) && base.length > 5;
  if (SECRET_NAMES.has(base)) return true;
  if (STORE_FILES[parent]?.includes(base) === true) return true;
  // Wrangler's login: `~/.wrangler/config/default.toml`.
  if (parent === "config" && base === "default.toml" && grand.endsWith("/.wrangler/config")) return true;
  if (SECRET_STORE_SUFFIXES.some((x) => base.endsWith(x) && base.length > x.length)) return true;
  if (base.endsWith(".pem")) return base.includes("private") || base.includes("privkey") || base.includes("_key") || base.includes("-key");
  if (SECRET_SUFFIXES.some((x) => base.endsWith(x) && base.length > x.length)) return true;
  if (base.startsWith("service") && base.endsWith(".json") && base.includes("account")) return true;
  if (namedCredentialFile(base)) return true;
  // `@/proc/self/environ`, `if=/proc/1/environ`: the name after a separator.
  if (base === "environ" && /(?:^|[@=:])\/proc\/[^/]+$/.test(grand)) return true;
  if (parent === ".kube" && base.startsWith("config")) return true;
  if (parent === ".docker" && base === "config.json") return true;
  // A tool's login under a dot-directory (`~/.config/composer/auth.json`, `~/.composer/auth.json`, `~/.codex/auth.json`);
  // an `auth.json` elsewhere is as often an i18n bundle (`locales/en/auth.json`).
  // The same for a bearer token file (`~/.kimi-code/server.token`), and under a tool's home named by its variable
  // (`$CODEX_HOME/auth.json`, `${CLAUDE_CONFIG_DIR}/auth.json`).
  const loginFile = base === "auth.json" || base === "token" || (base.endsWith(".token") && base.length > 6);
  if (loginFile && (parent.startsWith(".") || grand.includes("/.") || grand.startsWith(".") || /(?:^|\/)\$\{?[A-Za-z_]*(?:HOME|CONFIG_DIR|DATA_DIR)\}?$/.test(grand))) return true;
  // A Chromium-family browser's saved logins and cookies (`~/.config/google-chrome/Default/Login Data`).
  if ((base === "cookies" || base === "login data" || base === "web data") && /(?:chrom|brave|edge|vivaldi|opera)/i.test(grand)) return true;
  if (parent === "gh" && base === "hosts.yml" && grand.endsWith("/.config/gh")) return true;
  // gh on Windows: `%APPDATA%\GitHub CLI\hosts.yml`.
  if (parent === "github cli" && base === "hosts.yml") return true;
  if (parent === "op" && base === "config" && grand.endsWith("/.config/op")) return true;
  if (grand.includes("/gcloud") && (base === "credentials.db" || base.endsWith(".json"))) return true;
  return grand.includes("/.gnupg/") || grand.includes("/.password-store/");
}

/** Names a glob could expand to that would be secrets: `cat .env*`, `cat ~/.ssh/id_*`. */
const SECRET_SAMPLES = [".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", "credentials", "server.key", "secrets.json", "private-key.pem", "hosts.yml", "config.json", "config", ".netrc", ".npmrc", ".pgpass", ".git-credentials"];

/** A glob as a regex, only on short names (a file name is at most 255 bytes), so the test stays cheap. */
function globToRegex(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? "";
    const close = ch === "[" ? glob.indexOf("]", i + 1) : -1;
    if (close > i + 1) {
      // A bracket class: `.[e]nv`.
      re += `[${glob.slice(i + 1, close).replace(/^!/, "^").replace(/[\\\]]/g, "\\$&")}]`;
      i = close;
    } else re += ch === "*" ? "[^/]*" : ch === "?" ? "[^/]" : /[.+^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch;
  }
  return new RegExp(`^${re}$`);
}

/** Whether a path word (or a glob) names a secret file or a directory of secrets (~/.ssh). */
export function isSecretPath(word: string): boolean {
  const w = word.endsWith("/") ? word.replace(/\/+$/, "") : word;
  if (isSecretName(w)) return true;
  if (!w.includes("*") && !w.includes("?") && !w.includes("[")) return false;
  const slash = w.lastIndexOf("/");
  const dir = slash < 0 ? "" : w.slice(0, slash + 1);
  const base = w.slice(slash + 1);
  if (base.length > 255) return false;
  // `~/.kube/*`, `~/.docker/*`, `~/.config/gh/*`: everything in a credential store (elsewhere `*` is just "everything").
  if (base === "*" || base === ".*") return /(?:^|\/)\.(?:ssh|aws|gnupg|kube|docker|password-store)\/$|(?:^|\/)\.config\/gh\/$/.test(dir) && SECRET_SAMPLES.some((x) => isSecretName(dir + x));
  // `dist/**`, `*a`: a glob with under two literal characters names no secret (outside ~/.ssh it is just "everything").
  if (base.replace(/\[[^\]]*\]|[*?]/g, "").length < 2 && !/(?:^|\/)\.ssh\/$/.test(dir)) return false;
  const re = globToRegex(base);
  return SECRET_SAMPLES.some((s) => re.test(s) && isSecretName(dir + s));
}

/** Programs that never print or send the content of the files they are given. */
const NON_READERS = new Set([
  "", "test", "[", "ls", "get-childitem", "gci", "dir", "tree", "stat", "touch", "mkdir", "rm", "rmdir", "unlink", "chmod", "chown", "chgrp", "file", "realpath", "readlink", "basename", "dirname",
  "echo", "printf", "which", "type", "command", "du", "find", "fd", "locate", "git", "mv", "cd", "pushd", "open", "touch", "exa", "eza", "tree",
  "test-path", "get-item", "gi", "get-itemproperty", "icacls", "cacls", "takeown", "sudo", "doas", "attrib", "set-acl", "setfacl", "getfacl", "chattr", "lsattr", "new-item", "ni", "set-location", "cd", "split-path", "resolve-path", "get-acl", "measure-object", "write-host", "write-output",
  // Sizes, counts and digests tell nothing of the content.
  "wc", "get-filehash", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "b2sum", "cksum", "sum",
  // Runners whose command is read on its own (`npx dotenv -e .env.test -- jest`: what dotenv does is judged as dotenv).
  "npx", "bunx", "pnpx", "shx",
  "shred", "wipe", "srm", "truncate", "ssh-keygen", "ssh-add", "gpg-agent", "export", "set", "unset", "source", ".", "direnv", "dotenv", "docker", "docker-compose", "kill", "sleep", "true", "false",
]);

/** Whether a program may print or send the content of the files it is given (the ones that never do are listed above). */
export function readsContent(program: string): boolean {
  return !NON_READERS.has(program);
}

const VALUE_READERS = new Set(["curl", "wget", "http", "https", "xh", "dd", "dcfldd", "xargs", "openssl", "base64", "base32", "gpg", "jq", "yq", "nc", "ncat", "socat", "invoke-webrequest", "cat", "head", "tail", "sed", "awk", "grep", "rg", "cp"]);
const COPIERS = new Set(["cp", "install", "rsync", "scp", "ln", "copy", "copy-item"]);

/** Interpreters whose code flag (`-c`, `-e`, `-r`, `--eval`) takes the program text. */
const CODE_RUNNERS = /^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|bun|deno|perl|ruby|php|Rscript|lua|luajit|julia|osascript|tclsh|raku|qjs|groovy|scala|elixir|swift)$/;

/** Programs whose first operand is a pattern, not a file. */
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "git-grep", "sed", "awk", "gawk", "mawk", "jq", "yq", "perl"]);

const GIT_READERS = new Set(["show", "cat-file", "log", "diff", "archive", "blame", "grep", "stash", "format-patch", "whatchanged"]);

/** The decryptors below, whose output is judged only when it is not sent to a file. */
const DECRYPTORS = new Set(["gpg", "gpg2", "sops", "age", "rage", "ansible-vault"]);

/** Commands whose whole purpose is to print a credential: `gh auth token`, `vault kv get`, `pass show`, `env | grep TOKEN`. */
function secretCommand(cmd: SimpleCommand, an: Analysis): string | undefined {
  const p = cmd.program;
  const a = cmd.argv;
  // With a subcommand the analysis has both; the operands are gathered only for a program it gave none.
  const words = an.sub !== undefined ? undefined : a.slice(1).filter((w) => !w.startsWith("-"));
  const sub = an.sub ?? words?.[0];
  const pos = an.sub !== undefined ? an.positional : (words ?? []).slice(1);
  if (p === "vault" && (sub === "read" || (sub === "kv" && pos[0] === "get"))) return "prints a Vault secret";
  if (p === "op" && (sub === "read" || (sub === "item" && pos[0] === "get"))) return "prints a 1Password secret";
  if (p === "gh" && an.sub === "auth" && pos[0] === "token") return "prints the GitHub token";
  if (p === "gh" && an.sub === "auth" && pos[0] === "status" && a.some((w) => w === "-t" || w === "--show-token")) return "prints the GitHub token";
  // `aws configure export-credentials [--format env|process|...]`: the resolved keys, in every format.
  if (p === "aws" && an.sub === "configure" && pos[0] === "export-credentials") return "prints AWS credentials";
  // `git credential fill` asks the helper for the stored password and prints it.
  if (p === "git" && ((a.includes("credential") && a.includes("fill")) || (a.includes("get") && a.some((w) => /^credential-\w+$/.test(w))))) return "prints a stored git credential";
  // `npm config get //registry.npmjs.org/:_authToken`: a registry credential read back from the user's .npmrc.
  if ((p === "npm" || p === "pnpm" || p === "yarn") && (an.sub === "config" || an.sub === "c") && pos[0] === "get" && /auth|token|password|_pass/i.test(pos[1] ?? "")) return "prints a package registry credential";
  if (p === "aws" && an.sub === "configure" && pos[0] === "get" && /secret|key|token/i.test(pos[1] ?? "")) return "prints an AWS credential";
  if (p === "aws" && (an.sub === "sts" || an.sub === "ecr") && /get-session-token|get-login-password/.test(pos[0] ?? "")) return "prints an AWS credential";
  if (p === "vault" && (an.sub === "read" || (an.sub === "kv" && pos[0] === "get"))) return "prints a Vault secret";
  if (p === "pass" && (an.sub === undefined ? pos.length > 0 && !["ls", "list", "find", "search", "init", "git", "generate", "insert", "edit", "rm", "mv", "cp"].includes(pos[0] ?? "") : an.sub === "show")) return "prints a password-store entry";
  if (p === "op" && (an.sub === "read" || (an.sub === "item" && pos[0] === "get"))) return "prints a 1Password secret";
  // `-w` prints the password alone, `-g` with the item's attributes; `dump-keychain -d` decrypts every item.
  if (p === "security" && /find-(?:generic|internet)-password/.test(a[1] ?? "") && a.some((w) => /^-[a-zA-Z]*[wg]/.test(w) && !w.startsWith("--"))) return "prints a keychain password";
  if (p === "security" && a[1] === "dump-keychain" && a.some((w) => /^-[a-zA-Z]*d/.test(w))) return "prints every keychain item decrypted";
  if (p === "gcloud" && an.sub === "auth" && /print-(?:access|identity)-token/.test(pos[0] ?? "")) return "prints a Google Cloud token";
  if (p === "az" && an.sub === "account" && pos[0] === "get-access-token") return "prints an Azure token";
  if (p === "heroku" && an.sub === "auth:token") return "prints the Heroku token";
  // `-o name` prints only the names (`secret/db`); yaml, json, jsonpath and templates print the data.
  if (p === "kubectl" && an.sub === "get" && /^secrets?$/.test(pos[0] ?? "") && a.some((w, k) => (/^-o|^--output|^--template/.test(w) && !/^(?:-o|--output=?)(?:name|wide)?$/.test(w)) || (/^(?:-o|--output)$/.test(w) && !/^(?:name|wide)$/.test(a[k + 1] ?? "")))) return "prints Kubernetes secrets";
  // Cloud secret stores: reading a value prints it; listing names does not.
  if (p === "gcloud" && an.sub === "secrets" && pos[0] === "versions" && pos[1] === "access") return "prints a Google Cloud secret";
  if (p === "aws" && an.sub === "secretsmanager" && /^(?:get-secret-value|batch-get-secret-value)$/.test(pos[0] ?? "")) return "prints an AWS secret";
  if (p === "aws" && an.sub === "ssm" && /^get-parameters?(?:-by-path)?$/.test(pos[0] ?? "") && a.includes("--with-decryption")) return "prints a decrypted AWS parameter";
  if (p === "az" && an.sub === "keyvault" && pos[0] === "secret" && (pos[1] === "show" || pos[1] === "download")) return "prints an Azure Key Vault secret";
  if (p === "heroku" && (an.sub === "config" || an.sub === "config:get") && !a.some((w) => /^config:(?:set|unset)$/.test(w))) return "prints the app's config vars (its secrets)";
  if (p === "doppler" && sub === "secrets" && (pos.length === 0 || pos[0] === "get" || pos[0] === "download")) return "prints Doppler secrets";
  if (p === "sqlite3" && a.slice(1).some((w) => /cookies\.sqlite|logins\.json|key4\.db|Login Data|Cookies$/.test(w))) return "dumps a browser's saved logins or cookies";
  if ((p === "gpg" || p === "gpg2") && a.some((w) => /^--export-secret-(?:sub)?keys$/.test(w))) return "exports private keys";
  // Decryptors print the plaintext unless told to write it somewhere: `sops -d f`, `gpg -d f`, `age -d f`, `ansible-vault view f`.
  // (The output checks are made for the decryptors only: a new one goes in DECRYPTORS too.)
  const toFile = DECRYPTORS.has(p) && cmd.redirects.some((r) => (r.op === ">" || r.op === ">>" || r.op === ">|") && r.fd !== "2" && r.target !== "/dev/null");
  // (`-i` is sops's in-place; to age it names the identity.)
  const outOpt = DECRYPTORS.has(p) && a.some((w) => w === "-o" || w === "--output" || (w.startsWith("--output=") && w !== "--output=-") || (p === "sops" && (w === "-i" || w === "--in-place")));
  if (DECRYPTORS.has(p) && !toFile && !outOpt) {
    if ((p === "gpg" || p === "gpg2") && a.some((w) => w === "-d" || w === "--decrypt")) return "prints decrypted data";
    if (p === "sops" && a.some((w) => w === "-d" || w === "--decrypt" || w === "decrypt")) return "prints a decrypted secrets file";
    if ((p === "age" || p === "rage") && a.some((w) => w === "-d" || w === "--decrypt")) return "prints decrypted data";
    if (p === "ansible-vault" && (sub === "view" || (sub === "decrypt" && a.some((w) => w === "--output=-" || (w === "--output" && a[a.indexOf(w) + 1] === "-"))))) return "prints a decrypted vault";
  }
  // `bin/rails credentials:show`: the app's decrypted credentials.
  if ((p === "rails" || p === "rake") && a.some((w) => /^credentials:show$/.test(w))) return "prints the app's decrypted credentials";
  // `kubectl config view` redacts the credentials; `--raw` prints them.
  if ((p === "kubectl" || p === "oc") && an.sub === "config" && pos[0] === "view" && a.some((w) => w === "--raw" || w === "--raw=true")) return "prints the kubeconfig with its credentials";
  // `docker compose --env-file .env.prod config`: the resolved file, every ${SECRET} of the env file filled in.
  const composeAt = p === "docker-compose" ? 0 : p === "docker" || p === "podman" ? a.indexOf("compose") : -1;
  if (composeAt >= 0 && a.slice(composeAt + 1).some((w) => w === "config") && !a.some((w) => /^(?:-q|--quiet|--services|--volumes|--profiles|--images|--hash|--networks)$/.test(w))) {
    const envFiles = a.flatMap((w, k) => (w === "--env-file" ? [a[k + 1] ?? ""] : w.startsWith("--env-file=") ? [w.slice(11)] : []));
    if (envFiles.some(isSecretPath)) return `prints the compose configuration with ${envFiles.join(" ")} substituted into it`;
  }
  // `docker run -v ~/.ssh:/k alpine cat /k/id_rsa`: a container given the key store reads whatever it likes there.
  if ((p === "docker" || p === "podman") && (an.sub === "run" || an.sub === "create")) {
    const mounts = a.flatMap((w, k) => (w === "-v" || w === "--volume" || w === "--mount" ? [a[k + 1] ?? ""] : /^(?:-v|--volume=|--mount=)./.test(w) ? [w.replace(/^(?:-v|--volume=|--mount=)/, "")] : []));
    const src = mounts.map((m) => (m.includes("source=") || m.includes("src=") ? (/(?:source|src)=([^,]+)/.exec(m)?.[1] ?? "") : (m.split(":")[0] ?? "")));
    const hit = src.find((s) => isSecretPath(s) || /\/\.(?:ssh|aws|gnupg|kube|docker|config\/gcloud)\/?$/.test(s) || /(?:^|\/)\.env$/.test(s));
    if (hit !== undefined) return `mounts ${hit} into a container`;
  }
  // `env | grep -i token`: the environment, filtered down to its secrets.
  if ((p === "grep" || p === "egrep" || p === "rg") && cmd.pipeFrom === "env" && !printsNothingOf(cmd) && an.positional.some((w) => SECRET_PATTERN.test(w))) return "prints secret environment variables";
  // `printenv DATABASE_URL`: one named credential.
  if (p === "printenv" && an.positional.some((w) => SECRET_NAME.test(w))) return "prints a secret variable";
  // `declare -p NPM_TOKEN`, `typeset -p GITHUB_TOKEN`: one named secret variable, printed with its value.
  if ((p === "declare" || p === "typeset" || p === "local") && a.some((w) => /^-[a-zA-Z]*p/.test(w)) && a.slice(1).some((w) => !w.startsWith("-") && SECRET_NAME.test(w))) return "prints a secret variable";
  return undefined;
}

/** Subcommands of openssl that print or convert a key or decrypt data; the others use a key (req, x509, s_client) or make one. */
const OPENSSL_PRINTS = /^(?:rsa|pkey|ec|dsa|pkcs8|pkcs12|enc|base64|asn1parse|pkeyutl|rsautl|smime|cms)$/;

/**
 * A reader that prints nothing of what it reads: `grep -c`/`-l`/`-q` print counts, names or nothing;
 * `openssl genrsa -out k`, `openssl req -key k -out csr` use or make a key; `openssl rsa -check -noout` checks one.
 */
function printsNothingOf(cmd: SimpleCommand): boolean {
  const p = cmd.program;
  const a = cmd.argv;
  if (p === "grep" || p === "egrep" || p === "fgrep" || p === "rg") return a.some((w) => /^-[a-zA-Z]*[clLq][a-zA-Z]*$/.test(w) && !w.startsWith("--") && !/[efA-CmT]/.test(w.slice(1)) || /^--(?:count|files-with-matches|files-without-match|quiet|silent)$/.test(w));
  // `cut -d= -f1 .env`: the names before the `=`, never the values after it.
  if (p === "cut") {
    const field = a.flatMap((w, k) => (w === "-f" || w === "--fields" ? [a[k + 1] ?? ""] : /^-f./.test(w) ? [w.slice(2)] : w.startsWith("--fields=") ? [w.slice(9)] : []));
    const delim = a.flatMap((w, k) => (w === "-d" || w === "--delimiter" ? [a[k + 1] ?? ""] : /^-d./.test(w) ? [w.slice(2)] : w.startsWith("--delimiter=") ? [w.slice(12)] : []));
    return field.length === 1 && field[0] === "1" && delim.length === 1 && (delim[0] === "=" || delim[0] === ":");
  }
  if (p === "awk" || p === "gawk" || p === "mawk" || p === "nawk") {
    // `awk 'END{print NR}' .env`: only BEGIN/END actions that touch no field or record print nothing of the file.
    const prog = a.slice(1).find((w) => !w.startsWith("-")) ?? "";
    const rest = prog.replace(/\b(?:BEGIN|END)\s*\{[^{}]*\}/g, "");
    return rest.trim() === "" && prog !== "" && !/\$|getline/.test(prog);
  }
  // `sed -i 's/x/y/' .env`: in place, everything sed prints goes back into the file; only a `w` (to /dev/stdout)
  // or an `e` (run) command could show it, so any word that might hold one keeps it a reader.
  if (p === "sed" && a.slice(1).some((w) => /^-[nrEsuz]*i/.test(w) || w.startsWith("--in-place"))) {
    const words = a.slice(1).filter((w) => !w.startsWith("-")).join("\n");
    return !/(?:^|[;\n{}/])\s*[weWF](?:\s|$)|\/[gpIiMm0-9]*[we]/.test(words);
  }
  if (p === "openssl") {
    const sub = a[1] ?? "";
    return !OPENSSL_PRINTS.test(sub) || (a.includes("-noout") && !a.includes("-text"));
  }
  return false;
}

/** A program (or `-a` option) whose output is a list of file names: what a reader given `$(find . -name '*.pem')` reads. */
const LISTERS = /^\$\(\s*(?:find|fd|fdfind|ls|locate|git\s+ls-files|rg\s+--files|echo|printf\s+'?%s[^']*'?)\s([^()]{0,400})\)$/;

/** The names or globs a `$(find .. -name X)` / `$(ls GLOB)` operand lists (find's start directories are joined to its -name). */
function listedBy(word: string): string[] {
  const m = LISTERS.exec(word);
  if (m === null) return [];
  const toks = (m[1] ?? "").split(/\s+/).map((t) => t.replace(/^['"]|['"]$/g, "")).filter((t) => t !== "");
  const out: string[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] ?? "";
    if (/^-(?:i?name|i?path|i?wholename|g|glob)$/.test(t)) {
      const pat = toks[++i] ?? "";
      out.push(pat, ...dirs.map((d) => `${d.replace(/\/+$/, "")}/${pat}`));
    } else if (!t.startsWith("-")) {
      dirs.push(t);
      out.push(t);
    }
  }
  return out.slice(0, 32);
}

const PATTERN_OPTION = /^--(?:exclude|include|ignore|filter|skip)(?:-[a-z]+)?(=|$)/;

/** Values of `--exclude .env`, `--ignore=*.key`: names to leave out (undefined when there are none, the common case). */
function patternValues(argv: readonly string[]): Set<string> | undefined {
  let out: Set<string> | undefined;
  for (let k = 1; k < argv.length; k++) {
    const w = argv[k] ?? "";
    if (!w.startsWith("--")) continue;
    const m = PATTERN_OPTION.exec(w);
    if (m !== null) (out ??= new Set()).add(m[1] === "=" ? w.slice(w.indexOf("=") + 1) : (argv[k + 1] ?? ""));
  }
  return out;
}

/** Secrets the command reads, by any reader: operands, option values (`dd if=.env`, `-a .env`) and input redirections. */
export function secretReads(cmd: SimpleCommand, an: Analysis): Effect[] {
  const out: string[] = [];
  for (const r of cmd.redirects) if ((r.op === "<" || r.op === "<>") && isSecretPath(r.target)) out.push(r.target);
  const p = cmd.program;
  const said = secretCommand(cmd, an);
  // Captured into a secret-named variable, the credential is kept, not printed.
  if (said !== undefined) return cmd.captured ? [] : [effect("secret-read", said)];
  if (p === "git") {
    // git show HEAD:.env, git cat-file -p HEAD:.env, git log -p -- .env, git diff -- .env, git archive HEAD .env
    // `git log -- .env` lists the commits that touched it; only a patch (`-p`, `-U3`, `--patch`) prints what it held.
    const listsOnly = (an.sub === "log" || an.sub === "whatchanged") && !cmd.argv.some((w) => /^-(?:[a-zA-Z]*p|u|U\d*)$|^--(?:patch|patch-with-stat|unified(?:=\d+)?|full-diff|word-diff)|^-L/.test(w));
    if (GIT_READERS.has(an.sub ?? "") && !listsOnly) for (const w of an.positional) if (isSecretPath(w)) out.push(w);
  } else if (!NON_READERS.has(p) && !printsNothingOf(cmd) && !(p === "rsync" && (an.flags.has("-n") || an.flags.has("--dry-run")))) {
    // `--exclude .env`, `--ignore=*.key`: a pattern of names to leave out, not a file read.
    let words = an.positional;
    // `env touch .env.local`, `eval "ls ~/.ssh"`: the words of the command a wrapper runs are read (or not) by that command.
    if (cmd.wrapsFrom !== undefined) {
      const inner = new Set(cmd.argv.slice(cmd.wrapsFrom));
      words = words.filter((w) => !inner.has(w));
    }
    const patterns = patternValues(cmd.argv);
    if (patterns !== undefined) words = words.filter((w) => !patterns.has(w));
    // `python3 -c "open('~/.ssh/known_hosts').read()"`: inline code is no file name (its quoted paths are read in codeEffects).
    // `sh -c 'ssh -i ~/.ssh/key'`: a shell's script is read as its own commands, not as a file name.
    if (CODE_RUNNERS.test(p) || /^(?:sh|bash|zsh|dash|ksh|ash|mksh)$/.test(p)) {
      const code = new Set(cmd.argv.filter((_, k) => k > 1 && /^-(?:[A-Za-z]*[ceE]|r|p|-eval|-print|-exec)$/.test(cmd.argv[k - 1] ?? "")));
      if (code.size > 0) words = words.filter((w) => !code.has(w));
    }
    // `pwsh -c 'Get-ChildItem ~\.ssh'`, `cmd /c type x`: a Windows shell's script is read as its own commands too.
    if (/^(?:pwsh|powershell|cmd)(?:\.exe)?$/i.test(p)) {
      const at = cmd.argv.findIndex((w, k) => k > 0 && /^[-/](?:c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?|k|e(?:c|n(?:c(?:o(?:d(?:e(?:d(?:c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?)?)?)?)?)?)?)?)$/i.test(w));
      if (at > 0) {
        const code = new Set(cmd.argv.slice(at + 1));
        words = words.filter((w) => !code.has(w));
      }
    }
    // cp/mv/install/rsync/scp read their sources; the destination is written (`cp .env.example .env`).
    if (COPIERS.has(p) && !an.flags.has("-t")) {
      // `cp .env .env.bak`: a secret copied beside itself, under a name that is as much a secret, is kept, not exposed.
      const dst = words[words.length - 1] ?? "";
      const dir = (w: string) => (w.includes("/") ? w.slice(0, w.lastIndexOf("/")) : ".");
      words = words.slice(0, -1);
      if ((p === "cp" || p === "install") && words.length === 1 && isSecretPath(dst) && dir(words[0] ?? "") === dir(dst)) words = [];
    }
    // `vercel env pull .env.local`: the service's variables written into a file, not printed.
    if ((p === "vercel" || p === "netlify") && (words.includes("pull") || words.includes("env:pull"))) words = words.filter((w) => !isSecretPath(w));
    if (PATTERN_FIRST.has(p) && !(p === "perl" && words.length < an.positional.length)) {
      const explicit = cmd.argv.some((w) => w === "-e" || w === "-f" || w.startsWith("--regexp") || w.startsWith("--file") || w === "--expression");
      if (!explicit || p === "awk" || p === "gawk" || p === "mawk") words = words.slice(1);
    }
    if (p === "cpio" || p === "xargs" || p === "tar" || p === "sftp" || p === "ftp" || p === "nc" || p === "lftp") for (const r of cmd.redirects) if (r.op === "<<<") for (const w of r.target.split(/\s+/)) if (isSecretPath(w)) out.push(w);
    // Option values are files read only for readers whose options name their input (`dd if=`, `curl -d @.env`,
    // `xargs -a`, `openssl -in`); `ssh -i key`, `kubectl --kubeconfig f` use a credential without printing it.
    let values = VALUE_READERS.has(p) ? an.values : an.values.filter((v) => v.startsWith("if=") || v.startsWith("@"));
    if (cmd.wrapsFrom !== undefined) {
      const inner = new Set(cmd.argv.slice(cmd.wrapsFrom));
      values = values.filter((w) => !inner.has(w));
    }
    for (const w of [...words, ...values]) {
      const v = w.startsWith("if=") ? w.slice(3) : w;
      // `gh issue comment --body 'done: $(cat ~/.ssh/id_rsa)'`: quoted prose that shows a command is no file name.
      if (/\s/.test(v) && /\$\(|`/.test(v) && cmd.argv.some((x, k) => x === w && cmd.dynamic[k] === false)) continue;
      if (isSecretPath(v)) out.push(v);
      else if (v.startsWith("$(")) for (const listed of listedBy(v)) if (isSecretPath(listed)) out.push(listed);
    }
  }
  return out.length === 0 ? [] : [effect("secret-read", `reads secrets: ${out.join(" ")}`, out)];
}
