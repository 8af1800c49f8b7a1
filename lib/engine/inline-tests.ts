/**
 * @module a rule's inline `tests` run through the real evaluate: each case becomes a HookEvent, the
 * rule is evaluated on its own (so a neighbour cannot make its case pass or fail), and the decision
 * is compared with `expect`. Used by `shepherd rules test` and, as warnings, when rules load.
 */
import { type EvalContext, type EvalHost, evaluate, explain } from "./evaluate.ts";
import type { RuleSet } from "./merge.ts";
// The one project merge (pure: trust, the safe regex compiler, plugin names), so a case runs on the rule as every face merges it.
import { mergeProject } from "../rules/merge-project.ts";
import type { Decision, HookEvent, LoadIssue, Rule, RuleTest } from "./schema.ts";
import { isBuiltinAction, isBuiltinCheck, TOOL_HOOKS } from "./schema-core.ts";
import { emptyState, SessionStore } from "./state.ts";

export interface InlineTestOptions {
  /**
   * Whether the project layer is trusted: a case runs on the patterns its rule runs on when it loads
   * (an untrusted project's on the linear-time engine), so a test cannot stall where the rule cannot.
   * Unset means untrusted, the safe side.
   */
  trusted?: boolean;
  /** Plugin action/check names, so rules that use them are not skipped as unknown. */
  pluginActions?: ReadonlySet<string>;
  pluginChecks?: ReadonlySet<string>;
  /** Runs plugin actions and checks; without it, cases of plugin rules are reported as skipped. */
  host?: EvalHost;
  /**
   * cwd (and project root) of the synthetic session when a case gives none. Defaults to a fixed
   * "/project" so a case means the same wherever the project happens to live (a project under /tmp
   * would otherwise turn "../x" into an exempt temp path).
   */
  cwd?: string;
  home?: string;
}

export interface InlineTestResult {
  rule: Rule;
  /** Index of the case in the rule's `tests`. */
  index: number;
  test: RuleTest;
  /** JSON path of the case in its file, e.g. `rules[3].tests[1]`. */
  path: string;
  status: "pass" | "fail" | "skip";
  /** What the rule did with the event: block, ask, rewrite, notify, steer, or allow (did not fire). */
  actual?: string;
  /** Why it failed or was skipped: the first failed condition when the rule did not fire. */
  message?: string;
  decision?: Decision;
}


/** The event a case describes. `text` is the assistant message, the prompt, or the written text, by hook. */
export function eventForCase(rule: Rule, test: RuleTest, opts: { cwd: string; sessionId: string }): HookEvent {
  const hook = test.hook ?? rule.hook;
  const event: HookEvent = { hook, session: { id: opts.sessionId, cwd: test.cwd ?? opts.cwd } };
  if (TOOL_HOOKS.has(hook)) {
    const input: Record<string, unknown> = {};
    if (test.command !== undefined) input.command = test.command;
    if (test.path !== undefined) input.path = test.path;
    if (test.text !== undefined) input.content = test.text;
    const tool = test.tool ?? rule.tools[0] ?? (test.command !== undefined ? "bash" : test.text !== undefined ? "write" : test.path !== undefined ? "read" : "bash");
    event.tool = { name: tool, callId: `inline-test-${opts.sessionId}`, input };
    if (hook === "tool_result") event.result = { text: test.output ?? "", isError: test.isError ?? false };
  } else if (hook === "message_end" || hook === "agent_end") {
    event.message = { text: test.text ?? "" };
  } else if (hook === "input") {
    event.prompt = test.text ?? test.command ?? "";
  }
  if (hook === "agent_end") event.stopReason = rule.stopReason?.[0] ?? "stop";
  return event;
}

/** What a decision means for one rule: the action it contributed, or "allow" when it did not fire. */
function outcomeFor(rule: Rule, decision: Decision): string {
  const mine = decision.fired.find((f) => f.rule === rule.name);
  if (!mine) return "allow";
  if (rule.action === "redact") return decision.result ? "redact" : "allow";
  if (decision.action !== "allow") return decision.action;
  if (rule.action === "notify" || rule.action === "steer") return rule.action;
  return decision.notify.length > 0 ? "notify" : decision.steer.length > 0 ? "steer" : "allow";
}

