/** @module (rule set, session state, event) -> Decision, with the precedence of DESIGN section 3. */
import type { ShellContext } from "../shell/index.ts";
import type { PathGuard } from "../shell/paths.ts";
import { type Budgets, budgetHit } from "./budgets.ts";
import { loopCount, trackCall, trackFailure } from "./loops.ts";
import { type ApprovalKey, approvalKey } from "./approval-key.ts";
import { defaultProtectedPaths } from "./protected-paths.ts";
import { candidates, type RuleSet } from "./merge.ts";
import { type CompiledRule, EventView, fillTemplate, matchStatic, NO_MATCH } from "./match.ts";
import { type Selector, selectorFor, wholeSelector } from "./select/selector.ts";
import { RegexBudgetError } from "./regex/guarded-regexp.ts";
import { redactJson, redactSecrets, redactionNotice } from "../secrets/redact.ts";
import { carriedSecret, exfiltrationReason, rememberSecrets } from "./secret-flow.ts";
import type { Decision, Fired, HookEvent, RememberRequest, Rule } from "./schema.ts";
import { isBuiltinAction, type RememberScope } from "./schema-core.ts";
import { recordCommand, recordEdit, type SessionState, type SessionStore } from "./state.ts";
import { isPowerShellTool, mainKeyOf } from "./tools.ts";

/** What a plugin action may answer: a partial decision, or nothing for "no opinion". */
export interface PartialDecision {
  action?: "block" | "ask" | "rewrite";
  reason?: string;
  input?: Record<string, unknown>;
  notify?: string[];
  steer?: string[];
}

export interface PluginCallArgs {
  event: HookEvent;
  rule: Rule;
  options: Record<string, unknown>;
  session: SessionState;
}

/** One remembered approval asked about: this rule, in this scope, for this exact call (approval-key.ts). */
export interface ApprovalQuery {
  rule: string;
  scope: RememberScope;
  tool: string;
  inputHash: string;
  session: { id: string; agent?: string };
}

/** The host's remembered approvals of the event's project: the id of one that allows the call, or undefined. Never throws. */
export type ApprovalLookup = (query: ApprovalQuery) => string | undefined;

/** Side effects the pure engine needs, injected by the host (git, plugins). */
export interface EvalHost {
  /** `git_uncommitted`: bounded `git status` in the session's cwd. */
  gitUncommitted?: (cwd: string) => Promise<boolean>;
  /** Runs a plugin action (contained: never throws, times out). */
  runAction?: (name: string, args: PluginCallArgs) => Promise<PartialDecision | undefined>;
  /** Runs a plugin check (contained: never throws, times out). */
  runCheck?: (name: string, args: PluginCallArgs) => Promise<boolean>;
}

export interface EvalContext {
  rules: RuleSet;
  sessions: SessionStore;
  /** Caps how often one rule may notify per session; 0 = no cap. */
  maxWarnings: number;
  projectRoot: string;
  home: string;
  /** The `shepherd_state` path class, built by the host from the environment; else the home-based defaults. */
  guard?: PathGuard;
  host?: EvalHost;
  /**
   * A dry run (`replay`): after a block, evaluation goes on only to list in `fired` every other rule that
   * matches; they take no effect. A live face stops at the first block.
   */
  listAll?: boolean;
  /** Per-session budgets from the settings (budgets.ts). */
  budgets?: Budgets;
  /** Remembered approvals of this project (lib/approvals/), asked only when an `ask` rule with `remember` matches. */
  approvals?: ApprovalLookup;
}

function shellContext(ctx: EvalContext, event: HookEvent): ShellContext {
  const shell: ShellContext = { cwd: event.session.cwd, projectRoot: ctx.projectRoot, home: ctx.home, guard: ctx.guard ?? defaultProtectedPaths(ctx.home, ctx.projectRoot) };
  if (event.tool && isPowerShellTool(event.tool.name)) shell.dialect = "powershell";
  return shell;
}

/**
 * The last shell context made, for the next event of the same context, cwd and dialect: a session's events
 * share them, and nothing writes to a context once made (a context is read, never changed, by the matchers).
 */
let lastShell: { ctx: EvalContext; cwd: string; powershell: boolean; shell: ShellContext } | undefined;

