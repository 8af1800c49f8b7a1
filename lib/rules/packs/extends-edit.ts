/** @module adds a pack to a rules file's `extends`, keeping the file's comments and layout (jsonc edits). */
import { applyEdits, modify, type ParseError, parse as parseJsonc } from "jsonc-parser";
import { isPlainRecord } from "../../engine/guard-kit.ts";
import { parsePackSpec } from "./spec.ts";

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };

/** The specs a rules file text already extends (as normalized specs). */
export function extendedSpecs(data: unknown): string[] {
  const list = isPlainRecord(data) && Array.isArray(data.extends) ? data.extends : [];
  const out: string[] = [];
  for (const e of list) {
    const raw = typeof e === "string" ? e : isPlainRecord(e) && typeof e.pack === "string" ? e.pack : undefined;
    const parsed = raw === undefined ? undefined : parsePackSpec(raw);
    if (parsed?.ok) out.push(parsed.pack.spec);
  }
  return out;
}

/**
 * The text with `spec` in `extends` (undefined text: a new file). An array file becomes `{"extends", "rules"}`
 * around its original text. `changed: false` when it is there already.
 */
export function addToExtends(text: string | undefined, spec: string): { ok: true; text: string; changed: boolean } | { ok: false; message: string } {
  if (text === undefined || text.trim() === "") return { ok: true, changed: true, text: `${JSON.stringify({ extends: [spec], rules: [] }, null, 2)}\n` };
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) return { ok: false, message: "the rules file does not parse; fix it first" };
  if (Array.isArray(data)) return { ok: true, changed: true, text: `{\n  "extends": [${JSON.stringify(spec)}],\n  "rules": ${text.trim()}\n}\n` };
  if (!isPlainRecord(data)) return { ok: false, message: 'the rules file is neither a rule array nor {"rules": [...]}' };
  if (extendedSpecs(data).includes(spec)) return { ok: true, changed: false, text };
  if (data.extends !== undefined && !Array.isArray(data.extends)) return { ok: false, message: '"extends" is not a list; fix it first' };
  const edits = data.extends === undefined ? modify(text, ["extends"], [spec], { ...FORMAT, getInsertionIndex: () => 0 }) : modify(text, ["extends", -1], spec, FORMAT);
  return { ok: true, changed: true, text: applyEdits(text, edits) };
}
