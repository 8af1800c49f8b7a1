/**
 * @module writes tests/fixtures/redaction-corpus.json: synthetic secrets of many kinds in the contexts a tool
 * output shows them (env files, JSON, logs, headers, git remotes), and look-alikes that must stay untouched.
 * Seeded, so a rerun (`bun run scripts/gen-redaction-corpus.ts`) gives the same values except the private keys,
 * which are real keys node generates afresh (of no account anywhere). No value is a real credential;
 * formats with a checksum carry a valid one (GitHub and npm tokens' CRC32, JWT HMAC signatures).
 */
import { createHmac, generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

let seed = 0x5eed1234;
function rand(): number {
  // xorshift32: deterministic and good enough to spread characters.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";
const B64 = `${B62}+/`;
const B64URL = `${B62}-_`;
const UPPER32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function chars(alphabet: string, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}
/** Random from an alphabet, with at least one digit, one upper and one lower letter (as generated keys have). */
function mixed(alphabet: string, n: number): string {
  for (;;) {
    const s = chars(alphabet, n);
    if (/\d/.test(s) && /[A-Z]/.test(s) && /[a-z]/.test(s)) return s;
  }
}

const CRC_TABLE = (() => {
  const t: number[] = [];
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t.push(c >>> 0);
  }
  return t;
})();
function crc32(text: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < text.length; i++) c = (CRC_TABLE[(c ^ text.charCodeAt(i)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function base62(n: number, width: number): string {
  let s = "";
  for (let v = n; v > 0; v = Math.floor(v / 62)) s = B62[v % 62] + s;
  return s.padStart(width, "0");
}
/** GitHub's and npm's token layout: 30 random characters and the base62 CRC32 of them, 6 characters. */
function checksummed(prefix: string): string {
  const body = chars(B62, 30);
  return `${prefix}${body}${base62(crc32(body), 6)}`;
}
const b64url = (s: string | Buffer) => Buffer.from(s).toString("base64url");
function jwt(): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify({ sub: String(Math.floor(rand() * 1e9)), name: pick(["ana", "bob", "cy"]), iat: 1_700_000_000 + Math.floor(rand() * 1e7) }));
  const sig = createHmac("sha256", chars(B62, 16)).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

interface Sample {
  kind: string;
  text: string;
  /** The part that must not survive redaction. */
  secret: string;
}
const samples: Sample[] = [];
const N = 10;

/** Contexts a value shows up in: the `{}` is replaced by the secret. */
function put(kind: string, make: () => string, contexts: readonly string[]): void {
  for (let i = 0; i < N; i++) {
    const secret = make();
    samples.push({ kind, secret, text: (contexts[i % contexts.length] as string).replace("{}", secret) });
  }
}
const generic = ["{}", "token: {}", "found {} in the log", "export VALUE='{}'", '{"value": "{}"}', "  - {}\n", "echo {} | wc -c"];

put("github-token", () => checksummed(pick(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"])), [...generic, "origin\thttps://{}@github.com/acme/app.git (fetch)"]);
put("github-fine-grained", () => `github_pat_${chars(B62, 22)}_${chars(B62, 59)}`, generic);
put("gitlab-token", () => `glpat-${chars(B64URL.replace("_", ""), 20)}`, generic);
put("slack-token", () => `${pick(["xoxb", "xoxp", "xoxa", "xoxs"])}-${chars("0123456789", 12)}-${chars("0123456789", 13)}-${chars(B62, 24)}`, generic);
put("slack-webhook", () => `https://hooks.slack.com/services/T${chars(UPPER32, 8)}/B${chars(UPPER32, 10)}/${chars(B62, 24)}`, generic);
put("openai-key", () => pick([`sk-${chars(B62, 20)}T3BlbkFJ${chars(B62, 20)}`, `sk-proj-${chars(B64URL, 74)}T3BlbkFJ${chars(B64URL, 74)}`, `sk-svcacct-${chars(B64URL, 60)}`]), generic);
put("anthropic-key", () => `sk-ant-${pick(["api03", "admin01"])}-${chars(B64URL, 93)}AA`, generic);
put("aws-access-key-id", () => `${pick(["AKIA", "ASIA"])}${chars(UPPER32, 16)}`, [...generic, "aws_access_key_id = {}"]);
put("aws-secret-key", () => chars(B64, 40), ["aws_secret_access_key = {}", "AWS_SECRET_ACCESS_KEY={}", '{"AwsSecretAccessKey": "{}"}', "export AWS_SECRET_ACCESS_KEY={}"]);
put("google-api-key", () => `AIza${chars(B64URL, 35)}`, generic);
put("google-oauth-secret", () => `GOCSPX-${chars(B64URL, 28)}`, generic);
put("stripe-key", () => `${pick(["sk", "rk"])}_${pick(["live", "test"])}_${chars(B62, pick([24, 99]))}`, generic);
put("stripe-webhook-secret", () => `whsec_${chars(B62, 32)}`, generic);
put("npm-token", () => checksummed("npm_"), [...generic, "//registry.npmjs.org/:_authToken={}"]);
put("pypi-token", () => `pypi-AgEIcHlwaS5vcmc${chars(B64URL, 120)}`, [...generic, "password = {}"]);
put("twilio-key", () => `SK${chars(HEX, 32)}`, generic);
put("sendgrid-key", () => `SG.${chars(B64URL, 22)}.${chars(B64URL, 43)}`, generic);
put("azure-storage-key", () => `${chars(B64, 86)}==`, ["DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={};EndpointSuffix=core.windows.net"]);
put("azure-client-secret", () => `${chars(B62, 3)}${chars("0123456789", 1)}Q~${chars(`${B62}_~.-`, 31)}`, generic);
put("heroku-key", () => `HRKU-${chars(B64URL, 60)}`, generic);
put("digitalocean-token", () => `${pick(["dop", "doo", "dor"])}_v1_${chars(HEX, 64)}`, generic);
put("shopify-token", () => `${pick(["shpat", "shpca", "shppa", "shpss"])}_${chars(HEX, 32)}`, generic);
put("huggingface-token", () => `hf_${mixed(B62, 34)}`, generic);
put("databricks-token", () => `dapi${chars(HEX, 32)}`, generic);
put("telegram-bot-token", () => `${chars("123456789", 9)}:AA${chars(B64URL, 33)}`, generic);
put("discord-webhook", () => `https://discord.com/api/webhooks/${chars("0123456789", 18)}/${chars(B64URL, 68)}`, generic);
put("linear-key", () => `lin_api_${chars(B62, 40)}`, generic);
put("doppler-token", () => `dp.pt.${chars(B62, 43)}`, generic);
put("vault-token", () => `hvs.${chars(B64URL, 90)}`, generic);
put("postman-key", () => `PMAK-${chars(HEX, 24)}-${chars(HEX, 34)}`, generic);
put("newrelic-key", () => `NRAK-${chars(UPPER32, 27)}`, generic);
put("jwt", jwt, [...generic, "Cookie-free session: {}"]);
put("url-credentials", () => mixed(B62, 14), ["postgres://app:{}@db.internal:5432/prod", "DATABASE_URL=mysql://root:{}@127.0.0.1/app", "remote: https://x-access-token:{}@github.com/acme/app.git", "redis://default:{}@cache:6379/0"]);
put("env-assignment", () => mixed(`${B62}!#%^*`, 12), ["DB_PASSWORD={}", "export API_TOKEN={}", "SECRET_KEY_BASE={}", "SMTP_PASS={}\n", "  MYSQL_ROOT_PASSWORD={}", "CLIENT_SECRET={}"]);
put("high-entropy-by-name", () => mixed(`${B62}+/`, 32), ['"signing_key": "{}"', "webhook_salt: '{}'", "license_key = {}", "session_key: {}", '"apiKey": "{}"']);
put("bearer-token", () => mixed(B64URL, 40), ["Authorization: Bearer {}", "curl -H 'Authorization: Bearer {}' https://api.example.com", "> authorization: token {}"]);
put("basic-auth", () => Buffer.from(`user${Math.floor(rand() * 100)}:${mixed(B62, 12)}`).toString("base64"), ["Authorization: Basic {}", "< Authorization: basic {}"]);
put("password-flag", () => mixed(B62, 12), ["mysql -u root --password={} app", "login --token {}", "psql --password '{}'"]);

// Private keys: real ones, PEM, and escaped inside a service-account JSON.
for (let i = 0; i < N; i++) {
  const type = (["rsa", "ec", "ed25519"] as const)[i % 3] as "rsa";
  const opts = type === "rsa" ? { modulusLength: 1024 } : type === ("ec" as string) ? { namedCurve: "P-256" } : {};
  const { privateKey } = generateKeyPairSync(type, opts as { modulusLength: number });
  const pem = privateKey.export({ type: i % 2 === 0 && type === "rsa" ? "pkcs1" : "pkcs8", format: "pem" }).toString();
  const body = pem.split("\n")[1] as string;
  const text = i % 4 === 3 ? JSON.stringify({ type: "service_account", private_key: pem }) : `$ cat id_key\n${pem}`;
  samples.push({ kind: "private-key", text, secret: body });
}
for (let i = 0; i < 4; i++) {
  const body = chars(B64, 70);
  samples.push({ kind: "private-key", text: `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA${body}\n${chars(B64, 70)}\n-----END OPENSSH PRIVATE KEY-----\n`, secret: body });
}

// ---- look-alikes ------------------------------------------------------------------------------------
interface LookAlike {
  kind: string;
  text: string;
}
const looks: LookAlike[] = [];
function look(kind: string, n: number, make: () => string): void {
  for (let i = 0; i < n; i++) looks.push({ kind, text: make() });
}
const uuid = () => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-${pick(["8", "9", "a", "b"])}${chars(HEX, 3)}-${chars(HEX, 12)}`;
look("git-hash", 40, () => pick([`commit ${chars(HEX, 40)}\nAuthor: Ana <ana@example.com>`, `${chars(HEX, 7)} fix(core): handle empty input`, `Merge: ${chars(HEX, 7)} ${chars(HEX, 7)}`, `index ${chars(HEX, 12)}..${chars(HEX, 12)} 100644`, `"sha": "${chars(HEX, 40)}"`]));
look("uuid", 40, () => pick([`request id ${uuid()}`, `"id": "${uuid()}"`, `session_id: ${uuid()}`, `sessionId = "${uuid()}"`, `trace=${uuid()}`]));
look("base64-image", 30, () => `<img src="data:image/png;base64,iVBORw0KGgo${chars(B64, 200 + Math.floor(rand() * 400))}=">`);
look("lockfile-integrity", 40, () => pick([`"integrity": "sha512-${chars(B64, 86)}=="`, `  integrity sha1-${chars(B64, 27)}=`, `"resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n"integrity": "sha512-${chars(B64, 86)}=="`, `checksum: ${chars(HEX, 128)}`]));
look("sha256-digest", 30, () => pick([`sha256:${chars(HEX, 64)}`, `${chars(HEX, 64)}  dist/app.tar.gz`, `image: node@sha256:${chars(HEX, 64)}`, `"hash": "${chars(HEX, 64)}"`]));
look("minified-code", 40, () => pick([
  `function(e,t){var n=e.token,r=t.key;return n&&r?{token:n,key:r}:null}`,
  `a.password=t.password,a.secret=o.secret||"",a.apiKey=i.apiKey;`,
  `const{token:e,refreshToken:t}=await r.json();if(!e)throw new Error("no token");`,
  `e.exports={key:"${chars("abcdefghijklmnop", 8)}",value:${Math.floor(rand() * 1e4)}};`,
  `!function(){"use strict";var t=${Math.floor(rand() * 100)},e="x${chars(B62, 10)}";window.__k=e}();`,
  `if(s.headers.authorization===void 0)s.headers.authorization=n.auth;`,
]));
look("source", 40, () => pick([
  "const apiKey = process.env.OPENAI_API_KEY;",
  'password: "${{ secrets.DB_PASSWORD }}"',
  "max_tokens: 4096",
  '"tokenizer": "cl100k_base",',
  "TOKEN_COUNT=3",
  "export PATH=$HOME/.local/bin:$PATH",
  "Authorization: Bearer ${TOKEN}",
  "curl -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com",
  "git clone git@github.com:acme/app.git",
  "https://user@example.com/path?x=1",
  "password = getpass.getpass()",
  "token = os.environ['API_TOKEN']",
  'secret_key = config["secret_key"]',
  "DB_PASSWORD=",
  "API_KEY=<your-api-key>",
  "PASSWORD=changeme",
  "Token authentication is configured in settings.py",
  "Basic usage: run the tool with --help",
  "key: value",
  "color: #ff00aa; background: url(/img/a.png)",
  "at Object.<anonymous> (/app/node_modules/jest/build/index.js:12:34)",
  `version: ${Math.floor(rand() * 10)}.${Math.floor(rand() * 20)}.${Math.floor(rand() * 30)}`,
  "npm test -- --token-count 3",
  "see https://docs.example.com/auth/tokens#rotation",
  "12:34:56.789 INFO  server listening on http://0.0.0.0:8080",
  "std::string key = map.at(name);",
  "const SK = 1; const AKIA = 'not a key';",
  "eyJ is how a JSON object starts in base64",
  "ssh://git@github.com:22/acme/app.git",
  "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db",
]));
look("random-ids", 40, () => pick([`ETag: "${chars(HEX, 32)}"`, `X-Request-Id: ${chars(B62, 20)}`, `npm-shrinkwrap ${chars(HEX, 40)}`, `build ${chars(B62, 8)} finished in ${Math.floor(rand() * 90)}s`, `id=${chars("0123456789", 18)}`, `"nonce": ${Math.floor(rand() * 1e9)}`]));
look("sourcemap", 20, () => `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${chars(B64, 300)}`);

const out = { $comment: "Generated by scripts/gen-redaction-corpus.ts; synthetic values only.", samples, lookAlikes: looks };
writeFileSync(join(import.meta.dir, "..", "tests", "fixtures", "redaction-corpus.json"), `${JSON.stringify(out, null, 1)}\n`);
process.stderr.write(`${samples.length} samples of ${new Set(samples.map((s) => s.kind)).size} kinds, ${looks.length} look-alikes\n`);
