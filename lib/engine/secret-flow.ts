/**
 * @module the data-flow guard: secret values a session's tools printed are remembered as salted SHA-256
 * fingerprints (never the values), and a later call that would carry one out (a network command, an MCP or
 * web-fetch tool, a write into the project) is found by fingerprinting the pieces of its input.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { redactSecrets, secretSpans } from "../secrets/redact.ts";
import { sha256 } from "../hash.ts";
import type { EventView } from "./match.ts";
import type { SessionState } from "./state.ts";

export interface SecretPrint {
  /** base64 of sha256(salt + value). */
  h: string;
  /** The value's length: only pieces of that length are hashed at check time (the < 5 µs budget). */
  len: number;
  kind: string;
  /** Where it was seen, e.g. "the output of bash `cat .env`" (redacted, so it never holds a value). */
  source: string;
}

export const MAX_PRINTS = 256;
/** Shorter values are too common to follow (and too cheap to brute-force from a fingerprint anyway). */
const MIN_SECRET = 8;
const MAX_SECRET = 4_096;

/** sha256(salt + value): the same digest as hashing the two one after the other. */
function fingerprint(salt: string, value: string): string {
  return sha256(salt + value, "base64");
}

/** 16 random bytes in base64, from Web Crypto (global in Bun and Deno alike). */
function randomSalt(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** A shell command that prints one variable's value (`printenv NAME`, `echo $NAME`) of a secret-looking name. */
const PRINT_ENV = /^\s*(?:printenv\s+|echo\s+"?\$\{?)([A-Za-z_][A-Za-z0-9_]{0,64})\}?"?\s*$/;
const SECRET_NAME = /pass|secret|token|key|cred|auth|private/i;

function describeSource(view: EventView): string {
  const cmd = view.command;
  if (view.tool === "bash" && cmd !== undefined) {
    const shown = redactSecrets(cmd.length > 80 ? `${cmd.slice(0, 80)}…` : cmd).text;
    return `the output of \`${shown}\``;
  }
  const path = view.path;
  return path !== undefined ? `the ${view.tool} of ${redactSecrets(path).text}` : `the output of the ${view.tool || "tool"} tool`;
}

/** Values a tool result shows that look like secrets: every detector span, and a printed secret variable. */
export function secretValues(view: EventView): { value: string; kind: string }[] {
  const text = view.event.result?.text ?? "";
  const out: { value: string; kind: string }[] = [];
  for (const s of secretSpans(text)) {
    const value = text.slice(s.start, s.end);
    if (value.length >= MIN_SECRET && value.length <= MAX_SECRET) out.push({ value, kind: s.kind });
  }
  const m = view.tool === "bash" && view.command !== undefined ? PRINT_ENV.exec(view.command) : null;
  const value = text.trim();
  if (m && SECRET_NAME.test(m[1] ?? "") && value.length >= MIN_SECRET && value.length <= MAX_SECRET && !value.includes("\n")) out.push({ value, kind: `env ${m[1]}` });
  return out;
}

/** Remembers the secrets of a tool result in the session, as fingerprints. */
export function rememberSecrets(state: SessionState, view: EventView): void {
  const found = secretValues(view);
  if (found.length === 0) return;
  state.secretSalt ??= randomSalt();
  const prints = (state.secretPrints ??= []);
  const source = describeSource(view);
  for (const { value, kind } of found) {
    const h = fingerprint(state.secretSalt, value);
    if (prints.some((p) => p.h === h)) continue;
    prints.push({ h, len: value.length, kind, source });
  }
  if (prints.length > MAX_PRINTS) prints.splice(0, prints.length - MAX_PRINTS);
}

/** Programs that send what is on their command line or stdin elsewhere. */
const SINK_PROGRAM = /(?:^|[\s;&|(`$/])(?:curl|wget|nc|ncat|netcat|socat|telnet|ssh|scp|sftp|rsync|ftp|http|https|xh|gh|git|aws|gsutil|openssl)(?=$|[\s;&|)`])/;
const WEB_TOOL = /^(?:webfetch|web_fetch|fetch|websearch|web_search|google_web_search|browser.*)$/;
const WRITE_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/** What a tool call would carry out, or undefined when it is not a way out. */
function outgoingText(view: EventView, projectRoot: string): string | undefined {
  const tool = view.tool;
  if (tool === "bash") {
    const cmd = view.command;
    return cmd !== undefined && (SINK_PROGRAM.test(cmd) || /[^<>&0-9]>|\btee\b/.test(cmd)) ? cmd : undefined;
  }
  if (WRITE_TOOLS.has(tool)) {
    const path = view.path;
    if (path === undefined) return undefined;
    const rel = relative(projectRoot, resolve(view.event.session.cwd, path));
    return rel.startsWith("..") || isAbsolute(rel) ? undefined : view.text;
  }
  if (tool.startsWith("mcp__") || tool.startsWith("mcp_") || WEB_TOOL.test(tool)) return JSON.stringify(view.input);
  return undefined;
}

const SPLIT = /[\s"'`,;|&<>()[\]{}\\]+/;

/** The remembered secret a tool call would carry out, if any: the first whose fingerprint a piece of it has. */
export function carriedSecret(state: SessionState, view: EventView, projectRoot: string): SecretPrint | undefined {
  const prints = state.secretPrints;
  const salt = state.secretSalt;
  if (!prints || prints.length === 0 || salt === undefined) return undefined;
  const text = outgoingText(view, projectRoot);
  if (text === undefined) return undefined;
  const lengths = new Set(prints.map((p) => p.len));
  const byHash = new Map(prints.map((p) => [p.h, p]));
  for (const token of text.split(SPLIT)) {
    if (token.length < MIN_SECRET) continue;
    // The piece itself, and what follows a `name=`, `user:` or `@`, or sits between `/` (URLs, -d k=v, remotes).
    const pieces = [token, ...token.split(/[=:@/?#]/)];
    for (const sep of ["=", ":", "@"]) {
      const at = token.indexOf(sep);
      if (at >= 0) pieces.push(token.slice(at + 1));
    }
    for (const piece of pieces) {
      if (!lengths.has(piece.length)) continue;
      const hit = byHash.get(fingerprint(salt, piece));
      if (hit) return hit;
    }
  }
  return undefined;
}

export function exfiltrationReason(hit: SecretPrint): string {
  return `Blocked by Shepherd: this call would send out a secret (${hit.kind}) that this session read from ${hit.source}. Secrets seen in tool output may not leave through a command, a file or a web/MCP call; if the user wants this, they can run it themselves.`;
}
