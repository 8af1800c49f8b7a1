/** @module unit tests: the watchdog thread ends a process whose main thread is stuck, with the answer it was given. */
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "shepherd-watchdog-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a script that starts the watchdog, arms it `inMs` ahead, then does `then` on the main thread. */
function runWith(then: string, inMs = 200) {
  const file = join(dir, "main.ts");
  writeFileSync(
    file,
    `import { startWatchdog } from ${JSON.stringify(join(import.meta.dir, "watchdog.ts"))};
const w = startWatchdog();
if (!w) throw new Error("no watchdog");
w.arm(Date.now() + ${inMs}, { stdout: "ANSWER\\n", stderr: "REASON\\n", exitCode: 2 });
${then}
`,
  );
  return spawnSync(process.execPath, [file], { encoding: "utf8", timeout: 20_000 });
}

describe("startWatchdog", () => {
  it("should answer and end the process with the exit code while the main thread spins", () => {
    const r = runWith("for (;;) {}");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("ANSWER\n");
    expect(r.stderr).toBe("REASON\n");
  });

  it("should stay silent when the main thread claims the answer first", () => {
    const r = runWith('if (w.claim()) process.stdout.write("MAIN\\n"); const t = Date.now(); while (Date.now() - t < 600) {} process.exit(0);');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("MAIN\n");
  });

  it("should take the latest orders", () => {
    const r = runWith('w.arm(Date.now() + 100, { stdout: "SECOND\\n", stderr: "", exitCode: 0 }); for (;;) {}', 5_000);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("SECOND\n");
  });
});
