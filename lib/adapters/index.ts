/** @module the agent adapters by name (`shepherd hook <agent>`, `shepherd init <agent>`). */
import type { AgentAdapter } from "./agent-adapter.ts";
import { claudeCodeAdapter } from "./claude-code.ts";
import { codexAdapter } from "./codex.ts";
import { geminiAdapter } from "./gemini.ts";

export const AGENTS = ["claude-code", "codex", "gemini"] as const;
export type AgentName = (typeof AGENTS)[number];

const ALIASES: Record<string, AgentName> = {
  "claude-code": "claude-code",
  claude: "claude-code",
  codex: "codex",
  gemini: "gemini",
  "gemini-cli": "gemini",
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
    default:
      return undefined;
  }
}
