/**
 * @module TEST-ONLY: runs one command with this process's stdio and writes its own peak resident memory
 * (bytes) to the file named by PEAK_RSS_OUT, then exits with its status. A test process that has spawned
 * other children reads a maximum over all of them (the kernel's children usage); this process has one.
 */
import { writeFileSync } from "node:fs";

const [cmd, ...args] = process.argv.slice(2);
const out = process.env.PEAK_RSS_OUT;
if (!cmd || !out) throw new Error("usage: PEAK_RSS_OUT=<file> bun peak-rss.ts <command> [args...]");
const env = { ...process.env };
delete env.PEAK_RSS_OUT;
const child = Bun.spawn([cmd, ...args], { stdin: "inherit", stdout: "inherit", stderr: "inherit", env });
const code = await child.exited;
writeFileSync(out, String(child.resourceUsage()?.maxRSS ?? -1));
process.exit(code);