function sharedShellContext(ctx: EvalContext, event: HookEvent): ShellContext {
  const powershell = event.tool !== undefined && isPowerShellTool(event.tool.name);
  const last = lastShell;
  if (last && last.ctx === ctx && last.cwd === event.session.cwd && last.powershell === powershell) return last.shell;
  const shell = shellContext(ctx, event);
  lastShell = { ctx, cwd: event.session.cwd, powershell, shell };
  return shell;
}

const EDIT_TOOLS = new Set(["edit", "write"]);

/** Counts the current event into the session before any rule sees it (the 3rd error fires `gte: 3`). */
function count(state: SessionState, view: EventView): void {
  const ev = view.event;
  if (ev.hook === "tool_call") {
    state.calls++;
    state.callsByTool[view.tool] = (state.callsByTool[view.tool] ?? 0) + 1;
    trackCall(state, view);
  } else if (ev.hook === "tool_result" && ev.result) {
    if (ev.result.isError) {
      state.errors++;
      state.errorsByTool[view.tool] = (state.errorsByTool[view.tool] ?? 0) + 1;
      trackFailure(state, view);
    } else if (EDIT_TOOLS.has(view.tool)) {
      recordEdit(state);
    }
    if (view.tool === "bash" && view.command !== undefined) recordCommand(state, view.command, !ev.result.isError);
  } else if (ev.hook === "input") {
    state.wrapUpDelivered = [];
  }
}

function counterValue(rule: Rule, state: SessionState, view: EventView): number {
  const s = rule.state;
  if (!s) return 0;
  if (s.countKind === "repeats" || s.countKind === "failing_repeats") return loopCount(s.countKind, state, view);
  const perTool = s.perTool === true ? view.tool : typeof s.perTool === "string" ? s.perTool : undefined;
  if (s.countKind === "errors") return perTool === undefined ? state.errors : (state.errorsByTool[perTool] ?? 0);
  return perTool === undefined ? state.calls : (state.callsByTool[perTool] ?? 0);
}

/**
 * Session-dependent part of matching: counters, wrap-up once per prompt, warning cap. Like matchStatic,
 * it builds a message only when asked (`rules explain`), never on the hot path.
 */
function matchState(cr: CompiledRule, state: SessionState, view: EventView, maxWarnings: number, explain = true): string | undefined {
  const rule = cr.rule;
  if (rule.state) {
    const value = counterValue(rule, state, view) - (state.baselines[rule.name] ?? 0);
    if (value < rule.state.gte) return explain ? `state: ${rule.state.countKind} count ${value} < ${rule.state.gte}` : NO_MATCH;
  }
  if (rule.hook === "agent_end" && state.wrapUpDelivered.includes(rule.name)) return explain ? "already reminded since the last user prompt" : NO_MATCH;
  if (rule.action === "notify" && maxWarnings > 0 && (state.warnings[rule.name] ?? 0) >= maxWarnings) {
    return explain ? `maxWarnings: already notified ${maxWarnings} times this session` : NO_MATCH;
  }
  return undefined;
}

/**
 * Whether a rule matches this event in this session (everything but its check), with no message built.
 * A pattern that cannot finish (over its budget, regex-safety.ts) never reads as "no match": a notify or
 * steer rule says so in a notification instead of firing; any other rule fails the evaluation, which
 * every face answers with its fail mode (closed: the call is blocked).
 */
function matches(cr: CompiledRule, view: EventView, shell: ShellContext, state: SessionState, maxWarnings: number, out: Outcome): boolean {
  try {
    // The session's counters first: a few field reads that rule out most rules with a `state` (the loop
    // rules, picked for every call) before their event is read.
    return matchState(cr, state, view, maxWarnings, false) === undefined && matchStatic(cr, view, shell, false) === undefined;
  } catch (err) {
    if (!(err instanceof RegexBudgetError) || (cr.rule.action !== "notify" && cr.rule.action !== "steer")) throw err;
    pushUnique(out.notify, `Shepherd could not evaluate ${err.message}`);
    return false;
  }
}

function builtinCheck(check: string, state: SessionState): boolean | undefined {
  if (check === "always") return true;
  if (check === "has_edits") return state.hasEdits;
  return undefined;
}