function describeCase(test: RuleTest): string {
  const parts: string[] = [];
  if (test.hook !== undefined) parts.push(test.hook);
  if (test.tool !== undefined) parts.push(test.tool);
  if (test.command !== undefined) parts.push(JSON.stringify(test.command));
  if (test.path !== undefined) parts.push(`path ${JSON.stringify(test.path)}`);
  if (test.text !== undefined) parts.push(`text ${JSON.stringify(test.text.length > 60 ? `${test.text.slice(0, 57)}...` : test.text)}`);
  if (test.output !== undefined) parts.push(`output ${JSON.stringify(test.output.length > 60 ? `${test.output.slice(0, 57)}...` : test.output)}`);
  return parts.join(" ") || "(empty case)";
}

export { describeCase };

/**
 * Runs one rule's cases. A rule with a `state` counter sees the case `gte` times in one session and is
 * judged on the last (a "3rd error" rule is tested on its 3rd error); a `has_edits` rule starts from a
 * session with an edit, so the case tests the rest of the rule.
 */
export async function runRuleTests(rule: Rule, opts: InlineTestOptions = {}): Promise<InlineTestResult[]> {
  const results: InlineTestResult[] = [];
  if (rule.tests.length === 0) return results;
  // Through the project merge, alone (a neighbour cannot change its verdict), compiled under the real trust.
  const set = mergeProject([{ source: rule.source, files: [{ file: rule.file, rules: [{ ...rule, enabled: true }] }] }], [], {
    trusted: opts.trusted ?? false,
    toTest: true,
    projectDir: opts.cwd ?? "/project",
    plugins: { actions: opts.pluginActions ?? new Set(), checks: opts.pluginChecks ?? new Set() },
  });
  const cwd = opts.cwd ?? "/project";
  const home = opts.home ?? "/home/user";
  const needsPlugin = !isBuiltinAction(rule.action) || (rule.check !== undefined && !isBuiltinCheck(rule.check));
  for (const [index, test] of rule.tests.entries()) {
    const path = `${rule.jsonPath}.tests[${index}]`;
    const base = { rule, index, test, path };
    if (set.rules.length === 0) {
      const why = set.skipped[0]?.reason ?? "the rule could not be compiled";
      results.push({ ...base, status: "skip", message: why });
      continue;
    }
    if (needsPlugin && !opts.host) {
      results.push({ ...base, status: "skip", message: `needs plugin "${rule.check ?? rule.action}" loaded` });
      continue;
    }
    const sessions = new SessionStore(4);
    const sessionId = `inline-test-${index}`;
    const ctx: EvalContext = { rules: set, sessions, maxWarnings: 0, projectRoot: cwd, home, ...(opts.host ? { host: opts.host } : {}) };
    if (rule.check === "has_edits") sessions.get(sessionId).hasEdits = true;
    const event = eventForCase(rule, test, { cwd, sessionId });
    const repeat = rule.state?.gte ?? 1;
    let decision: Decision | undefined;
    let before = emptyState();
    try {
      for (let i = 0; i < repeat; i++) {
        before = structuredClone(sessions.get(sessionId));
        decision = await evaluate(ctx, structuredClone(event));
      }
    } catch (err) {
      results.push({ ...base, status: "fail", message: `evaluate threw: ${err instanceof Error ? err.message : String(err)}` });
      continue;
    }
    if (!decision) continue;
    const actual = outcomeFor(rule, decision);
    if (actual === test.expect) {
      results.push({ ...base, status: "pass", actual, decision });
      continue;
    }
    let message = `expected ${test.expect}, got ${actual}`;
    if (actual === "allow") {
      const why = explain(ctx, event, before).find((e) => e.rule.name === rule.name)?.why;
      if (why) message += `: ${why}`;
    } else if (decision.action === "rewrite" && decision.input) {
      message += ` (input became ${JSON.stringify(decision.input)})`;
    }
    results.push({ ...base, status: "fail", actual, message, decision });
  }
  return results;
}

/** Runs the inline tests of every active rule of a merged set, in rule order. */
export async function runInlineTests(set: RuleSet, opts: InlineTestOptions = {}): Promise<InlineTestResult[]> {
  const out: InlineTestResult[] = [];
  for (const rule of set.rules) out.push(...(await runRuleTests(rule, opts)));
  return out;
}

/**
 * Failing inline tests as load warnings (DESIGN: "reported at load", never enforced), for the rule
 * loader to merge into the issues it already reports. Skipped cases are not reported here.
 */
export async function inlineTestIssues(set: RuleSet, opts: InlineTestOptions = {}): Promise<LoadIssue[]> {
  const results = await runInlineTests(set, opts);
  return results
    .filter((r) => r.status === "fail")
    .map((r) => ({
      file: r.rule.file,
      path: r.path,
      message: `inline test of rule "${r.rule.name}" failed (${describeCase(r.test)}): ${r.message ?? ""}`,
      severity: "warning" as const,
    }));
}
