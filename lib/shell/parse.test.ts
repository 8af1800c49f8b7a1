/** @module tests of the shell parser: splitting, unwrapping, variables, cd, substitutions, heredocs, fallback. */
import { describe, expect, it } from "bun:test";
import { effectsOf } from "./effects.ts";
import { analyze } from "./flags.ts";
import { parseShellLine } from "./parse.ts";

const opts = { cwd: "/home/u/proj", home: "/home/u" };
/** Each simple command as "argv joined" (cwd appended when it differs from the session cwd). */
function shape(command: string): string[] {
  return parseShellLine(command, opts).commands.map((c) => c.argv.join(" ") + (c.cwd !== opts.cwd ? ` @${c.cwd}` : ""));
}

describe("parseShellLine", () => {
  const cases: [string, string, string[]][] = [
    ["split on ; && || | & and newlines", "a; b && c || d | e & f\ng", ["a", "b", "c", "d", "e", "f", "g"]],
    ["normalize spacing and quoting", `rm  -rf   "/a b" 'c' d\\ e`, ["rm -rf /a b c d e"]],
    ["enter subshells and groups", "(cd /tmp; ls) && { pwd; }", ["cd /tmp @/tmp", "ls @/tmp", "pwd"]],
    ["run command substitutions", "echo $(date) `whoami`", ["date", "whoami", "echo $(date) $(whoami)"]],
    ["substitute literal echo output", "$(echo rm) -rf /", ["echo rm", "rm -rf /"]],
    ["follow assignments", "X=rm; $X -rf /", ["rm -rf /"]],
    ["split unquoted variable values", 'C="rm -rf"; $C ~', ["rm -rf /home/u"]],
    ["resolve ~ and $HOME", "ls ~ $HOME ${HOME}/x", ["ls /home/u /home/u /home/u/x"]],
    ["follow cd into later commands", "cd / && rm -rf *", ["cd / @/", "rm -rf * @/"]],
    ["keep cd inside a subshell", "(cd /etc) ; ls", ["cd /etc @/etc", "ls"]],
    ["unwrap sh -c", `sh -c "rm -rf ~"`, ["sh -c rm -rf ~", "rm -rf /home/u"]],
    ["unwrap nested bash -c", `bash -c 'bash -c "rm -rf ~"'`, ["bash -c bash -c \"rm -rf ~\"", "bash -c rm -rf ~", "rm -rf /home/u"]],
    ["unwrap zsh -lc", `zsh -lc "ls"`, ["zsh -lc ls", "ls"]],
    ["unwrap sudo with flags and env with assignments", "sudo -u root env -i X=1 git status", ["sudo -u root env -i X=1 git status", "env -i X=1 git status", "git status"]],
    ["unwrap nice, timeout, nohup, time, command, exec", "nice -n 5 timeout -s KILL 10 nohup time command exec ls", [
      "nice -n 5 timeout -s KILL 10 nohup time command exec ls", "timeout -s KILL 10 nohup time command exec ls", "nohup time command exec ls", "time command exec ls", "command exec ls", "exec ls", "ls"]],
    ["not run command -v lookups", "command -v rm", ["command -v rm"]],
    ["unwrap xargs with literal piped input", "echo / | xargs rm -rf", ["echo /", "xargs rm -rf", "rm -rf /"]],
    ["take env -C as the working directory", "env -C /etc ls", ["env -C /etc ls", "ls @/etc"]],
    ["read heredoc bodies fed to a shell", "bash <<EOF\nrm -rf ~\nEOF", ["bash", "rm -rf /home/u"]],
    ["run echo output piped into sh", "echo 'rm -rf /' | sh", ["echo rm -rf /", "sh", "rm -rf /"]],
    ["run eval arguments", `eval "rm -rf /"`, ["eval rm -rf /", "rm -rf /"]],
    ["see commands in if/for/while/case bodies", "if true; then a; fi; for x in 1 2; do b; done; case y in y) c;; esac", ["true", "a", "b", "c"]],
    ["skip function names but see their bodies", "f() { rm -rf /; }; f", ["rm -rf /", "f"]],
    ["turn find -exec into its command, rm counting as recursive", "find /var -exec rm -f {} \\;", ["find /var -exec rm -f {} ;", "rm -r -f /var"]],
    ["keep a filtered find -exec below its start", "find /var -name '*.log' -exec rm -f {} \\;", ["find /var -name *.log -exec rm -f {} ;", "rm -r -f /var/*.log"]],
    ["turn an unfiltered find -delete into rm -rf", "find . -delete", ["find . -delete", "rm -rf ."]],
    ["keep a filtered find -delete below its start", "find dist -name '*.map' -delete", ["find dist -name *.map -delete", "rm -rf dist/{}"]],
    ["see python -c deletes", `python3 -c "import shutil; shutil.rmtree('/x')"`, ["python3 -c import shutil; shutil.rmtree('/x')", "rm -rf /x"]],
    ["see node -e shell-outs", `node -e "require('child_process').execSync('rm -rf ~')"`, ["node -e require('child_process').execSync('rm -rf ~')", "rm -rf /home/u"]],
    ["unwrap python -m modules", "python -m twine upload dist/*", ["python -m twine upload dist/*", "twine upload dist/*"]],
    ["decode $'...' quotes", "echo $'a\\tb'", ["echo a\tb"]],
    ["ignore comments", "ls # rm -rf /", ["ls"]],
    ["read $( (a) ) as a substitution of a subshell, not arithmetic", "echo \"$(( rm -rf ~ ) )\"", ["rm -rf /home/u", "echo $(( rm -rf ~ ) )"]],
  ];
  it.each(cases)("should %s", (_name, command, expected) => {
    const r = parseShellLine(command, opts);
    expect(r.error).toBeUndefined();
    expect(shape(command)).toEqual(expected);
  });

  const broken: [string, string][] = [
    ["an unterminated double quote", `echo "rm -rf /`],
    ["an unterminated single quote", "rm -rf '/"],
    ["an unclosed substitution", "echo $(rm -rf /"],
    ["an unterminated heredoc", "cat <<EOF\nabc"],
  ];
  it.each(broken)("should report %s and fall back to a plain split", (_name, command) => {
    const r = parseShellLine(command, opts);
    expect(r.fallback).toBe(true);
    expect(r.error).toBeString();
    expect(r.commands.length).toBeGreaterThan(0);
  });

  it("should still find rm -rf / in a fallback split", () => {
    const r = parseShellLine(`sudo rm -rf / "oops`, opts);
    expect(r.fallback).toBe(true);
    expect(r.commands.some((c) => c.argv.join(" ").startsWith("rm -rf /"))).toBe(true);
  });

  it("should record pipeline consumers that run their input as code", () => {
    const [curl] = parseShellLine("curl -s x | sudo bash", opts).commands;
    expect(curl?.pipeTo).toEqual(["sudo", "bash"]);
    const [curl2] = parseShellLine("curl -s x | python3 -m json.tool", opts).commands;
    expect(curl2?.pipeTo).not.toContain("python3");
  });

  it("should stop at the nesting limit instead of recursing forever, and judge the line too complex", () => {
    let cmd = "rm -rf /";
    for (let i = 0; i < 12; i++) cmd = `sh -c ${JSON.stringify(cmd)}`;
    const r = parseShellLine(cmd, opts);
    expect(r.limit).toContain("nested more than 8 deep");
    // The line itself and 8 nested levels are read; the 9th level's script is not.
    expect(r.commands.filter((c) => c.program === "sh")).toHaveLength(9);
  });
});