function applyRewrite(cr: CompiledRule, view: EventView): Record<string, unknown> | undefined {
  const rw = cr.rule.rewrite;
  const key = mainKeyOf(view.input);
  if (!rw || key === undefined) return undefined;
  const current = String(view.input[key]);
  let next: string;
  if ("prefix" in rw) {
    // Idempotent, so a rewritten command replayed by the agent is not prefixed twice.
    if (current.trimStart().startsWith(rw.prefix)) return undefined;
    next = `${rw.prefix}${rw.prefix.endsWith(" ") ? "" : " "}${current.trimStart()}`;
  } else {
    if (!cr.pattern) return undefined;
    // Through the pattern's own constructor, so a linear-time pattern (regex-safety.ts) stays linear.
    const global = new (cr.pattern.constructor as RegExpConstructor)(cr.pattern, cr.rule.flags?.includes("g") ? `${cr.pattern.flags}g` : cr.pattern.flags);
    next = current.replace(global, rw.replace);
  }
  if (next === current) return undefined;
  return { ...view.input, [key]: next };
}

interface Outcome {
  block?: { rule: Rule; reason: string };
  ask?: { rule: Rule; reason: string };
  notify: string[];
  steer: string[];
  fired: Fired[];
  /** Rules in shadow mode that matched, with what they would have done (`fired` entries with `shadow`); made on the first. */
  shadow?: Fired[];
  rewritten: boolean;
  /** Made on the first rule that takes effect: most events have none. */
  tookEffect?: Rule[];
  state: SessionState;
  projectRoot: string;
  /** The redacted tool output (without the notice) and what was replaced, once a `redact` rule found secrets. */
  redacted?: { text: string; counts: Record<string, number> };
  approvals: ApprovalLookup | undefined;
  /** The `remember` ask rules that asked, for the face to keep once the person says yes. */
  remember?: RememberRequest[];
  /** The call's approval key, computed once per event (the original input: what the person is shown and what runs). */
  key?: ApprovalKey;
}

function defaultReason(rule: Rule): string {
  return rule.comment ?? `Shepherd rule "${rule.name}"`;
}

function fired(rule: Rule, action = rule.action): Fired {
  return { rule: rule.name, source: rule.source, action };
}

function pushUnique(list: string[], text: string): void {
  if (text && !list.includes(text)) list.push(text);
}

/**
 * Evaluates one event. Synchronous unless a rule needs the host (git status, a plugin), so the common
 * tool_call path costs no promise allocation.
 */
export function evaluate(ctx: EvalContext, event: HookEvent): Decision | Promise<Decision> {
  const view = new EventView(event);
  const state = ctx.sessions.get(event.session.id);
  const now = Date.now();
  state.lastSeen = now;
  if (state.startedAt === 0) state.startedAt = now;
  count(state, view);
  // Always, not only when the guard rule is in this rule set: a hook process answering a tool_result from
  // its snapshot holds only the tool_result rules, and the guard (a tool_call rule) needs what it saw.
  if (event.hook === "tool_result") rememberSecrets(state, view);
  if (ctx.budgets) {
    const hit = budgetHit(ctx.budgets, state, event, now);
    if (hit) return { action: "block", reason: hit.reason, notify: [], steer: [], fired: [{ rule: `budgets.${hit.budget}`, source: "settings", action: "block" }] };
  }
  const shell = sharedShellContext(ctx, event);
  const list = candidates(ctx.rules, event.hook, view.tool);

  // A snapshot's lists were narrowed by the same index already: selecting again would only repeat it.
  const selector = ctx.rules.preselected ? wholeSelector(list) : selectorFor(list);
  if (selector.needsHost) return evaluateAsync(ctx, view, state, list, selector, shell);

  const out = newOutcome(state, ctx);
  let picked = selector.select(view, shell);
  for (let k = 0; k < picked.length; k++) {
    const cr = picked[k] as CompiledRule;
    if (out.block && !ctx.listAll) break;
    if (!matches(cr, view, shell, state, ctx.maxWarnings, out)) continue;
    if (cr.rule.check !== undefined && builtinCheck(cr.rule.check, state) !== true) continue;
    if (cr.rule.shadow) {
      wouldHave(cr, view, out);
      continue;
    }
    if (out.block) {
      out.fired.push(fired(cr.rule));
      continue;
    }
    const input = view.input;
    applyAction(cr, view, out);
    if (view.input !== input) {
      // The prefilter saw the old input: the rules after this one are picked again for the new one.
      picked = selector.select(view, shell, cr);
      k = -1;
    }
  }
  return finish(ctx, view, state, list, shell, out);
}

