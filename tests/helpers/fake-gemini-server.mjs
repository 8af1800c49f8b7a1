// @module fake Gemini API for the Gemini CLI e2e tests (copied from ../shared/gemini-e2e/fake-gemini-server.mjs).
// Scripted fake Gemini API server (no deps). Loopback only.
//
// Usage: node fake-gemini-server.mjs --script script.json --log requests.jsonl [--port 0] [--port-file f]
//
// script.json: { "steps": [ <step>, ... ] }
//   step = { "functionCall": { "name": "run_shell_command", "args": {...} } }
//        | { "text": "final answer" }
//
// The step served for a "main agent" request is chosen statelessly from the
// request itself: step index = number of model turns in request.contents that
// contain a functionCall. So retries re-serve the same step, and a request that
// carries N functionResponses gets step N.
//
// A request is "main agent" if it declares tools (functionDeclarations). Any
// other generateContent call (router/classifier, next-speaker check, summaries,
// loop detection, ...) is a "side call" and gets a harmless reply.
import http from 'node:http';
import fs from 'node:fs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, arr) => {
    if (a.startsWith('--')) acc.push([a.slice(2), arr[i + 1]]);
    return acc;
  }, []),
);
const scriptPath = args.script;
const logPath = args.log || 'requests.jsonl';
const port = Number(args.port || 0);
const portFile = args['port-file'];
const script = JSON.parse(fs.readFileSync(scriptPath, 'utf8'));

let seq = 0;
function log(entry) {
  fs.appendFileSync(logPath, JSON.stringify({ seq: seq++, ts: new Date().toISOString(), ...entry }) + '\n');
}

function usage() {
  return { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
}

function candidateFor(parts) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: usage(),
    modelVersion: 'fake-gemini',
    responseId: 'fake-' + seq,
  };
}

function isMainAgent(body) {
  const tools = body?.tools || [];
  return tools.some((t) => Array.isArray(t.functionDeclarations) && t.functionDeclarations.length > 0);
}

function countModelFunctionCalls(body) {
  return (body?.contents || []).filter(
    (c) => c.role === 'model' && (c.parts || []).some((p) => p.functionCall),
  ).length;
}

function sideCallReply(body) {
  const gc = body?.generationConfig || {};
  // JSON-mode side calls (e.g. model router classifier, next-speaker check)
  if (gc.responseMimeType === 'application/json' || gc.responseSchema || gc.responseJsonSchema) {
    const props = (gc.responseJsonSchema || gc.responseSchema || {}).properties || {};
    const obj = {};
    for (const [k, v] of Object.entries(props)) {
      if (k === 'next_speaker') obj[k] = 'user';
      else if (k === 'model_choice') obj[k] = 'flash';
      else if (v.type === 'boolean' || v.type === 'BOOLEAN') obj[k] = false;
      // numbers: 1 satisfies e.g. the router's complexity_score (1-100)
      else if (/^(number|integer)$/i.test(v.type || '')) obj[k] = typeof v.minimum === 'number' ? v.minimum : 1;
      else if (v.enum) obj[k] = v.enum[0];
      else obj[k] = 'fake';
    }
    return candidateFor([{ text: JSON.stringify(obj) }]);
  }
  return candidateFor([{ text: 'ok' }]);
}

function mainReply(body) {
  const idx = countModelFunctionCalls(body);
  const step = script.steps[Math.min(idx, script.steps.length - 1)];
  if (step.functionCall) return { idx, resp: candidateFor([{ functionCall: step.functionCall }]) };
  return { idx, resp: candidateFor([{ text: step.text }]) };
}

const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', () => {
    let body = null;
    try { body = raw ? JSON.parse(raw) : null; } catch { body = raw; }
    const url = req.url;
    const path = url.split('?')[0];
    let kind = 'other';
    let reply;
    let sse = false;
    if (req.method === 'POST' && /:streamGenerateContent$/.test(path)) { sse = true; kind = 'stream'; }
    else if (req.method === 'POST' && /:generateContent$/.test(path)) { kind = 'generate'; }
    else if (req.method === 'POST' && /:countTokens$/.test(path)) { kind = 'countTokens'; reply = { totalTokens: 42 }; }
    else if (req.method === 'POST' && /:(batchEmbedContents|embedContent)$/.test(path)) {
      kind = 'embed';
      const n = body?.requests?.length || 1;
      const emb = { values: new Array(8).fill(0) };
      reply = body?.requests ? { embeddings: new Array(n).fill(emb) } : { embedding: emb };
    } else if (req.method === 'GET' && /\/models\/?$/.test(path)) {
      kind = 'listModels';
      reply = { models: [{ name: 'models/gemini-2.5-flash', supportedGenerationMethods: ['generateContent'] }] };
    } else { reply = {}; }

    let stepIdx = null;
    let role = null;
    if (kind === 'stream' || kind === 'generate') {
      if (isMainAgent(body)) { role = 'main'; const r = mainReply(body); stepIdx = r.idx; reply = r.resp; }
      else { role = 'side'; reply = sideCallReply(body); }
    }
    log({ method: req.method, url, kind, role, stepIdx, headers: { 'user-agent': req.headers['user-agent'], 'x-goog-api-key': req.headers['x-goog-api-key'] ? '<set>' : undefined }, body, reply });

    if (sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.end('data: ' + JSON.stringify(reply) + '\r\n\r\n');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    }
  });
});

server.listen(port, '127.0.0.1', () => {
  const p = server.address().port;
  if (portFile) fs.writeFileSync(portFile, String(p));
  process.stdout.write(`fake-gemini listening on 127.0.0.1:${p}\n`);
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
