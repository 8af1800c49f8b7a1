/** @module tests of the paths a command changes and the paths interpreter code names. */
import { describe, expect, it } from "bun:test";
import { parseShell } from "./index.ts";
import { codeMentions, writeTargets } from "./write-targets.ts";

const opts = { cwd: "/p", home: "/h" };

function targets(line: string): string[] {
  return parseShell(line, opts).commands.flatMap((c) => writeTargets(c).map((t) => `${t.path}${t.deep ? " (deep)" : ""}`));
}

describe("writeTargets", () => {
  const cases: [string, string[]][] = [
    ["echo x > a.txt", ["/p/a.txt"]],
    ["echo x >> /h/b 2>&1", ["/h/b"]],
    ["cat a b", []],
    ["grep -n x f", []],
    ["tee -a out1 out2", ["out1", "out2"]],
    ["sed -i s/a/b/ f", ["s/a/b/", "f"]],
    ["sed -n p f", []],
    ["perl -pi -e s/a/b/ f", ["s/a/b/", "f"]],
    ["perl -Ilib x.pl", []],
    ["rm f", ["f"]],
    ["rm -rf d", ["d (deep)"]],
    ["mv a b", ["a (deep)", "b (deep)", "b (deep)", "b/a (deep)"]],
    ["cp a b", ["b", "b/a"]],
    ["cp -r src dst", ["dst (deep)", "dst/src (deep)"]],
    ["cp -t dir a", ["dir", "dir/a"]],
    ["ln -s target", ["target (deep)", "target (deep)"]],
    ["chmod 600 f", ["600 (deep)", "f (deep)"]],
    ["mount --bind /tmp/x /h/.claude", ["/h/.claude (deep)"]],
    ["mount -o ro,bind /tmp/x d", ["d (deep)"]],
    ["mount /dev/sdb1 /mnt", []],
    ["truncate -s 0 f", ["f"]],
    ["dd if=/dev/zero of=disk.img", ["disk.img"]],
    ["curl -o out.json https://x/y", ["out.json"]],
    ["git checkout -- a.ts", ["a.ts (deep)"]],
    ["git status", []],
    ["rsync -a src/ dst", ["dst (deep)", "dst/src (deep)"]],
    ["git checkout other -- .claude/settings.json", ["other (deep)", ".claude/settings.json (deep)"]],
    ["git checkout other -- '*.json'", ["other (deep)", "**.json (deep)"]],
    ["git checkout x -- ':/.claude/settings.json'", ["x (deep)", ".claude/settings.json (deep)"]],
    ["git -C /tmp/wt checkout -- a.ts", ["/tmp/wt/a.ts (deep)"]],
    ["git restore --source other .pi/settings.json", [".pi/settings.json (deep)"]],
    ["git restore --staged .claude/settings.json", []],
    ["git restore --stag -W .claude/settings.json", [".claude/settings.json (deep)"]],
    ["git rm --cached .claude/settings.json", []],
    ["git checkout-index -f .claude/settings.json", [".claude/settings.json (deep)"]],
    ["git checkout-index -a --prefix=/tmp/export/", ["/tmp/export/ (deep)"]],
    ["sort -o f x", ["f"]],
    ["gzip f", ["f (deep)"]],
    ["gzip -k f", []],
    ["gzip -c f", []],
    ["zstd f", []],
    ["zstd --rm f", ["f (deep)"]],
    ["yq -i '.a = 1' f", [".a = 1", "f"]],
    ["yq '.a' f", []],
    ["sd old new f", ["f"]],
    ["sd -p old new f", []],
  ];
  it.each(cases)("should find what `%s` changes", (line, want) => {
    expect(targets(line)).toEqual(want);
  });
});

describe("codeMentions", () => {
  it("should name string paths, home expressions and folder/file pairs", () => {
    const [cmd] = parseShell(`python3 -c "import os; open(os.path.join(os.path.expanduser('~'), '.claude', 'settings.json'))"`, opts).commands;
    const named = cmd ? codeMentions(cmd) : [];
    expect(named).toContain("/.claude/settings.json");
    const [node] = parseShell(`node -e "fs.writeFileSync(os.homedir() + '/.pi/agent/settings.json', '')"`, opts).commands;
    expect(node ? codeMentions(node) : []).toContain("/.pi/agent/settings.json");
  });

  it("should read heredoc bodies", () => {
    const [cmd] = parseShell("python3 - <<'EOF'\nopen('x/y.json', 'w')\nEOF", opts).commands;
    expect(cmd ? codeMentions(cmd) : []).toContain("x/y.json");
  });

  it("should bound the words of a huge one-liner", () => {
    const [cmd] = parseShell(`python3 -c "${"a/b ".repeat(20_000)}"`, opts).commands;
    expect((cmd ? codeMentions(cmd) : []).length).toBeLessThanOrEqual(4096 * 2);
  });
});
