/**
 * @module entry point of the plugin worker: serves `shepherd:plugin`, imports plugin files, runs their
 * actions and checks. Plugins run here rather than on the main thread so that one stuck in a
 * synchronous loop can be terminated (with the worker) without taking the sidecar down.
 * Must be a separate entry point of `bun build --compile` (see scripts/build.ts).
 */
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import { issuePath } from "../engine/schema.ts";
import * as api from "./api.ts";
import { BUILTIN_PLUGINS } from "./builtin.ts";
import { type LoadedPlugin, PLUGIN_NAME_RE, type WorkerRequest } from "./protocol.ts";
import { normalJitPolicy } from "../jit-policy.ts";

// Plugins run for the life of a long-running face: the normal JIT policy, not a hook's (lib/jit-policy.ts).
normalJitPolicy();

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (e: MessageEvent) => void): void;
  addEventListener(type: "error" | "unhandledrejection", listener: (e: Event) => void): void;
}
const scope = globalThis as unknown as WorkerScope;

// stdout is the protocol channel of the whole process: a plugin's console.log must not corrupt it.
const toStderr = (...args: unknown[]): void => console.error(...args);
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
process.stdout.write = process.stderr.write.bind(process.stderr);

type Fn = (args: unknown) => unknown;
const FnSchema = v.custom<Fn>((x) => typeof x === "function", "must be a function");
const NameSchema = v.pipe(v.string(), v.regex(PLUGIN_NAME_RE, "names must look like line_guard (letters, digits, _ and -)"));
const DefinitionSchema = v.object({
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  actions: v.optional(v.record(NameSchema, FnSchema)),
  checks: v.optional(v.record(NameSchema, FnSchema)),
});
type Definition = v.InferOutput<typeof DefinitionSchema>;

const plugins = new Map<string, Definition>();

const bun = (globalThis as { Bun?: typeof Bun }).Bun;
if (bun) {
  const exportsObject: Record<string, unknown> = { ...api };
  bun.plugin({
    name: "shepherd-plugin-api",
    setup(build) {
      build.module("shepherd:plugin", () => ({ exports: exportsObject, loader: "object" }));
    },
  });
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name === "Error" ? "" : `${err.name}: `}${err.message}` : String(err);
  const trimmed = text.replace(/\.$/, "");
  return trimmed.length > 2_000 ? `${trimmed.slice(0, 2_000)}…` : trimmed;
}

function baseName(file: string): string {
  const name = file.split(/[\\/]/).pop() ?? file;
  return name.replace(/\.[mc]?[jt]s$/, "");
}

/** Validates a module's default export; returns the plugin or the reason it is not one. */
function register(file: string, mod: unknown): LoadedPlugin | string {
  const def = mod !== null && typeof mod === "object" ? (mod as { default?: unknown }).default : undefined;
  if (def === undefined) return "has no default export: write `export default definePlugin({ actions: {...}, checks: {...} })`";
  const parsed = v.safeParse(DefinitionSchema, def);
  if (!parsed.success) {
    const first = parsed.issues[0];
    return `default export is not a plugin definition: ${first ? `${issuePath(first) || "(value)"}: ${first.message}` : "invalid"}`;
  }
  const d = parsed.output;
  const actions = Object.keys(d.actions ?? {});
  const checks = Object.keys(d.checks ?? {});
  if (actions.length === 0 && checks.length === 0) return "defines no actions and no checks";
  plugins.set(file, d);
  return { file, name: d.name ?? baseName(file), actions, checks };
}

async function handle(req: WorkerRequest): Promise<void> {
  if (req.type === "load-builtin") {
    const loaded: LoadedPlugin[] = [];
    const errors: { file: string; message: string }[] = [];
    for (const b of BUILTIN_PLUGINS) {
      const r = register(b.file, b.module);
      if (typeof r === "string") errors.push({ file: b.file, message: r });
      else loaded.push(r);
    }
    scope.postMessage({ type: "loaded", id: req.id, plugins: loaded, errors });
    return;
  }
  if (req.type === "load") {
    let mod: unknown;
    try {
      // The one dynamic import of the code base: user plugins are only known at run time. Without Bun,
      // `shepherd:plugin` resolves only where an import map provides it (deno.json in this repo).
      mod = await import(pathToFileURL(req.file).href);
    } catch (err) {
      const hint = bun ? "" : " (outside Bun, shepherd:plugin needs an import map entry; use the compiled binary)";
      scope.postMessage({ type: "loaded", id: req.id, plugins: [], errors: [{ file: req.file, message: `failed to load: ${errorText(err)}${hint}` }] });
      return;
    }
    const r = register(req.file, mod);
    if (typeof r === "string") scope.postMessage({ type: "loaded", id: req.id, plugins: [], errors: [{ file: req.file, message: r }] });
    else scope.postMessage({ type: "loaded", id: req.id, plugins: [r], errors: [] });
    return;
  }
  const def = plugins.get(req.file);
  const fn = req.kind === "action" ? def?.actions?.[req.name] : def?.checks?.[req.name];
  if (!fn) {
    scope.postMessage({ type: "failed", id: req.id, message: `no ${req.kind} "${req.name}" in this plugin` });
    return;
  }
  let value: unknown;
  try {
    value = await fn(req.args);
  } catch (err) {
    scope.postMessage({ type: "failed", id: req.id, message: `threw ${errorText(err)}` });
    return;
  }
  try {
    scope.postMessage({ type: "result", id: req.id, value });
  } catch (err) {
    scope.postMessage({ type: "failed", id: req.id, message: `returned a value that cannot be copied out of the plugin (functions, class instances): ${errorText(err)}` });
  }
}

scope.addEventListener("message", (e: MessageEvent) => {
  // Requests come only from the registry; anything else posted here is ignored.
  const req = e.data as WorkerRequest;
  if (req === null || typeof req !== "object" || typeof req.id !== "number") return;
  handle(req).catch((err: unknown) => {
    scope.postMessage({ type: "failed", id: req.id, message: `plugin host error: ${errorText(err)}` });
  });
});

// A plugin's stray timer or promise must not kill the worker; the registry reports per-call failures.
scope.addEventListener("error", (e: Event) => {
  e.preventDefault();
  console.error(`shepherd warning: uncaught error in a plugin: ${errorText((e as ErrorEvent).error ?? (e as ErrorEvent).message)}`);
});
scope.addEventListener("unhandledrejection", (e: Event) => {
  e.preventDefault();
  console.error(`shepherd warning: unhandled rejection in a plugin: ${errorText((e as PromiseRejectionEvent).reason)}`);
});

scope.postMessage({ type: "ready" });
