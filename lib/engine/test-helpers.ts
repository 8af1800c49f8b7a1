/** @module test helpers for the engine: build a rule set from inline JSON and evaluate events against it. */
import { evaluate, type EvalHost } from "./evaluate.ts";
import { loadRuleText } from "./load.ts";
import { type Layer, mergeLayers, type MergeOptions, type RuleSet } from "./merge.ts";
import type { Decision, HookEvent, LayerName } from "./schema.ts";
import { SessionStore } from "./state.ts";

export function ruleSetOf(layers: Partial<Record<LayerName, unknown[]>>, opts: MergeOptions = { trusted: true }): RuleSet {
  const out: Layer[] = [];
  for (const source of ["managed", "builtin", "global", "project"] as const) {
    const rules = layers[source];
    if (!rules) continue;
    const res = loadRuleText(JSON.stringify(rules), { file: `${source}.json`, source });
    if (!res.ok) throw new Error(`test rules invalid: ${JSON.stringify(res.issues)}`);
    out.push({ source, files: [{ file: `${source}.json`, rules: res.rules }] });
  }
  return mergeLayers(out, [], opts);
}

export function bashCall(command: string, session = "s1", cwd = "/proj"): HookEvent {
  return { hook: "tool_call", session: { id: session, cwd }, tool: { name: "bash", input: { command } } };
}

export function toolResult(tool: string, input: Record<string, unknown>, isError: boolean, text = "", session = "s1"): HookEvent {
  return { hook: "tool_result", session: { id: session, cwd: "/proj" }, tool: { name: tool, input }, result: { text, isError } };
}

export function makeEvaluator(rules: RuleSet, opts: { maxWarnings?: number; host?: EvalHost; listAll?: boolean } = {}) {
  const sessions = new SessionStore();
  const ctx = { rules, sessions, maxWarnings: opts.maxWarnings ?? 0, projectRoot: "/proj", home: "/home/u", ...(opts.host ? { host: opts.host } : {}), ...(opts.listAll ? { listAll: true } : {}) };
  return { sessions, run: (event: HookEvent): Promise<Decision> => Promise.resolve(evaluate(ctx, event)) };
}
