/**
 * @module `shepherd init opencode [--project|--global] [--uninstall]`: writes the thin OpenCode plugin where
 * OpenCode loads plugins (`~/.config/opencode/plugin/` by default, `.opencode/plugin/` with --project): one
 * entry file `shepherd.ts` and its helpers in `shepherd/`, pointing at the binary that runs this command.
 * A second run changes nothing; uninstall removes only our files and the folders they leave empty.
 */
import { existsSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
// The plugin travels inside the compiled binary as text: OpenCode (Bun) loads it as TypeScript, unbuilt.
import * as indexText from "../../opencode-plugin/index.ts" with { type: "text" };
import * as translateText from "../../opencode-plugin/translate.ts" with { type: "text" };
import * as platformPackageText from "../../pi-extension/platform-package.ts" with { type: "text" };
import * as settingsText from "../../pi-extension/settings.ts" with { type: "text" };
import * as clientText from "../../pi-extension/sidecar-client.ts" with { type: "text" };
import * as subagentText from "../../pi-extension/subagent.ts" with { type: "text" };
import * as wireText from "../../pi-extension/wire.ts" with { type: "text" };
import { opencodePluginDir, type PluginScope } from "../adapters/hook-locations.ts";
import { embeddedText, listDir, writeChangedFiles } from "./install-files.ts";
import type { Env } from "../rules/paths.ts";
import { VERSION } from "../version.ts";

export interface InitOpenCodeOptions {
  uninstall: boolean;
  scope: PluginScope;
  cwd: string;
  /** Absolute path of the shepherd binary the plugin should start. */
  binaryPath: string;
  env: Env;
  write?: (text: string) => void;
  writeErr?: (text: string) => void;
}

/** The entry OpenCode loads; its only export is the plugin (OpenCode calls every export of a plugin file). */
export const ENTRY_FILE = "shepherd.ts";
/** Read by pi-extension/settings.ts beside the plugin's index.ts: which binary to start. */
export const INSTALL_FILE = join("shepherd", "opencode-plugin", "install.json");
const ENTRY_TEXT = `// Written by \`shepherd init opencode\`: the Shepherd guard (see shepherd/). Remove with \`shepherd init opencode --uninstall\`.
export { default } from "./shepherd/opencode-plugin/index.ts";
`;

/** What `shepherd.ts` holds when Shepherd wrote it, for `doctor`. */
export function entryText(): string {
  return ENTRY_TEXT;
}

/** The files `init opencode` writes, by path inside OpenCode's plugin folder. */
export function pluginFiles(binaryPath: string): Map<string, string> {
  const files = new Map<string, string>([[ENTRY_FILE, ENTRY_TEXT]]);
  const embedded: [string, unknown][] = [
    ["opencode-plugin/index.ts", indexText],
    ["opencode-plugin/translate.ts", translateText],
    ["pi-extension/platform-package.ts", platformPackageText],
    ["pi-extension/settings.ts", settingsText],
    ["pi-extension/sidecar-client.ts", clientText],
    ["pi-extension/subagent.ts", subagentText],
    ["pi-extension/wire.ts", wireText],
  ];
  for (const [name, module] of embedded) files.set(join("shepherd", name), embeddedText(`OpenCode plugin file ${name}`, module));
  files.set(INSTALL_FILE, `${JSON.stringify({ binary: binaryPath, version: VERSION }, null, 2)}\n`);
  return files;
}

export function runInitOpenCode(opts: InitOpenCodeOptions): number {
  const write = opts.write ?? ((text: string) => process.stdout.write(text));
  const writeErr = opts.writeErr ?? ((text: string) => process.stderr.write(text));
  const dir = opencodePluginDir(opts.scope, opts.cwd, opts.env);
  let files: Map<string, string>;
  try {
    files = pluginFiles(opts.binaryPath);
  } catch (error) {
    writeErr(`shepherd init opencode: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  if (opts.uninstall) {
    const present = [...files.keys()].filter((name) => existsSync(join(dir, name)));
    if (present.length === 0) {
      write(`Shepherd is not installed in OpenCode's plugin folder ${dir}; nothing to do.\n`);
      return 0;
    }
    for (const name of present) rmSync(join(dir, name), { force: true });
    // Only folders left empty go, deepest first: anything a person put there stays, and so does plugin/ itself.
    const left: string[] = [];
    for (const sub of [join("shepherd", "opencode-plugin"), join("shepherd", "pi-extension"), "shepherd"]) {
      const path = join(dir, sub);
      if (!existsSync(path)) continue;
      const inside = listDir(path);
      if (inside.length === 0) rmdirSync(path);
      else if (sub === "shepherd") left.push(...inside.filter((n) => n !== "opencode-plugin" && n !== "pi-extension"));
      else left.push(...inside.map((n) => join(sub, n)));
    }
    write(`Removed the Shepherd OpenCode plugin from ${dir}${left.length > 0 ? ` (left ${left.join(", ")} in place)` : ""}.\n`);
    return 0;
  }

  const result = writeChangedFiles(dir, files);
  if (!result.ok) {
    writeErr(`shepherd init opencode: ${result.reason}\n`);
    return 1;
  }
  const changed = result.changed;
  if (changed.length === 0) {
    write(`The Shepherd OpenCode plugin is already installed and up to date in ${dir}.\n`);
  } else {
    write(`Installed the Shepherd OpenCode plugin in ${dir} (${changed.length} file${changed.length === 1 ? "" : "s"}: ${changed.join(", ")}).\n`);
    write(`It starts ${opts.binaryPath} serve in each OpenCode process and guards every session there. Restart OpenCode to load it.\n`);
  }
  return 0;
}

/** The plugin folder's install pointer, for `doctor`. */
export function installFileIn(pluginDir: string): string {
  return join(pluginDir, INSTALL_FILE);
}
