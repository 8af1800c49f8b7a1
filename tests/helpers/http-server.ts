/** @module starts `shepherd http` as a child process on a free port and finds its URL in the stderr log. */
import { type ChildProcess, spawn } from "node:child_process";
import { shepherdBin } from "./agent-sandbox.ts";

export interface RunningHttp {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

export function startHttp(args: string[], opts: { cwd: string; env: Record<string, string | undefined> }): Promise<RunningHttp> {
  const child = spawn(shepherdBin(), ["http", "--port", "0", ...args], { cwd: opts.cwd, env: opts.env as Record<string, string>, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  return new Promise((ok, fail) => {
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString("utf8");
      const m = /listening on (http:\/\/\S+?)\s/.exec(err);
      if (m?.[1]) {
        ok({
          url: m[1],
          child,
          stderr: () => err,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => fail(new Error(`shepherd http exited with ${code}: ${err}`)));
  });
}
