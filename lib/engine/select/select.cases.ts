/**
 * @module the one table of selection cases every Selector implementation answers (select.test.ts): the
 * sidecar's index built in memory, the same index through its serialized form, the plain gates, and the
 * hook snapshot. Each case names rules that must be picked for its event and rules that must not be.
 */
import type { HookEvent } from "../schema.ts";

/** The rules, as a user writes them: a few of each kind selection treats apart. */
export const SELECT_RULES: Record<string, unknown>[] = [
  { name: "git-push", action: "block", tool: "bash", pattern: "\\bgit\\b.*\\bpush\\b" },
  { name: "literal", action: "block", tool: "bash", pattern: "curl example\\.invalid" },
  { name: "case-folded", action: "notify", pattern: "SeCrEt", flags: "i" },
  { name: "alternatives", action: "notify", tool: "bash", pattern: "(deploy|publish) (prod|live)" },
  { name: "by-condition", action: "notify", tool: "bash", conditions: [{ field: "command", pattern: "--danger-\\d+" }] },
  { name: "negated", action: "notify", tool: "bash", pattern: "zzq", conditions: [{ field: "command", pattern: "safe", negate: true }] },
  { name: "two-chars", action: "notify", tool: "bash", pattern: "\\bqj\\b" },
  { name: "no-gram", action: "notify", tool: "bash", pattern: "^\\w+\\W\\w$" },
  { name: "shape", action: "notify", tool: "bash", pattern: "\\s-[a-z]{3}\\d{3}\\s+\\S+\\s+[A-Z]{4}$" },
  { name: "program", action: "block", tool: "bash", command: { program: "shred" } },
  { name: "program-glob", action: "block", tool: "bash", command: { program: "mkfs.*" } },
  { name: "effect", action: "block", tool: "bash", command: { effect: "delete", recursive: true, paths: "home_or_root" } },
  { name: "any-program-effect", action: "block", tool: "bash", command: { program: "*", effect: ["device-write", "power-off"] } },
  { name: "program-and-effect", action: "block", tool: "bash", command: { program: "git", subcommand: "checkout", effect: "discard-work" } },
  { name: "writes", action: "block", tool: "bash", command: { program: "*", writes: "inside_project" } },
  { name: "powershell-own", action: "notify", tool: "powershell", pattern: "Remove-Item" },
  { name: "edit-path", action: "block", tool: ["edit", "write"], conditions: [{ field: "path", pattern: "(^|/)\\.env$" }] },
  { name: "mcp-glob", action: "block", tool: "mcp__github__*", pattern: "force" },
  { name: "mcp-glob-any", action: "notify", tool: "mcp__*__merge*" },
  { name: "mcp-exact", action: "notify", tool: "mcp__github__merge", pattern: "main" },
  { name: "output", action: "steer", hook: "tool_result", tool: "bash", conditions: [{ field: "output", pattern: "command not found" }] },
  { name: "prompt", action: "steer", hook: "input", pattern: "\\bproduction\\b" },
  // Enough keyed rules that the sidecar indexes the list (lists under 16 rules are scanned plainly).
  ...Array.from({ length: 20 }, (_, i) => ({ name: `filler-${i}`, action: "notify", tool: "bash", pattern: `fill${i}er` })),
];

export interface SelectCase {
  name: string;
  event: HookEvent;
  /** Must be picked (a superset of these may be). */
  picks: string[];
  /** Must not be picked: their literal or program is absent, or their tool does not apply. */
  skips: string[];
}

const session = { id: "s", cwd: "/p" };
const bash = (command: string, name = "bash"): HookEvent => ({ hook: "tool_call", session, tool: { name, input: { command } } });

