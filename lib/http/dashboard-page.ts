/**
 * @module the dashboard: one self-contained page (no external assets, so it works offline and under a strict
 * CSP). It reads /v1/status and listens to /v1/events; every untrusted string goes in through textContent.
 */

const STYLE = `
:root { color-scheme: light dark; --bg:#f6f7f9; --card:#fff; --fg:#1d2330; --muted:#667085; --line:#e4e7ec;
  --block:#c0392b; --ask:#b7791f; --rewrite:#2b6cb0; --allow:#2f855a; }
@media (prefers-color-scheme: dark) { :root { --bg:#0f1218; --card:#171b24; --fg:#e6e9ef; --muted:#98a2b3; --line:#2a3140; } }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, sans-serif; background:var(--bg); color:var(--fg); }
header { display:flex; gap:16px; align-items:baseline; padding:14px 20px; border-bottom:1px solid var(--line); background:var(--card); }
header h1 { font-size:18px; margin:0; }
.muted { color:var(--muted); }
main { display:grid; grid-template-columns: minmax(0,3fr) minmax(0,2fr); gap:16px; padding:16px 20px; }
section { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:12px 14px; overflow:auto; }
section h2 { font-size:15px; margin:0 0 8px; }
table { width:100%; border-collapse:collapse; }
th, td { text-align:left; padding:4px 6px; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-weight:600; color:var(--muted); font-size:12px; }
code { font:12px ui-monospace, monospace; word-break:break-all; }
.badge { display:inline-block; padding:0 6px; border-radius:4px; color:#fff; font-size:12px; }
.a-block { background:var(--block); } .a-ask { background:var(--ask); } .a-rewrite { background:var(--rewrite); } .a-allow { background:var(--allow); }
.wide { grid-column: 1 / -1; }
.err { color:var(--block); }
#conn.on { color:var(--allow); } #conn.off { color:var(--block); }
`;

const SCRIPT = `
const params = new URLSearchParams(location.search);
const token = params.get("token");
const cwd = params.get("cwd");
const withAuth = (path) => { const u = new URL(path, location.href); if (token) u.searchParams.set("token", token); if (cwd) u.searchParams.set("cwd", cwd); return u.toString(); };
const $ = (id) => document.getElementById(id);
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; }
function row(cells) { const tr = document.createElement("tr"); for (const c of cells) { const td = document.createElement("td"); if (c instanceof Node) td.append(c); else td.textContent = c === undefined ? "" : String(c); tr.append(td); } return tr; }
function badge(action) { return el("span", action, "badge a-" + action); }
function fill(tbody, rows, emptyText, cols) { tbody.replaceChildren(...(rows.length ? rows : [row([el("span", emptyText, "muted")])])); if (!rows.length) tbody.firstChild.firstChild.colSpan = cols; }
let count = 0;
function addDecision(d) {
  count++;
  $("decision-count").textContent = String(count);
  const fired = d.fired.map((f) => f.rule + " (" + (f.shadow ? "shadow: would " + f.action + ", " : "") + (f.approval ? "allowed by remembered approval " + f.approval + ", " : "") + f.source + ")").join(", ");
  const notes = [d.reason, ...d.notify, ...d.steer].filter(Boolean).join(" | ");
  const tr = row([new Date(d.time).toLocaleTimeString(), d.agent || "-", d.session, d.hook + (d.tool ? " " + d.tool : ""), el("code", d.subject || ""), badge(d.action), fired, notes]);
  tr.dataset.action = d.action;
  const body = $("decisions");
  if (body.dataset.empty === "1") { body.replaceChildren(); body.dataset.empty = "0"; }
  body.prepend(tr);
  while (body.children.length > 200) body.lastChild.remove();
}
async function refresh() {
  const res = await fetch(withAuth("/v1/status"));
  if (!res.ok) { $("status-error").textContent = "status: HTTP " + res.status; return; }
  const s = await res.json();
  $("version").textContent = "v" + s.version;
  $("cwd").textContent = s.cwd + (s.trusted ? " (trusted)" : " (untrusted)");
  const pi = s.trust.pi ? (s.trust.pi.trusted ? "trusted" : "not trusted") : "no decision";
  $("trust").textContent = "shepherd " + (s.trust.shepherd ? "trusted" : "not trusted") + ", pi " + pi + (s.trust.advice ? " (to trust it in Shepherd too: " + s.trust.advice + ")" : "");
  for (const layer of ["managed", "builtin", "global", "project"]) {
    const rules = s.layers[layer];
    $("count-" + layer).textContent = String(rules.length);
    fill($("rules-" + layer), rules.map((r) => row([r.name + (r.locked ? " 🔒" : ""), r.hook, r.tools.join(", ") || "any", ["block", "ask", "rewrite"].includes(r.action) ? badge(r.action) : el("span", r.action), el("code", r.file)])), "no rules", 5);
  }
  fill($("issues"), s.issues.map((i) => row([el("span", i.severity, i.severity === "error" ? "err" : "muted"), el("code", i.file + (i.line ? ":" + i.line + ":" + (i.column || 1) : "")), el("code", i.path || "(file)"), i.message])), "no load errors", 4);
  fill($("skipped"), s.skipped.map((k) => row([k.rule, k.source, k.reason])), "none", 3);
  fill($("shadow"), s.shadow.map((k) => row([k.rule, k.source, badge(k.action), k.count])), "no shadow rule has matched yet", 4);
  $("managed").textContent = s.managed.broken ? "managed policy UNREADABLE, most restrictive reading applies: " + s.managed.broken : (s.managed.failMode || !s.managed.projectRules) ? "managed policy: " + [s.managed.failMode ? "failMode " + s.managed.failMode : "", s.managed.projectRules ? "" : "project rules off"].filter(Boolean).join(", ") : "";
  const t = s.telemetry;
  $("telemetry").textContent = t ? "telemetry: " + (t.on ? "on, to " + t.endpoint + (t.includeContent ? " (with redacted content)" : " (safe attributes only)") + "; " + t.exported + " exported, " + t.failed + " not exported, " + t.dropped + " dropped" : "off") : "";
  $("telemetry-problem").textContent = t && t.lastProblem ? "last telemetry export failed at " + t.lastProblem.time + " to " + t.lastProblem.endpoint + ": " + t.lastProblem.problem + " (decisions are not affected)" : "";
  fill($("sessions"), s.sessions.map((x) => row([el("code", x.id), x.calls, x.errors, x.hasEdits ? "yes" : "no", Object.entries(x.callsByTool).map(([t, n]) => t + ":" + n).join(" ")])), "no sessions yet", 5);
}
async function refreshApprovals() {
  const res = await fetch(withAuth("/v1/approvals"));
  if (!res.ok) return;
  const { approvals } = await res.json();
  fill($("approvals"), approvals.map((a) => {
    const revoke = el("button", "revoke");
    revoke.dataset.id = a.id;
    revoke.onclick = async () => { revoke.disabled = true; await fetch(withAuth("/v1/approvals/revoke"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: a.id }) }); refreshApprovals().catch(() => {}); };
    return row([el("code", a.id), a.scope === "session" ? "session " + (a.agent ? a.agent + ":" : "") + a.session : "project", a.rule, el("code", a.tool + ": " + a.display), el("code", a.project), new Date(a.createdAt).toLocaleString(), revoke]);
  }), "no remembered approvals", 7);
}
let timer;
function soon() { clearTimeout(timer); timer = setTimeout(refresh, 100); }
function connect() {
  const es = new EventSource(withAuth("/v1/events"));
  es.addEventListener("hello", () => { $("conn").textContent = "live"; $("conn").className = "on"; });
  es.addEventListener("decision", (e) => { addDecision(JSON.parse(e.data)); soon(); });
  // The server drops a stream that fell behind; EventSource reconnects by itself and gets the history again.
  es.addEventListener("dropped", () => { $("conn").textContent = "fell behind, reconnecting"; $("conn").className = "off"; });
  es.onerror = () => { $("conn").textContent = "reconnecting"; $("conn").className = "off"; };
}
refresh().catch((e) => { $("status-error").textContent = String(e); });
refreshApprovals().catch(() => {});
connect();
setInterval(() => { refresh().catch(() => {}); refreshApprovals().catch(() => {}); }, 5000);
`;

