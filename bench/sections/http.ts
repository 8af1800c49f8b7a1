/**
 * @module HTTP round-trip: `shepherd http` POST /v1/evaluate against a minimal Bun.serve floor, interleaved
 * request by request over keep-alive connections. Skipped (with the reason) when the face is not built.
 */
import { BUN, HTTP_ECHO_SERVER, SHEPHERD } from "../lib/paths.ts";
import { createProject } from "../lib/project.ts";
import { type SideBySide, sideBySide } from "../lib/stats.ts";
import { eventMix } from "../lib/synthetic-rules.ts";

export type HttpResult =
  | ({ rules: number; available: true } & SideBySide)
  | { rules: number; available: false; why: string };

/** Starts a server that prints its port on stderr; resolves with the port. */
async function startServer(cmd: string[], cwd: string, env: Record<string, string>): Promise<{ port: number; stop: () => Promise<void> }> {
  const proc = Bun.spawn(cmd, { cwd, env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
    const m = /(?:listening on \S*?:|listening on )(\d+)/.exec(seen);
    if (m) {
      // Keep draining stderr so the server never blocks on a full pipe.
      void (async () => {
        for (;;) if ((await reader.read()).done) break;
      })().catch(() => undefined);
      return {
        port: Number(m[1]),
        stop: async () => {
          proc.kill("SIGTERM");
          await Promise.race([proc.exited, Bun.sleep(2000)]);
          proc.kill("SIGKILL");
        },
      };
    }
  }
  proc.kill("SIGKILL");
  throw new Error(`did not start: ${seen.trim().slice(0, 300) || `exit ${await proc.exited}`}`);
}

export async function benchHttp(ruleCount: number, opts: { runs: number; requests: number; warmup: number }): Promise<HttpResult> {
  const project = createProject(ruleCount, "http");
  let shepherd: Awaited<ReturnType<typeof startServer>> | undefined;
  let echo: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    try {
      shepherd = await startServer([SHEPHERD, "http", "--port", "0"], project.cwd, { ...project.env, SHEPHERD_LOG: "info" });
    } catch (err) {
      return { rules: ruleCount, available: false, why: `shepherd http ${err instanceof Error ? err.message : String(err)}` };
    }
    echo = await startServer([BUN, HTTP_ECHO_SERVER], project.cwd, project.env);
    const bodies = eventMix(project.cwd).map((event) => JSON.stringify({ event }));
    let k = 0;
    const one = async (port: number): Promise<number> => {
      const body = bodies[k++ % bodies.length] as string;
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1/evaluate`, { method: "POST", body, headers: { "content-type": "application/json" } });
      await res.text();
      const dt = performance.now() - t0;
      if (res.status !== 200) throw new Error(`bench: POST /v1/evaluate answered ${res.status}`);
      return dt;
    };
    return { rules: ruleCount, available: true, ...(await sideBySide(shepherd.port, echo.port, one, opts)) };
  } finally {
    await shepherd?.stop();
    await echo?.stop();
    project.dispose();
  }
}
