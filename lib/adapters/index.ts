/** @module the agent adapters by name (`shepherd hook <agent>`, `shepherd init <agent>`). */
import type { AgentAdapter } from "./agent-adapter.ts";
import { claudeCodeAdapter } from "./claude-code.ts";
import { codexAdapter } from "./codex.ts";
import { copilotAdapter } from "./copilot.ts";
import { geminiAdapter } from "./gemini.ts";

export const AGENTS = ["claude-code", "codex", "gemini", "copilot"] as const;
export type AgentName = (typeof AGENTS)[number];

const ALIASES: Record<string, AgentName> = {
  "claude-code": "claude-code",
  claude: "claude-code",
  codex: "codex",
  gemini: "gemini",
  "gemini-cli": "gemini",
  copilot: "copilot",
  "copilot-cli": "copilot",
  "github-copilot": "copilot",
};

export function agentName(name: string): AgentName | undefined {
  return ALIASES[name.toLowerCase()];
}

export function adapterFor(name: string): AgentAdapter | undefined {
  switch (agentName(name)) {
    case "claude-code":
      return claudeCodeAdapter;
    case "codex":
      return codexAdapter;
    case "gemini":
      return geminiAdapter;
    case "copilot":
      return copilotAdapter;
    default:
      return undefined;
  }
}
