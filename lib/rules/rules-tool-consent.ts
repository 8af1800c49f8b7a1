/**
 * @module the consent token of the `shepherd_rules` tool: a digest of one exact change, handed out with a
 * refusal and accepted back only outside the tool's arguments (request `_meta`), which the model never writes.
 */
import { createHmac, randomBytes } from "node:crypto";

/** The `_meta` key that carries the consent request (in a result) and the digest (in a request). */
export const CONSENT_META_KEY = "shepherd/consent";

/** A summary longer than this cannot be shown whole in a confirm dialog, so it is not offered for consent. */
export const MAX_SUMMARY_CHARS = 4_000;

export interface ConsentRequest {
  required: true;
  /** What a person is asked to allow, in words, with the rule as JSON. */
  summary: string;
  digest: string;
}

/** The change a digest stands for: every field that decides what is written where. */
export interface RuleChange {
  action: "add" | "remove" | "enable" | "disable";
  scope: "global" | "project";
  file: string;
  name: string;
  rule?: Record<string, unknown>;
}

/**
 * Keyed by a secret of this process, so a digest is only ever one this sidecar handed out for that
 * change (a client cannot mint one without first showing the person the summary); a restart forgets it.
 */
const KEY = randomBytes(32);

/** JSON with object keys sorted at every depth: the same change always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function consentDigest(change: RuleChange): string {
  const { action, scope, file, name, rule } = change;
  return createHmac("sha256", KEY).update(canonicalJson({ tool: "shepherd_rules", action, scope, file, name, rule: rule ?? null })).digest("hex");
}

/** Constant-time comparison of a presented digest with the one for this change. */
export function consentMatches(change: RuleChange, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = consentDigest(change);
  if (presented.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ presented.charCodeAt(i);
  return diff === 0;
}

const SCOPE_WORDS = { global: "the global rules (every project)", project: "this project's rules" } as const;

/**
 * The text a person confirms. Rule content is shown as JSON, so a rule's own text (a hostile `reason`
 * with line breaks) cannot pass itself off as part of the question.
 */
export function consentSummary(change: RuleChange, target: string, why: string[]): string {
  const where = `${SCOPE_WORDS[change.scope]}, ${change.file}`;
  const what =
    change.action === "add"
      ? `add to ${where} the rule ${JSON.stringify(change.rule)}`
      : `${change.action} ${target} in ${where}`;
  return [`The model asks to change Shepherd's guard rules: ${what}.`, `This needs your consent because ${why.join("; ")}.`, "Allow this change?"].join("\n");
}