const layerSection = (layer: string, title: string) => `
<section data-testid="layer-${layer}"><h2>${title} rules <span class="muted" id="count-${layer}">0</span></h2>
<table><thead><tr><th>name</th><th>hook</th><th>tools</th><th>action</th><th>source file</th></tr></thead><tbody id="rules-${layer}"></tbody></table></section>`;

export function dashboardPage(version: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shepherd dashboard</title><style>${STYLE}</style></head>
<body>
<header><h1>Shepherd</h1><span class="muted" id="version">v${version.replace(/[^\w.+-]/g, "")}</span>
<span id="cwd" class="muted"></span><span id="trust" class="muted"></span><span id="conn" class="off">connecting</span><span id="status-error" class="err"></span></header>
<main>
<section class="wide" data-testid="decisions"><h2>Live decisions <span class="muted" id="decision-count">0</span></h2>
<table><thead><tr><th>time</th><th>agent</th><th>session</th><th>event</th><th>command / path</th><th>decision</th><th>rules fired</th><th>reason / reminders</th></tr></thead>
<tbody id="decisions" data-empty="1"><tr><td colspan="8" class="muted">waiting for decisions…</td></tr></tbody></table></section>
<section data-testid="sessions"><h2>Sessions</h2>
<table><thead><tr><th>session</th><th>calls</th><th>errors</th><th>edits</th><th>calls by tool</th></tr></thead><tbody id="sessions"></tbody></table></section>
<section data-testid="issues"><h2>Load errors</h2>
<table><thead><tr><th></th><th>file</th><th>JSON path</th><th>message</th></tr></thead><tbody id="issues"></tbody></table>
<h2 style="margin-top:12px">Skipped rules</h2>
<table><thead><tr><th>rule</th><th>layer</th><th>why</th></tr></thead><tbody id="skipped"></tbody></table>
<h2 style="margin-top:12px">Shadow rules: would have</h2>
<table><thead><tr><th>rule</th><th>layer</th><th>would have</th><th>times</th></tr></thead><tbody id="shadow"></tbody></table>
<p id="managed" class="err"></p>
<p id="telemetry" class="muted" data-testid="telemetry"></p><p id="telemetry-problem" class="err" data-testid="telemetry-problem"></p></section>
<section class="wide" data-testid="approvals"><h2>Remembered approvals</h2>
<table><thead><tr><th>id</th><th>scope</th><th>rule</th><th>call</th><th>project</th><th>since</th><th></th></tr></thead><tbody id="approvals"></tbody></table></section>
${layerSection("project", "Project")}
${layerSection("global", "Global")}
${layerSection("builtin", "Built-in")}
${layerSection("managed", "Managed policy (locked)")}
</main>
<script>${SCRIPT}</script>
</body></html>`;
}
