/**
 * @module secret detection and redaction shared by the audit log and the `redact` action: vendor token
 * shapes, private keys, credentials in URLs, secret-named assignments, auth headers. Returns the redacted
 * text and counts per kind, never the values.
 *
 * Linear time by construction: every pattern starts with a literal (found by the engine's fast scan) and
 * has only bounded, unambiguous repeats; the name-based detectors and private keys are hand scanners.
 * Large input is processed in bounded windows, so a 50 MB tool output costs time proportional to its size
 * and memory proportional to its size, never more.
 */

/** The marker a secret is replaced with; the kind says what it was, never the value. */
export function marker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

export interface Redaction {
  text: string;
  /** Secrets replaced, per kind (e.g. `{"github-token": 2}`). */
  counts: Record<string, number>;
  total: number;
  /** The input was longer than `maxChars`: the rest was dropped and a line says so. */
  truncated: boolean;
}

export interface Span {
  start: number;
  end: number;
  kind: string;
}

interface ShapeDetector {
  kind: string;
  /** Two-character starts that trigger the pattern (`back` characters after the match start). */
  starts: string[];
  /** Literals one of which starts at the trigger position: checked before the pattern runs. */
  lits?: string[];
  /** The literals are lower-case and matched in any case. */
  ci?: boolean;
  /** Sticky, tried at the trigger position minus `back`. */
  re: RegExp;
  back?: number;
  /** Group 1 is a lookbehind prefix that belongs to the secret (the match starts after it). */
  pre?: boolean;
  /** The capture group that is the secret (the rest is context that stays); 0 = the whole match. */
  group?: number;
  /** A last check on the secret, for shapes that also occur in ordinary text. */
  accept?: (value: string) => boolean;
}

/** Every case a header or flag word is written in. */
const cases = (word: string): string[] => [word.toLowerCase(), word[0]?.toUpperCase() + word.slice(1).toLowerCase(), word.toUpperCase()].map((w) => w.slice(0, 2));

/**
 * Token shapes, each found at a two-character start by a sticky pattern with bounded, unambiguous repeats.
 * One pass over the text looks each character pair up in a table, so the cost does not grow with the number
 * of shapes (40 patterns each scanning a MiB took 40 ms; the table pass takes a few).
 */
