/**
 * @module rule sets none of whose rules can match the bench's event mix, in the kinds selection treats apart
 * (literals, literals on a condition's field, paths, tool results, messages, prompts, and class shapes with
 * no usable literal), compact enough that 100,000 of them fit the rule files' caps (4 MiB each): half in the
 * global rule file, half in the project's.
 */
import { writeFileSync } from "node:fs";
import { globalRulesFile } from "../../lib/rules/paths.ts";
import { type BenchProject, createProject } from "./project.ts";

type RuleJson = Record<string, unknown>;

/** `count` rules, each with a word of its own (`q<i>z`) that no event of the mix holds. */
export function unmatchableRules(count: number): RuleJson[] {
  const rules: RuleJson[] = [];
  for (let i = 0; i < count; i++) {
    const w = `q${i.toString(36)}z`;
    const name = `u${i.toString(36)}`;
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
        rules.push({ name, action: "block", pattern: `\\b${w}\\b.*--f` });
        break;
      case 3:
        rules.push({ name, action: "ask", conditions: [{ field: "command", pattern: `--${w}=\\d` }] });
        break;
      case 4:
        rules.push({ name, action: "block", tool: "write", conditions: [{ field: "path", pattern: `${w}\\.pem$` }] });
        break;
      case 5:
        rules.push({ name, action: "steer", hook: "tool_result", conditions: [{ field: "output", pattern: `${w}: denied` }] });
        break;
      case 6:
        rules.push({ name, action: "notify", hook: "message_end", pattern: `${w} is broken`, flags: "i" });
        break;
      case 7:
        rules.push({ name, action: "steer", hook: "input", pattern: `\\b${w}\\b` });
        break;
      case 8:
        rules.push({ name, action: "block", tool: "edit", pattern: `${w}[-_]key` });
        break;
      default:
        // No literal of three characters: only its shape (" -aaa00", a flag of letters then digits) keys it.
        rules.push({ name, action: "notify", pattern: `\\s-[a-z]{${3 + (i % 5)}}\\d{${2 + (i % 4)}}\\s` });
    }
  }
  return rules;
}

/** A trusted temp project holding `count` unmatchable rules, split between the global and the project rule file. */
export function createUnmatchableProject(count: number, label: string): BenchProject {
  const project = createProject(0, label);
  const rules = unmatchableRules(count);
  const half = Math.ceil(rules.length / 2);
  // Compact JSON: 50,000 of these rules take ~4.1 MB, just within a file's cap and the project's budget.
  writeFileSync(globalRulesFile(project.env), JSON.stringify({ rules: rules.slice(0, half) }));
  writeFileSync(project.rulesFile, JSON.stringify({ rules: rules.slice(half) }));
  return project;
}