const NO_RULES: readonly Rule[] = Object.freeze([]);
const NO_FIRED: readonly Fired[] = Object.freeze([]);

function newOutcome(state: SessionState, ctx: EvalContext): Outcome {
  return { notify: [], steer: [], fired: [], rewritten: false, state, projectRoot: ctx.projectRoot, approvals: ctx.approvals };
}


async function evaluateAsync(ctx: EvalContext, view: EventView, state: SessionState, list: CompiledRule[], selector: Selector, shell: ShellContext): Promise<Decision> {
  const out = newOutcome(state, ctx);
  let picked = selector.select(view, shell);
  for (let k = 0; k < picked.length; k++) {
    const cr = picked[k] as CompiledRule;
    if (out.block && !ctx.listAll) break;
    const rule = cr.rule;
    const input = view.input;
    if (!matches(cr, view, shell, state, ctx.maxWarnings, out)) continue;
    if (rule.check !== undefined) {
      let ok = builtinCheck(rule.check, state);
      if (ok === undefined) {
        if (rule.check === "git_uncommitted") ok = (await ctx.host?.gitUncommitted?.(view.event.session.cwd)) ?? false;
        else ok = (await ctx.host?.runCheck?.(rule.check, pluginArgs(view, rule, state))) ?? false;
      }
      if (!ok) continue;
    }
    if (rule.shadow && isBuiltinAction(rule.action)) {
      wouldHave(cr, view, out);
      continue;
    }
    if (out.block) {
      out.fired.push(fired(rule));
      continue;
    }
    if (isBuiltinAction(rule.action)) applyAction(cr, view, out);
    else {
      const partial = await ctx.host?.runAction?.(rule.action, pluginArgs(view, rule, state));
      if (partial && rule.shadow) recordShadow(out, rule, partialAction(partial));
      else if (partial) applyPartial(rule, partial, view, out);
    }
    if (view.input !== input) {
      picked = selector.select(view, shell, cr);
      k = -1;
    }
  }
  return finish(ctx, view, state, list, shell, out);
}

/** A plugin sees the event as the rules after a rewrite do: with the input the earlier rules produced. */
function pluginArgs(view: EventView, rule: Rule, state: SessionState): PluginCallArgs {
  const ev = view.event;
  const event = ev.tool && ev.tool.input !== view.input ? { ...ev, tool: { ...ev.tool, input: view.input } } : ev;
  return { event, rule, options: rule.options ?? {}, session: state };
}

function took(out: Outcome, rule: Rule): void {
  out.fired.push(fired(rule));
  (out.tookEffect ??= []).push(rule);
}

function applyAction(cr: CompiledRule, view: EventView, out: Outcome): void {
  const rule = cr.rule;
  switch (rule.action) {
    case "block":
      out.block = { rule, reason: fillTemplate(rule.reason ?? `Blocked by Shepherd rule "${rule.name}"`, view) };
      break;
    case "ask":
      if (rule.remember !== undefined && remembered(rule, rule.remember, view, out)) return;
      if (!out.ask) out.ask = { rule, reason: fillTemplate(rule.reason ?? `Shepherd rule "${rule.name}" asks for confirmation`, view) };
      break;
    case "rewrite": {
      const next = applyRewrite(cr, view);
      if (!next) return;
      view.input = next;
      out.rewritten = true;
      break;
    }
    case "notify":
      pushUnique(out.notify, fillTemplate(rule.reason ?? defaultReason(rule), view));
      break;
    case "steer":
      pushUnique(out.steer, fillTemplate(rule.reason ?? defaultReason(rule), view));
      break;
    case "redact":
      if (!redactResult(view, out)) return;
      break;
    case "guard-secrets": {
      if (view.event.hook !== "tool_call") return;
      const hit = carriedSecret(out.state, view, out.projectRoot);
      if (!hit) return;
      out.block = { rule, reason: rule.reason ?? exfiltrationReason(hit) };
      break;
    }
    default:
      return;
  }
  took(out, rule);
}