// Built on first use, like the table below: a hook process answering a tool call scans no output, and
// building both cost it ~0.5-1 ms at start (each sticky pattern, and a 65,536-entry table).
let shapesMemo: ShapeDetector[] | undefined;
const SHAPES = (): ShapeDetector[] => (shapesMemo ??= buildShapes());
const buildShapes = (): ShapeDetector[] => [
  { kind: "github-token", starts: ["gh"], re: /\bgh[pousr]_[A-Za-z0-9]{36,251}\b/y },
  { kind: "github-token", starts: ["gi"], lits: ["github_pat_"], re: /\bgithub_pat_[A-Za-z0-9_]{40,251}\b/y },
  { kind: "gitlab-token", starts: ["gl"], re: /\bgl(?:pat|dt|rt|ptt|ft|soat|agent|imt|cbt|oas)-[A-Za-z0-9_-]{20,64}/y },
  { kind: "grafana-token", starts: ["gl"], re: /\bgl(?:sa|c)_[A-Za-z0-9_=+/-]{32,200}/y },
  { kind: "slack-token", lits: ["xox"], starts: ["xo"], re: /\bxox[abposre]-[A-Za-z0-9-]{10,250}/y },
  { kind: "slack-webhook", lits: ["hooks.slack.com/"], starts: ["ho"], re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,200}/y },
  { kind: "anthropic-key", lits: ["sk-ant-"], starts: ["sk"], re: /\bsk-ant-[a-z]{3,8}\d{2}-[A-Za-z0-9_-]{40,200}/y },
  { kind: "openai-key", lits: ["sk-"], starts: ["sk"], re: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,250}/y },
  { kind: "stripe-key", lits: ["sk_", "rk_"], starts: ["sk", "rk"], re: /\b[sr]k_(?:live|test)_[0-9A-Za-z]{16,247}\b/y },
  { kind: "aws-access-key-id", starts: ["AK", "AS", "AB", "AC", "AG", "AI", "AR", "AN"], re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z2-7]{16}\b/y },
  { kind: "google-api-key", lits: ["AIza"], starts: ["AI"], re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/y },
  { kind: "google-oauth-secret", lits: ["GOCSPX-"], starts: ["GO"], re: /\bGOCSPX-[A-Za-z0-9_-]{28}/y },
  { kind: "google-oauth-token", lits: ["ya29."], starts: ["ya"], re: /\bya29\.[A-Za-z0-9_-]{30,2048}/y },
  { kind: "stripe-webhook-secret", lits: ["whsec_"], starts: ["wh"], re: /\bwhsec_[0-9A-Za-z+/]{24,64}/y },
  { kind: "npm-token", lits: ["npm_"], starts: ["np"], re: /\bnpm_[A-Za-z0-9]{36}\b/y },
  { kind: "pypi-token", lits: ["pypi-AgE"], starts: ["py"], re: /\bpypi-AgE[A-Za-z0-9_-]{50,1000}/y },
  { kind: "twilio-key", starts: ["SK"], re: /\bSK[0-9a-f]{32}\b/y },
  { kind: "sendgrid-key", lits: ["SG."], starts: ["SG"], re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/y },
  { kind: "azure-storage-key", lits: ["AccountKey="], starts: ["Ac"], re: /AccountKey=([A-Za-z0-9+/]{86}==)/y, group: 1 },
  { kind: "azure-shared-access-key", lits: ["SharedAccessKey="], starts: ["Sh"], re: /SharedAccessKey=([A-Za-z0-9+/=]{20,100})/y, group: 1 },
  { kind: "azure-sas-signature", lits: ["sig="], starts: ["si"], back: 1, re: /[?&]sig=([A-Za-z0-9%+/=]{30,200})/y, group: 1 },
  { kind: "azure-client-secret", starts: ["Q~"], re: /(?<=(?<![A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}\d))Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/y, pre: true },
  { kind: "heroku-key", lits: ["HRKU-"], starts: ["HR"], re: /\bHRKU-[A-Za-z0-9_-]{60}/y },
  { kind: "digitalocean-token", lits: ["dop_", "doo_", "dor_"], starts: ["do"], re: /\bdo[opr]_v1_[a-f0-9]{64}\b/y },
  { kind: "shopify-token", lits: ["shp"], starts: ["sh"], re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/y },
  { kind: "huggingface-token", lits: ["hf_"], starts: ["hf"], re: /\bhf_[A-Za-z0-9]{34,40}\b/y },
  { kind: "databricks-token", lits: ["dapi"], starts: ["da"], re: /\bdapi[0-9a-f]{32}(?:-\d)?\b/y },
  { kind: "age-secret-key", lits: ["AGE-SECRET-KEY-1"], starts: ["AG"], re: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/y },
  { kind: "telegram-bot-token", lits: [":AA"], starts: [":A"], re: /(?<=(?<!\d)(\d{8,10})):AA[0-9A-Za-z_-]{33}\b/y, pre: true },
  { kind: "discord-webhook", lits: ["discord"], starts: ["di"], re: /discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,100}/y },
  { kind: "linear-key", lits: ["lin_api_"], starts: ["li"], re: /\blin_api_[A-Za-z0-9]{40}\b/y },
  { kind: "doppler-token", lits: ["dp."], starts: ["dp"], re: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b/y },
  { kind: "vault-token", lits: ["hvs.", "hvb.", "hvr."], starts: ["hv"], re: /\bhv[sbr]\.[A-Za-z0-9_-]{24,200}/y },
  { kind: "atlassian-token", lits: ["ATATT3"], starts: ["AT"], re: /\bATATT3[A-Za-z0-9_=-]{100,250}/y },
  { kind: "postman-key", lits: ["PMAK-"], starts: ["PM"], re: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/y },
  { kind: "sentry-token", lits: ["sntr"], starts: ["sn"], re: /\bsntr[ysu]_[A-Za-z0-9_=+/-]{40,250}/y },
  { kind: "newrelic-key", lits: ["NRAK-"], starts: ["NR"], re: /\bNRAK-[A-Z0-9]{27}\b/y },
  { kind: "mailchimp-key", lits: ["-us"], starts: ["-u"], re: /(?<=\b([0-9a-f]{32}))-us\d{1,2}\b/y, pre: true },
  { kind: "jwt", lits: ["eyJ"], starts: ["ey"], re: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{2,8192}\.[A-Za-z0-9_-]{0,1024}/y },
  // scheme://user:password@host; the scheme is not read (the match starts at "://").
  { kind: "url-credentials", lits: ["://"], starts: [":/"], re: /:\/\/[^\s:/@'"`<>]{0,128}:([^\s@/'"`<>]{1,256})@/y, group: 1, accept: (v) => !PLACEHOLDER.test(v) },
  // Auth headers and flags.
  { kind: "bearer-token", lits: ["bearer", "token"], ci: true, starts: [...cases("bearer"), ...cases("token")], re: /\b(?:Bearer|Token)[ \t]{1,8}([A-Za-z0-9._~+/=-]{16,4096})/iy, group: 1, accept: (v) => /\d/.test(v) },
  { kind: "basic-auth", lits: ["basic"], ci: true, starts: cases("basic"), re: /\bBasic[ \t]{1,8}([A-Za-z0-9+/]{8,4096}={0,2})(?![A-Za-z0-9+/=])/iy, group: 1, accept: basicLooksReal },
  {
    kind: "auth-header", lits: ["api-key", "auth-token", "private-token", "vault-token"], ci: true,
    starts: [...cases("api"), ...cases("auth"), ...cases("private"), ...cases("vault")],
    re: /(?:api-key|auth-token|private-token|vault-token)[ \t]{0,4}[:=][ \t]{0,4}["']?([^\s'",;]{8,4096})/iy,
    group: 1,
    accept: (v) => /\d/.test(v) && !PLACEHOLDER.test(v),
  },
  { kind: "cookie", lits: ["cookie"], ci: true, starts: cases("cookie"), re: /cookie[ \t]{0,4}:[ \t]{0,4}([^\r\n]{1,4096})/iy, group: 1, accept: (v) => v.includes("=") && /\d/.test(v) },
  {
    kind: "password-flag", lits: ["--pass", "--token", "--secret", "--api", "--auth", "--access"],
    starts: ["--"],
    re: /--(?:password|passwd|pass|token|secret|api-key|apikey|auth-token|access-token)(?:=|[ \t]{1,8})("[^"\n]{3,512}"|'[^'\n]{3,512}'|[^\s"'-][^\s"']{5,511})/y,
    group: 1,
    accept: (v) => /^["']/.test(v) ? !PLACEHOLDER.test(v.slice(1)) : classes(v) >= 2 && /\d/.test(v) && !PLACEHOLDER.test(v),
  },
];

