/**
 * @module test helper: an OTLP/HTTP trace receiver on 127.0.0.1 that decodes what arrives (the OTLP JSON
 * encoding the SDK's http exporter sends) into spans with plain attributes. Modes stand for the endpoints a
 * team meets: one that works, one that never answers, one that answers 500 with junk, one that is not there.
 */
import { createServer, type Server, type ServerResponse } from "node:http";

export type AttrValue = string | number | boolean | AttrValue[] | undefined;

export interface ReceivedSpan {
  name: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttrValue>;
  resource: Record<string, AttrValue>;
}

export type ReceiverMode = "ok" | "slow" | "garbage";

export interface Receiver {
  /** Base endpoint (what OTEL_EXPORTER_OTLP_ENDPOINT names). */
  url: string;
  spans: ReceivedSpan[];
  /** Requests seen, decoded or not. */
  requests: { path: string; contentType: string; bytes: number }[];
  /** Resolves once `n` spans have arrived (rejects after `ms`). */
  waitForSpans(n: number, ms?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface AnyValueJson {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValueJson[] };
}

interface KeyValueJson {
  key: string;
  value?: AnyValueJson;
}

function decodeValue(v: AnyValueJson | undefined): AttrValue {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function decodeAttributes(list: KeyValueJson[] | undefined): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const kv of list ?? []) out[kv.key] = decodeValue(kv.value);
  return out;
}

interface ExportRequestJson {
  resourceSpans?: {
    resource?: { attributes?: KeyValueJson[] };
    scopeSpans?: { spans?: { name: string; startTimeUnixNano: string | number; endTimeUnixNano: string | number; attributes?: KeyValueJson[] }[] }[];
  }[];
}

/** The spans of one ExportTraceServiceRequest in its JSON encoding. */
export function decodeExportRequest(body: string): ReceivedSpan[] {
  const req = JSON.parse(body) as ExportRequestJson;
  const out: ReceivedSpan[] = [];
  for (const rs of req.resourceSpans ?? []) {
    const resource = decodeAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) out.push({ name: s.name, startNs: BigInt(s.startTimeUnixNano), endNs: BigInt(s.endTimeUnixNano), attributes: decodeAttributes(s.attributes), resource });
    }
  }
  return out;
}

export function startReceiver(mode: ReceiverMode = "ok"): Promise<Receiver> {
  const spans: ReceivedSpan[] = [];
  const requests: Receiver["requests"] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ path: req.url ?? "", contentType: String(req.headers["content-type"] ?? ""), bytes: body.length });
      if (mode === "slow") {
        held.push(res);
        return;
      }
      if (mode === "garbage") {
        res.writeHead(500, { "content-type": "application/json" }).end("\u0000not json{{{");
        return;
      }
      try {
        spans.push(...decodeExportRequest(body));
      } catch {
        res.writeHead(400).end("{}");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const w of waiters.splice(0)) {
        if (spans.length >= w.n) w.resolve();
        else waiters.push(w);
      }
    });
  });
  return new Promise((ok) => {
    server.listen(0, "127.0.0.1", () => {
      const addr = server.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      ok({
        url: `http://127.0.0.1:${port}`,
        spans,
        requests,
        waitForSpans: (n, ms = 10_000) =>
          new Promise((resolve, reject) => {
            if (spans.length >= n) return resolve(spans);
            const timer = setTimeout(() => reject(new Error(`${spans.length} of ${n} spans arrived in ${ms} ms`)), ms);
            waiters.push({ n, resolve: () => (clearTimeout(timer), resolve(spans)) });
          }),
        close: () =>
          new Promise((done) => {
            for (const r of held) r.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A loopback port nothing listens on: connections to it are refused. */
export async function refusedUrl(): Promise<string> {
  const r = await startReceiver();
  const url = r.url;
  await r.close();
  return url;
}
