/** @module tests of interpreter one-liner scanning. */
import { describe, expect, it } from "bun:test";
import { type CodeEffect, scanCode } from "./interp.ts";

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
  ];
  it.each(cases)("should read %s", (code, effects) => {
    expect(scanCode(code)).toEqual(effects);
  });
});
