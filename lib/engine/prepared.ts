/**
 * @module the prepared rule: what selection and the regex compiler need of a rule's text, made once when
 * the rule is loaded (its literal keys, its gate, its patterns' safety analyses) and carried on the rule
 * itself, so the load cache and the hook snapshot serialize it with the rule and no module keeps it aside.
 */
import { analyzePattern, analyzeParsed, type PatternAnalysis } from "./regex/risk.ts";
import { type ParsedRegex, parseRegex } from "./regex/syntax.ts";
import { requiredText } from "./regex/literals.ts";
import type { Rule } from "./schema.ts";

/** A set of literals of one field (`subject` for the rule's pattern): every match holds at least one of them. */
export interface RuleKey {
  field: string;
  literals: string[];
  /** The literal is a shape (literals.ts: `a` any lower-case letter, `0` any digit...), matched on shape-folded text. */
  shape?: true;
}

export interface Prepared {
  /** Every literal set the rule's pattern and non-negated conditions require (any one would do as its key). */
  keys: RuleKey[];
  /** Position in `keys` of the strongest set (longest shortest literal): the plain selector's gate; -1 for none. */
  gate: number;
  /**
   * Safety analyses of the patterns the rule compiles, in `patternsOf` order (null: not readable, analysed
   * and reported again when compiled). An array, not a map by pattern text: a sidecar keeps one per rule.
   */
  analyses: (PatternAnalysis | null)[];
}

/** A rule's pattern, conditions and `command` regexes (these compile without flags, lib/shell/index.ts). */
export function patternsOf(rule: Rule): { pattern: string; flags: string | undefined }[] {
  const out: { pattern: string; flags: string | undefined }[] = [];
  if (rule.pattern !== undefined) out.push({ pattern: rule.pattern, flags: rule.flags });
  for (const c of rule.conditions) out.push({ pattern: c.pattern, flags: c.flags });
  const cmd = rule.command;
  if (cmd) for (const p of [cmd.args, cmd.notArgs, cmd.branch, cmd.writesTo]) if (p !== undefined) out.push({ pattern: p, flags: undefined });
  return out;
}

/** Flags as the compiler normalizes them (`g`/`y` make `test` stateful and are dropped). */
export function analysisKey(pattern: string, flags: string | undefined): string {
  return `${(flags ?? "").replace(/[gy]/g, "")}/${pattern}`;
}

/** Literal and shape keys and the gate: from the rule's text, so preparing a rule never compiles it. */
function keysOf(rule: Rule, parse: (pattern: string, flags: string | undefined) => ParsedRegex | undefined): { keys: RuleKey[]; gate: number } {
  const keys: RuleKey[] = [];
  let gate = -1;
  let strongest = 0;
  const add = (field: string, pattern: string, flags: string | undefined) => {
    const parsed = parse(pattern, flags);
    const required = parsed && requiredText(pattern, flags ?? "", parsed);
    if (!required) return;
    for (const shape of required.shapes) keys.push({ field, literals: [shape], shape: true });
    for (const literals of required.sets) {
      keys.push({ field, literals });
      let min = Number.POSITIVE_INFINITY;
      for (const l of literals) min = Math.min(min, l.length);
      if (min > strongest) [strongest, gate] = [min, keys.length - 1];
    }
  };
  if (rule.pattern !== undefined) add("subject", rule.pattern, rule.flags);
  for (const c of rule.conditions) if (!c.negate) add(c.field, c.pattern, c.flags);
  // With a literal of an n-gram or more, shapes add nothing worth their memory (a sidecar keeps every key).
  if (strongest >= 3) {
    const literal = keys.filter((k) => !k.shape);
    return { keys: literal, gate: literal.indexOf(keys[gate] as RuleKey) };
  }
  // A literal shorter than an n-gram is in most text: the longest shape, if any, says more.
  for (let i = 0; i < keys.length; i++) if (keys[i]?.shape && (gate < 0 || !keys[gate]?.shape || (keys[i]?.literals[0]?.length ?? 0) > (keys[gate]?.literals[0]?.length ?? 0))) gate = i;
  return { keys, gate };
}

/** The prepared value of a rule's current text. */
export function prepareRule(rule: Rule): Prepared {
  // Each pattern parsed once, for its analysis and its required text alike.
  const parsed = new Map<string, ParsedRegex | undefined>();
  const parse = (pattern: string, flags: string | undefined): ParsedRegex | undefined => {
    const key = analysisKey(pattern, flags);
    if (parsed.has(key)) return parsed.get(key);
    let tree: ParsedRegex | undefined;
    try {
      tree = parseRegex(pattern, (flags ?? "").replace(/[gy]/g, ""));
    } catch {
      // Not valid JS: compiling the rule reports the native message.
    }
    parsed.set(key, tree);
    return tree;
  };
  const analyses = patternsOf(rule).map((p) => {
    const tree = parse(p.pattern, p.flags);
    return tree ? analyzeParsed(tree, p.pattern) : null;
  });
  return { ...keysOf(rule, parse), analyses };
}

/**
 * Prepares every rule of a file: all the parsing first, then the kept values in a run of their own. They live
 * as long as the rules, and allocated among the parsers' garbage each would keep a mostly empty heap block
 * resident (JSC does not move objects).
 */
export function prepareRules(rules: readonly Rule[]): void {
  const made = rules.map(prepareRule);
  rules.forEach((rule, i) => {
    const p = made[i] as Prepared;
    rule.prepared = { keys: p.keys.map((k) => (k.shape ? { field: k.field, literals: [...k.literals], shape: true } : { field: k.field, literals: [...k.literals] })), gate: p.gate, analyses: [...p.analyses] };
  });
}

/** The rule with its prepared value (made by load; a rule built elsewhere is prepared here, once). */
export function prepared(rule: Rule): Prepared {
  rule.prepared ??= prepareRule(rule);
  return rule.prepared;
}

/** The analysis of one of the rule's patterns: prepared at load, or computed now (a pattern composed later). */
export function analysisOf(rule: Rule | undefined, pattern: string, flags: string): PatternAnalysis {
  if (rule) {
    const known = prepared(rule).analyses;
    const list = patternsOf(rule);
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as { pattern: string; flags: string | undefined };
      const a = known[i];
      if (a && p.pattern === pattern && (p.flags ?? "").replace(/[gy]/g, "") === flags) return a;
    }
  }
  return analyzePattern(pattern, flags);
}

/** The gate of a prepared rule (tested with `includes` on folded or shape-folded text), or undefined when nothing can be required. */
export function gateOf(p: Prepared): RuleKey | undefined {
  return p.gate >= 0 ? p.keys[p.gate] : undefined;
}
