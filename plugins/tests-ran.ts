/**
 * @module tests_ran / tests_missing: did a test command run after the last edit? For agent_end wrap-up,
 * so an agent that changed code and stopped is reminded to run the tests.
 *
 * Rule: { "name": "run-tests-before-done", "hook": "agent_end", "check": "tests_missing",
 *         "action": "steer", "reason": "You edited files but did not run the tests since. Run them." }
 * Options: `pattern` (regex of a test command; default: common runners), `requirePass` (a failing
 * run does not count), `scope`: "run" (edits since the last agent_end, default) or "session".
 */
import { definePlugin, type PluginCallArgs } from "shepherd:plugin";

const DEFAULT_TEST_COMMAND =
  "\\b(?:npm|pnpm|yarn|bun)\\s+(?:run\\s+)?test\\b|\\b(?:bun|deno|cargo|go|dotnet|mix|swift|zig)\\s+test\\b|" +
  "\\b(?:pytest|vitest|jest|mocha|ava|rspec|phpunit|ctest|tox|nox)\\b|\\bpython[0-9.]*\\s+-m\\s+(?:pytest|unittest)\\b|" +
  "\\bmake\\s+(?:test|check)\\b|\\bgradlew?\\s+test\\b|\\bmvn\\s+(?:-\\S+\\s+)*test\\b|\\bnode\\s+--test\\b";

function testPattern(options: Record<string, unknown>): RegExp {
  return new RegExp(typeof options.pattern === "string" ? options.pattern : DEFAULT_TEST_COMMAND);
}

function testsRan({ session, options }: PluginCallArgs): boolean {
  const re = testPattern(options);
  const requirePass = options.requirePass === true;
  return session.commandsSinceEdit.some((c) => (!requirePass || c.ok) && re.test(c.command));
}

function edited({ session, options }: PluginCallArgs): boolean {
  return options.scope === "session" ? session.edits > 0 : session.hasEdits;
}

export default definePlugin({
  name: "tests-ran",
  checks: {
    /** True when a test command ran after the last successful edit (or since the start, if nothing was edited). */
    tests_ran: (args) => testsRan(args),
    /** True when files were edited and no test command ran after the last edit: the wrap-up reminder case. */
    tests_missing: (args) => edited(args) && !testsRan(args),
  },
});
