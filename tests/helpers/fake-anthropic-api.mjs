// @module fake Anthropic Messages API for the Claude Code e2e tests (copied from ../shared/cc-e2e/fake-api.mjs; run with node, talks to tests only through its port and log file).
// Scripted fake Anthropic Messages API for driving the real Claude Code CLI offline.
// No dependencies. Listens on 127.0.0.1 only.
//
// Script format (JSON):
// {
//   "steps": [                       // one step per *main* /v1/messages call (a call that carries tools)
//     { "text": "optional assistant text",
//       "tool_use": [ { "name": "Bash", "input": { "command": "echo hi" }, "id": "optional" } ],
//       "stop_reason": "optional override (default: tool_use if tool_use present, else end_turn)" }
//   ],
//   "side_text": "text returned to side calls (calls without tools: titles, haiku helpers ...)",
//   "exhausted_text": "text returned when the script has no more steps (default flags an error)"
// }
//
// Usage as a module:  const srv = await startFakeApi({ script, logFile }); srv.port; srv.requests; await srv.close();
// Usage as a CLI:     node lib/fake-api.mjs --script s.json [--log log.jsonl] [--port 0] [--dump-dir dir]
//                     prints "FAKE_API_LISTENING <port>" on stdout.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

let idCounter = 0;
const newId = (p) => `${p}_fake${Date.now().toString(36)}${(++idCounter).toString(36)}`;

// Flatten a content value (string | blocks[]) to plain text for logging/asserts.
export function contentText(content) {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content
    .map((b) => {
      if (b.type === 'text') return b.text;
      if (b.type === 'tool_result') return `[tool_result ${b.tool_use_id}${b.is_error ? ' ERROR' : ''}] ${contentText(b.content)}`;
      if (b.type === 'tool_use') return `[tool_use ${b.name} ${JSON.stringify(b.input)}]`;
      return `[${b.type}]`;
    })
    .join('\n');
}

function summarizeRequest(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const last = msgs[msgs.length - 1];
  // "new" = everything after the model's last turn: tool results, hook feedback, system reminders.
  // NB: Claude Code 2.1.3xx puts hook feedback / environment into role:"system" messages *inside* messages[].
  let lastAssistant = -1;
  msgs.forEach((m, i) => { if (m.role === 'assistant') lastAssistant = i; });
  const fresh = msgs.slice(lastAssistant + 1);
  const toolResults = [];
  for (const m of fresh) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_result') toolResults.push({ tool_use_id: b.tool_use_id, is_error: !!b.is_error, text: contentText(b.content) });
    }
  }
  return {
    model: body?.model,
    stream: !!body?.stream,
    max_tokens: body?.max_tokens,
    tools: Array.isArray(body?.tools) ? body.tools.map((t) => t.name) : [],
    n_messages: msgs.length,
    n_assistant: msgs.filter((m) => m.role === 'assistant').length,
    last_role: last?.role,
    last_text: last ? contentText(last.content) : '',
    new_messages: fresh.map((m) => ({ role: m.role, text: contentText(m.content) })),
    tool_results: toolResults,
  };
}

function buildContent(step, stepIndex) {
  const blocks = [];
  if (step.text) blocks.push({ type: 'text', text: step.text });
  (step.tool_use || []).forEach((tu, i) => {
    blocks.push({ type: 'tool_use', id: tu.id || `toolu_fake_${stepIndex}_${i}_${(++idCounter).toString(36)}`, name: tu.name, input: tu.input ?? {} });
  });
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
  const stop_reason = step.stop_reason || ((step.tool_use || []).length ? 'tool_use' : 'end_turn');
  return { blocks, stop_reason };
}

function messageObject(model, blocks, stop_reason) {
  return {
    id: newId('msg'),
    type: 'message',
    role: 'assistant',
    model: model || 'claude-fake',
    content: blocks,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function chunk(str, n) {
  const out = [];
  const size = Math.max(1, Math.ceil(str.length / n));
  for (let i = 0; i < str.length; i += size) out.push(str.slice(i, i + size));
  return out.length ? out : [''];
}

function writeSSE(res, model, blocks, stop_reason) {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': newId('req'),
  });
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const msg = messageObject(model, [], null);
  msg.usage = { ...msg.usage, output_tokens: 1 };
  ev('message_start', { message: msg });
  ev('ping', {});
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of chunk(b.text, 3)) ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else if (b.type === 'tool_use') {
      ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      for (const piece of chunk(JSON.stringify(b.input), 3)) ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    ev('content_block_stop', { index });
  });
  ev('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 20 } });
  ev('message_stop', {});
  res.end();
}

