// @module fake OpenAI Responses API for the Codex e2e tests (copied from ../shared/codex-e2e/fake-server.js).
// Scripted fake OpenAI Responses API server (no deps). Loopback only.
// Usage: node fake-server.js <script.json> <logdir>
//   script.json: {"steps":[{"call":{"name":"shell_command","arguments":{"command":"..."}}}, {"text":"..."}]}
// Writes <logdir>/port once listening, <logdir>/requests.jsonl (one line per HTTP request).
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const scriptPath = process.argv[2];
const logDir = process.argv[3] || '.';
const script = JSON.parse(fs.readFileSync(scriptPath, 'utf8'));
const steps = script.steps || [];
let stepIdx = 0;
let reqNo = 0;
const reqLog = path.join(logDir, 'requests.jsonl');

function sse(res, ev) {
  res.write(`event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`);
}

function respondStep(res, step, n) {
  const respId = `resp_${n}`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, { type: 'response.created', response: { id: respId } });
  let item;
  if (step && step.call) {
    const args = typeof step.call.arguments === 'string' ? step.call.arguments : JSON.stringify(step.call.arguments);
    item = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: step.call.name, arguments: args, status: 'completed' };
  } else {
    const text = step && step.text !== undefined ? step.text : 'script exhausted';
    item = { type: 'message', role: 'assistant', id: `msg_${n}`, status: 'completed',
             content: [{ type: 'output_text', text, annotations: [] }] };
  }
  sse(res, { type: 'response.output_item.added', output_index: 0, item: Object.assign({}, item, { status: 'in_progress' }) });
  sse(res, { type: 'response.output_item.done', output_index: 0, item });
  sse(res, { type: 'response.completed', response: { id: respId, usage: {
    input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 } } });
  res.end();
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const n = ++reqNo;
    let raw = Buffer.concat(chunks);
    let bodyText = raw.toString('utf8');
    let body = null;
    const enc = req.headers['content-encoding'];
    try {
      if (enc === 'zstd' || enc === 'gzip' || enc === 'br' || enc === 'deflate') {
        const zlib = require('zlib');
        if (enc === 'gzip') bodyText = zlib.gunzipSync(raw).toString('utf8');
        else if (enc === 'br') bodyText = zlib.brotliDecompressSync(raw).toString('utf8');
        else if (enc === 'deflate') bodyText = zlib.inflateSync(raw).toString('utf8');
        else if (enc === 'zstd' && zlib.zstdDecompressSync) bodyText = zlib.zstdDecompressSync(raw).toString('utf8');
        else bodyText = `<undecodable ${enc} body, ${raw.length} bytes>`;
      }
      body = bodyText ? JSON.parse(bodyText) : null;
    } catch (e) { body = { _unparsed: bodyText.slice(0, 2000) }; }
    const isResponses = req.method === 'POST' && /\/responses(\?|$)/.test(req.url);
    const entry = { n, method: req.method, url: req.url, headers: req.headers, body,
                    step: isResponses ? stepIdx : null };
    fs.appendFileSync(reqLog, JSON.stringify(entry) + '\n');
    if (isResponses) {
      const step = steps[stepIdx];
      stepIdx++;
      return respondStep(res, step, n);
    }
    if (req.method === 'GET' && /\/models(\?|$)/.test(req.url)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ models: [] }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `fake server: no route for ${req.method} ${req.url}` } }));
  });
});

server.listen(Number(process.env.FAKE_PORT || 0), '127.0.0.1', () => {
  fs.writeFileSync(path.join(logDir, 'port'), String(server.address().port));
});
process.on('SIGTERM', () => { server.close(); process.exit(0); });
