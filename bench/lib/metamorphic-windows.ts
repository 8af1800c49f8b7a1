/** @module semantics-preserving rewrites of PowerShell and cmd commands (metamorphic testing of the Windows model): each transform maps one case to variants that do the same thing, or to none where it does not apply. */
import type { CorpusCase } from "../../tests/safety-corpus-eval.ts";

export interface Variant {
  command: string;
  tool: "bash" | "powershell";
  family?: string;
}
export interface Transform {
  name: string;
  apply: (c: Variant) => Variant[];
}

const ALIASES: Record<string, string[]> = {
  "remove-item": ["ri", "rm", "del", "erase", "rd", "rmdir"],
  "get-content": ["gc", "cat", "type"],
  "invoke-webrequest": ["iwr", "curl", "wget"],
  "invoke-restmethod": ["irm"],
  "invoke-expression": ["iex"],
  "start-process": ["saps", "start"],
};
const MODULE: Record<string, string> = {
  "remove-item": "Microsoft.PowerShell.Management",
  "get-content": "Microsoft.PowerShell.Management",
  "start-process": "Microsoft.PowerShell.Management",
  "invoke-webrequest": "Microsoft.PowerShell.Utility",
  "invoke-restmethod": "Microsoft.PowerShell.Utility",
  "invoke-expression": "Microsoft.PowerShell.Utility",
};
const CMDLET = /(^|[;|{(\n]\s*)(Remove-Item|Get-Content|Invoke-WebRequest|Invoke-RestMethod|Invoke-Expression|Start-Process)(?=\s|$)/gi;

/** A PowerShell command whose text is one simple command (no separator, pipe or block): safe to append parameters to. */
const isSimple = (s: string) => !/[;|{}\n]/.test(s) && !/^\s*(\$|\(|&|\.)/.test(s);
const psq = (s: string) => `'${s.replaceAll("'", "''")}'`;
const shq = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
const utf16b64 = (s: string) => Buffer.from(s, "utf16le").toString("base64");

function onCmdlets(c: Variant, rewrite: (name: string) => string[]): Variant[] {
  if (c.tool !== "powershell") return [];
  const hits = [...c.command.matchAll(CMDLET)];
  const first = hits[0];
  if (first === undefined || first.index === undefined) return [];
  const at = first.index + (first[1] ?? "").length;
  const name = first[2] ?? "";
  return rewrite(name).map((n) => ({ tool: c.tool, command: c.command.slice(0, at) + n + c.command.slice(at + name.length) }));
}

/** A cmd line on the bash tool or PowerShell (`cmd /c X`): its inner script. */
function cmdInner(c: Variant): string | undefined {
  const m = /^\s*cmd(?:\.exe)?\s+\/[cC]\s+(.+)$/i.exec(c.command);
  return m?.[1];
}
const unquote = (s: string) => (/^"[^"]*"$/.test(s) ? s.slice(1, -1) : s);

const HOME_FORMS = ["$env:USERPROFILE", "${env:USERPROFILE}", "$HOME", "~", "C:\\Users\\user", "C:/Users/user"];
/** Only a home spelled alone as a path (end of text, or followed by a separator and a path): swapping it keeps the meaning. */
const HOME_RE = /(?<=(?:^|[^+=,(\s])\s+|^|['"])(\$env:USERPROFILE|\$\{env:USERPROFILE\}|\$HOME|~|C:\\Users\\user|C:\/Users\/user)(?=$|[\\/\s'")])/i;

export const TRANSFORMS: Transform[] = [
  { name: "cmdlet-lower", apply: (c) => onCmdlets(c, (n) => [n.toLowerCase()]).filter((v) => v.command !== c.command) },
  { name: "cmdlet-upper", apply: (c) => onCmdlets(c, (n) => [n.toUpperCase()]) },
  { name: "alias", apply: (c) => onCmdlets(c, (n) => ALIASES[n.toLowerCase()] ?? []) },
  { name: "module-qualified", apply: (c) => onCmdlets(c, (n) => [`${MODULE[n.toLowerCase()] ?? ""}\\${n}`]) },
  {
    name: "param-spelling",
    apply: (c) => {
      if (c.tool !== "powershell") return [];
      const out: string[] = [];
      const s = c.command;
      if (/\s-Recurse\b/i.test(s)) out.push(s.replace(/\s-Recurse\b/i, " -Rec"), s.replace(/\s-Recurse\b/i, " -r"));
      if (/\s-Force\b(?!:)/i.test(s)) out.push(s.replace(/\s-Force\b/i, " -Fo"), s.replace(/\s-Force\b/i, " -fo"), s.replace(/\s-Force\b/i, " -Force:$true"));
      if (/\s-Path\s+(?!-)/i.test(s) && !/\bfunction\b/i.test(s)) out.push(s.replace(/\s-Path\s+/i, " -LiteralPath "), s.replace(/\s-Path\s+(\S+)/i, " -Path:$1"));
      return out.map((command) => ({ tool: c.tool, command }));
    },
  },
  {
    name: "call-operator",
    apply: (c) =>
      onCmdlets(c, (n) => [`& ${psq(n)}`, `& (gcm ${n})`, `. ${psq(n)}`, `& (Get-Command ${n})`]).filter(() => /^\s*(Remove-Item|Get-Content|Invoke-WebRequest|Invoke-RestMethod|Start-Process)/i.test(c.command)),
  },
  { name: "invoke-expression", apply: (c) => (c.tool === "powershell" ? [{ tool: c.tool, command: `Invoke-Expression ${psq(c.command)}` }, { tool: c.tool, command: `iex ${psq(c.command)}` }] : []) },
  { name: "scriptblock", apply: (c) => (c.tool === "powershell" ? [{ tool: c.tool, command: `[scriptblock]::Create(${psq(c.command)}).Invoke()` }, { tool: c.tool, command: `& ([scriptblock]::Create(${psq(c.command)}))` }] : []) },
  {
    name: "powershell-command",
    apply: (c) =>
      c.tool === "powershell"
        ? [
            { tool: "bash", command: `powershell -NoProfile -Command ${shq(c.command)}` },
            { tool: "bash", command: `pwsh -nop -c ${shq(c.command)}` },
            { tool: "powershell", command: `powershell -NoProfile -Command { ${c.command} }` },
            { tool: "powershell", command: `pwsh -nop -c ${psq(c.command)}` },
          ]
        : [],
  },
  {
    name: "encoded-command",
    apply: (c) =>
      c.tool === "powershell"
        ? [
            { tool: "bash", command: `powershell -NoProfile -EncodedCommand ${utf16b64(c.command)}` },
            { tool: "powershell", command: `pwsh -nop -enc ${utf16b64(c.command)}` },
            { tool: "powershell", command: `powershell.exe -e ${utf16b64(c.command)}` },
          ]
        : [],
  },
  {
    name: "cmd-wrap",
    apply: (c) => {
      const inner = cmdInner(c);
      // `\"` is an escaped quote to bash: such a line does not parse the same once rewrapped.
      if (inner === undefined || inner.includes('\\"')) return [];
      // The inner text is kept as written (each host shell unquotes it the same way as before); /s wants one quoted whole.
      const out: Variant[] = [
        { tool: c.tool, command: `cmd /k ${inner}` },
        { tool: c.tool, command: `CMD /C ${inner}` },
        { tool: c.tool, command: `cmd /d /c ${inner}` },
      ];
      if (/^"[^"]*"$/.test(inner)) out.push({ tool: c.tool, command: `cmd.exe /s /c ${inner}` });
      // Only plain words mean the same to bash and to PowerShell.
      const bare = unquote(inner);
      if (/^[\w ./:=-]+$/.test(bare)) out.push({ tool: c.tool === "bash" ? "powershell" : "bash", command: `cmd /c ${bare}` });
      return out;
    },
  },
  {
    name: "home-path",
    apply: (c) => {
      if (c.tool !== "powershell") return [];
      const m = HOME_RE.exec(c.command);
      if (m === null || m.index === undefined) return [];
      const found = m[1] ?? "";
      // `~` and `$HOME` inside double quotes differ (`~` stays literal): only swap outside quotes.
      const before = c.command.slice(0, m.index);
      if ((before.match(/["']/g) ?? []).length % 2 === 1) return [];
      return HOME_FORMS.filter((f) => f.toLowerCase() !== found.toLowerCase()).map((f) => ({ tool: c.tool, command: c.command.slice(0, m.index) + f + c.command.slice(m.index + found.length) }));
    },
  },
  {
    name: "pipeline",
    apply: (c) => {
      if (c.tool !== "powershell") return [];
      const m = /^\s*(Remove-Item|ri|rm|del|rd)\s+((?:-(?:Path|LiteralPath)\s+)?)([^\s-][^\s]*)\s+((?:-\w+(?::\S+)?\s*)+)$/i.exec(c.command);
      if (m === null) return [];
      return [{ tool: c.tool, command: `Get-Item ${m[3]} | ${m[1]} ${(m[4] ?? "").trim()}` }, { tool: c.tool, command: `Get-ChildItem ${m[3]} | ${m[1]} ${(m[4] ?? "").trim()}` }];
    },
  },
  {
    name: "separator",
    apply: (c) =>
      c.tool === "powershell"
        ? [
            { tool: c.tool, command: `Write-Output start; ${c.command}` },
            { tool: c.tool, command: `Set-Location C:\\Users\\user\\project\n${c.command}` },
          ]
        : [],
  },
  {
    name: "block",
    apply: (c) =>
      c.tool === "powershell"
        ? [
            { tool: c.tool, command: `try { ${c.command} } catch {}` },
            { tool: c.tool, command: `if ($true) { ${c.command} }` },
            { tool: c.tool, command: `1 | ForEach-Object { ${c.command} }` },
          ]
        : [],
  },
  {
    name: "output-discard",
    apply: (c) => {
      // Discarding the output of a read is not the same command: a secret printed is a secret leaked, one discarded is not.
      if (c.tool !== "powershell" || /secrets/.test(c.family ?? "")) return [];
      const out: Variant[] = [];
      if (isSimple(c.command) && /^\s*[A-Z][a-z]+-[A-Za-z]+\s/.test(c.command)) out.push({ tool: c.tool, command: `${c.command} -ErrorAction SilentlyContinue` });
      if (!/[;\n]/.test(c.command) && !/^\s*(if|try|foreach|for|while|function|\$\w+\s*=)/i.test(c.command)) {
        out.push({ tool: c.tool, command: `${c.command} | Out-Null` }, { tool: c.tool, command: `$null = ${c.command}` });
      }
      return out;
    },
  },
];

/** Round 2: more spellings PowerShell and cmd treat alike. */
TRANSFORMS.push(
  {
    name: "param-case-order",
    apply: (c) => {
      if (c.tool !== "powershell" || !isSimple(c.command)) return [];
      const m = /^(\S+)\s+(.*)$/.exec(c.command);
      if (m === null) return [];
      const words = (m[2] ?? "").split(/\s+/);
      // Only lines of plain words and switches (no values after a parameter that takes one) can be reordered.
      if (!words.every((w) => /^-(?:Recurse|Force|Confirm:\$false|r|fo|Rec|Recu)$/i.test(w) || !w.startsWith("-")) || words.filter((w) => !w.startsWith("-")).length !== 1) return [];
      const switches = words.filter((w) => w.startsWith("-"));
      const target = words.filter((w) => !w.startsWith("-"));
      if (switches.length === 0) return [];
      return [
        { tool: c.tool, command: `${m[1]} ${[...switches, ...target].join(" ")}` },
        { tool: c.tool, command: `${m[1]} ${[...target, ...switches.map((w) => w.toUpperCase())].join(" ")}` },
        { tool: c.tool, command: `${m[1]} ${target.join(" ")} \`\n  ${switches.join(" ")}` },
        { tool: c.tool, command: `${m[1]} -Path ${target.join(" ")} ${switches.join(" ")}` },
        { tool: c.tool, command: `${m[1]} ${target.join(" ")} ${switches.map((w) => (/^-(?:Recurse|Force)$/i.test(w) ? `${w}:$true` : w)).join(" ")}` },
      ];
    },
  },
  {
    name: "script-block-call",
    apply: (c) =>
      c.tool === "powershell" && !/\bfunction\b|\bparam\b/i.test(c.command)
        ? [
            { tool: c.tool, command: `& { ${c.command} }` },
            { tool: c.tool, command: `. { ${c.command} }` },
            { tool: c.tool, command: `Invoke-Command -ScriptBlock { ${c.command} }` },
            { tool: c.tool, command: `icm { ${c.command} }` },
          ]
        : [],
  },
  {
    name: "cmd-spelling",
    apply: (c) => {
      const inner = cmdInner(c);
      if (inner === undefined || inner.includes('\\"')) return [];
      const bare = unquote(inner);
      const m = /^(\w+)(\s.*)$/.exec(bare);
      if (m === null || /^(?:echo|set|cd|for|if)$/i.test(m[1] ?? "")) return [];
      const q = inner.startsWith('"') ? '"' : "";
      // `@` silences cmd's echo of the line; unquoted at PowerShell it would be a splat, so there only inside quotes.
      const out: Variant[] = [
        ...(q !== "" || c.tool === "bash" ? [{ tool: c.tool, command: `cmd /c ${q}@${bare}${q}` }] : []),
        { tool: c.tool, command: `cmd /c ${q}${(m[1] ?? "").toUpperCase()}${m[2]}${q}` },
      ];
      // `r^d`: cmd drops a caret before an ordinary character (inside double quotes it is kept, so only unquoted).
      if (q === "" && (m[1] ?? "").length > 1 && c.tool === "powershell") out.push({ tool: c.tool, command: `cmd /c ${(m[1] ?? "").slice(0, 1)}^${(m[1] ?? "").slice(1)}${m[2]}` });
      if (/%USERPROFILE%/i.test(bare)) out.push({ tool: c.tool, command: `cmd /c ${q}${bare.replace(/%USERPROFILE%/i, "%HOMEDRIVE%%HOMEPATH%")}${q}` });
      return out;
    },
  },
  {
    name: "cmdlet-alias-more",
    apply: (c) => {
      if (c.tool !== "powershell") return [];
      const m = /^(Get-ChildItem|Copy-Item|Move-Item|Set-Content|Invoke-Item|Clear-Content|New-Item)(?=\s)/i.exec(c.command);
      const more: Record<string, string[]> = { "get-childitem": ["gci", "ls", "dir"], "copy-item": ["cp", "copy", "cpi"], "move-item": ["mv", "move", "mi"], "invoke-item": ["ii"], "clear-content": ["clc"], "new-item": ["ni"] };
      if (m === null) return [];
      return (more[(m[1] ?? "").toLowerCase()] ?? []).map((a) => ({ tool: c.tool, command: a + c.command.slice((m[1] ?? "").length) }));
    },
  },
);

/** Round 3: the command started by another process, named parameters of iex, home as an expression, comments, pwsh 7 chains. */
TRANSFORMS.push(
  {
    name: "start-process-wrap",
    apply: (c) =>
      c.tool === "powershell" && !/['"\n]/.test(c.command)
        ? [
            { tool: c.tool, command: `Start-Process -FilePath pwsh -ArgumentList @('-NoProfile', '-Command', '${c.command}') -Wait` },
            { tool: c.tool, command: `Start-Process powershell -ArgumentList '-enc', '${utf16b64(c.command)}'` },
            { tool: c.tool, command: `Start-Process cmd -ArgumentList '/c', 'powershell -enc ${utf16b64(c.command)}'` },
          ]
        : [],
  },
  { name: "iex-named", apply: (c) => (c.tool === "powershell" ? [{ tool: c.tool, command: `Invoke-Expression -Command ${psq(c.command)}` }] : []) },
  {
    name: "home-expression",
    apply: (c) => {
      if (c.tool !== "powershell") return [];
      const m = /(?<=\s)(~|\$HOME|\$env:USERPROFILE)(?=$|\s)/i.exec(c.command);
      if (m === null || m.index === undefined) return [];
      const before = c.command.slice(0, m.index);
      if ((before.match(/["']/g) ?? []).length % 2 === 1 || /[+=,(]\s*$/.test(before)) return [];
      return ["$env:HOMEDRIVE$env:HOMEPATH", "([Environment]::GetFolderPath('UserProfile'))", "(Resolve-Path ~).Path", "(Get-Item ~).FullName", "$env:USERPROFILE\\"].map((f) => ({ tool: c.tool, command: before + f + c.command.slice(m.index + (m[1] ?? "").length) }));
    },
  },
  {
    name: "comment",
    apply: (c) =>
      c.tool === "powershell"
        ? [
            { tool: c.tool, command: `${c.command} # clean up` },
            { tool: c.tool, command: `<# step 2 #> ${c.command}` },
          ]
        : [],
  },
  { name: "pwsh-chain", apply: (c) => (c.tool === "powershell" && !/^\s*(?:function|\$\w+\s*=)/i.test(c.command) ? [{ tool: c.tool, command: `Write-Output go && ${c.command}` }] : []) },
);

/** Round 4: the target through a variable, common parameters that change nothing, cmd reached from PowerShell. */
TRANSFORMS.push(
  {
    name: "path-variable",
    apply: (c) => {
      if (c.tool !== "powershell") return [];
      const m = /^(Remove-Item|ri|rm|del|rd|rmdir|Get-Content|gc|cat|type)\s+((?:-(?:Path|LiteralPath)\s+)?)([^\s$('"-][^\s]*)(\s+(?:-\w+\s*)*)$/i.exec(c.command);
      if (m === null) return [];
      const [, cmd, named, target, rest] = m;
      return [
        { tool: c.tool, command: `$p = '${target}'; ${cmd} ${named}$p${rest}` },
        { tool: c.tool, command: `$p = "${target}"; ${cmd} ${named}\${p}${rest}` },
        { tool: c.tool, command: `Set-Variable -Name t -Value '${target}'; ${cmd} ${named}$t${rest}` },
      ];
    },
  },
  {
    name: "common-params",
    apply: (c) =>
      c.tool === "powershell" && isSimple(c.command) && /^\s*(?:Remove-Item|ri|rm|del|rd|rmdir|erase)\s/i.test(c.command)
        ? ["-ea 0", "-ErrorAction:Ignore", "-Confirm:$false", "-WhatIf:$false", "-Verbose"].map((x) => ({ tool: c.tool, command: `${c.command} ${x}` }))
        : [],
  },
  {
    name: "cmd-from-powershell",
    apply: (c) => {
      if (c.tool !== "powershell") return [];
      const m = /^\s*cmd(?:\.exe)?\s+\/c\s+(.+)$/i.exec(c.command);
      if (m === null) return [];
      return [
        { tool: c.tool, command: `cmd.exe /c ${m[1]}` },
        { tool: c.tool, command: `& cmd /c ${m[1]}` },
        { tool: c.tool, command: `& cmd.exe /c ${m[1]}` },
        { tool: c.tool, command: `C:\\Windows\\System32\\cmd.exe /c ${m[1]}` },
      ];
    },
  },
);

/** The cases a metamorphic run starts from: PowerShell-tool cases and cmd lines of the bash tool. */
export function isWindowsCase(c: CorpusCase): boolean {
  return c.tool === "powershell" || /^\s*cmd(?:\.exe)?\s+\/[cC]\s/i.test(c.command);
}

/** Deterministic sample of n items (stable by index stride), so a test run always sees the same variants. */
export function stride<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  const step = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * step)] as T);
}