describe("names of Object.prototype members", () => {
  // Tables keyed by program, subcommand or variable name are plain objects: an inherited member is no entry.
  const names = Object.getOwnPropertyNames(Object.prototype);
  const shapes: [string, (n: string) => string, "powershell" | undefined][] = [
    ["a program", (n) => `${n} -e x; rm -rf ~`, undefined],
    ["a wrapped program", (n) => `sudo env ${n} x; rm -rf ~`, undefined],
    ["a git subcommand with a long option", (n) => `git ${n} --forc x; rm -rf ~`, undefined],
    ["a PowerShell command and environment variable", (n) => `${n} -x y; Remove-Item $env:${n} -Recurse; Remove-Item ~ -Recurse`, "powershell"],
  ];
  for (const [what, line, dialect] of shapes) {
    it(`should read ${what} named like one as any other name, and still see the delete after it`, () => {
      for (const n of names) {
        const r = parseShellLine(line(n), { ...opts, ...(dialect ? { dialect } : {}) });
        expect(r.fallback).toBe(false);
        const last = r.commands[r.commands.length - 1];
        expect(last && (last.program === "rm" || last.program === "remove-item") ? last.argv.includes("/home/u") : false).toBe(true);
        for (const c of r.commands) expect(() => [analyze(c), effectsOf(c)]).not.toThrow();
      }
    });
  }
});