/**
 * An `ask` rule with `remember` on a tool call: true when a person approved this exact call before (the rule
 * is recorded as fired with action "allow" and the approval's id, and asks nothing); else the call is noted
 * in `remember`, for the face to keep if the person says yes now.
 */
function remembered(rule: Rule, scope: RememberScope, view: EventView, out: Outcome): boolean {
  const ev = view.event;
  if (ev.hook !== "tool_call" || !ev.tool) return false;
  out.key ??= approvalKey(ev.tool.name, ev.tool.input);
  const key = out.key;
  const id = out.approvals?.({ rule: rule.name, scope, tool: key.tool, inputHash: key.inputHash, session: ev.session });
  if (id !== undefined) {
    out.fired.push({ ...fired(rule, "allow"), approval: id });
    (out.tookEffect ??= []).push(rule);
    return true;
  }
  out.remember ??= [];
  if (!out.remember.some((r) => r.rule === rule.name)) out.remember.push({ rule: rule.name, source: rule.source, scope, ...key });
  return false;
}

/** Replaces secrets in a tool result's or a message's text (after earlier redact rules); false when there were none. */
function redactResult(view: EventView, out: Outcome): boolean {
  const ev = view.event;
  const source = ev.hook === "tool_result" ? ev.result?.text : ev.hook === "message_end" ? ev.message?.text : undefined;
  if (source === undefined) return false;
  const r = redactSecrets(out.redacted?.text ?? source);
  if (r.total === 0) return false;
  const counts = out.redacted?.counts ?? {};
  for (const [kind, n] of Object.entries(r.counts)) counts[kind] = (counts[kind] ?? 0) + n;
  out.redacted = { text: r.text, counts };
  return true;
}

/**
 * A shadow rule that matched: what it would have done is recorded, nothing is done (its input, reason,
 * counters and warnings stay as they were). A rewrite that would change nothing is no "would have".
 */
function wouldHave(cr: CompiledRule, view: EventView, out: Outcome): void {
  const action = cr.rule.action;
  if (action === "rewrite" && !applyRewrite(cr, view)) return;
  recordShadow(out, cr.rule, action);
}

function recordShadow(out: Outcome, rule: Rule, action: string | undefined): void {
  if (action === undefined || out.shadow?.some((f) => f.rule === rule.name)) return;
  (out.shadow ??= []).push({ ...fired(rule, action), shadow: true });
}

/** The strongest thing a plugin action's answer would have done, or undefined for nothing. */
function partialAction(partial: PartialDecision): string | undefined {
  if (partial.action === "block" || partial.action === "ask" || partial.action === "rewrite") return partial.action;
  if ((partial.notify?.length ?? 0) > 0) return "notify";
  if ((partial.steer?.length ?? 0) > 0) return "steer";
  return undefined;
}

function applyPartial(rule: Rule, partial: PartialDecision, view: EventView, out: Outcome): void {
  let any = false;
  if (partial.action === "block") {
    out.block = { rule, reason: partial.reason ?? `Blocked by plugin action "${rule.action}" (rule "${rule.name}")` };
    any = true;
  } else if (partial.action === "ask") {
    if (!out.ask) out.ask = { rule, reason: partial.reason ?? `Rule "${rule.name}" asks for confirmation` };
    any = true;
  } else if (partial.action === "rewrite" && partial.input && view.event.hook === "tool_call") {
    view.input = partial.input;
    out.rewritten = true;
    any = true;
  }
  for (const n of partial.notify ?? []) {
    pushUnique(out.notify, n);
    any = true;
  }
  for (const s of partial.steer ?? []) {
    pushUnique(out.steer, s);
    any = true;
  }
  if (any) took(out, rule);
}

