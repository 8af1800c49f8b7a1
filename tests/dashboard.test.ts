/**
 * @module black-box: the dashboard of `shepherd http` in a real headless browser (the Chromium that `npm ci`
 * brings, see helpers/browser.ts, driven by playwright-core): rules by layer with sources, load errors, live
 * decisions over SSE, session counters, and a screenshot. Waits are on page content, never on time.
 */
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { makeSandbox, type Sandbox, writeGlobalRules } from "./helpers/agent-sandbox.ts";
import { CHROMIUM_FLAGS, chromiumExecutable } from "./helpers/browser.ts";
import { type RunningHttp, startHttp } from "./helpers/http-server.ts";

let sb: Sandbox;
let srv: RunningHttp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const executablePath = await chromiumExecutable();
  sb = makeSandbox("dashboard");
  writeGlobalRules(sb, [{ name: "no-curl", action: "block", pattern: "\\bcurl\\b", reason: "DASH-BLOCK: no curl" }]);
  mkdirSync(join(sb.proj, ".pi"), { recursive: true });
  writeFileSync(join(sb.proj, ".pi", "shepherd-rules.json"), JSON.stringify([{ name: "ls-note", hook: "tool_result", action: "notify", pattern: "^ls", reason: "listed" }]));
  writeFileSync(join(sb.proj, ".pi", "shepherd-rules-broken.json"), '[{"name": "bad", "action": "block", "pattern": "("}]');
  // pi 1.x trusts the project; Shepherd does not (the two are separate).
  mkdirSync(sb.agentDir, { recursive: true });
  writeFileSync(join(sb.agentDir, "trust.json"), JSON.stringify({ [sb.proj]: true }));
  srv = await startHttp([], { cwd: sb.proj, env: { PATH: process.env.PATH, HOME: sb.home, PI_CODING_AGENT_DIR: sb.agentDir } });
  browser = await chromium.launch({ executablePath, args: [...CHROMIUM_FLAGS], headless: true });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${srv.url}/`);
  await page.locator("#conn.on").waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
  sb?.cleanup();
});

const postHook = (body: unknown) =>
  fetch(`${srv.url}/v1/hooks/claude-code`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("dashboard", () => {
  it("should show rules by layer with their source files", async () => {
    await page.locator("#rules-global tr", { hasText: "no-curl" }).waitFor();
    expect(await page.locator("#rules-global").innerText()).toContain("shepherd-rules.json");
    expect(await page.locator("#rules-project").innerText()).toContain("ls-note");
    expect(Number(await page.locator("#count-builtin").innerText())).toBeGreaterThan(0);
  });

  it("should show Shepherd's and pi's trust side by side, with the command that trusts the project in Shepherd", async () => {
    const trust = page.locator("#trust");
    await trust.filter({ hasText: "pi trusted" }).waitFor();
    expect(await trust.innerText()).toContain("shepherd not trusted");
    expect(await trust.innerText()).toContain(`shepherd trust ${sb.proj}`);
  });

  it("should show a rule file that failed to load", async () => {
    // Two rows: the bad pattern, and the rule it makes skipped.
    await page.locator("#issues tr", { hasText: "shepherd-rules-broken.json" }).first().waitFor();
    expect(await page.locator("#issues").innerText()).toContain("error");
    expect(await page.locator("#issues").innerText()).toContain('rule "bad" (block) is skipped');
  });

  it("should show a decision live as it happens", async () => {
    const res = await postHook({ session_id: "dash-1", cwd: sb.proj, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "curl http://x.invalid" } });
    expect(res.status).toBe(200);
    const row = page.locator("#decisions tr", { hasText: "curl http://x.invalid" });
    await row.waitFor();
    expect(await row.getAttribute("data-action")).toBe("block");
    expect(await row.innerText()).toContain("no-curl (global)");
  });

  it("should show per-session counters", async () => {
    await postHook({ session_id: "dash-1", cwd: sb.proj, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, error: "Exit code 1" });
    const row = page.locator("#sessions tr", { hasText: "dash-1" });
    await row.locator("td:nth-child(3)", { hasText: /^1$/ }).waitFor();
    expect(await row.locator("td:nth-child(2)").innerText()).toBe("1");
  });

  it("should render text from rules as text, not markup", async () => {
    await fetch(`${srv.url}/v1/evaluate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hook: "tool_call", session: { id: "<img src=x onerror=alert(1)>", cwd: sb.proj }, tool: { name: "bash", input: { command: "curl <b>bold</b>" } } }),
    });
    await page.locator("#decisions tr", { hasText: "curl <b>bold</b>" }).waitFor();
    expect(await page.locator("#decisions img").count()).toBe(0);
  });

  it("should save a non-empty screenshot", async () => {
    const file = join(sb.root, "dashboard.png");
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});

describe("chromiumExecutable", () => {
  it("should bring the browser from the npm package, not from the machine, when nothing is configured", async () => {
    const exe = await chromiumExecutable({});
    expect(exe).toContain(`${sep}node_modules${sep}.cache${sep}shepherd-chromium${sep}`);
    expect(statSync(exe).mode & 0o100).toBe(0o100);
  });

  it("should use SHEPHERD_CHROMIUM when it names an executable", async () => {
    const file = join(sb.root, "my-chromium");
    writeFileSync(file, "", { mode: 0o700 });
    expect(await chromiumExecutable({ SHEPHERD_CHROMIUM: file })).toBe(file);
  });

  it("should fail, not fall back, when SHEPHERD_CHROMIUM names nothing", async () => {
    await expect(chromiumExecutable({ SHEPHERD_CHROMIUM: join(sb.root, "absent") })).rejects.toThrow("does not exist");
  });
});
