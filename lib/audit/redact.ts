/**
 * @module secret redaction for the audit log: known token shapes, credential-looking assignments and
 * keys, URL passwords, private keys. Every pattern here is linear (no nested or overlapping
 * quantifiers), because it runs over tool inputs an attacker may shape.
 */

export const REDACTED = "[REDACTED]";

/** Longest string kept in an audit line; the rest is cut (a `write` of a big file is not audit material). */
export const MAX_STRING = 2_048;
const MAX_DEPTH = 6;
const MAX_KEYS = 64;
const MAX_ITEMS = 64;

/** Object keys whose values are secrets whatever they look like. */
const SECRET_KEY = /pass(?:word|wd|phrase)?$|secret|token|api[-_]?key|apikey|auth(?:orization)?$|credential|private[-_]?key|cookie|session[-_]?key|access[-_]?key/i;

interface Rule {
  re: RegExp;
  to: string;
}

const RULES: Rule[] = [
  // PEM private keys, whole block.
  { re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[^]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, to: REDACTED },
  // Vendor token shapes (GitHub, OpenAI/Anthropic, Slack, AWS, Google, Stripe, npm, GitLab).
  { re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})/g, to: REDACTED },
  { re: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g, to: REDACTED },
  { re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, to: REDACTED },
  { re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, to: REDACTED },
  { re: /\bAIza[0-9A-Za-z_-]{35}\b/g, to: REDACTED },
  { re: /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}/g, to: REDACTED },
  { re: /\bnpm_[A-Za-z0-9]{36}\b/g, to: REDACTED },
  { re: /\bglpat-[A-Za-z0-9_-]{20,}/g, to: REDACTED },
  // JSON Web Tokens.
  { re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g, to: REDACTED },
  // Authorization headers and bearer tokens.
  { re: /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, to: `$1 ${REDACTED}` },
  { re: /\b(authorization|x-api-key|api-key|cookie)(\s*[:=]\s*)[^\s'",;]+/gi, to: `$1$2${REDACTED}` },
  // Passwords in URLs: scheme://user:password@host.
  { re: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,128}:)[^\s@/]{1,256}@/gi, to: `$1${REDACTED}@` },
  // NAME=value where the name says secret (env assignments, .env lines, export, JSON-ish "key": "value").
  {
    re: /\b([A-Za-z0-9_]{0,64}(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)[A-Za-z0-9_]{0,64})(["']?\s*[:=]\s*["']?)[^\s"'&;|]+/gi,
    to: `$1$2${REDACTED}`,
  },
  // Command-line flags: --password x, --token=x, -p'x' is too ambiguous to touch.
  { re: /(--?(?:password|passwd|pass|token|secret|api-key|apikey|auth-token|access-token)(?:=|\s+))(?:"[^"]*"|'[^']*'|[^\s"']+)/gi, to: `$1${REDACTED}` },
];

/** Masks secrets in one string and cuts it to `max` characters. */
export function redactText(text: string, max = MAX_STRING): string {
  let out = text.length > max * 4 ? text.slice(0, max * 4) : text;
  for (const r of RULES) out = out.replace(r.re, r.to);
  return out.length > max ? `${out.slice(0, max)}… [${text.length} chars]` : out;
}

/** A copy of a JSON-like value with secrets masked, bounded in depth, keys, items and string length. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? String(value) : value;
  if (depth >= MAX_DEPTH) return "[…]";
  if (Array.isArray(value)) {
    const out = value.slice(0, MAX_ITEMS).map((v) => redactValue(v, depth + 1));
    if (value.length > MAX_ITEMS) out.push(`… [${value.length - MAX_ITEMS} more]`);
    return out;
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, v] of Object.entries(value)) {
    if (n++ >= MAX_KEYS) {
      out["…"] = "[more keys]";
      break;
    }
    // defineProperty, not assignment: a key named __proto__ must stay a plain key.
    Object.defineProperty(out, k, { value: SECRET_KEY.test(k) && v !== null && v !== "" ? REDACTED : redactValue(v, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