// ---- names -------------------------------------------------------------------------------------

/** Name endings (lower-case, separators removed) whose value is a secret whatever it looks like. */
const STRONG_NAME = /(?:password|passwd|passphrase|pwd|secret|secretkey|secretkeybase|token|accesstoken|authtoken|refreshtoken|apitoken|apikey|accesskey|secretaccesskey|privatekey|clientsecret|credential|credentials|authorization|sessionkey|signingkey|encryptionkey|masterkey|webhooksecret|dbpass|pgpassword|connectionstring|dsn)s?$/;
/** Name endings whose value is a secret only when it looks random. */
const WEAK_NAME = /(?:key|sig|signature|salt|pass|pw|auth|jwt|session|sessionid|hmac|cookie|license)$/;
const AWS_NAME = /aws|amazon/;

const PLACEHOLDER = /^(?:\$|\[REDACTED|<|%|\{\{|\*{3}|x{3}|\.\.\.|null$|none$|nil$|true$|false$|undefined$|string$|required$|optional$|changeme$|example|your[-_]|process\.env|os\.environ|env\(|getenv)/i;

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isWordChar(c) || c === 45 || c === 46;
}

/** Shannon entropy in bits per character (a random base64 string is near 6, English near 4, a hex hash near 4). */
export function entropy(text: string): number {
  const freq = new Map<number, number>();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    freq.set(c, (freq.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of freq.values()) {
    const p = n / text.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function classes(value: string): number {
  let lower = 0;
  let upper = 0;
  let digit = 0;
  let other = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = 1;
    else if (c >= 65 && c <= 90) upper = 1;
    else if (c >= 48 && c <= 57) digit = 1;
    else other = 1;
  }
  return lower + upper + digit + other;
}

/**
 * Hex digests (git objects, checksums) and UUIDs (request, trace and session ids) are random too, but they
 * are what code and logs are full of: under a weak name they are left alone (a UUID secret is caught by a
 * strong name, HEROKU_API_KEY=...).
 */
function isIdLike(value: string): boolean {
  return /^[0-9a-f]+$/i.test(value) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** A value that reads like a random credential, not a word, a number, a hash of a file or a code reference. */
export function looksRandom(value: string): boolean {
  if (value.length < 16) return false;
  return !isIdLike(value) && classes(value) >= 3 && entropy(value) >= 3.5;
}

/** A plain code reference such as `config.apiKey` or `getToken`: no digits, only identifier characters and dots. */
function looksLikeCode(value: string): boolean {
  return /^[A-Za-z_$][A-Za-z_$.]{0,200}$/.test(value) || /[()[\]{}]/.test(value);
}

/** Name fragments that make an assignment worth a look (lower-case; the table adds the other cases). */
const KEYWORDS = ["pass", "pwd", "pw", "secret", "token", "key", "cred", "auth", "sig", "salt", "session", "jwt", "hmac", "cookie", "license", "dsn", "connection"];

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

function matchesKeyword(text: string, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = text.charCodeAt(at + i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * `NAME=value`, `NAME: value`, `"name": "value"`, `export NAME=value` around a keyword at `p`: reads the name
 * and the value by hand, bounded on both sides. Returns where the value scan stopped, so the caller never
 * scans the same value twice (that keeps `PASSWORD=PASSWORD=...` linear).
 */
function scanAssignment(text: string, p: number, spans: Span[]): number {
  let nameStart = p;
  while (nameStart > 0 && p - nameStart < 128 && isNameChar(text.charCodeAt(nameStart - 1))) nameStart--;
  let nameEnd = p;
  while (nameEnd < text.length && nameEnd - p < 128 && isNameChar(text.charCodeAt(nameEnd))) nameEnd++;
  if (nameEnd - nameStart < 2) return nameEnd;
  // A path or package name (`@scope/token`, `a/b_key`) is not an assignment's name.
  const before = text.charCodeAt(nameStart - 1);
  if (before === 47 || before === 64 || before === 92 || before === 36 || before === 37) return nameEnd;
  let at = nameEnd;
  const q = text.charCodeAt(at);
  if (q === 34 || q === 39) at++;
  while (at < text.length && at - nameEnd < 8 && isSpace(text.charCodeAt(at))) at++;
  const op = text.charCodeAt(at);
  if (op !== 61 && op !== 58) return nameEnd;
  const next = text.charCodeAt(at + 1);
  // `a:b` inside a word (URLs, times, `std::x`) is not an assignment: `:` must be followed by a space or quote.
  if (op === 58 && !isSpace(next) && next !== 34 && next !== 39) return nameEnd;
  if (next === 61 || next === 58) return nameEnd; // `==`, `::`
  const name = text.slice(nameStart, nameEnd).toLowerCase().replace(/[-_.]/g, "");
  const strong = STRONG_NAME.test(name);
  if (!strong && !WEAK_NAME.test(name) && !AWS_NAME.test(name)) return nameEnd;
  // The value: after spaces and an opening quote, up to the closing quote or a separator (at most 4096).
  let k = at + 1;
  while (k < text.length && k - at < 8 && isSpace(text.charCodeAt(k))) k++;
  const open = text.charCodeAt(k);
  const quoted = open === 34 || open === 39 || open === 96;
  if (quoted) k++;
  const valueStart = k;
  while (k < text.length && k - valueStart < 4096) {
    const c = text.charCodeAt(k);
    if (quoted ? c === open || c === 10 : c === 32 || c === 9 || c === 10 || c === 13 || c === 34 || c === 39 || c === 44 || c === 59 || c === 38 || c === 124 || c === 125) break;
    k++;
  }
  if (quoted && text.charCodeAt(k) !== open) return k;
  const value = text.slice(valueStart, k);
  if (value.length === 0 || PLACEHOLDER.test(value) || /^[~^<>=v]?\d+(?:\.\d+)*$/.test(value)) return k;
  const lineStart = text.lastIndexOf("\n", nameStart - 1) + 1;
  const envLine = op === 61 && nameStart - lineStart <= 16 && /^[ \t]*(?:export[ \t]{1,4})?$/.test(text.slice(lineStart, nameStart));
  const code = looksLikeCode(value);
  let kind: string | undefined;
  if (AWS_NAME.test(name) && /secret/.test(name) && /^[A-Za-z0-9/+=]{40}$/.test(value)) kind = "aws-secret-key";
  else if (strong && (envLine || quoted) && value.length >= 3 && !code) kind = "secret-assignment";
  else if (strong && value.length >= 8 && /\d/.test(value) && !code) kind = "secret-assignment";
  else if (envLine && value.length >= 8 && classes(value) >= 3 && !code && !isIdLike(value)) kind = "secret-assignment";
  else if (!code && looksRandom(value)) kind = "high-entropy-secret";
  if (kind) spans.push({ start: valueStart, end: k, kind });
  return k;
}

const PEM_BEGIN = /-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY(?: BLOCK)?-----/y;
const MAX_PEM = 32_768;
const PEM_BODY = /[A-Za-z0-9+/=\r\n\\: -]/;

/** A PEM or PGP private key block at `at`, multi-line or JSON-escaped (`\n`), up to its END line or its body's end. */
function scanPrivateKey(text: string, at: number, spans: Span[]): number {
  PEM_BEGIN.lastIndex = at;
  if (!PEM_BEGIN.test(text)) return at + 1;
  const end = text.indexOf("-----END ", PEM_BEGIN.lastIndex);
  let stop: number;
  if (end >= 0 && end - at <= MAX_PEM) {
    const close = text.indexOf("-----", end + 9);
    stop = close >= 0 && close - end < 64 ? close + 5 : end + 9;
  } else {
    // No END line (cut output): the body is base64 and line breaks, so it ends at the first other character.
    stop = PEM_BEGIN.lastIndex;
    while (stop < text.length && stop - at < MAX_PEM && PEM_BODY.test(text[stop] as string)) stop++;
  }
  spans.push({ start: at, end: stop, kind: "private-key" });
  return stop;
}

interface Trigger {
  shapes: ShapeDetector[];
  keywords: string[];
  pem: boolean;
}

/** Character pair (both below 256) -> what may start there. */
let tableMemo: (Trigger | undefined)[] | undefined;
function triggers(): (Trigger | undefined)[] {
  if (tableMemo) return tableMemo;
  const table: (Trigger | undefined)[] = new Array(1 << 16);
  const trigger = (pair: string): Trigger => {
    const idx = ((pair.charCodeAt(0) & 0xff) << 8) | (pair.charCodeAt(1) & 0xff);
    let t = table[idx];
    if (!t) {
      t = { shapes: [], keywords: [], pem: false };
      table[idx] = t;
    }
    return t;
  };
  for (const d of SHAPES()) for (const s of d.starts) trigger(s).shapes.push(d);
  for (const w of KEYWORDS) for (const s of new Set([w, w[0]?.toUpperCase() + w.slice(1), w.toUpperCase()])) trigger(s.slice(0, 2)).keywords.push(w);
  trigger("--").pem = true;
  tableMemo = table;
  return table;
}

function litAt(text: string, i: number, d: ShapeDetector): boolean {
  const lits = d.lits;
  if (lits === undefined) return true;
  for (const l of lits) if (d.ci ? matchesKeyword(text, i, l) : text.startsWith(l, i)) return true;
  return false;
}

function tryShape(text: string, i: number, d: ShapeDetector, spans: Span[]): number {
  if (!litAt(text, i, d)) return -1;
  const from = i - (d.back ?? 0);
  if (from < 0) return -1;
  d.re.lastIndex = from;
  const m = d.re.exec(text);
  if (!m) return -1;
  const g = d.group ?? 0;
  const value = m[g];
  if (value === undefined) return -1;
  if (d.accept && !d.accept(value)) return -1;
  const pre = d.pre ? (m[1]?.length ?? 0) : 0;
  const start = g === 0 ? m.index - pre : m.index + m[0].lastIndexOf(value);
  const end = g === 0 ? m.index + m[0].length : start + value.length;
  spans.push({ start, end, kind: d.kind });
  // Context kept (`Bearer x`): the scan goes on at the value, where a vendor shape may name it better.
  return g === 0 ? end : start;
}

/** Every secret span in `text`, unsorted, possibly overlapping. One pass; each value is scanned once. */
export function findSecrets(text: string): Span[] {
  const spans: Span[] = [];
  const n = text.length - 1;
  const table = triggers();
  let assignFloor = 0;
  for (let i = 0; i < n; i++) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    if (c0 > 255 || c1 > 255) continue;
    const t = table[(c0 << 8) | c1];
    if (t === undefined) continue;
    if (t.pem && text.startsWith("-----BEGIN ", i)) {
      i = scanPrivateKey(text, i, spans) - 1;
      continue;
    }
    let skip = -1;
    for (const d of t.shapes) {
      skip = tryShape(text, i, d, spans);
      if (skip >= 0) break;
    }
    if (skip > i) {
      i = skip - 1;
      continue;
    }
    if (i >= assignFloor) {
      for (const w of t.keywords) {
        if (!matchesKeyword(text, i, w)) continue;
        assignFloor = scanAssignment(text, i, spans);
        break;
      }
    }
  }
  return spans;
}

/** Every pattern the detectors run, for the regex risk test. */
export function detectorPatterns(): RegExp[] {
  return SHAPES().map((d) => d.re).concat([PEM_BEGIN, PEM_BODY, STRONG_NAME, WEAK_NAME, AWS_NAME, PLACEHOLDER]);
}

const GENERIC_KINDS: ReadonlySet<string> = new Set(["secret-assignment", "high-entropy-secret", "bearer-token", "auth-header", "password-flag", "cookie", "url-credentials"]);

/** Sorted, non-overlapping spans; of two overlapping spans the earlier (then longer) one wins. */
function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      if (s.end > last.end) last.end = s.end;
      // A value under a secret name that is also a known shape is counted as the shape (more useful to read).
      if (GENERIC_KINDS.has(last.kind) && !GENERIC_KINDS.has(s.kind)) last.kind = s.kind;
      continue;
    }
    out.push({ ...s });
  }
  return out;
}

// One entry: a tool result is scanned by the data-flow guard and then by the redact rule; the second is free.
let memoText: string | undefined;
let memoSpans: readonly Span[] = [];

/** The secrets of `text`, sorted and non-overlapping, each named by its most specific kind. Do not mutate. */
export function secretSpans(text: string): readonly Span[] {
  if (text !== memoText) {
    memoSpans = mergeSpans(findSecrets(text));
    memoText = text;
  }
  return memoSpans;
}

/** Windows of this size are scanned one after another, with an overlap for a secret that spans two windows. */
const WINDOW = 1 << 20;
const OVERLAP = 40_000;
export const DEFAULT_MAX_CHARS = 64 * (1 << 20);

export interface RedactOptions {
  /** Text beyond this is dropped (and a line says so): the bound on what one call may cost. */
  maxChars?: number;
  /** What a secret is replaced with (default `[REDACTED:kind]`). */
  marker?: (kind: string) => string;
}

/** Redacts every secret in `text`. Linear in its length; the counts say what was found, never the values. */
export function redactSecrets(input: string, opts: RedactOptions = {}): Redaction {
  const max = opts.maxChars ?? DEFAULT_MAX_CHARS;
  const mark = opts.marker ?? marker;
  const truncated = input.length > max;
  const text = truncated ? input.slice(0, max) : input;
  const counts: Record<string, number> = {};
  let total = 0;
  const parts: string[] = [];
  let copied = 0;
  for (let base = 0; base < text.length; ) {
    const end = Math.min(text.length, base + WINDOW);
    const windowText = base === 0 && end === text.length ? text : text.slice(base, Math.min(text.length, end + OVERLAP));
    const spans = secretSpans(windowText);
    let next = end;
    for (const s of spans) {
      const start = base + s.start;
      if (start < copied) continue;
      if (start >= end) break;
      parts.push(text.slice(copied, start), mark(s.kind));
      copied = base + s.end;
      next = Math.max(next, copied);
      counts[s.kind] = (counts[s.kind] ?? 0) + 1;
      total++;
    }
    base = next;
  }
  if (total === 0 && !truncated) return { text: input, counts, total, truncated };
  parts.push(text.slice(copied));
  if (truncated) parts.push(`\n[Shepherd: output cut at ${max} characters of ${input.length}]`);
  return { text: parts.join(""), counts, total, truncated };
}

/** "2 secrets (github-token, private-key)": for a notice to the model or the user. Never contains a value. */
export function describeCounts(counts: Readonly<Record<string, number>>): string {
  const kinds = Object.keys(counts).sort();
  const total = kinds.reduce((n, k) => n + (counts[k] ?? 0), 0);
  const list = kinds.map((k) => (counts[k] === 1 ? k : `${counts[k]}× ${k}`)).join(", ");
  return `${total} secret${total === 1 ? "" : "s"} (${list})`;
}

/**
 * The line the model reads under a redacted output: how many and of what kind, never a value, and what to
 * do about it (a model told nothing tends to ask for the "missing" value or go and read it again).
 */
export function redactionNotice(counts: Readonly<Record<string, number>>): string {
  return `[Shepherd redacted ${describeCounts(counts)} from this output. The values are withheld on purpose: do not try to read, reconstruct or repeat them; refer to them by name (e.g. "the token in .env").]`;
}

/** `Basic x` is a credential only when x decodes to `user:password` ("Basic usage" is not). */
function basicLooksReal(value: string): boolean {
  try {
    return atob(value.length % 4 === 0 ? value : value + "=".repeat(4 - (value.length % 4))).includes(":");
  } catch {
    return false;
  }
}

/**
 * For an agent that cannot replace the output (only add to it): what the model is told instead. It has
 * seen the values, so it is asked not to repeat or send them; the data-flow guard is what enforces that.
 */
export function disregardNotice(counts: Readonly<Record<string, number>>): string {
  return `[Shepherd: this output contained ${describeCounts(counts)} that could not be hidden from you. Do not repeat, store, print or send these values anywhere (no command, file, message or URL); refer to them by name only.]`;
}

const MAX_JSON_DEPTH = 64;

/**
 * A copy of a JSON value with every string redacted, same shape (an agent that validates a replaced tool
 * output against the tool's schema accepts it). Counts are added to `counts`.
 */
export function redactJson(value: unknown, counts: Record<string, number>, depth = 0): unknown {
  if (typeof value === "string") {
    const r = redactSecrets(value);
    for (const [k, n] of Object.entries(r.counts)) counts[k] = (counts[k] ?? 0) + n;
    return r.text;
  }
  if (value === null || typeof value !== "object") return value;
  // Deeper than any tool output: flattened to redacted text rather than passed through unread.
  if (depth >= MAX_JSON_DEPTH) return redactJson(JSON.stringify(value), counts, depth);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, counts, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty, not assignment: a key named __proto__ must stay a plain key.
    Object.defineProperty(out, k, { value: redactJson(v, counts, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
