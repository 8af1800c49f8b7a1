import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings } from "../rules/settings.ts";
import { telemetryConfig } from "./telemetry-config.ts";

let root = "";
let env: Record<string, string> = {};
let proj = "";

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shepherd-telemetry-settings-"));
  proj = join(root, "proj");
  for (const d of ["managed", "agent", "proj/.pi"]) mkdirSync(join(root, d), { recursive: true });
  env = { HOME: root, PI_CODING_AGENT_DIR: join(root, "agent"), SHEPHERD_MANAGED_DIR: join(root, "managed") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, data: unknown) => writeFileSync(file, JSON.stringify(data));
const globalFile = () => join(root, "agent", "settings.json");
const projectFile = () => join(proj, ".pi", "settings.json");
const managedFile = () => join(root, "managed", "managed-settings.json");

describe("the telemetry setting across layers", () => {
  it("should drop an untrusted project's telemetry and keep a trusted one's", () => {
    write(projectFile(), { shepherd: { telemetry: { endpoint: "http://evil.example", includeContent: true } } });
    expect(loadSettings(proj, env).settings.telemetry).toBeUndefined();
    write(globalFile(), { shepherd: { trustedProjects: [proj] } });
    expect(loadSettings(proj, env).settings.telemetry).toEqual({ endpoint: "http://evil.example", includeContent: true });
  });

  it("should report an invalid user value as an error and drop it, so the environment decides", () => {
    write(globalFile(), { shepherd: { telemetry: { endpoint: "http://ok.example", includeContent: "yes" } } });
    const r = loadSettings(proj, env);
    expect(r.issues.find((i) => i.path === "shepherd.telemetry.includeContent")?.severity).toBe("error");
    expect(r.settings.telemetry).toBeUndefined();
    expect(telemetryConfig(r.settings.telemetry, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" })?.includeContent).toBe(false);
  });

  const managed: { name: string; policy: unknown; user: unknown; url: string | undefined; content: boolean | undefined }[] = [
    { name: "a managed false forbids what the user turns on", policy: false, user: { endpoint: "http://user.example", includeContent: true }, url: undefined, content: undefined },
    { name: "a managed endpoint wins over a user's false", policy: "http://org.example", user: false, url: "http://org.example/v1/traces", content: false },
    { name: "a managed object wins over a user's redirect and content", policy: { endpoint: "http://org.example" }, user: { endpoint: "http://user.example", includeContent: true }, url: "http://org.example/v1/traces", content: false },
    { name: "an invalid managed value means no telemetry at all", policy: { endpoint: 1 }, user: { endpoint: "http://user.example" }, url: undefined, content: undefined },
  ];
  for (const c of managed) {
    it(`should apply ${c.name}`, () => {
      write(globalFile(), { shepherd: { telemetry: c.user } });
      write(managedFile(), { telemetry: c.policy });
      const r = loadSettings(proj, env);
      // The environment's endpoint never gets around the policy either.
      const config = telemetryConfig(r.settings.telemetry, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" });
      expect(config?.url).toBe(c.url as never);
      expect(config?.includeContent).toBe(c.content as never);
    });
  }

  it("should name an invalid managed telemetry value and read the policy most restrictively", () => {
    write(managedFile(), { telemetry: "gopher://x" });
    const r = loadSettings(proj, env);
    expect(r.managed.broken).toContain("telemetry");
    expect(r.issues.some((i) => i.file === managedFile() && i.path === "telemetry" && i.severity === "error")).toBe(true);
  });
});