export async function startFakeApi({ script = { steps: [] }, logFile = null, dumpDir = null, port = 0, quiet = true } = {}) {
  const requests = []; // every request, in order
  const state = { step: 0, script, errors: [] };
  if (dumpDir) fs.mkdirSync(dumpDir, { recursive: true });

  const log = (entry, fullText) => {
    if (fullText !== undefined) Object.defineProperty(entry, 'all_text', { value: fullText, enumerable: false });
    requests.push(entry);
    if (logFile) fs.appendFileSync(logFile, JSON.stringify(entry) + '\n');
    if (!quiet) process.stderr.write(`[fake-api] ${entry.method} ${entry.path} ${entry.kind}${entry.step != null ? ' step=' + entry.step : ''}\n`);
  };

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url, 'http://127.0.0.1');
      const entry = {
        seq: requests.length,
        t: Date.now(),
        method: req.method,
        path: url.pathname,
        query: url.search,
        headers: {
          'user-agent': req.headers['user-agent'],
          'anthropic-version': req.headers['anthropic-version'],
          'anthropic-beta': req.headers['anthropic-beta'],
          'x-api-key': req.headers['x-api-key'] ? req.headers['x-api-key'].slice(0, 6) + '…' : undefined,
          authorization: req.headers.authorization ? req.headers.authorization.slice(0, 12) + '…' : undefined,
        },
      };
      let body = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = null; }
      if (dumpDir) fs.writeFileSync(path.join(dumpDir, `${String(entry.seq).padStart(3, '0')}-${req.method}-${url.pathname.replace(/\W+/g, '_')}.json`), raw || '');

      if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
        entry.kind = 'count_tokens';
        log(entry);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ input_tokens: 100 }));
      }

      if (req.method === 'POST' && url.pathname === '/v1/messages') {
        const sum = summarizeRequest(body);
        Object.assign(entry, sum);
        const isMain = sum.tools.length > 0;
        let blocks, stop_reason;
        if (isMain) {
          entry.kind = 'main';
          const steps = state.script.steps || [];
          if (state.step < steps.length) {
            entry.step = state.step;
            ({ blocks, stop_reason } = buildContent(steps[state.step], state.step));
            state.step++;
          } else {
            entry.step = null;
            entry.exhausted = true;
            state.errors.push(`script exhausted at request seq ${entry.seq}`);
            ({ blocks, stop_reason } = buildContent({ text: state.script.exhausted_text || '[fake-api] SCRIPT EXHAUSTED' }, -1));
          }
        } else {
          entry.kind = 'side';
          ({ blocks, stop_reason } = buildContent({ text: state.script.side_text || 'ok' }, -1));
        }
        entry.response = blocks;
        const msgs = Array.isArray(body?.messages) ? body.messages : [];
        log(entry, [contentText(body?.system), ...msgs.map((m) => `${m.role}: ${contentText(m.content)}`)].join('\n---\n'));
        if (body?.stream) return writeSSE(res, body?.model, blocks, stop_reason);
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req') });
        return res.end(JSON.stringify(messageObject(body?.model, blocks, stop_reason)));
      }

      // Anything else: log and answer harmlessly.
      entry.kind = 'other';
      entry.body_excerpt = raw.slice(0, 300);
      log(entry);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `fake-api: no route ${req.method} ${url.pathname}` } }));
    });
  });

  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = server.address().port;
  return {
    port: actualPort,
    baseUrl: `http://127.0.0.1:${actualPort}`,
    requests,
    state,
    main: () => requests.filter((r) => r.kind === 'main'),
    load(newScript) { state.script = newScript; state.step = 0; state.errors = []; requests.length = 0; },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

// CLI entry point
if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
  const scriptPath = opt('--script');
  const script = scriptPath ? JSON.parse(fs.readFileSync(scriptPath, 'utf8')) : { steps: [] };
  const srv = await startFakeApi({ script, logFile: opt('--log', null), dumpDir: opt('--dump-dir', null), port: Number(opt('--port', 0)), quiet: false });
  process.stdout.write(`FAKE_API_LISTENING ${srv.port}\n`);
  const stop = async () => { await srv.close(); process.exit(0); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
