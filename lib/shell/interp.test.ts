/** @module tests of interpreter one-liner scanning. */
import { describe, expect, it } from "bun:test";
import { type CodeEffect, fallbackCommands, scanCode } from "./interp.ts";

describe("scanCode", () => {
  const cases: [string, CodeEffect[]][] = [
    ["import shutil; shutil.rmtree('/')", [{ kind: "delete", recursive: true, path: "/" }]],
    ["shutil.rmtree(os.path.expanduser('~/x'))", [{ kind: "delete", recursive: true, path: "~/x" }]],
    ["os.remove(\"/etc/passwd\")", [{ kind: "delete", recursive: false, path: "/etc/passwd" }]],
    ["require('fs').rmSync('/', {recursive: true})", [{ kind: "delete", recursive: true, path: "/" }]],
    ["os.system('rm -rf ~')", [{ kind: "shell", text: "rm -rf ~" }]],
    ["subprocess.run(['rm', '-rf', '/'])", [{ kind: "argv", argv: ["rm", "-rf", "/"] }]],
    ["system('rm', '-rf', '/')", [{ kind: "argv", argv: ["rm", "-rf", "/"] }]],
    ["FileUtils.rm_rf(Dir.home)", [{ kind: "delete", recursive: true, path: "~" }]],
    ["print('hello')", []],
    ["shutil.rmtree(some_var)", []],
    // The interpreter-with-inline-code class: other languages' shapes.
    ['os.execute("rm -rf ~")', [{ kind: "shell", text: "rm -rf ~" }]],
    ['os:cmd("rm -rf ~"), halt().', [{ kind: "shell", text: "rm -rf ~" }]],
    ['do shell script "rm -rf ~"', [{ kind: "shell", text: "rm -rf ~" }]],
    ['"rm -rf /home/user".execute()', [{ kind: "shell", text: "rm -rf /home/user" }]],
    ["File.rm_rf!(System.user_home())", [{ kind: "delete", recursive: true, path: "~" }]],
    ["try? FileManager.default.removeItem(atPath: NSHomeDirectory())", [{ kind: "delete", recursive: true, path: "~" }]],
    ["exec rm -rf ~", [{ kind: "shell", text: "rm -rf ~" }]],
    ["file delete -force ~", [{ kind: "delete", recursive: true, path: "~" }]],
    ["for r,_,fs in os.walk('/home/user'): [os.remove(f) for f in fs]", [{ kind: "delete", recursive: true, path: "/home/user" }]],
    ['os.remove(os.getenv("HOME").."/.bashrc")', [{ kind: "delete", recursive: false, path: "~/.bashrc" }]],
    ["puts hi", []],
  ];
  it.each(cases)("should read %s", (code, effects) => {
    expect(scanCode(code)).toEqual(effects);
  });
});

describe("fallbackCommands", () => {
  it.each([
    ["Runtime.getRuntime().exec(\"rm -rf /home/user\")", ["rm -rf /home/user"]],
    ["(shell-command \"git reset --hard\")", ["git reset --hard"]],
    ["print(\"rm -rf /\")", []],
    ["run(\"make test\")", []],
  ] as const)("should read the destructive command lines of %s", (code, lines) => {
    expect(fallbackCommands(code)).toEqual([...lines]);
  });
});
