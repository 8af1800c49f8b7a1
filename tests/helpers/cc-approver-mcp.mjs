/**
 * A stand-in for the person at Claude Code's permission prompt in `-p` mode: a stdio MCP server whose one
 * tool, `approve`, Claude Code calls through `--permission-prompt-tool mcp__approver__approve`. It answers
 * each prompt with the next answer of APPROVER_ANSWERS ("allow,deny,..."; deny once they run out) and logs
 * every prompt it saw to APPROVER_LOG (one JSON line each). No dependencies: it runs under plain Node.
 */
import { appendFileSync } from "node:fs";

const answers = (process.env.APPROVER_ANSWERS ?? "").split(",").filter(Boolean);
const log = process.env.APPROVER_LOG;
let asked = 0;
let buffer = "";

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function handle(msg) {
  if (msg.method === "initialize") {
    send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "approver", version: "1" } } });
  } else if (msg.method === "tools/list") {
    const schema = { type: "object", properties: { tool_name: { type: "string" }, input: { type: "object" }, tool_use_id: { type: "string" } } };
    send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: "approve", description: "answers permission prompts", inputSchema: schema }] } });
  } else if (msg.method === "tools/call") {
    const args = msg.params?.arguments ?? {};
    const answer = answers[asked] ?? "deny";
    asked++;
    if (log) appendFileSync(log, `${JSON.stringify({ answer, ...args })}\n`);
    const text = answer === "allow" ? { behavior: "allow", updatedInput: args.input ?? {} } : { behavior: "deny", message: "the stand-in person said no" };
    send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: JSON.stringify(text) }] } });
  } else if (msg.id !== undefined) {
    send({ jsonrpc: "2.0", id: msg.id, result: {} });
  }
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let nl = buffer.indexOf("\n");
  while (nl >= 0) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (line) handle(JSON.parse(line));
    nl = buffer.indexOf("\n");
  }
});
