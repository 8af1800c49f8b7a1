/**
 * @module `shepherd init pi [--uninstall]`: writes the thin pi extension into pi's extensions folder
 * (`$PI_CODING_AGENT_DIR/extensions/shepherd/` or `~/.pi/agent/extensions/shepherd/`), pointing at
 * the binary that runs this command. A second run changes nothing; uninstall removes only our files.
 */
import { existsSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
// The extension travels inside the compiled binary as text: pi loads it as TypeScript, unbuilt.
import * as indexText from "../../pi-extension/index.ts" with { type: "text" };
import * as platformPackageText from "../../pi-extension/platform-package.ts" with { type: "text" };
import * as redactResultText from "../../pi-extension/redact-result.ts" with { type: "text" };
import * as settingsText from "../../pi-extension/settings.ts" with { type: "text" };
import * as clientText from "../../pi-extension/sidecar-client.ts" with { type: "text" };
import * as subagentText from "../../pi-extension/subagent.ts" with { type: "text" };
import * as wireText from "../../pi-extension/wire.ts" with { type: "text" };
import { embeddedText, listDir, writeChangedFiles } from "./install-files.ts";
import { agentDir, type Env } from "../rules/paths.ts";
import { VERSION } from "../version.ts";

export interface InitPiOptions {
  uninstall: boolean;
  /** Absolute path of the shepherd binary the extension should start. */
  binaryPath: string;
  env: Env;
  write?: (text: string) => void;
  writeErr?: (text: string) => void;
}

/** Must match INSTALL_FILE in pi-extension/settings.ts. */
const INSTALL_FILE = "install.json";

/** The files `init pi` writes, by name inside the extension folder. */
export function extensionFiles(binaryPath: string): Map<string, string> {
  const files = new Map<string, string>([
    ["index.ts", embeddedText("pi extension file index.ts", indexText)],
    ["platform-package.ts", embeddedText("pi extension file platform-package.ts", platformPackageText)],
    ["redact-result.ts", embeddedText("pi extension file redact-result.ts", redactResultText)],
    ["settings.ts", embeddedText("pi extension file settings.ts", settingsText)],
    ["sidecar-client.ts", embeddedText("pi extension file sidecar-client.ts", clientText)],
    ["subagent.ts", embeddedText("pi extension file subagent.ts", subagentText)],
    ["wire.ts", embeddedText("pi extension file wire.ts", wireText)],
  ]);
  files.set(INSTALL_FILE, `${JSON.stringify({ binary: binaryPath, version: VERSION }, null, 2)}\n`);
  return files;
}

export function piExtensionDir(env: Env): string {
  return join(agentDir(env), "extensions", "shepherd");
}

export function runInitPi(opts: InitPiOptions): number {
  const write = opts.write ?? ((text: string) => process.stdout.write(text));
  const writeErr = opts.writeErr ?? ((text: string) => process.stderr.write(text));
  const dir = piExtensionDir(opts.env);
  let files: Map<string, string>;
  try {
    files = extensionFiles(opts.binaryPath);
  } catch (error) {
    writeErr(`shepherd init pi: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  if (opts.uninstall) {
    if (!existsSync(dir)) {
      write(`Shepherd is not installed in pi (${dir} does not exist); nothing to do.\n`);
      return 0;
    }
    for (const name of files.keys()) rmSync(join(dir, name), { force: true });
    // Only an empty folder goes: anything a person put there stays.
    const left = listDir(dir);
    if (left.length === 0) rmdirSync(dir);
    write(`Removed the Shepherd pi extension from ${dir}${left.length > 0 ? ` (left ${left.join(", ")} in place)` : ""}.\n`);
    return 0;
  }

  const result = writeChangedFiles(dir, files);
  if (!result.ok) {
    writeErr(`shepherd init pi: ${result.reason}\n`);
    return 1;
  }
  const changed = result.changed;
  if (changed.length === 0) {
    write(`The Shepherd pi extension is already installed and up to date in ${dir}.\n`);
  } else {
    write(`Installed the Shepherd pi extension in ${dir} (${changed.join(", ")}).\n`);
    write(`It starts ${opts.binaryPath} serve in each pi session. Restart pi, or run /reload in it; /shepherd shows the status.\n`);
  }
  return 0;
}

