import { describe, expect, it } from "bun:test";
import { requoteCmd } from "./cmd-requote.ts";

describe("requoteCmd", () => {
  it.each([
    ['cmd /c "rmdir /S /Q D:\\"', "cmd /c 'rmdir /S /Q D:\\'"],
    ['cd x && cmd.exe /C "del /s /q C:\\Users\\"', "cd x && cmd /C 'del /s /q C:\\Users\\'"],
    ['C:\\Windows\\System32\\cmd.exe /c "rd /s /q C:\\"', "cmd /c 'rd /s /q C:\\'"],
    ["cmd /c \"echo it's D:\\\"", "cmd /c 'echo it'\\''s D:\\'"],
    ['powershell -NoProfile -ExecutionPolicy Bypass -c "Remove-Item -Recurse -Force C:\\Users\\user\\"', "pwsh -NoProfile -ExecutionPolicy Bypass -Command 'Remove-Item -Recurse -Force C:\\Users\\user\\'"],
  ])("should read %s with Windows quoting", (line, expected) => {
    expect(requoteCmd(line)).toBe(expected);
  });

  it("should leave a line without a cmd call alone", () => {
    expect(requoteCmd('echo "unterminated')).toBeUndefined();
    expect(requoteCmd('mycmd /c "x\\"')).toBeUndefined();
  });
});