function finish(ctx: EvalContext, view: EventView, state: SessionState, list: CompiledRule[], shell: ShellContext, out: Outcome): Decision {
  const ev = view.event;
  // A rewrite must not launder a command past a block: block/ask rules see the final input too.
  if (out.rewritten && !out.block) {
    for (const cr of list) {
      if (cr.rule.action !== "block" && cr.rule.action !== "ask" && cr.rule.action !== "guard-secrets") continue;
      if (out.tookEffect?.includes(cr.rule)) continue;
      if (!matches(cr, view, shell, state, ctx.maxWarnings, out)) continue;
      if (cr.rule.shadow) {
        wouldHave(cr, view, out);
        continue;
      }
      applyAction(cr, view, out);
      if (out.block) break;
    }
  }

  const effective = out.block ? [out.block.rule] : (out.tookEffect ?? NO_RULES);
  for (const rule of effective) {
    if (rule.state && rule.state.reset !== false) state.baselines[rule.name] = counterValue(rule, state, view);
    if (rule.action === "notify") state.warnings[rule.name] = (state.warnings[rule.name] ?? 0) + 1;
    if (rule.hook === "agent_end") state.wrapUpDelivered.push(rule.name);
  }
  if (ev.hook === "agent_end") state.hasEdits = false;

  const steer = out.block ? [] : out.steer;
  if (ev.hook === "before_provider_request" && state.hints.length > 0) {
    for (const h of state.hints) pushUnique(steer, h);
    state.hints = [];
  }

  if (out.block) {
    const blocker = out.block.rule;
    const others = ctx.listAll ? out.fired.filter((f) => f.rule !== blocker.name) : [];
    const blocked: Decision = { action: "block", reason: out.block.reason, notify: [], steer: [], fired: [fired(blocker), ...others, ...(out.shadow ?? NO_FIRED)] };
    if (blocker.terminate === true) blocked.terminate = true;
    return blocked;
  }
  const decision: Decision = {
    action: out.ask ? "ask" : out.rewritten ? "rewrite" : "allow",
    notify: out.notify,
    steer,
    fired: out.shadow ? [...out.fired, ...out.shadow] : out.fired,
  };
  if (out.ask) decision.reason = out.ask.reason;
  if (out.ask && out.remember) decision.remember = out.remember;
  if (out.rewritten) decision.input = view.input;
  if (out.redacted) {
    // A tool's output gets a line for the model; the model's own message is only masked (the user reads it).
    decision.result = { text: ev.hook === "tool_result" ? `${out.redacted.text}\n\n${redactionNotice(out.redacted.counts)}` : out.redacted.text };
    // An agent that keeps a structured copy of the output (pi 1.x structuredContent) must get it redacted too.
    const structured = (ev.result as { structured?: unknown } | undefined)?.structured;
    if (structured !== undefined) decision.result.structured = redactJson(structured, {});
    decision.redacted = out.redacted.counts;
  }
  return decision;
}

/** Per-rule verdicts for `rules explain`: fired, or the first condition that failed. Does not touch real state. */
export function explain(ctx: EvalContext, event: HookEvent, sessionState: SessionState): { rule: Rule; fired: boolean; why?: string }[] {
  const view = new EventView(event);
  const state = structuredClone(sessionState);
  count(state, view);
  const shell = shellContext(ctx, event);
  const compiled = new Map(candidates(ctx.rules, event.hook, view.tool).map((cr) => [cr.rule, cr]));
  return ctx.rules.rules.map((rule) => {
    if (rule.hook !== event.hook) return { rule, fired: false, why: `hook is ${rule.hook}, event is ${event.hook}` };
    const cr = compiled.get(rule);
    if (!cr) return { rule, fired: false, why: `tool ${view.tool || "(none)"} is not ${rule.tools.join("/")}` };
    let why: string | undefined;
    try {
      why = matchStatic(cr, view, shell) ?? matchState(cr, state, view, ctx.maxWarnings);
    } catch (err) {
      // A matcher that cannot finish (a regex over its budget): the real evaluation fails on it.
      return { rule, fired: false, why: `cannot be evaluated: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (why !== undefined) return { rule, fired: false, why };
    if (rule.check !== undefined) {
      const ok = builtinCheck(rule.check, state);
      if (ok === false) return { rule, fired: false, why: `check ${rule.check} is false` };
      if (ok === undefined) return { rule, fired: true, why: `check ${rule.check} is evaluated at run time` };
    }
    if (rule.action === "ask" && rule.remember !== undefined && event.tool && ctx.approvals) {
      const key = approvalKey(event.tool.name, event.tool.input);
      const id = ctx.approvals({ rule: rule.name, scope: rule.remember, tool: key.tool, inputHash: key.inputHash, session: event.session });
      if (id !== undefined) return { rule, fired: true, why: `allowed by remembered approval ${id} (${rule.remember}): it does not ask` };
    }
    return { rule, fired: true };
  });
}

/** The shell context of an event: a PowerShell tool's command is read as PowerShell. */
