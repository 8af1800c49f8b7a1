import { describe, expect, it } from "bun:test";
import { DEFAULT_EXPORT_TIMEOUT_MS, DEFAULT_MAX_QUEUE, envTracesUrl, telemetryConfig, telemetryProblems, tracesUrl } from "./telemetry-config.ts";

describe("tracesUrl", () => {
  const cases: [string, string | undefined][] = [
    ["http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces"],
    ["http://127.0.0.1:4318/", "http://127.0.0.1:4318/v1/traces"],
    ["https://otel.example/prefix", "https://otel.example/prefix/v1/traces"],
    ["https://otel.example/v1/traces", "https://otel.example/v1/traces"],
    ["ftp://otel.example", undefined],
    ["not a url", undefined],
  ];
  for (const [base, want] of cases) it(`should make ${JSON.stringify(base)} ${want ?? "nothing"}`, () => expect(tracesUrl(base)).toBe(want));
});

describe("envTracesUrl", () => {
  it("should take the signal-specific endpoint as is and append the path to the generic one", () => {
    expect(envTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318" })).toBe("http://a:4318/v1/traces");
    expect(envTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:9/custom" })).toBe("http://b:9/custom");
    expect(envTracesUrl({})).toBeUndefined();
  });
});

describe("telemetryConfig", () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" };
  const base = { includeContent: false, maxQueue: DEFAULT_MAX_QUEUE, timeoutMs: DEFAULT_EXPORT_TIMEOUT_MS, headers: {} };
  const cases: { name: string; setting: unknown; env: Record<string, string>; want: Record<string, unknown> | undefined }[] = [
    { name: "off with neither setting nor environment", setting: undefined, env: {}, want: undefined },
    { name: "on by the environment alone", setting: undefined, env, want: { ...base, url: "http://env:4318/v1/traces" } },
    { name: "off by OTEL_SDK_DISABLED when only the environment turns it on", setting: undefined, env: { ...env, OTEL_SDK_DISABLED: "true" }, want: undefined },
    { name: "off by an explicit false whatever the environment says", setting: false, env, want: undefined },
    { name: "off by enabled: false", setting: { enabled: false, endpoint: "http://s:1" }, env, want: undefined },
    { name: "on at the setting's endpoint over the environment's", setting: "http://s:1", env, want: { ...base, url: "http://s:1/v1/traces" } },
    { name: "on at the environment's endpoint for true", setting: true, env, want: { ...base, url: "http://env:4318/v1/traces" } },
    { name: "on at the collector default for true with no endpoint anywhere", setting: true, env: {}, want: { ...base, url: "http://localhost:4318/v1/traces" } },
    { name: "off for an object naming no endpoint anywhere", setting: { includeContent: true }, env: {}, want: undefined },
    {
      name: "every option of the object form",
      setting: { endpoint: "http://s:1", includeContent: true, maxQueue: 10, timeoutMs: 500, headers: { "x-api-key": "k" } },
      env: {},
      want: { url: "http://s:1/v1/traces", includeContent: true, maxQueue: 10, timeoutMs: 500, headers: { "x-api-key": "k" } },
    },
    { name: "the environment's, without content, for an invalid value", setting: { endpoint: 42, includeContent: true }, env, want: { ...base, url: "http://env:4318/v1/traces" } },
  ];
  for (const c of cases) it(`should be ${c.name}`, () => expect(telemetryConfig(c.setting, c.env)).toEqual(c.want as never));
});

describe("telemetryProblems", () => {
  it("should accept the valid forms", () => {
    for (const ok of [undefined, true, false, "http://x:4318", { endpoint: "https://x", includeContent: false, maxQueue: 5 }]) expect(telemetryProblems(ok)).toEqual([]);
  });

  it("should name the key and the problem of an invalid value", () => {
    expect(telemetryProblems({ endpont: "http://x" })[0]?.message).toBe('unknown key "endpont"');
    expect(telemetryProblems({ maxQueue: 0 })[0]?.path).toBe("maxQueue");
    expect(telemetryProblems("file:///etc/passwd")[0]?.message).toContain("http:// or https:// URL");
    expect(telemetryProblems(7).length).toBeGreaterThan(0);
  });
});