export const SELECT_CASES: SelectCase[] = [
  { name: "a regex's literals, in order with other text", event: bash("git remote -v && git push origin"), picks: ["git-push", "no-gram"], skips: ["literal", "alternatives", "program", "filler-3", "effect"] },
  { name: "a literal pattern", event: bash("curl example.invalid/x"), picks: ["literal"], skips: ["git-push", "filler-1"] },
  { name: "case folding, ASCII and the long s", event: bash("echo \u017fECRET"), picks: ["case-folded"], skips: ["literal"] },
  { name: "any alternative's literal", event: bash("npm publish live"), picks: ["alternatives"], skips: ["git-push"] },
  { name: "a condition's literal on its field", event: bash("tool --danger-7"), picks: ["by-condition"], skips: ["negated"] },
  { name: "a negated condition does not key its rule", event: bash("zzq safe"), picks: ["negated"], skips: ["by-condition"] },
  { name: "a literal shorter than an n-gram", event: bash("x qj y"), picks: ["two-chars"], skips: ["literal"] },
  { name: "a rule with no usable gram is always a candidate", event: bash("ab:c"), picks: ["no-gram"], skips: ["two-chars", "literal", "effect"] },
  { name: "an effect kind the line has, however it is spelled", event: bash("sh -c 'sudo rm -fr ~'"), picks: ["effect"], skips: ["any-program-effect", "literal"] },
  { name: "any of an effect's kinds, from a redirection with no program", event: bash("> /dev/sda"), picks: ["any-program-effect"], skips: ["effect"] },
  { name: "an effect kind the line lacks", event: bash("rm notes.txt && ls /dev"), picks: [], skips: ["any-program-effect"] },
  { name: "a program that runs, even wrapped", event: bash("sudo shred -u key.pem"), picks: ["program"], skips: ["literal", "program-glob"] },
  { name: "a program named only in an argument does not run", event: bash("echo shred mkfs.ext4"), picks: [], skips: ["program", "program-glob"] },
  { name: "a program glob, by the matchers' wildcard", event: bash("sudo mkfs.ext4 /dev/sdb1"), picks: ["program-glob"], skips: ["program"] },
  { name: "PowerShell is judged by bash rules too", event: bash("git push; Remove-Item -Force C:\\", "PowerShell"), picks: ["git-push", "powershell-own", "effect"], skips: ["literal", "program"] },
  { name: "bash is not judged by PowerShell rules", event: bash("Remove-Item x"), picks: [], skips: ["powershell-own"] },
  { name: "a path condition", event: { hook: "tool_call", session, tool: { name: "write", input: { path: "app/.env", content: "A=1" } } }, picks: ["edit-path"], skips: ["git-push", "literal", "effect"] },
  { name: "an MCP tool glob", event: { hook: "tool_call", session, tool: { name: "mcp__github__push", input: { ref: "main", force: true } } }, picks: ["mcp-glob"], skips: ["mcp-exact", "mcp-glob-any", "git-push"] },
  { name: "an MCP glob with no pattern, and an exact MCP tool", event: { hook: "tool_call", session, tool: { name: "mcp__github__merge", input: { into: "main" } } }, picks: ["mcp-glob-any", "mcp-exact"], skips: ["git-push"] },
  { name: "a glob rule is not picked without its literal", event: { hook: "tool_call", session, tool: { name: "mcp__github__push", input: { ref: "dev" } } }, picks: [], skips: ["mcp-glob", "mcp-exact"] },
  { name: "another hook's field", event: { hook: "tool_result", session, tool: { name: "bash", input: { command: "foo" } }, result: { text: "foo: command not found", isError: true } }, picks: ["output"], skips: ["git-push"] },
  { name: "a prompt", event: { hook: "input", session, prompt: "ship it to PRODUCTION" }, picks: ["prompt"], skips: ["case-folded", "git-push"] },
  { name: "a shape: letters, digits and spaces as classes", event: bash("tool -abc123 x\u00a0YZWQ"), picks: ["shape"], skips: ["literal", "two-chars"] },
  { name: "a shape not in the text", event: bash("tool -abc x YZWQ"), picks: [], skips: ["shape"] },
  { name: "a program and an effect kind: filed by the kind", event: bash("git checkout -- src/a.ts"), picks: ["program-and-effect", "writes"], skips: ["program", "effect"] },
  { name: "the program without the effect kind", event: bash("git status && git log -1"), picks: [], skips: ["program-and-effect", "writes"] },
  { name: "a line that changes a path, however it is spelled", event: bash("echo hi | tee notes.txt"), picks: ["writes"], skips: ["program-and-effect", "effect"] },
  { name: "nothing when nothing occurs", event: bash("ls -la"), picks: ["no-gram"], skips: ["effect", "any-program-effect", "git-push", "literal", "alternatives", "by-condition", "negated", "two-chars", "program", "case-folded", "shape", "filler-0", "program-and-effect", "writes"] },
];
