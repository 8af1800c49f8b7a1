// @module scripted fake OpenAI Chat Completions API (streaming) for driving the real OpenCode CLI offline: run with node, talks to tests only through its port file and request log.
//
// Script (JSON): { "steps": [ { "text": "optional", "tool_calls": [ { "name": "bash", "arguments": { ... } } ] } ],
//                  "side_text": "answer to calls without tools (titles)", "exhausted_text": "answer once the steps run out" }
// One step per *main* request (one that offers tools); each main request is logged as one JSON line
// { step, body } so a test can read what the model was shown before it was asked for that step.
// Usage: node fake-openai-api.mjs --script s.json --log requests.jsonl --port-file port
import fs from 'node:fs';
import http from 'node:http';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const script = JSON.parse(fs.readFileSync(arg('--script'), 'utf8'));
const logFile = arg('--log');
const portFile = arg('--port-file');
let step = 0;
let seq = 0;

function chunk(res, model, delta, finish) {
  const body = { id: `chatcmpl-fake${seq}`, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] };
  if (finish) body.usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  res.write(`data: ${JSON.stringify(body)}\n\n`);
}

function answer(res, model, reply) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const calls = reply.tool_calls ?? [];
  if (reply.text) chunk(res, model, { role: 'assistant', content: reply.text }, null);
  calls.forEach((call, index) => {
    seq += 1;
    const fn = { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) };
    chunk(res, model, { ...(index === 0 && !reply.text ? { role: 'assistant' } : {}), tool_calls: [{ index, id: `call_fake_${seq}`, type: 'function', function: fn }] }, null);
  });
  chunk(res, model, {}, calls.length > 0 ? 'tool_calls' : 'stop');
  res.write('data: [DONE]\n\n');
  res.end();
}

const server = http.createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"not found"}}');
      return;
    }
    let body;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"bad json"}}');
      return;
    }
    const main = Array.isArray(body.tools) && body.tools.length > 0;
    if (!main) return answer(res, body.model, { text: script.side_text ?? 'Fake title' });
    const reply = script.steps[step] ?? { text: script.exhausted_text ?? 'SCRIPT EXHAUSTED' };
    if (logFile) fs.appendFileSync(logFile, `${JSON.stringify({ step, body })}\n`);
    step += 1;
    answer(res, body.model, reply);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  if (portFile) fs.writeFileSync(portFile, String(port));
  process.stdout.write(`FAKE_API_LISTENING ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
